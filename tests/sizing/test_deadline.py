"""Deadlines no size can meet: the knee of the time curve, said plainly, with what it would take."""

from __future__ import annotations

from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.cluster import MAX_NODES

# Meta trained it on 16,384 H100 in about 54 days of effective training (Llama 3 paper): no
# size meets 30 days with its published batch (16M tokens, Llama 3 paper Table 4).
LLAMA_405B_15T_30D: dict[str, Any] = {
    "model": {"name": "Llama 3.1 405B"},
    "training": {"method": "pretrain"},
    "data": {"tokens": 15e12},
    "batch": {"global_batch_tokens": 16 * 2**20},
    "hardware": {"accelerator": "h100-sxm"},
    "schedule": {"deadline_days": 30},
}


def _with(base: dict[str, Any], section: str, **fields: Any) -> dict[str, Any]:
    return {**base, section: {**base.get(section, {}), **fields}}


CASES = {
    "seq-4096": LLAMA_405B_15T_30D,
    "seq-8192": _with(LLAMA_405B_15T_30D, "batch", sequence_length=8192),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def infeasible(request: pytest.FixtureRequest) -> dict[str, Any]:
    return size_dict(CASES[request.param])


def test_infeasible_deadline_is_not_sized_at_the_search_ceiling(infeasible: dict[str, Any]) -> None:
    assert infeasible["cluster"]["gpus_per_job"] < MAX_NODES * 8


def test_infeasible_deadline_never_recommends_a_size_where_more_gpus_are_slower(
    infeasible: dict[str, Any],
) -> None:
    days = infeasible["timeline"]["wall_clock_days"]
    gpus = infeasible["cluster"]["gpus_per_job"]
    fastest = min(infeasible["timeline"]["options"], key=lambda o: o["wall_clock_days"])
    assert gpus <= fastest["gpus"]
    smaller = [o for o in infeasible["timeline"]["options"] if o["gpus"] < gpus]
    assert all(o["wall_clock_days"] > days for o in smaller)


def test_infeasible_deadline_is_said_plainly_with_the_best_achievable_days(
    infeasible: dict[str, Any],
) -> None:
    deadline = infeasible["timeline"]["deadline"]
    assert deadline["met"] is False
    assert deadline["fastest_days"] > 30
    assert deadline["fastest_days"] <= infeasible["timeline"]["wall_clock_days"]
    assert any("cannot be met" in w for w in infeasible["warnings"])
    assert any("cannot be met" in d for d in infeasible["drivers"])


def test_infeasible_deadline_gives_the_tokens_that_fit_and_they_do() -> None:
    out = size_dict(LLAMA_405B_15T_30D)
    deadline = out["timeline"]["deadline"]
    tokens = deadline["tokens_within_deadline"]
    assert 0 < tokens < 15e12
    gpus = out["cluster"]["gpus_per_job"]
    fewer = size_dict(
        {**_with(LLAMA_405B_15T_30D, "data", tokens=tokens), "hardware": {"count": gpus}}
    )
    assert fewer["timeline"]["wall_clock_days"] == pytest.approx(30, rel=0.01)
    assert 0 < deadline["params_within_deadline"] < 405.85e9
    assert any("tokens" in w and "30 days" in w for w in out["warnings"])


def test_a_deadline_that_can_be_met_is_met_by_the_smallest_size() -> None:
    out = size_dict(_with(LLAMA_405B_15T_30D, "data", tokens=1e12))
    assert out["timeline"]["deadline"]["met"] is True
    assert out["timeline"]["wall_clock_days"] <= 30
    smaller = [o for o in out["timeline"]["options"] if o["gpus"] < out["cluster"]["gpus_per_job"]]
    assert all(not o["meets_deadline"] for o in smaller)
