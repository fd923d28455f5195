"""Check a load run: latencies from locust's CSVs, answers and proposals from the database.

    .venv/bin/python benchmarks/load/check.py --out var/load/<run> --phases a
    .venv/bin/python benchmarks/load/check.py --out var/load/<run> --phases c-baseline,c-burst \
        --proposals --baseline c-baseline --compare c-burst

Needs the same environment as the server (``DATABASE_URL`` …); ``run.py`` passes it. Targets
(issue 6): no failed request; per step p95 <= 300 ms and p99 <= 600 ms; every marker that a
customer finished is in exactly one Submission whose answers are exactly what was posted;
with ``--proposals``, every such submission has exactly one Recommendation and one Proposal,
both done, and the PDF on disk. Prints a table with PASS/FAIL; exit 1 on any FAIL.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import OperationalError, connection  # noqa: E402
from django.db.models import Count, Max, Min  # noqa: E402

from pipeline.models import Proposal, Recommendation  # noqa: E402
from questionnaire.models import Submission  # noqa: E402
from questionnaire.questions import PAGES, QUESTIONS  # noqa: E402

P95_TARGET_MS = 300
P99_TARGET_MS = 600
# "Web p95 unaffected" by the PDF burst: within this factor of the baseline, or this many ms.
BURST_P95_FACTOR = 1.25
BURST_P95_SLACK_MS = 50
MARKER_RE = re.compile(r"\b[A-Z]+-[0-9a-f]{16}\b")
CONTACT_FIELDS = {
    "name": "contact_name",
    "email": "contact_email",
    "company": "company",
    "role": "contact_role",
    "country": "country",
}


class Report:
    def __init__(self) -> None:
        self.checks: list[tuple[str, bool, str]] = []

    def add(self, name: str, ok: bool, detail: str = "") -> None:
        self.checks.append((name, ok, detail))
        print(f"  {'PASS' if ok else 'FAIL'}  {name}{f'  ({detail})' if detail else ''}")

    @property
    def ok(self) -> bool:
        return all(ok for _, ok, _ in self.checks)


# --- latencies ---------------------------------------------------------------------------------


def read_stats(out: Path, phase: str) -> list[dict[str, Any]]:
    rows = []
    with (out / f"{phase}_stats.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            rows.append(
                {
                    "name": row["Name"],
                    "method": row["Type"],
                    "count": int(row["Request Count"]),
                    "failures": int(row["Failure Count"]),
                    "p50": _ms(row["50%"]),
                    "p95": _ms(row["95%"]),
                    "p99": _ms(row["99%"]),
                    "max": _ms(row["Max Response Time"]),
                    "rps": float(row["Requests/s"]),
                }
            )
    return rows


def _ms(value: str) -> float:
    return float(value) if value not in ("", "N/A") else 0.0


def check_latencies(phase: str, rows: list[dict[str, Any]], report: Report) -> None:
    print(
        f"\n{phase}: per-step latency [ms] (targets p95 <= {P95_TARGET_MS}, p99 <= {P99_TARGET_MS})"
    )
    print(
        f"  {'step':<26}{'count':>7}{'fail':>6}{'p50':>7}{'p95':>7}{'p99':>7}{'max':>8}{'req/s':>8}"
    )
    for row in rows:
        mark = ""
        if row["name"] != "Aggregated" and (
            row["p95"] > P95_TARGET_MS or row["p99"] > P99_TARGET_MS
        ):
            mark = "  <- over target"
        print(
            f"  {row['name']:<26}{row['count']:>7}{row['failures']:>6}{row['p50']:>7.0f}"
            f"{row['p95']:>7.0f}{row['p99']:>7.0f}{row['max']:>8.0f}{row['rps']:>8.1f}{mark}"
        )
    steps = [row for row in rows if row["name"] != "Aggregated"]
    failures = sum(row["failures"] for row in steps)
    report.add(f"{phase}: no failed request", failures == 0, f"{failures} failed")
    slow95 = [row["name"] for row in steps if row["p95"] > P95_TARGET_MS]
    slow99 = [row["name"] for row in steps if row["p99"] > P99_TARGET_MS]
    report.add(f"{phase}: p95 <= {P95_TARGET_MS} ms on every step", not slow95, ", ".join(slow95))
    report.add(f"{phase}: p99 <= {P99_TARGET_MS} ms on every step", not slow99, ", ".join(slow99))


def check_burst_effect(baseline: list[dict], burst: list[dict], report: Report) -> None:
    before = next(row for row in baseline if row["name"] == "Aggregated")["p95"]
    during = next(row for row in burst if row["name"] == "Aggregated")["p95"]
    allowed = max(before * BURST_P95_FACTOR, before + BURST_P95_SLACK_MS)
    report.add(
        "c: web p95 with the worker rendering is unaffected",
        during <= allowed,
        f"all steps p95 {before:.0f} ms without renders, {during:.0f} ms with; "
        f"allowed {allowed:.0f} ms",
    )


# --- answers -----------------------------------------------------------------------------------


def read_markers(out: Path, phase: str) -> list[dict[str, Any]]:
    path = out / f"{phase}-markers.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def expected_answer(form_class, data: dict[str, Any]) -> dict[str, Any] | None:
    form = form_class(data=data)
    if not form.is_valid():
        return None
    return json.loads(json.dumps(form.to_answer()))


def answer_problems(submission: Submission, posted: dict[str, dict[str, Any]]) -> list[str]:
    """What differs between what the customer posted and what was stored."""
    problems = []
    for question in QUESTIONS:
        data = posted[question.slug]
        stored = submission.answers.get(question.slug)
        if stored is None:
            problems.append(f"{question.slug}: missing")
            continue
        if stored != expected_answer(question.form_class, data):
            problems.append(f"{question.slug}: differs from the form's answer")
        for key, value in data.items():
            field = question.form_class.base_fields[key]
            if key == "not_sure":
                got, want = stored.get("not_sure"), True
            elif hasattr(field, "kind"):  # a quantity keeps exactly what was typed
                got, want = stored.get(f"{key}_text"), value
            else:
                got, want = stored.get(key), value
            if got != want:
                problems.append(f"{question.slug}.{key}: stored {got!r}, posted {want!r}")
    for key, attribute in CONTACT_FIELDS.items():
        if getattr(submission, attribute) != posted["contact"][key]:
            problems.append(f"contact.{key}: differs")
    # jsonb keeps keys sorted, not in page order: the registry gives the order when shown.
    if set(submission.answers) != {question.slug for question in PAGES}:
        problems.append("answers are not exactly the discovery page and the fifteen questions")
    return problems


def check_answers(phases: list[str], out: Path, report: Report) -> list[int]:
    """Markers against submissions; returns the ids of the submissions found."""
    records = [record for phase in phases for record in read_markers(out, phase)]
    finished = [record for record in records if record["completed"]]
    prefixes = {phase.replace("-", "").upper() for phase in phases}
    by_marker: dict[str, set[int]] = defaultdict(set)
    submissions = {}
    for submission in Submission.objects.all().iterator():
        text = json.dumps(submission.answers, ensure_ascii=False) + submission.contact_role
        for marker in set(MARKER_RE.findall(text)):
            if marker.split("-")[0] in prefixes:
                by_marker[marker].add(submission.pk)
                submissions[submission.pk] = submission
    label = "/".join(phases)
    print(f"\n{label}: answers")
    resubmitted = sum(record.get("resubmitted_after_503", 0) for record in records)
    print(
        f"  questionnaires started {len(records)}, finished {len(finished)}, "
        f"submissions carrying a marker {len(submissions)}, "
        f"steps sent again after a 503 {resubmitted}"
    )
    report.add(
        f"{label}: every started questionnaire finished",
        len(finished) == len(records) and bool(records),
        f"{len(records) - len(finished)} unfinished",
    )
    not_once = [r["marker"] for r in finished if len(by_marker.get(r["marker"], ())) != 1]
    report.add(
        f"{label}: every marker in exactly one submission",
        not not_once,
        f"{len(finished) - len(not_once)}/{len(finished)}"
        + (f"; e.g. {not_once[0]} in {len(by_marker.get(not_once[0], ()))}" if not_once else ""),
    )
    logged = {record["marker"] for record in records}
    strays = sorted(set(by_marker) - logged)
    report.add(f"{label}: no submission without a customer behind it", not strays, str(strays[:3]))
    damaged = []
    for record in finished:
        ids = by_marker.get(record["marker"], set())
        if len(ids) != 1:
            continue
        submission = submissions[next(iter(ids))]
        problems = answer_problems(submission, record["posted"])
        if str(submission.draft_id) != record.get("draft_id"):
            problems.append("stored under another draft")
        if record.get("reference") and submission.reference != record["reference"]:
            problems.append("confirmation showed another reference")
        if problems:
            damaged.append((record["marker"], problems))
    report.add(
        f"{label}: all answers intact (posted == Submission.answers, byte for byte)",
        not damaged,
        f"{len(finished) - len(damaged)}/{len(finished)} intact"
        + (f"; {damaged[0][0]}: {damaged[0][1][:3]}" if damaged else ""),
    )
    return sorted(submissions)


# --- proposals ---------------------------------------------------------------------------------


def check_proposals(submission_ids: list[int], drain_timeout: int, report: Report) -> dict:
    print(f"\nproposals for {len(submission_ids)} submissions (waiting up to {drain_timeout} s)")
    deadline = time.monotonic() + drain_timeout
    finished_states = (Proposal.Status.DONE, Proposal.Status.FAILED)
    while True:
        try:
            settled = Proposal.objects.filter(
                submission_id__in=submission_ids, status__in=finished_states
            ).count()
            failed_sizing = Recommendation.objects.filter(
                submission_id__in=submission_ids, status=Recommendation.Status.FAILED
            ).count()
        except OperationalError as error:  # PostgreSQL restarted under us: wait and retry
            print(f"  database unavailable ({error.__class__.__name__}); retrying", flush=True)
            connection.close()
            settled = failed_sizing = -len(submission_ids)
        if settled + failed_sizing >= len(submission_ids) or time.monotonic() > deadline:
            break
        print(f"  {settled}/{len(submission_ids)} proposals settled", flush=True)
        time.sleep(10)
    recommendations = dict(
        Recommendation.objects.filter(submission_id__in=submission_ids)
        .values_list("submission_id")
        .annotate(n=Count("id"))
    )
    proposals = dict(
        Proposal.objects.filter(submission_id__in=submission_ids)
        .values_list("submission_id")
        .annotate(n=Count("id"))
    )
    done = Proposal.objects.filter(submission_id__in=submission_ids, status=Proposal.Status.DONE)
    missing_files = [p.pk for p in done if not p.pdf or not p.pdf.storage.exists(p.pdf.name)]
    not_once = [
        pk for pk in submission_ids if recommendations.get(pk) != 1 or proposals.get(pk) != 1
    ]
    not_ready = Submission.objects.filter(pk__in=submission_ids).exclude(
        pipeline_status=Submission.PipelineStatus.READY
    )
    report.add(
        "c: exactly one Recommendation and one Proposal per submission",
        not not_once,
        f"{len(submission_ids) - len(not_once)}/{len(submission_ids)}",
    )
    report.add(
        "c: every proposal done with its PDF in storage, submission ready",
        done.count() == len(submission_ids) and not missing_files and not not_ready.exists(),
        f"{done.count()} done, {len(missing_files)} without file, {not_ready.count()} not ready",
    )
    times = Submission.objects.filter(pk__in=submission_ids).aggregate(
        first=Min("submitted_at"), last=Max("submitted_at")
    )
    last_pdf = done.aggregate(last=Max("finished_at"))["last"]
    retried = done.filter(attempts__gt=1).count()
    figures = {
        "submissions": len(submission_ids),
        "proposals_done": done.count(),
        "proposals_retried": retried,
        "submit_window_s": _seconds(times["first"], times["last"]),
        "drain_s_after_last_submit": _seconds(times["last"], last_pdf),
        "drain_s_after_first_submit": _seconds(times["first"], last_pdf),
    }
    print(f"  {figures}")
    return figures


def _seconds(start, end) -> float | None:
    return round((end - start).total_seconds(), 1) if start and end else None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--phases", required=True, help="comma-separated locust phase names")
    parser.add_argument("--proposals", action="store_true")
    parser.add_argument("--drain-timeout", type=int, default=900)
    parser.add_argument("--baseline", default="")
    parser.add_argument("--compare", default="")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    phases = args.phases.split(",")
    report = Report()
    stats = {phase: read_stats(args.out, phase) for phase in phases}
    for phase in phases:
        check_latencies(phase, stats[phase], report)
    if args.baseline and args.compare:
        check_burst_effect(stats[args.baseline], stats[args.compare], report)
    submission_ids = check_answers(phases, args.out, report)
    proposals = (
        check_proposals(submission_ids, args.drain_timeout, report) if args.proposals else {}
    )
    print(f"\n{'PASS' if report.ok else 'FAIL'}: {sum(ok for _, ok, _ in report.checks)}"
          f"/{len(report.checks)} checks")  # fmt: skip
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "ok": report.ok,
                    "checks": [{"name": n, "ok": ok, "detail": d} for n, ok, d in report.checks],
                    "stats": stats,
                    "proposals": proposals,
                },
                indent=2,
            )
        )
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
