"""The questionnaire's pages as several drafts see them, written out to compare two versions.

    DATABASE_URL=postgres://root@127.0.0.1:5432/<db> CACHE_URL=redis://127.0.0.1:6379/<n> \\
        .venv/bin/python benchmarks/page_html.py /tmp/pages-new
    # then this file copied into another checkout's benchmarks/ (it imports that checkout's
    # code), run there into /tmp/pages-old, and:
    diff -r /tmp/pages-old /tmp/pages-new

Renders, in one process and as the load test's server runs (``wizard_steps.py``'s production
settings), every step of: two empty drafts (the second one's pages may come from what the first
laid out), a partly answered one (also with ``?change=1`` and its review page), one with errors
on every question and the contact details, two on the short path (one with an error in the
folded parts), three with the runs a month given on "Time and deadlines" (the roadmap's hint),
and one with answers marked as filled from a file or the customer's words. A page is written
with its CSRF token, CSP nonce, draft id and tooltip ids (``tip-<term>-<anything>``) set aside;
a redirect as its status and target. Every page is also checked as rendered: each ``id`` once,
and every ``aria-controls``, ``aria-describedby``, ``aria-labelledby``, ``for``, ``list`` and
``href="#..."`` naming an id of the page. The drafts are deleted afterwards.
"""

from __future__ import annotations

import re
import sys
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

# the production settings of the load test's server, and django.setup()
import wizard_steps  # noqa: F401
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from questionnaire.models import Draft, Submission
from questionnaire.questions import DISCOVERY, QUESTIONS

STEPS = ["welcome", DISCOVERY.slug, *(q.slug for q in QUESTIONS), "contact"]
MARKUP = "<b>\"bold\"</b> & 'quoted' 12"
ID = re.compile(r'\bid="([^"]*)"')
REFERENCES = [
    re.compile(r'\b(?:aria-controls|aria-describedby|aria-labelledby)="([^"]*)"'),
    re.compile(r'\bfor="([^"]*)"'),
    re.compile(r'\bhref="#([^"]+)"'),
    re.compile(r'\blist="([^"]*)"'),
]


class Run:
    """Where the pages go, and what was found on them."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.pages = 0
        self.problems: list[str] = []
        self.drafts: list[uuid.UUID] = []

    def check_ids(self, name: str, html: str) -> None:
        ids = Counter(ID.findall(html))
        self.problems += [f"{name}: id {i!r} {n} times" for i, n in ids.items() if n > 1]
        for reference in REFERENCES:
            for names in reference.findall(html):
                missing = [ref for ref in names.split() if ref not in ids]
                self.problems += [f"{name}: no id {ref!r} on the page" for ref in missing]


def normalised(html: str, draft_id: uuid.UUID) -> str:
    html = html.replace(draft_id.hex, "DRAFTHEX").replace(str(draft_id), "DRAFTID")
    html = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+"', r'\1CSRF"', html)
    html = re.sub(r'nonce="[^"]+"', 'nonce="NONCE"', html)
    return re.sub(r"\b(tip-[a-z0-9-]+?)-[0-9a-f]+\b", r"\1-ID", html)


class Customer:
    """One draft of a scenario, its pages written in the order asked."""

    def __init__(self, run: Run, scenario: str) -> None:
        self.run, self.scenario = run, scenario
        self.client = Client()
        self.count = 0
        response = self.client.post(reverse("questionnaire:start"))
        self.draft_id = uuid.UUID(response["Location"].split("/")[2])
        run.drafts.append(self.draft_id)

    def url(self, step: str) -> str:
        return reverse("questionnaire:step", kwargs={"draft_id": self.draft_id, "step": step})

    def keep(self, label: str, response: Any) -> None:
        self.count += 1
        if response.status_code != 200:
            body = f"status {response.status_code} -> {response.get('Location', '')}\n"
        else:
            body = response.content.decode()
            self.run.check_ids(f"{self.scenario}/{label}", body)
            self.run.pages += 1
        path = self.run.out / self.scenario / f"{self.count:03d}_{label}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(normalised(body, self.draft_id))

    def get(self, step: str, query: str = "") -> None:
        label = f"GET_{step}{'_change' if query else ''}"
        self.keep(label, self.client.get(self.url(step) + query))

    def post(self, step: str, data: dict[str, Any]) -> None:
        payload = {
            f"questionnaire_{self.draft_id.hex}-current_step": step,
            **{f"{step}-{k}": v for k, v in data.items()},
        }
        self.keep(f"POST_{step}", self.client.post(self.url(step), payload))

    def get_all(self) -> None:
        for step in STEPS:
            self.get(step)


def example(slug: str) -> dict[str, Any]:
    return dict(next(q for q in QUESTIONS if q.slug == slug).example.data)


def scenarios(run: Run) -> None:
    # 1, 2: two empty drafts, every step (the second after the first: a cache would answer it)
    for n in (1, 2):
        Customer(run, f"empty{n}").get_all()
    # 3: partly answered, on the detailed path; then every step, and some with ?change=1
    customer = Customer(run, "partial")
    customer.post("welcome", {})
    customer.post("discovery", {"use_case": "Fine-tune <b>x</b>", "setup_known": "yes"})
    for q in QUESTIONS[:6]:
        customer.post(q.slug, example(q.slug))
    customer.post(QUESTIONS[6].slug, {"not_sure": "on", "notes": MARKUP})
    customer.get_all()
    for step in ("model", "batch", "roadmap", "contact"):
        customer.get(step, "?change=1")
    customer.get("review")
    # 4: errors: every field given markup, and an empty page posted
    customer = Customer(run, "errors")
    customer.post("welcome", {})
    for q in QUESTIONS:
        customer.post(q.slug, {name: MARKUP for name in q.form_class.base_fields})
        customer.post(q.slug, {})
    customer.post("contact", {"email": MARKUP})
    customer.post("contact", {})
    customer.get_all()
    # 5: the short path (key fields first, the rest folded), one page with an error in a fold
    for n in (1, 2):
        customer = Customer(run, f"short{n}")
        customer.post("welcome", {})
        customer.post("discovery", {"setup_known": "no"})
        customer.get_all()
        customer.post("model", {"model_name": "x", "active_params": MARKUP})
        customer.post("data", {"dataset_unit": "tokens", "notes": "n"})
        customer.get("model")
        customer.get("data")
    # 6: the roadmap's hint from the timeline's runs a month, two runs a month in three drafts
    for n, runs in ((1, "4"), (2, "6"), (3, "4")):
        customer = Customer(run, f"roadmap{n}")
        customer.post("timeline", {**example("timeline"), "runs_per_month": runs})
        customer.get("roadmap")
        customer.get("timeline")
    # 7: answers filled from a file or the sentence, marked while they hold the value filled
    customer = Customer(run, "prefilled")
    draft = Draft.objects.get(pk=customer.draft_id)
    model = example("model")
    draft.step_data = {
        "model": {f"model-{k}": [v] for k, v in model.items()},
        "batch": {"batch-notes": ["kept"]},
    }
    draft.prefilled = {
        "model": {
            "model_name": {"from": "file", "values": [model["model_name"]]},
            "total_params": {"from": "words", "values": [model["total_params"]]},
        },
        "batch": {"notes": {"from": "words", "values": ["other"]}},
        "method": {"method": {"from": "file", "values": ["full"]}},
    }
    draft.save()
    customer.get_all()


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    run = Run(Path(sys.argv[1]))
    call_command("migrate", verbosity=0)
    try:
        scenarios(run)
    finally:
        Submission.objects.filter(draft_id__in=run.drafts).delete()
        Draft.objects.filter(pk__in=run.drafts).delete()
    for problem in run.problems:
        print("PROBLEM", problem)
    print(f"{run.pages} pages written to {run.out}; {len(run.problems)} id problems")


if __name__ == "__main__":
    main()
