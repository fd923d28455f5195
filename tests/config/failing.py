"""A view and a task that fail, for the error-report tests (tests/config/test_error_reports.py)."""

from django.urls import path

from config.celery import app
from config.urls import urlpatterns as site_urlpatterns


def view_on_fire(request, token: str):
    raise RuntimeError("view on fire")


@app.task(name="tests.task_on_fire")
def task_on_fire() -> None:
    raise RuntimeError("task on fire")


# First the failing view, then the site's own (its error page links to them).
urlpatterns = [path("proposals/shared/<str:token>/fire/", view_on_fire), *site_urlpatterns]
