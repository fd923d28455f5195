"""Write docs/answers.md from the question registry (or check that it is up to date)."""

from django.core.management.base import BaseCommand, CommandError

from questionnaire.trace_doc import DOC_PATH, answers_markdown


class Command(BaseCommand):
    help = "Write docs/answers.md: what each answer field does, from the question registry."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="Fail if docs/answers.md is out of date."
        )

    def handle(self, *args, check: bool = False, **options):
        text = answers_markdown()
        if check:
            if not DOC_PATH.exists() or DOC_PATH.read_text() != text:
                raise CommandError(f"{DOC_PATH} is stale: run python manage.py answers_doc")
            self.stdout.write(f"{DOC_PATH} is up to date")
            return
        DOC_PATH.write_text(text)
        self.stdout.write(f"wrote {DOC_PATH}")
