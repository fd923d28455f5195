from django.urls import path

from staff import downloads, measured_pages, on_screen

# Mounted at /proposals/ (config/urls.py): the only way a proposal PDF leaves private storage,
# and the proposal on screen (staff/on_screen.py).
app_name = "proposals"

urlpatterns = [
    # The proposal on screen, for the customer whose browser holds the questionnaire (or staff).
    path("yours/<uuid:draft_id>/", on_screen.customer_web_proposal, name="customer_web"),
    # Measured reality: the verification kit, its results and actual runs (issue 30).
    path("hardware/<uuid:draft_id>/", measured_pages.hardware_page, name="hardware"),
    path(
        "hardware/<uuid:draft_id>/verify_hardware.py",
        measured_pages.download_kit,
        name="verification_kit",
    ),
    path(
        "<uuid:public_id>/v<int:version>.pdf",
        downloads.download_proposal,
        name="download_proposal",
    ),
    path("shared/<str:signed>/", on_screen.shared_web_proposal, name="shared_proposal"),
    path("shared/<str:signed>/proposal.pdf", downloads.shared_proposal_pdf, name="shared_pdf"),
]
