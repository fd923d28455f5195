"""The sentences about what a customer owns and their ceilings (sizing/words/estate.py): the
budget beside the cost, the power beside the cluster, and plainly by how much when either
cannot be met (issue 26)."""

from __future__ import annotations

import datetime
from typing import Any

from sizing.engine import size_dict
from sizing.stored_result import read_result
from sizing.words.estate import estate_lines
from tests.sizing.test_estate import HALL, SMALL_LAB


def _lines(data: dict[str, Any]) -> list[str]:
    return estate_lines(read_result(size_dict(data, today=datetime.date(2026, 12, 4))))


def test_no_estate_and_no_ceiling_says_nothing() -> None:
    assert _lines({k: v for k, v in HALL.items() if k != "estate"}) == []


def test_an_estate_that_meets_the_need_says_nothing_needs_buying() -> None:
    lines = _lines(SMALL_LAB)
    assert lines[0].startswith("You own 4 × NVIDIA L40S 48GB: one run takes about ")
    assert "within your deadline of 7 days" in lines[0]
    assert "no capital" in lines[1]
    assert lines[-1] == "Nothing needs buying."


def test_a_budget_too_small_is_said_with_how_far_over() -> None:
    (line,) = _lines({**HALL, "estate": {"budget_usd": 1000}})
    assert line.startswith("Your budget ceiling is $1,000; this plan costs about $")
    assert "over it: no option your rules allow fits within it." in line


def test_a_power_ceiling_that_caps_the_cluster_says_what_it_holds_and_the_days() -> None:
    (line,) = _lines({**HALL, "estate": {"power_kw": 200}})
    assert line.startswith("Your 200 kW holds at most ")
    assert "one run takes about " in line and "past your deadline of 45 days" in line


def test_a_power_ceiling_that_cannot_hold_the_work_says_by_how_much() -> None:
    (line,) = _lines({**HALL, "estate": {"power_kw": 5}})
    assert "more than you have: it cannot fit" in line


def test_a_power_ceiling_above_the_cluster_is_within_it() -> None:
    (line,) = _lines({**HALL, "estate": {"power_kw": 2000}})
    assert line.startswith("Your power available is 2 MW; the cluster draws about ")
    assert line.endswith("within it.")
