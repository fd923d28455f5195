"""Loads demo data for a local run and prints the demo staff login."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

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
DEMO_PASSWORD = "demo-staff-password"  # noqa: S105 - printed on purpose; local demo only


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

    def handle(self, *args, **options):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        for scenario in SCENARIOS:
            submission, made = load_scenario(scenario)
            verb = "Created" if made else "Already there:"
            self.stdout.write(
                f"{verb} demo submission {submission.reference} ({submission.company})"
            )
        self.stdout.write(
            f"Demo staff login: {DEMO_USERNAME} / {DEMO_PASSWORD} at http://127.0.0.1:8000/admin/"
        )
