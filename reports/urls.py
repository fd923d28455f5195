from django.urls import path

from reports import views

app_name = "reports"

urlpatterns = [
    path(
        "<uuid:public_id>/v<int:version>.pdf",
        views.download_proposal,
        name="download_proposal",
    ),
    path("shared/<str:signed>/", views.shared_proposal, name="shared_proposal"),
]
