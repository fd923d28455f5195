"""Records one made-up actual run on the first demo submission that is sized (``load_demo``
calls it by name): the admin's chart of estimate against actual and the calibration report then
have something to show. The run is marked ``demo`` and never counted as evidence."""

from django.core.management.base import BaseCommand

from pipeline.measured import record_demo_actual
from questionnaire.demo import SCENARIOS
from questionnaire.models import Submission


class Command(BaseCommand):
    help = "Record a demo actual run on a sized demo submission (idempotent)."

    def handle(self, *args, **options):
        emails = [scenario.contact.email for scenario in SCENARIOS]
        for submission in Submission.objects.filter(contact_email__in=emails).order_by("id"):
            run = record_demo_actual(submission)
            if run is not None:
                self.stdout.write(
                    f"Demo actual run on {submission.reference}: {run.gpu_hours:,.0f} "
                    "accelerator-hours (made up, marked demo)"
                )
                return
        self.stdout.write("No demo submission is sized yet: no demo actual run recorded.")
