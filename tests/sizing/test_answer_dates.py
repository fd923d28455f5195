"""The date of the answers is passed in (``today=``), never frozen in the engine."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sizing.engine import core, parse_input, size, size_dict

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "sizing" / "engine" / "examples" / "startup_7b_pretrain.json"
ANSWERS = {"model": {"name": "Mistral 7B"}, "data": {"tokens": 1e9}}


def _answer_dates(out: dict[str, Any]) -> set[str]:
    return {a["as_of"] for a in out["assumptions"] if a["provided_by"] in ("customer", "assumed")}


def _without_answer_dates(out: dict[str, Any]) -> dict[str, Any]:
    answers = ("customer", "assumed")
    assumptions = [
        {**a, "as_of": None} if a["provided_by"] in answers else a for a in out["assumptions"]
    ]
    return {**out, "assumptions": assumptions}


def test_customer_and_assumed_answers_are_dated_today() -> None:
    out = size_dict(ANSWERS, today=datetime.date(2031, 5, 6))
    assert _answer_dates(out) == {"2031-05-06"}
    provided = {a["provided_by"] for a in out["assumptions"]}
    assert provided == {"customer", "assumed", "default"}


def test_engine_constants_keep_the_date_of_their_source() -> None:
    early = size_dict(ANSWERS, today=datetime.date(2030, 1, 1))
    late = size_dict(ANSWERS, today=datetime.date(2035, 12, 31))
    defaults = [a for a in early["assumptions"] if a["provided_by"] == "default"]
    assert defaults == [a for a in late["assumptions"] if a["provided_by"] == "default"]
    assert "2030-01-01" not in {a["as_of"] for a in defaults}


def test_the_date_changes_nothing_but_the_answer_dates() -> None:
    data = json.loads(EXAMPLE.read_text())
    early = size_dict(data, today=datetime.date(2030, 1, 1))
    late = size_dict(data, today=datetime.date(2035, 12, 31))
    assert early != late
    assert _without_answer_dates(early) == _without_answer_dates(late)


def test_without_a_date_the_current_one_is_read_at_call_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class FrozenDate(datetime.date):
        @classmethod
        def today(cls) -> FrozenDate:
            return cls(2031, 5, 6)

    monkeypatch.setattr(core, "datetime", SimpleNamespace(date=FrozenDate))
    assert _answer_dates(size_dict(ANSWERS)) == {"2031-05-06"}
    rec = size(parse_input(ANSWERS))
    assert {a.as_of for a in rec.assumptions if a.provided_by == "customer"} == {"2031-05-06"}


def test_the_command_line_dates_answers_with_the_current_date() -> None:
    before = datetime.date.today().isoformat()
    proc = subprocess.run(
        [sys.executable, "-m", "sizing.engine", str(EXAMPLE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    after = datetime.date.today().isoformat()
    assert proc.returncode == 0, proc.stderr
    (date,) = _answer_dates(json.loads(proc.stdout))
    assert date in {before, after}
