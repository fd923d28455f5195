"""The summary of customer 8 (a game studio that knows nothing about training) says one figure
where two would read as a contradiction, and no token counts: readers found "$18 over 3 years"
beside "one run costs $17 in the cloud" with nothing to tell them apart, and "154M tokens" in
the plain-words summary of a studio that counted "about 50,000 past tickets"."""

import re
from functools import cache
from typing import Any

from reports.demo import demo_data
from reports.document import build_context
from sizing.public import read_result
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of

STUDIO = "8 game studio tickets"


@cache
def _context(story: str) -> dict[str, Any]:
    return build_context(demo_data(answers=answers_of(STORIES[story]), today=TODAY))


def test_one_runs_cloud_price_and_the_total_beside_it_are_told_apart():
    context = _context(STUDIO)
    result = read_result(context["data"].result)
    best = result.recommended_cost
    assert best is not None and best.key == "cloud_on_demand"
    total, one_run = result.money(best.net_usd), result.money(result.one_run_cloud_usd)
    assert total != one_run  # the total adds the cloud time paid around the run
    why = " ".join(context["summary"]["why"])
    assert (
        f"one run's accelerator-hours cost {one_run} in the cloud, and {total} with the cloud "
        "time paid around it ("
    ) in why
    assert f"one run costs {one_run} in the cloud" not in why


def test_the_novices_summary_counts_their_samples_not_tokens():
    drivers = _context(STUDIO)["summary"]["drivers"]
    assert drivers[0].startswith("7B parameters trained on your 50,000 samples, each read 3 times,")
    assert not any(re.search(r"\btokens?\b", line) for line in drivers), drivers


def test_an_experts_summary_keeps_the_tokens_it_was_told():
    drivers = _context("2 start-up pre-training")["summary"]["drivers"]
    assert any("trained on 2T tokens" in line for line in drivers), drivers
