"""The review page ("check your answers") and sending it, for a fixed set of drafts: what each
renders, to compare two revisions byte for byte, and what each costs in CPU.

    DATABASE_URL=postgres://root@127.0.0.1:5432/review_bench CACHE_URL=redis://127.0.0.1:6379/8 \\
        .venv/bin/python benchmarks/review_pages.py --out /tmp/review-new --repeat 20
    diff -r /tmp/review-old /tmp/review-new      # the same command run on the other revision

Each draft (answered with the questions' examples, "not sure yet", the load test's mix, errors,
unanswered pages, the short path with and without kept set-up answers, answers filled from the
customer's words, markup in the notes, no contact details...) gets a new questionnaire of its
own, its step data written to the row as the wizard stores it. Written to ``--out``, one file
each: the review page (GET), then what sending it (POST) answers, the page that answer leads to
(the step to fix, or the confirmation) and the answers stored by a send, all with the CSRF
token, the CSP nonce, the draft's id, tooltip ids and the reference number replaced by fixed words, so two
revisions' files differ only where the customer would see a difference.

``--repeat N`` then times N more GETs of each review page (its sizing already in the cache, so
the page's own cost) and N sends of copies of each draft, in CPU time of this process, and
prints the median of each. ``--profile get|post`` adds a cProfile of those requests.
Production settings, as ``wizard_steps.py``; the drafts made are deleted afterwards.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import json
import pstats
import re
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from wizard_steps import CONTACT, REVIEW, answers_for  # noqa: E402  (sets Django up)

from questionnaire.models import Draft, Submission  # noqa: E402
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, QUESTIONS  # noqa: E402

Pages = dict[str, dict[str, Any]]  # {step: form data without the step's prefix}

CONTACT_DATA = {
    "name": "Ada Review",
    "email": "ada@review.example",
    "company": "Review & Sons <Ltd>",
    "role": "Head of ML",
    "country": "Germany",
    "consent": "on",
}


def _examples(**changed: dict[str, Any]) -> Pages:
    """Every question answered with its example, the contact given; ``changed`` pages replaced
    (an empty dict: the page never visited)."""
    pages: Pages = {q.slug: dict(q.example.data) for q in QUESTIONS}
    pages[CONTACT] = dict(CONTACT_DATA)
    pages.update(changed)
    return {step: data for step, data in pages.items() if data}


def _not_sure(*slugs: str) -> Pages:
    return {slug: {"not_sure": "on"} for slug in slugs}


def _mixed(marker: str) -> Pages:
    """The load test's customer (``wizard_steps.answers_for``): examples or "not sure"."""
    posted = answers_for(marker)
    return {step: data for step, data in posted.items() if data}


_PAST = (datetime.date.today() - datetime.timedelta(days=30)).isoformat()
_SHORT_PATH = {**DISCOVERY.example.data, "setup_known": "no"}
_NOT_SURE_PATH = {**DISCOVERY.example.data, "setup_known": "not_sure", "constraint": "budget"}

# name: (pages, prefilled marks)
DRAFTS: dict[str, tuple[Pages, dict[str, Any]]] = {
    "examples": (_examples(), {}),
    "examples-discovery-yes": (
        _examples(discovery={**DISCOVERY.example.data, "setup_known": "yes"}),
        {},
    ),
    "all-not-sure": (
        {**_not_sure(*(q.slug for q in QUESTIONS)), CONTACT: dict(CONTACT_DATA)},
        {},
    ),
    "mixed-a": (_mixed("REVIEW-A"), {}),
    "mixed-b": (_mixed("REVIEW-B"), {}),
    "mixed-c": (_mixed("REVIEW-C"), {}),
    "set-by-project": (
        _examples(
            discovery={"constraint": "budget", "use_case": "Pretrain a small model"},
            **_not_sure("resilience", "network"),
        ),
        {},
    ),
    "partly-not-sure": (
        _examples(
            model={"model_name": "Llama 3.1 8B", "not_sure": "on"},
            data={"dataset_size": "2T tokens", "not_sure": "on", "notes": "line one\nline two"},
        ),
        {},
    ),
    "errors": (
        _examples(
            model={"total_params": "lots of", "notes": "<b>bold</b>"},
            timeline={"deadline": _PAST, "runs_per_month": "10"},
            data={"dataset_size": "2 billion"},
            batch={"sequence_length": "4k", "global_batch": "4M tokens", "global_batch_unit": "x"},
            teams={"notes": ""},
            network={},
            storage={},
            contact={**CONTACT_DATA, "email": "not an address"},
        ),
        {},
    ),
    "one-error": (_examples(roadmap={"budget_years": "many"}), {}),
    "unanswered": (
        {slug: dict(q.example.data) for q in QUESTIONS[:4] for slug in [q.slug]},
        {},
    ),
    "empty": ({"welcome": {}}, {}),
    "no-contact": (_examples(contact={}), {}),
    "short-path": (_examples(discovery=_SHORT_PATH, **{slug: {} for slug in EXPERT_SLUGS}), {}),
    "short-path-kept": (
        _examples(
            discovery=_NOT_SURE_PATH,
            batch={"sequence_length": "lots"},  # invalid: not kept
            network={"not_sure": "on"},  # "not sure" only: ours, not kept
        ),
        {},
    ),
    "short-path-errors": (
        _examples(
            discovery=_SHORT_PATH,
            model={"total_params": "huge"},
            method={},
            **{slug: {} for slug in EXPERT_SLUGS[1:]},
        ),
        {},
    ),
    "prefilled": (
        _examples(discovery={**DISCOVERY.example.data, "setup_known": "yes"}),
        {
            "model": {
                "model_name": {"values": ["Llama 3.1 8B"], "from": "words"},
                "total_params": {"values": ["8B"], "from": "file"},
                "architecture": {"values": ["moe"], "from": "file"},  # changed since: unmarked
            },
            "data": {"dataset_size": {"values": ["400,000 documents"], "from": "words"}},
            "discovery": {
                "use_case": {"values": [DISCOVERY.example.data["use_case"]], "from": "words"}
            },
        },
    ),
}


def step_data(pages: Pages) -> dict[str, dict[str, list[str]]]:
    """The wizard's stored shape: ``{step: {"<step>-<field>": [values]}}``."""
    return {
        step: {
            f"{step}-{key}": [str(v) for v in (value if isinstance(value, list) else [value])]
            for key, value in data.items()
        }
        for step, data in pages.items()
    }


_UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')
_NONCE = re.compile(r'(nonce=")[^"]*"')
_REFERENCE = re.compile(r"TQ-\d{4}-\d{5}")
_TOOLTIP = re.compile(r"(tip-[a-z0-9-]+)-[0-9a-f]{8}")  # a new id on every page


def normalised(text: str) -> str:
    text = _CSRF.sub(r'\1CSRF"', text)
    text = _NONCE.sub(r'\1NONCE"', text)
    text = _REFERENCE.sub("TQ-REFERENCE", text)
    text = _TOOLTIP.sub(r"\1-ID", text)
    return _UUID.sub("UUID", text)


class Questionnaire:
    """One customer's questionnaire, its step data written as the wizard stores it."""

    def __init__(self, pages: Pages, prefilled: dict[str, Any]) -> None:
        self.client = Client()
        response = self.client.post(reverse("questionnaire:start"))
        self.draft_id = uuid.UUID(response["Location"].split("/")[2])
        Draft.objects.filter(pk=self.draft_id).update(
            step_data=step_data(pages), prefilled=prefilled, current_step=REVIEW
        )
        self.url = reverse("questionnaire:step", kwargs={"draft_id": self.draft_id, "step": REVIEW})

    def get(self) -> Any:
        return self.client.get(self.url)

    def send(self) -> Any:
        management = f"questionnaire_{self.draft_id.hex}-current_step"
        return self.client.post(self.url, {management: REVIEW})


def record(name: str, pages: Pages, prefilled: dict[str, Any], out: Path) -> list[uuid.UUID]:
    """Write the draft's review page, what sending it answers and where that leads."""
    customer = Questionnaire(pages, prefilled)
    review = customer.get()
    sent = customer.send()
    location = sent.get("Location", "")
    parts = [
        f"GET review: {review.status_code}\n{review.content.decode()}",
        f"POST review: {sent.status_code} -> {location}",
    ]
    if location:
        parts.append(f"GET {location}\n{customer.client.get(location).content.decode()}")
    submission = Submission.objects.filter(draft_id=customer.draft_id).first()
    if submission is not None:
        parts.append(json.dumps(submission.answers, indent=1, sort_keys=True))
    (out / f"{name}.html").write_text(normalised("\n\n".join(parts)))
    return [customer.draft_id]


def timed(
    pages: Pages, prefilled: dict[str, Any], repeat: int, profiler: cProfile.Profile | None
) -> tuple[list[float], list[float], list[uuid.UUID]]:
    """CPU ms of ``repeat`` GETs of one review page after a first, and of ``repeat`` sends of
    copies of it (each after one GET, as a customer sends from the page)."""
    gets: list[float] = []
    posts: list[float] = []
    made: list[uuid.UUID] = []
    customer = Questionnaire(pages, prefilled)
    made.append(customer.draft_id)
    customer.get()  # sized once: the cache holds it from here on
    for _ in range(repeat):
        gets.append(_cpu(customer.get, profiler if profiler and profiler.what == "get" else None))
    for _ in range(repeat):
        copy = Questionnaire(pages, prefilled)
        made.append(copy.draft_id)
        copy.get()
        posts.append(_cpu(copy.send, profiler if profiler and profiler.what == "post" else None))
    return gets, posts, made


def _cpu(request: Any, profiler: cProfile.Profile | None) -> float:
    started = time.process_time()
    if profiler:
        profiler.enable()
    request()
    if profiler:
        profiler.disable()
    return (time.process_time() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write each draft's pages here")
    parser.add_argument("--repeat", type=int, default=0, help="time this many requests each")
    parser.add_argument("--only", default="", help="only the drafts whose name contains this")
    parser.add_argument("--profile", choices=("get", "post"), help="cProfile those requests")
    parser.add_argument("--profile-out", type=Path, help="and keep that profile in this file")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database of your own")
    call_command("migrate", verbosity=0)
    drafts = {name: spec for name, spec in DRAFTS.items() if args.only in name}
    made: list[uuid.UUID] = []
    profiler: Any = None
    if args.profile:
        profiler = cProfile.Profile()
        profiler.what = args.profile
    try:
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            for name, (pages, prefilled) in drafts.items():
                made += record(name, pages, prefilled, args.out)
            print(f"{len(drafts)} drafts written to {args.out}")
        if args.repeat:
            timed(*drafts[next(iter(drafts))], 1, None)  # warm-up: imports, templates
            all_gets, all_posts = [], []
            print(f"{'draft':<24}{'GET CPU ms':>11}{'POST CPU ms':>12}  (medians of {args.repeat})")
            for name, (pages, prefilled) in drafts.items():
                gets, posts, drafts_made = timed(pages, prefilled, args.repeat, profiler)
                made += drafts_made
                all_gets.append(statistics.median(gets))
                all_posts.append(statistics.median(posts))
                print(f"{name:<24}{all_gets[-1]:>11.2f}{all_posts[-1]:>12.2f}")
            print(
                f"{'mean of medians':<24}{statistics.mean(all_gets):>11.2f}"
                f"{statistics.mean(all_posts):>12.2f}"
            )
    finally:
        Submission.objects.filter(draft_id__in=made).delete()
        Draft.objects.filter(pk__in=made).delete()
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
        if args.profile_out:
            stats.dump_stats(args.profile_out)
        stats.print_stats(70)
        print(out.getvalue())


if __name__ == "__main__":
    main()
