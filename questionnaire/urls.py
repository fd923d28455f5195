from django.urls import path

from questionnaire import views
from questionnaire.prefill import views as prefill_views
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
    # Ahead of the wizard's steps, whose slug pattern would take "fill-from-file" too.
    path(
        "q/<uuid:draft_id>/fill-from-file/",
        prefill_views.fill_from_file,
        name="fill_from_file",
    ),
    path(
        "q/<uuid:draft_id>/fill-from-file/check/",
        prefill_views.check_file_answers,
        name="fill_from_file_check",
    ),
    path(
        "q/<uuid:draft_id>/your-words/check/",
        prefill_views.check_sentence_answers,
        name="fill_from_words_check",
    ),
    path("q/<uuid:draft_id>/<slug:step>/", wizard_view, name="step"),
]
