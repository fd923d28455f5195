from django.urls import path

from staff import downloads, on_screen

# Mounted at /proposals/ (config/urls.py): the only way a proposal PDF leaves private storage,
# and the proposal on screen (staff/on_screen.py).
app_name = "proposals"

urlpatterns = [
    # The proposal on screen, for the customer whose browser holds the questionnaire (or staff).
    path("yours/<uuid:draft_id>/", on_screen.customer_web_proposal, name="customer_web"),
    path(
        "<uuid:public_id>/v<int:version>.pdf",
        downloads.download_proposal,
        name="download_proposal",
    ),
    path("shared/<str:signed>/", on_screen.shared_web_proposal, name="shared_proposal"),
    path("shared/<str:signed>/proposal.pdf", downloads.shared_proposal_pdf, name="shared_pdf"),
]
