"""Writes every recorded actual run beside its estimate as JSON, for the calibration report.

python manage.py export_actual_runs --output benchmarks/inputs/actual_runs.json
PYTHONPATH=. python benchmarks/calibration.py --actuals benchmarks/inputs/actual_runs.json
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from pipeline.measured import actual_runs_export
from pipeline.models import ActualRun


class Command(BaseCommand):
    help = "Write the recorded actual runs and their estimates as JSON (for benchmarks/calibration.py)."

    def add_arguments(self, parser):
        parser.add_argument("--output", type=Path, help="the file (default: standard output)")

    def handle(self, *args, **options):
        runs = ActualRun.objects.select_related("submission", "recommendation").order_by("id")
        text = json.dumps({"actual_runs": actual_runs_export(runs)}, indent=2) + "\n"
        if options["output"]:
            options["output"].write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote {options['output']}.")
        else:
            self.stdout.write(text, ending="")
