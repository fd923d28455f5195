"""Loads demo data for a local run and prints the demo staff login.

With debug off it refuses unless told ``--allow-production``, and then the demo login gets no
usable password (set one with ``changepassword``): a superuser whose password is printed in a
README must never exist on a real deployment.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from questionnaire.demo import SCENARIOS, Scenario
from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS
from questionnaire.services import (
    save_step,
    start_draft,
    step_data_from_answer_data,
    submit_answers,
)

DEMO_USERNAME = "demo-staff"
DEMO_PASSWORD = "demo-staff-password"  # noqa: S105 - printed on purpose; debug only


def load_scenario(scenario: Scenario) -> tuple[Submission, bool]:
    """Submit one scenario through the real services, once: (submission, created)."""
    existing = Submission.objects.filter(contact_email=scenario.contact.email).first()
    if existing is not None:
        return existing, False
    draft = start_draft()
    for question in QUESTIONS:
        data = step_data_from_answer_data(question.slug, scenario.answers[question.slug])
        draft = save_step(draft=draft, step=question.slug, data=data, current_step=question.slug)
    return submit_answers(draft=draft, contact=scenario.contact), True


class Command(BaseCommand):
    help = "Create the demo staff login and the four demo submissions (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Run with DJANGO_DEBUG off; the demo login then gets no usable password.",
        )

    def handle(self, *args, **options):
        production = not settings.DEBUG
        if production and not options["allow_production"]:
            raise CommandError(
                "load_demo creates a demo superuser; with DJANGO_DEBUG off it runs only with "
                "--allow-production."
            )
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            if production:
                user.set_unusable_password()
            else:
                user.set_password(DEMO_PASSWORD)
            user.save()
        for scenario in SCENARIOS:
            submission, made = load_scenario(scenario)
            verb = "Created" if made else "Already there:"
            self.stdout.write(
                f"{verb} demo submission {submission.reference} ({submission.company})"
            )
        # The pipeline's command, by name (imports point down; messages may point up): one
        # made-up actual run, marked as a demo, for the chart of estimate against actual.
        call_command("load_demo_actuals", stdout=self.stdout)
        if production:
            self.stdout.write(
                f"Demo staff login {DEMO_USERNAME} has no password: set one with "
                f"`python manage.py changepassword {DEMO_USERNAME}`."
            )
        else:
            self.stdout.write(
                f"Demo staff login: {DEMO_USERNAME} / {DEMO_PASSWORD} "
                "at http://127.0.0.1:8000/admin/\n"
                "  After the password, staff sign-in asks for a second factor: the first time, "
                "scan the QR code shown (or type its secret) into an authenticator app, confirm "
                "with the code it shows, and keep the recovery codes. Lost it? "
                f"`python manage.py reset_second_factor {DEMO_USERNAME}`."
            )
