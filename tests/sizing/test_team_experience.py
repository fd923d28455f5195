"""Who trains: the discovery page's "does someone on your team know the training set-up?"
reaches the engine, widens the slow end of the range when the answer is no (the centre stays,
as the published teams' runs measure it), and the proposal's assumptions say so in words.

The factor is measured by ``benchmarks/team_experience.py`` on the published runs trained by
research and company teams (``docs/calibration.md``, "Who trains: a team new to its set-up").
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest

from benchmarks.calibration import cross_validate, load_rows, predictions
from benchmarks.team_experience import measure
from reports.method import method_rows
from sizing import adapters
from sizing.engine import size_dict
from sizing.engine.assumptions import overridden, value
from sizing.engine.team_experience import WHO_TRAINS
from sizing.stored_result import StoredResult
from sizing.words.rows import assumption_rows

# A 7B pre-training on a cluster the customer fixed, inside what the published runs cover.
RUN = {
    "model": {"name": "Llama 2 7B"},
    "training": {"method": "pretrain", "precision": "bf16"},
    "data": {"tokens": 1e12},
    "hardware": {"accelerator": "a100-80gb", "count": 64},
}


def _sized(team_knows_setup: bool | None) -> dict[str, Any]:
    data = copy.deepcopy(RUN)
    if team_knows_setup is not None:
        data["software"] = {"team_knows_setup": team_knows_setup}
    return size_dict(data)


def _hours_range(out: dict[str, Any]) -> tuple[float, float, float]:
    low, high = out["compute"]["gpu_hours_range"]
    return low, out["compute"]["gpu_hours"], high


def test_a_team_new_to_its_set_up_gets_a_slower_slow_end_and_the_same_estimate() -> None:
    typical = _hours_range(_sized(None))
    knows = _hours_range(_sized(True))
    new = _hours_range(_sized(False))
    assert knows == typical
    assert new[:2] == typical[:2]  # the estimate and the fast end stay
    assert new[2] / new[1] == pytest.approx(value("team_new_to_setup_hours_high"), rel=0.01)
    assert new[2] > typical[2] * 1.2
    with overridden({"team_new_to_setup_hours_high": 3.0}):
        assert _hours_range(_sized(False))[2] / new[1] == pytest.approx(3.0, rel=0.01)


def test_a_slow_end_already_wider_than_the_teams_is_kept() -> None:
    with overridden({"team_new_to_setup_hours_high": 1.01}):
        assert _hours_range(_sized(False)) == _hours_range(_sized(None))


def test_how_sure_we_are_says_why_the_range_is_wider() -> None:
    assert "no one on your team knows" not in _sized(None)["confidence"]["summary"]
    summary = _sized(False)["confidence"]["summary"]
    assert "You told us no one on your team knows the training set-up yet" in summary
    assert "1.6 times" in summary


@pytest.mark.parametrize(
    ("answer", "said", "effect"),
    [
        (None, "a team like those of typical published runs", "94 %"),
        (True, "someone on your team knows the training set-up", "94 %"),
        (False, "a team new to this training set-up", "the range reaches 1.6 times"),
    ],
)
def test_the_proposals_assumptions_say_who_trains_and_what_it_does(
    answer: bool | None, said: str, effect: str
) -> None:
    rows = assumption_rows(StoredResult(raw=_sized(answer)), {})
    (row,) = [row for row in rows if row["key"] == WHO_TRAINS]
    assert row["label"] == "Who trains"
    assert row["value"] == said
    assert "speed of the typical published training run" in row["rationale"]
    assert effect in row["rationale"]
    assert "published training runs" in row["source"]


def test_megatron_says_its_own_published_runs() -> None:
    data = copy.deepcopy(RUN)
    data["software"] = {"frameworks": ["megatron"], "team_knows_setup": False}
    (item,) = [a for a in size_dict(data)["assumptions"] if a["key"] == WHO_TRAINS]
    assert "published runs on Megatron-LM and NeMo, 95 %" in item["rationale"]


@pytest.mark.parametrize(("setup_known", "engine"), [("yes", True), ("no", False)])
def test_the_discovery_answer_reaches_the_engine(setup_known: str, engine: bool) -> None:
    built = adapters.build_engine_input(
        answers={"discovery": {"setup_known": setup_known}}, today=date(2026, 12, 1)
    )
    assert built.engine_input["software"]["team_knows_setup"] is engine
    assert built.question_of["software.team_knows_setup"] == "discovery"


def test_not_sure_leaves_who_trains_open() -> None:
    built = adapters.build_engine_input(
        answers={"discovery": {"setup_known": "not_sure"}}, today=date(2026, 12, 1)
    )
    assert "team_knows_setup" not in built.engine_input.get("software", {})


def test_the_engine_ships_the_slow_end_the_published_teams_give_now() -> None:
    """Measured on the development rows (the set-aside fifth unread); the centre stays."""
    rows = load_rows()
    m = measure(cross_validate(rows, predictions(rows)))
    assert value("team_new_to_setup_hours_high") == pytest.approx(m.high, abs=0.005)
    assert not m.centre_moves
    assert m.held_after >= m.held_before


@pytest.mark.parametrize("answer", [None, True, False])
def test_the_method_appendix_sources_the_slow_end_only_when_it_widens(answer: bool | None) -> None:
    data = copy.deepcopy(RUN)
    if answer is not None:
        data["software"] = {"team_knows_setup": answer}
    rows = method_rows(StoredResult(raw=size_dict(data)), data)
    widened = [
        row for row in rows if row["value"] == f"{value('team_new_to_setup_hours_high'):.2f} ×"
    ]
    assert len(widened) == (1 if answer is False else 0)
    if widened:
        assert "research and company teams" in widened[0]["source"]
