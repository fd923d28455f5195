"""Every figure a customer reads of one sizing is the same on every surface, and no sentence
credits the customer with a value our engineer set (issue 24, "one room for words").

For the demo, the four scenario customers, an engineer's override and generated answers, the
test walks the real wizard to the review page, submits, sizes the submission as the pipeline
does, opens the confirmation page, renders the proposal PDF with WeasyPrint and reads its text
back (pypdf); after an engineer's override is approved it opens the status page (the same
address, now showing the checked version) and the new PDF. From the text each surface shows it
reads the figures stated on more than one of them: the accelerator and who chose it, the
accelerators one run uses and those bought (or rented), one run's time and its likely range,
the deadline and who set it, the cost headline and its likely range. They must be identical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import strip_tags
from hypothesis import HealthCheck, Phase, given, settings
from pypdf import PdfReader

from pipeline import services
from pipeline.models import Recommendation
from questionnaire.demo import SCENARIOS
from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS
from reports.demo import DEMO_FORM_DATA
from reports.document import render_data
from sizing.engine.vocabulary import value_words
from tests.questionnaire.conftest import post_step, step_url, walk_to_review
from tests.reports.test_proposal_scenarios import form_data

pytestmark = pytest.mark.django_db

_MONEY = r"\$\d[\d,]*(?:\.\d+)?(?: million| billion)?"
_TIME = r"\d[\d,.]* (?:days?|hours?|minutes?|seconds?)|under a minute"
# "about $17.77 million over 3 years …, likely $12.96 million to $22.45 million": the headline
# and the range said after it (what the headline nets may come between)
_COST = re.compile(
    rf"({_MONEY})(?: over \d+ years?)?[^$]*?(?:\(about {_MONEY}\))?, likely ({_MONEY} to {_MONEY})"
)
_DAYS = re.compile(rf"about ({_TIME})(?: \(likely ([^)]+)\))?")
_PER_RUN = re.compile(r"\b(?:[Oo]ne|[Ee]ach) run uses (\d[\d,]*) accelerators?")
# what is bought ("208 × NVIDIA H100 SXM5 80GB (26 servers of 8) bought in year 1") or rented
# ("3 cloud instances of 8 × …", "a cloud instance with 2 × …")
_BOUGHT = re.compile(r"(\d[\d,]*) × [^;(]*\([^)]*\) bought in year 1")
_RENTED = re.compile(r"(\d[\d,]*|a) cloud instances? (?:of|with) (\d+) ×")
_DEADLINE = re.compile(
    rf"((?:your deadline of|the deadline our engineer set,|the deadline we assumed,) (?:{_TIME}))"
)
_CHOSEN_BY = re.compile(r"(your choice|chosen by our engineer|chosen by us)")


@dataclass(frozen=True)
class Stated:
    """The figures one surface states, as its reader sees them ("" where it states none)."""

    cost: str
    cost_range: str
    days: str
    days_range: str
    per_run: str
    bought: str
    deadline: str
    accelerator_by: str


def _first(pattern: re.Pattern[str], text: str, group: int = 1) -> str:
    match = pattern.search(text)
    return (match.group(group) or "") if match else ""


def stated(text: str) -> Stated:
    """The figures in a surface's text (whitespace normalised), read as a person reads them."""
    text = " ".join(text.split())
    bought = _first(_BOUGHT, text)
    rented = _RENTED.search(text)
    return Stated(
        cost=_first(_COST, text),
        cost_range=_first(_COST, text, 2),
        days=_first(_DAYS, text),
        days_range=_first(_DAYS, text, 2),
        # a plan whose one run uses all it buys says no "one run uses": then they are one
        per_run=_first(_PER_RUN, text) or bought,
        bought=f"{bought} bought"
        if bought
        else f"{rented.group(1).replace('a', '1')} of {rented.group(2)} rented"
        if rented
        else "",
        deadline=_first(_DEADLINE, text),
        accelerator_by=_first(_CHOSEN_BY, text),
    )


def page_text(html: str, marker: str) -> str:
    """The visible text of a page from its figures on (``marker`` opens them)."""
    start = html.index(">", html.index(marker)) + 1  # after the tag's attributes
    return unescape(strip_tags(html[start:]))


_TAGGED = re.compile(r'data-figure-(\w+)="([^"]*)"')


def tagged(html: str, marker: str) -> dict[str, str]:
    """The figures a page tags on the element that states them (``data-figure-…``)."""
    start = html.index(marker)
    return {
        key: unescape(value) for key, value in _TAGGED.findall(html[start : html.index(">", start)])
    }


def review_and_confirmation(client: Client, answers: dict) -> tuple[str, str, Submission]:
    """Walk the wizard with ``answers`` (form data by question), read the review page, send,
    size as the pipeline does, and read the confirmation page; the figures both tag (from the
    one room, ``sizing.words.estimate.Figures``) are the same."""
    draft_id = walk_to_review(client, answers)
    review = client.get(step_url(draft_id, "review")).content.decode()
    response = post_step(client, draft_id, "review", {})
    assert response["Location"] == reverse("questionnaire:confirmation", args=[draft_id])
    submission = Submission.objects.get(draft_id=draft_id)
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    confirmation = client.get(response["Location"]).content.decode()
    review_tags = tagged(review, 'class="first-estimate-figures"')
    assert review_tags == tagged(confirmation, 'class="row sizing-summary"')
    return (
        page_text(review, 'class="first-estimate-figures"'),
        page_text(confirmation, 'class="submission-status"'),
        submission,
    )


def proposal_text(recommendation: Recommendation) -> str:
    """The proposal PDF of a sized version, as the pipeline renders it, read back; its summary
    page on (the cover states no figure)."""
    recommendation.refresh_from_db()
    rendered = render_data(services.proposal_data(recommendation))
    pages = PdfReader(BytesIO(rendered.pdf)).pages[1:]
    return "\n".join(page.extract_text() or "" for page in pages)


def assert_same(surfaces: dict[str, Stated]) -> None:
    """Every figure that more than one surface states is stated identically by all of them."""
    for name in Stated.__dataclass_fields__:
        said = {surface: getattr(figures, name) for surface, figures in surfaces.items()}
        assert len(set(said.values()) - {""}) <= 1, f"{name} differs between surfaces: {said}"


# Customer-crediting words, by the engine input an engineer may set.
CREDITS: dict[str, tuple[str, ...]] = {
    "hardware.accelerator": (
        r"[Yy]ou asked for (?:the )?{name}",
        r"{name}[^.;]{{0,40}}\byou asked for\b",
        r"{name}[^.;]{{0,5}}your choice",
    ),
    "schedule.deadline_days": (r"\byour deadline\b", r"\byour \d[\d.]*-day deadline"),
    "hardware.count": (r"\baccelerators? you gave\b",),
    "schedule.scheduler": (r"\bas you chose\b",),
}


def credited_to_the_customer(text: str, overrides: dict, accelerator: str) -> list[str]:
    """Sentences of ``text`` that credit the customer with a value our engineer set."""
    text = " ".join(text.split())
    found = []
    for section, values in overrides.items():
        for name in values:
            for pattern in CREDITS.get(f"{section}.{name}", ()):
                for match in re.finditer(pattern.format(name=re.escape(accelerator)), text):
                    found.append(text[max(0, match.start() - 80) : match.end() + 40])
    return found


def answers_of(form: dict[str, dict]) -> dict[str, dict]:
    """Form data for every question (the registry's example where ``form`` has none)."""
    return {q.slug: form.get(q.slug, q.example.data) for q in QUESTIONS}


CUSTOMERS = {
    "demo": {**{q.slug: q.example.data for q in QUESTIONS}, **DEMO_FORM_DATA},
    **{scenario.key: scenario.answers for scenario in SCENARIOS},
}


@pytest.mark.parametrize("customer", list(CUSTOMERS))
def test_the_review_confirmation_and_proposal_state_the_same_figures(customer, published):
    review, confirmation, submission = review_and_confirmation(
        Client(), answers_of(CUSTOMERS[customer])
    )
    proposal = proposal_text(submission.recommendations.get())
    surfaces = {"review": stated(review), "confirmation": stated(confirmation)}
    surfaces["proposal"] = stated(proposal)
    assert_same(surfaces)
    read = surfaces["review"]
    assert read.days and read.bought and read.accelerator_by, read  # the figures were read


# The proposal: an engineer changed the accelerator (and the deadline) after sending.
OVERRIDES = {
    "accelerator": {"hardware": {"accelerator": "h200"}},
    "accelerator and deadline": {
        "hardware": {"accelerator": "h200"},
        "schedule": {"deadline_days": 20.0},
    },
    "count and scheduler": {"hardware": {"count": 256}, "schedule": {"scheduler": "kubernetes"}},
}


@pytest.mark.parametrize("override", list(OVERRIDES))
def test_after_an_engineers_override_the_status_page_and_the_proposal_agree_and_credit_the_engineer(
    override, published, engineer_user
):
    overrides = OVERRIDES[override]
    client = Client()
    _, _, submission = review_and_confirmation(client, answers_of(CUSTOMERS["demo"]))
    checked = services.rerun_sizing(submission=submission, overrides=overrides, user=engineer_user)
    services.run_sizing(recommendation_id=checked.pk)
    Recommendation.objects.filter(pk=checked.pk).update(approved_at=checked.created_at)
    status_html = client.get(
        reverse("questionnaire:confirmation", args=[submission.draft_id])
    ).content.decode()
    assert "checked by our engineer" in status_html
    status = page_text(status_html, 'class="submission-status"')
    proposal = proposal_text(checked)
    chosen = overrides["hardware"].get("accelerator")
    accelerator = value_words("hardware.accelerator", chosen) if chosen else "(none)"
    for surface, text in (("status page", status), ("proposal", proposal)):
        credited = credited_to_the_customer(text, overrides, accelerator)
        assert not credited, f"the {surface} credits the customer: {credited}"
    surfaces = {"status": stated(status), "proposal": stated(proposal)}
    assert_same(surfaces)
    if chosen:
        assert surfaces["status"].accelerator_by == "chosen by our engineer"
    if "deadline_days" in overrides.get("schedule", {}):
        assert surfaces["status"].deadline == "the deadline our engineer set, 20 days"


@pytest.fixture
def engineer_user(django_user_model):
    return django_user_model.objects.create_user(username="engineer-words", is_staff=True)


@settings(
    max_examples=3,  # a PDF each (about 1.5 s): the scenarios above cover the usual shapes
    deadline=None,
    derandomize=True,
    phases=[Phase.generate],
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(data=form_data())
def test_generated_answers_state_the_same_figures_on_every_surface(published, data):
    review, confirmation, submission = review_and_confirmation(Client(), answers_of(data))
    proposal = proposal_text(submission.recommendations.get())
    assert_same(
        {
            "review": stated(review),
            "confirmation": stated(confirmation),
            "proposal": stated(proposal),
        }
    )
