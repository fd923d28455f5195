"""Customer 6 of the shared customer scenarios, walked on the short path (issue 26): a bank in
Frankfurt. "NVIDIA only (our code is CUDA). Data must stay in Germany, no shared tenancy. LoRA
adapters on an 8B model, 200 million tokens, retrained every week."

The short path asks where the data must stay, whether the hardware must be theirs alone and
internet access (question 14, unfolded), so the first estimate on the review page and the PDF
keep the bank's rules. The story's credible answer, asserted: one node or less; a cost per run
and per month; a German region (Frankfurt) on dedicated capacity, or the bank's own data centre
when that is cheaper over three years; no purchase unless it pays within the horizon; NVIDIA only.
"""

from __future__ import annotations

import re

import pytest

from questionnaire.paths import recommends_setup
from sizing.public import read_result
from tests.e2e.sentence_walk import rendered_proposal, type_sentence, use_the_answers
from tests.e2e.test_non_expert_path import (
    continue_to_next,
    send_answers,
    walk_short_path_questions,
)
from tests.questionnaire.prefill.test_sentence import CUSTOMERS
from tests.reports.conftest import pdf_text, squash

pytestmark = pytest.mark.e2e

SENTENCE = CUSTOMERS[6]


def test_the_frankfurt_bank_keeps_germany_dedicated_and_nvidia_from_review_page_to_pdf(
    browser_page, screenshot_dir
):
    page = browser_page
    page.set_default_timeout(40_000)  # sending sizes and renders on a shared machine
    offered = type_sentence(page, SENTENCE, setup_known="not_sure")
    # (a) the check page offers every answer the sentence names
    assert offered == {
        "Total parameters": "8B",
        "How will you train?": "LoRA",
        "Size of your training data": "200 million",
        "That size is counted in": "Tokens",
        "Training runs per month": "4.3",  # every week
        "Which accelerator makers can you use?": "NVIDIA only",
        "Countries or regions your data must stay in": "Germany",
        "Must the hardware be yours alone (no sharing with others)?": "Yes",
    }, offered
    use_the_answers(page)

    def answer(slug: str) -> None:
        if slug == "deployment":
            # "yours alone" and internet access are asked unfolded, beside the residency
            alone = page.get_by_role(
                "group", name="Must the hardware be yours alone (no sharing with others)?"
            )
            assert alone.is_visible() and alone.get_by_label("Yes").is_checked()
            assert page.get_by_label("None (air-gapped)").is_visible()
            page.screenshot(path=str(screenshot_dir / "bank-deployment.png"), full_page=True)
        elif page.locator(".prefilled-note").count() == 0:  # what the sentence left open
            page.check(f"#id_{slug}-not_sure")

    asked = walk_short_path_questions(page, answer)
    assert "deployment" in asked and "software" in asked

    page.fill("#id_contact-name", "Jana Example")
    page.fill("#id_contact-email", "jana@bank.example")
    page.fill("#id_contact-company", "Example Bank AG")
    page.fill("#id_contact-country", "Germany")
    page.check("#id_contact-consent")
    continue_to_next(page)
    assert page.locator("h1").inner_text() == "Check your answers before sending"
    page.screenshot(path=str(screenshot_dir / "bank-review.png"), full_page=True)
    estimate = page.locator(".first-estimate-figures").first.inner_text()
    assert "NVIDIA" in estimate and "AMD" not in estimate, estimate
    review = page.locator("main").inner_text()
    assert "Germany" in review
    # the first estimate keeps the rule and the rhythm: the region named from the residency
    # answer, and the weekly work per month and per run
    first = page.locator(".first-estimate").inner_text()
    assert "a region in Germany (Frankfurt)" in first, first
    assert re.search(r"a month, or [€$][\d,]+ a run", first), first

    submission, recommendation = send_answers(page, "jana@bank.example")
    assert recommends_setup(submission.answers)
    engine_input = recommendation.engine_input
    assert engine_input["hardware"]["vendors"] == ["nvidia"]
    assert engine_input["deployment"]["data_residency"] == "Germany"
    assert engine_input["deployment"]["dedicated_hardware"] is True
    result = read_result(recommendation.result)

    # one node or less, NVIDIA only
    assert result.nodes_per_job is not None and result.nodes_per_job <= 1
    assert result.accelerator_name.startswith("NVIDIA"), result.accelerator_name
    # the cloud is priced in Frankfurt; shared public cloud is ruled out by "yours alone"
    region = result.cloud_region
    assert region is not None and "Frankfurt" in str(dict(region).values())
    options = {option.key: option for option in result.all_cost_options}
    chosen = result.recommended_cost
    assert chosen is not None and not chosen.ruled_out_by
    allowed = [o for o in options.values() if not o.ruled_out_by and o.net_usd is not None]
    # dedicated capacity in Frankfurt, or a purchase only when it is the cheapest the rules
    # allow over the horizon (it pays within it)
    assert chosen.net_usd == min(o.net_usd for o in allowed), [(o.key, o.net_usd) for o in allowed]
    assert any(o.ruled_out_by for o in options.values())  # shared cloud, excluded

    pdf = rendered_proposal(submission)
    (screenshot_dir / "bank.pdf").write_bytes(pdf)
    text = squash(pdf_text(pdf))
    assert squash(result.accelerator_name) in text
    assert "Frankfurt" in text
    assert squash("Dedicated hardware: shared public cloud is excluded") in text
    # dedicated capacity in a German region, named as such; or their own site, bought only
    # when it is cheaper over the three years than that capacity (it pays within them)
    dedicated = squash("a dedicated, single-tenant cluster of whole servers")
    assert dedicated in text
    reserved = [o.net_usd for o in allowed if o.key.startswith("cloud_reserved")]
    if chosen.capex_usd:
        assert chosen.key in ("buy", "colocation") and chosen.net_usd < min(reserved)
        assert squash("reserved in Frankfurt, costs at least") in text
    else:
        assert chosen.key.startswith("cloud_reserved")
    # recurring work: per run and per month, the same figures as the first estimate
    per_month = re.search(r"([€$][\d,]+) a month, or ([€$][\d,]+) a run", first)
    assert per_month, first
    assert squash(per_month[0]) in text, per_month[0]
    assert "AMD" not in squash(estimate)
