from django.urls import path

from staff import downloads

# Mounted at /proposals/ (config/urls.py): the only way a proposal PDF leaves private storage.
app_name = "proposals"

urlpatterns = [
    path(
        "<uuid:public_id>/v<int:version>.pdf",
        downloads.download_proposal,
        name="download_proposal",
    ),
    path("shared/<str:signed>/", downloads.shared_proposal, name="shared_proposal"),
    path("shared/<str:signed>/proposal.pdf", downloads.shared_proposal_pdf, name="shared_pdf"),
]
