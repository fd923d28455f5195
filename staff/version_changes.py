"""Every figure that changed between two versions, in words: the version page's list.

``staff.diff`` puts what matters to the customer first and counts the rest; this module names
the rest too, so the version page reads "Cost › Buy, in your own data centre › Net: $778,523 →
$1.62 million" instead of 74,000 characters of JSON. Each part of a dotted output path is named
by the one vocabulary (cost options, their parts, bill-of-materials lines, constants, engine
inputs, output fields), and each value is written with its unit by the one formatter. Lists of
records (assumptions, the bill of materials, price sources) are compared record by record,
named by their key; lists of sentences (warnings, drivers, open questions) say which sentences
came and went.
"""

from dataclasses import dataclass
from typing import Any

from pipeline.models import Recommendation
from sizing.public import (
    ACCELERATORS,
    BOM_ITEMS,
    CONSTANTS,
    COST_OPTIONS,
    COST_PARTS,
    SHARES,
    describe_value,
    format_days,
    format_money,
    format_number,
    format_percent,
    format_quantity,
    input_term,
    output_label_and_unit,
)
from staff.diff import Change

# Fields that name a record in a list of records (``{"item": "servers", …}``), first match wins.
_RECORD_KEYS = ("key", "item", "price", "accelerator", "tier", "option", "slice")
# Fields of a record that are its name, not a figure of it.
_NAME_FIELDS = frozenset({*_RECORD_KEYS, "name", "label", "source", "as_of", "rationale"})


_SAID = "said"


@dataclass(frozen=True)
class ChangeGroup:
    """The changes of one part of the result ("Cost", "Network"), in the result's order."""

    title: str
    changes: list[Change]


def version_changes(previous: Recommendation, current: Recommendation) -> list[ChangeGroup]:
    """Every changed input and output from ``previous`` to ``current``, grouped by section,
    each as label, old words, new words. A change that reads the same in words (a figure moved
    below its rounding) is left out: the page lists what a person can see change."""
    groups: dict[str, list[Change]] = {}
    for title, before, after in (
        ("Engine input", _flat_input(previous.engine_input), _flat_input(current.engine_input)),
        ("Result", _flat_output(previous.result), _flat_output(current.result)),
    ):
        for path in _merged_keys(before, after):
            absent = "not said" if _SAID in (before.get(path), after.get(path)) else "—"
            old, new = before.get(path, absent), after.get(path, absent)
            if old == new:
                continue
            section = title if title == "Engine input" else _words(path[0])
            in_cost = title != "Engine input" and path[0] == "cost"
            label = " › ".join(
                _words(part, in_cost=in_cost) for part in path[1 if section != title else 0 :]
            )
            groups.setdefault(section, []).append(Change(label or section, old, new))
    return [ChangeGroup(title, changes) for title, changes in groups.items()]


def _merged_keys(before: dict, after: dict) -> list[tuple[str, ...]]:
    return list(dict.fromkeys([*before, *after]))


def _flat_input(engine_input: dict | None) -> dict[tuple[str, ...], str]:
    flat = {}
    for section, fields in (engine_input or {}).items():
        for name, value in (fields or {}).items() if isinstance(fields, dict) else ():
            path = f"{section}.{name}"
            flat[(path,)] = "left to the engine" if value is None else describe_value(path, value)
    return flat


def _flat_output(result: dict | None) -> dict[tuple[str, ...], str]:
    result = dict(result or {})
    result.pop("engine_version", None)
    flat: dict[tuple[str, ...], str] = {}
    _walk(result, (), flat)
    return flat


def _walk(value: Any, path: tuple[str, ...], flat: dict[tuple[str, ...], str]) -> None:
    if isinstance(value, dict):
        if "value" in value and "unit" in value and "key" in value:  # an assumption
            flat[path] = describe_value(value["key"], value["value"], engine_unit=value["unit"])
            return
        for key, item in value.items():
            if path and key in _NAME_FIELDS:
                continue
            _walk(item, (*path, str(key)), flat)
        return
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for index, record in enumerate(value):
            _walk(record, (*path, _record_name(record, index)), flat)
        return
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        for sentence in value:
            flat[(*path, sentence)] = _SAID
        return
    flat[path] = _figure(path, value)


def _record_name(record: dict, index: int) -> str:
    for key in _RECORD_KEYS:
        if record.get(key) not in (None, ""):
            return str(record[key])
    return f"item {index + 1}"


def _figure(path: tuple[str, ...], value: Any) -> str:
    """A figure with its unit, read from its output field's name or the nearest name above it
    that carries one (``net_usd`` → money, ``parts_by_year_usd.power`` → money, a share in
    ``SHARES`` → percent, ``gpu_hours`` → accelerator-hours, ``…range…`` → "low to high")."""
    name = path[-1] if path else ""
    if isinstance(value, list):
        if "range" in name and len(value) == 2:  # noqa: PLR2004 (low and high)
            return f"{_figure(path, value[0])} to {_figure(path, value[1])}"
        return ", ".join(_figure(path, item) for item in value) or "none"
    if isinstance(value, str):
        return _words(value) if value in ACCELERATORS or value in COST_OPTIONS else value
    if value is None or isinstance(value, bool):
        return describe_value("", value)
    if name in SHARES:
        return format_percent(value)
    for part in reversed(path):
        unit = output_label_and_unit(part)[1]
        if unit == "USD":
            return format_money(value)
        if part.endswith("_eur"):
            return format_money(value, currency="EUR")
        if "gpu_hours" in part:
            return f"{format_number(value)} accelerator-hours"
        if unit == "days":
            return format_days(value)
        if unit:
            return format_quantity(value, unit)
    return format_number(value)


def _words(part: str, *, in_cost: bool = False) -> str:
    """One part of a path in words, from the vocabulary (a cost option, and inside the cost a
    part of a year's cost or a bill-of-materials line; a constant, an input, an accelerator,
    an output field): "storage" is "Rented storage" only as a part of a cost."""
    for table in (COST_OPTIONS, COST_PARTS, BOM_ITEMS) if in_cost else ():
        if part in table:
            return table[part]
    for table in (COST_OPTIONS, CONSTANTS):
        if part in table:
            return table[part]
    if part in ACCELERATORS:
        return ACCELERATORS[part].name
    if " " in part:  # a sentence (a warning, a driver) or a name
        return part
    if "." in part:
        return input_term(part).label
    # the unit goes with the value ("3.4 hours"), not the label
    return output_label_and_unit(part)[0]
