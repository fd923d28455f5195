"""Delete won, lost and closed submissions past the retention period, with their files."""

from django.conf import settings
from django.core.management.base import BaseCommand

from staff.retention import expired_submissions, purge_closed_submissions


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="List what would be deleted; delete nothing."
        )

    def handle(self, *args, dry_run: bool = False, **options):
        days = settings.CLOSED_SUBMISSION_RETENTION_DAYS
        if dry_run:
            references = list(expired_submissions().values_list("reference", flat=True))
            for reference in references:
                self.stdout.write(reference)
            self.stdout.write(f"{len(references)} submissions closed more than {days} days ago.")
            return
        result = purge_closed_submissions()
        self.stdout.write(
            f"Deleted {result.submissions} submissions closed more than {days} days ago "
            f"and {result.files} proposal files."
        )
