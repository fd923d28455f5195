"""The Celery application; configuration comes from Django settings (CELERY_* names).

The beat schedule lives here, next to the app: the sweeper that makes the rows an outbox, and
the housekeeping jobs.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    # Re-queue sizing and render work that is pending (broker was down at submit time, a message
    # was lost with a Redis restart) or stuck past the hard time limit (a dead worker).
    "sweep-pipeline": {"task": "sizing.sweep_pipeline", "schedule": 60.0},
    # Expired sessions and abandoned drafts hold customer answers: remove them daily.
    "purge-expired-drafts-and-sessions": {
        "task": "sizing.purge_expired_drafts_and_sessions",
        "schedule": 24 * 60 * 60.0,
    },
    # Won, lost and closed submissions past CLOSED_SUBMISSION_RETENTION_DAYS, with their PDFs.
    "purge-closed-submissions": {
        "task": "staff.tasks.purge_closed_submissions_task",
        "schedule": 24 * 60 * 60.0,
    },
}
