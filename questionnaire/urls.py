from django.urls import path

from questionnaire import views
from questionnaire.wizard import wizard_view

app_name = "questionnaire"

urlpatterns = [
    path("", views.home, name="home"),
    path("glossary/", views.glossary, name="glossary"),
    path("q/start/", views.start, name="start"),
    path("q/resume/", views.resume, name="resume"),
    path("q/resume/<str:token>/", views.resume_legacy_link, name="resume_legacy"),
    path("q/<uuid:draft_id>/save/", views.save_for_later, name="save"),
    path("q/<uuid:draft_id>/confirmation/", views.confirmation, name="confirmation"),
    path("q/<uuid:draft_id>/<slug:step>/", wizard_view, name="step"),
]
