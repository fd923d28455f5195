"""The version page: every changed figure as old → new in words, linked from the diff."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from sizing.engine.numbers import format_money
from sizing.stored_result import read_result
from tests.staff.factories import (
    make_proposal,
    make_recommendation,
    make_submission,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db


def _two_versions():
    submission = make_submission(pipeline_status="ready")
    first = make_recommendation(submission, **sized_fields())
    make_proposal(first)
    second = make_recommendation(submission, **sized_fields("a100-80gb"))
    make_proposal(second)
    return submission, first, second


def _signed_in(user) -> Client:
    client = Client()
    sign_in(client, user)
    return client


def test_the_diff_links_the_other_details_to_the_version_page(engineer):
    submission, _, second = _two_versions()
    client = _signed_in(engineer)
    page = client.get(
        reverse("admin:questionnaire_submission_change", args=[submission.pk])
    ).content.decode()
    version_page = reverse("admin:pipeline_recommendation_change", args=[second.pk])
    more = re.search(r'<p class="what-changed-more">(.*?)</p>', page, re.S)
    assert more is not None
    assert f'href="{version_page}#every-change"' in more.group(1)


def test_the_version_page_shows_every_changed_figure_in_words(engineer):
    _, first, second = _two_versions()
    client = _signed_in(engineer)
    page = client.get(
        reverse("admin:pipeline_recommendation_change", args=[second.pk])
    ).content.decode()
    changes = page[page.index('id="every-change"') :]
    changes = changes[: changes.index("</div>")]
    gpus = (read_result(first.result).gpus, read_result(second.result).gpus)
    assert re.search(
        rf"Accelerators</th><td>{gpus[0]}</td><td[^>]*>→</td><td>{gpus[1]}</td>", changes
    )
    nets = [format_money(r.result["cost"]["buy"]["net_usd"]) for r in (first, second)]
    assert (
        f"Buy, in your own data centre › Net</th><td>{nets[0]}</td>"
        f'<td aria-hidden="true">→</td><td>{nets[1]}</td>'
    ) in changes
    assert "NVIDIA H100 SXM5 80GB" in changes and "NVIDIA A100 SXM4 80GB" in changes
    # one run's accelerator-hours of the first version, in words (82 in engine 2026.12.15)
    assert f"{round(first.result['compute']['gpu_hours'])} accelerator-hours" in changes
    # a section is named as the result names it; cost words only inside the cost
    assert "<h3>Storage</h3>" in changes and "<h3>Rented storage</h3>" not in changes
    assert "Parts by year › Rented accelerator time" in changes
    # words, not engine keys or JSON
    for raw in ("net_usd", "gpus_per_job", "parts_by_year_usd", "h100-sxm", "{"):
        assert raw not in changes, raw
    # the raw JSON is still there for an engineer, folded away
    outside_details = re.sub(r"<details>.*?</details>", "", page, flags=re.S)
    assert "<pre>" not in outside_details
    assert "Result as the engine wrote it (JSON)</summary><pre>" in page
