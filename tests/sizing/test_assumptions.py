"""Every engine constant is sourced data; resolving the answers uses no bare numbers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sizing.engine import size_dict
from sizing.engine.assumptions import (
    ASSUMPTIONS,
    UNLISTED_ASSUMPTIONS,
    overridden,
    value,
    whole,
)
from sizing.engine.cost.prices import PRICES

ENGINE = Path(__file__).resolve().parents[2] / "sizing" / "engine"
REGISTRIES = {
    "ASSUMPTIONS": ASSUMPTIONS,
    "UNLISTED_ASSUMPTIONS": UNLISTED_ASSUMPTIONS,
    "PRICES": PRICES,
}
DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?|-H[12])?$")  # 2024, 2024-07, 2024-07-31, 2024-H2


@pytest.mark.parametrize(
    ("registry", "key"),
    [(name, key) for name, registry in REGISTRIES.items() for key in registry],
)
def test_every_constant_has_unit_source_date_and_rationale(registry: str, key: str) -> None:
    a = REGISTRIES[registry][key]
    assert isinstance(a.value, int | float)
    assert a.unit and a.source and a.rationale
    assert DATE.match(a.as_of), a.as_of


def test_a_key_names_one_constant() -> None:
    assert not set(ASSUMPTIONS) & set(UNLISTED_ASSUMPTIONS)
    assert not (set(ASSUMPTIONS) | set(UNLISTED_ASSUMPTIONS)) & set(PRICES)


def test_value_reads_both_registries() -> None:
    assert value("weight_bytes_16bit") == 2.0  # listed
    assert value("chinchilla_tokens_per_param") == 20.0  # not yet listed
    assert whole("default_sequence_length") == 4096


def _overhead(out: dict[str, object]) -> tuple[object, object]:
    """The framework overhead in the memory breakdown, and as listed among the constants."""
    memory = out["memory"]
    assert isinstance(memory, dict)
    listed = out["assumptions"]
    assert isinstance(listed, list)
    (entry,) = [a for a in listed if a["key"] == "framework_overhead_gb"]
    return memory["breakdown_gb"]["overhead"], entry["value"]


def test_an_overridden_constant_is_seen_by_every_sizing_in_the_block_and_restored_after() -> None:
    """The calibration harness refits constants with ``overridden``: values read (and cached)
    before the block must not hide the new value inside it, nor the new one the old after."""
    answers = {"model": {"name": "Mistral 7B"}}
    before = _overhead(size_dict(answers))
    assert before == (value("framework_overhead_gb"),) * 2
    with overridden({"framework_overhead_gb": 7.5, "default_sequence_length": 1024}):
        assert _overhead(size_dict(answers)) == (7.5, 7.5)
        assert ASSUMPTIONS["framework_overhead_gb"].value == 7.5
        assert whole("default_sequence_length") == 1024  # an unlisted constant
        assert _assumed_sequence_length() == 1024
    assert _overhead(size_dict(answers)) == before
    assert whole("default_sequence_length") == 4096
    assert _assumed_sequence_length() == 4096


def _assumed_sequence_length() -> object:
    out = size_dict({"model": {"total_params": 1e9}})
    (entry,) = [a for a in out["assumptions"] if a["key"] == "batch.sequence_length"]
    return entry["value"]


def test_a_constant_is_restored_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError), overridden({"framework_overhead_gb": 7.5}):
        assert value("framework_overhead_gb") == 7.5
        raise RuntimeError
    assert value("framework_overhead_gb") == ASSUMPTIONS["framework_overhead_gb"].value != 7.5


def test_an_unknown_key_changes_nothing() -> None:
    with pytest.raises(KeyError), overridden({"framework_overhead_gb": 7.5, "no_such_key": 1.0}):
        pass
    assert value("framework_overhead_gb") != 7.5


def test_a_recommendation_lists_the_listed_constants_and_prices_in_order() -> None:
    out = size_dict({"model": {"name": "Mistral 7B"}})
    listed = [a["key"] for a in out["assumptions"] if a["provided_by"] == "default"]
    assert listed == [*ASSUMPTIONS, *PRICES]


RESOLVE_MODULES = ["resolve/resolved.py", "resolve/model.py", "resolve/run.py", "resolve/site.py"]


@pytest.mark.parametrize("module", RESOLVE_MODULES)
def test_resolving_answers_uses_no_bare_numbers(module: str) -> None:
    """Inside functions only 0 and 1 appear; defaults come from the assumptions data."""
    tree = ast.parse((ENGINE / module).read_text())
    bare = [
        (node.lineno, node.value)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
        and node.value not in (0, 1)
    ]
    assert bare == []
