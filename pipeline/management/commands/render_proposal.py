"""Render a proposal PDF in-process: the built-in demo, or a stored submission's latest sizing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from pipeline.services import proposal_data
from pipeline.versions import latest_finished
from questionnaire.models import Submission
from reports.demo import demo_data
from reports.document import render_data
from reports.proposal_check import describe_findings


class Command(BaseCommand):
    help = (
        "Render a proposal PDF without a broker: --demo OUT.pdf for the built-in demo answers, "
        "--submission REF OUT.pdf for a stored submission's latest finished sizing. Fails "
        "(after writing the PDF) when the proposal checker finds anything."
    )

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--demo", action="store_true", help="use the built-in demo answers")
        source.add_argument("--submission", metavar="REF", help="a submission reference")
        parser.add_argument("output", type=Path, help="where to write the PDF")

    def handle(self, *args, **options):
        if options["demo"]:
            data = demo_data()
        else:
            submission = Submission.objects.filter(reference=options["submission"]).first()
            if submission is None:
                raise CommandError(f"no submission with reference {options['submission']!r}")
            recommendation = latest_finished(submission)
            if recommendation is None:
                raise CommandError(f"{submission.reference} has no finished sizing yet")
            data = proposal_data(recommendation)
        rendered = render_data(data)
        options["output"].write_bytes(rendered.pdf)
        self.stdout.write(
            f"wrote {options['output']} ({rendered.page_count} pages, {len(rendered.pdf):,} bytes)"
        )
        if rendered.findings:
            # Written anyway, so the findings can be looked at on the page they name.
            raise CommandError(describe_findings(rendered.findings))
