"""What staff read first: the summary panel, the list's columns and filters, in words."""

import pytest
from django.test import Client
from django.utils import timezone

from sizing.stored_result import read_result
from sizing.words.cost import validity_words
from staff import sending, workflow
from staff.summary import summarise
from tests.staff.factories import (
    make_proposal,
    make_recommendation,
    make_submission,
    make_user,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db
LIST = "/admin/questionnaire/submission/"


def sized_submission(**fields):
    submission = make_submission(pipeline_status="ready", **fields)
    recommendation = make_recommendation(submission, **sized_fields())
    make_proposal(recommendation)
    return submission, recommendation


def test_the_summary_panel_says_what_matters_first(engineer):
    bob = make_user("Account managers", first_name="Bob", last_name="Tester")
    submission, recommendation = sized_submission(company="Northwind Robotics", assignee=bob)
    result = read_result(recommendation.result)
    best = result.recommended_cost
    client = Client()
    sign_in(client, engineer)
    page = client.get(f"{LIST}{submission.pk}/change/").content.decode()
    panel = page[page.index('id="summary"') : page.index('class="staff-panels"')]
    assert page.index('id="summary"') < page.index('id="answers"')
    assert f"{result.gpus} × {result.accelerator_name}" in panel
    assert "version 1, not reviewed yet" in panel
    money = result.money  # the customer's currency, as the proposal writes it
    assert money(best.net_usd) in panel and best.label in panel
    assert f"likely {money(best.low_usd)} to {money(best.high_usd)}" in panel
    # until when the version's prices hold, as its proposal says (issue 28)
    until = validity_words(timezone.localdate(recommendation.finished_at))
    assert f'<dt>Prices hold until</dt><dd class="summary-prices-hold">{until}</dd>' in panel
    assert "Llama 3.1 8B · LoRA" in panel
    assert "Bob Tester" in panel
    assert "<strong>An engineer</strong>: Review version 1" in panel


def test_a_rerun_after_sending_says_which_version_the_customer_holds(engineer):
    submission, first = sized_submission()
    workflow.approve_version(submission=submission, recommendation=first, user=engineer)
    sending.send_proposal(submission=submission, recommendation=first, user=engineer, note="")
    second = make_recommendation(submission, **sized_fields("h100-sxm"))
    make_proposal(second)
    summary = summarise(submission)
    assert summary.customer_holds.startswith("The customer holds version 1 (sent ")
    assert "version 2 is newer and not approved" in summary.customer_holds
    assert summary.next_action.text == "Review version 2: approve it, or adjust and re-run."
    assert summary.status == "Proposal sent"


def test_the_list_shows_the_recommendation_in_words_its_cost_and_full_names(engineer):
    bob = make_user("Account managers", username="bob.am", first_name="Bob", last_name="Tester")
    submission, recommendation = sized_submission(assignee=bob)
    result = read_result(recommendation.result)
    client = Client()
    sign_in(client, engineer)
    page = client.get(LIST).content.decode()
    assert f"{result.gpus} × {result.accelerator_name}" in page
    assert result.money.short(result.recommended_cost.net_usd) in page
    assert "Bob Tester" in page and ">bob.am<" not in page
    assert "today" in page
    assert submission.reference in client.get(LIST, {"q": "H100"}).content.decode()
    assert submission.reference not in client.get(LIST, {"q": "MI300X"}).content.decode()


def test_assigned_to_me_and_waiting_for_my_review(engineer):
    bob = make_user("Account managers")
    mine, _ = sized_submission(assignee=bob)
    other, approved = sized_submission()
    workflow.approve_version(submission=other, recommendation=approved, user=engineer)
    unsized = make_submission(pipeline_status="sizing")

    client = Client()
    sign_in(client, bob)
    page = client.get(LIST, {"mine": "assigned"}).content.decode()
    assert mine.reference in page and other.reference not in page
    assert "Waiting for my review" not in client.get(LIST).content.decode()  # not an engineer

    sign_in(client, engineer)
    page = client.get(LIST, {"review": "waiting"}).content.decode()
    assert mine.reference in page
    assert other.reference not in page and unsized.reference not in page


def test_age_reads_in_days():
    from staff.summary import age

    submission = make_submission()
    now = submission.submitted_at
    assert age(submission, now) == "today"
    assert age(submission, now + timezone.timedelta(days=1, hours=2)) == "1 day"
    assert age(submission, now + timezone.timedelta(days=12)) == "12 days"
