"""``frozen_copies.with_changes`` makes what ``dataclasses.replace`` makes, for the classes the
engine copies with it, and refuses a class it could copy wrongly."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import pytest

from sizing.engine import parse_input
from sizing.engine.cost.price_set import PriceOverrides, price_set
from sizing.engine.frozen_copies import with_changes
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.parallelism import search_plan, workload
from sizing.engine.resolve.resolved import resolve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "sizing" / "engine" / "examples").glob("*.json"))
TODAY = datetime.date(2026, 12, 2)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_copy_of_the_answers_on_another_accelerator_equals_replaces(path: Path) -> None:
    r = resolve(parse_input(json.loads(path.read_text())), today=TODAY)
    asked = r.accelerator
    copied = with_changes(r, accelerator="mi300x", precision="bf16")
    assert copied == replace(r, accelerator="mi300x", precision="bf16")
    assert type(copied) is type(r)
    assert (copied.accelerator, r.accelerator) == ("mi300x", asked)  # the original unchanged


def test_a_copy_of_a_price_set_and_of_a_price_equals_replaces() -> None:
    prices = price_set("h100-sxm", "eu", PriceOverrides())
    moved = with_changes(prices.electricity, value=0.5)
    assert moved == replace(prices.electricity, value=0.5)
    assert with_changes(prices, electricity=moved) == replace(prices, electricity=moved)
    assert prices.electricity.value != 0.5  # the original keeps its value


def test_a_copy_of_a_plan_with_its_reason_equals_replaces() -> None:
    r = resolve(parse_input(json.loads(EXAMPLES[0].read_text())), today=TODAY)
    plan = search_plan(workload(r), r, ACCELERATORS[r.accelerator], 8)
    assert with_changes(plan, reason="why") == replace(plan, reason="why")


@dataclass(frozen=True)
class _Checked:
    value: float

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("negative")


@dataclass
class _Mutable:
    value: float


@dataclass(frozen=True)
class _Cached:
    value: float

    @cached_property
    def doubled(self) -> float:
        return 2 * self.value


def test_it_refuses_what_replace_would_not_copy_plainly() -> None:
    with pytest.raises(TypeError):
        with_changes(_Checked(1.0), value=-1.0)  # replace would run the check
    with pytest.raises(TypeError):
        with_changes(_Mutable(1.0), value=2.0)
    cached = _Cached(1.0)
    assert cached.doubled == 2.0
    with pytest.raises(TypeError):
        with_changes(cached, value=3.0)  # the copy would keep doubled == 2.0
    with pytest.raises(TypeError):
        with_changes(_Cached(1.0), unknown=3.0)
