"""Loads demo data for a local run and prints the demo staff login."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "demo-staff"
DEMO_PASSWORD = "demo-staff-password"  # noqa: S105 - printed on purpose; local demo only


class Command(BaseCommand):
    help = "Create the demo staff login and demo submissions (idempotent)."

    def handle(self, *args, **options):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            f"Demo staff login: {DEMO_USERNAME} / {DEMO_PASSWORD} at http://127.0.0.1:8000/admin/"
        )
