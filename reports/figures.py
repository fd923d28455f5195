"""The proposal's tables of figures: what the engine worked out, and what it was told.

Labels and units come from the one vocabulary (``sizing.engine.vocabulary``), numbers from the
one formatter (``sizing.engine.numbers``); this module only chooses which fields a table shows.
"""

from typing import Any

from sizing.engine.numbers import format_percent, format_quantity
from sizing.engine.vocabulary import OUTPUT_VALUES, SHARES, SOURCES, describe_value, input_term
from sizing.engine.vocabulary import output_label_and_unit as label_and_unit

# Fields that have a sentence, a chart or a table of their own elsewhere in the proposal.
HIDDEN = {
    "notes",
    "reason",
    "forced",
    "accelerator",
    "concurrent_jobs",
    "reasons",
    "security_measures",
    "tiers",
    "price_sources",
    "options",
    "rationale",
    "small_files_advice",
    "explanation",
    "summary",
    "basis",
    # cost: the cost page shows these in sentences and tables of their own
    "recommended_option",
    "years",
    "region",
    "capex_usd",
    "running_usd",
    "bill_of_materials_option",
}


def figure_rows(area: str, section: dict[str, Any]) -> list[tuple[str, str]]:
    """The scalar figures of one result section as (label, formatted value) rows."""
    rows = []
    for name, value in section.items():
        if name in HIDDEN or value is None:
            continue
        if isinstance(value, dict):
            if area == "cost":
                continue  # the options have their own table
            for part, part_value in value.items():
                if isinstance(part_value, int | float) and not isinstance(part_value, bool):
                    label, unit = label_and_unit(name)
                    rows.append(
                        (f"{label}: {part.replace('_', ' ')}", format_quantity(part_value, unit))
                    )
            continue
        if isinstance(value, list | tuple):
            continue
        label, unit = label_and_unit(name)
        if name in SHARES and isinstance(value, int | float):
            rows.append((label, format_percent(value)))
        elif name in OUTPUT_VALUES:
            rows.append((label, OUTPUT_VALUES[name].get(str(value), str(value))))
        else:
            rows.append((label, format_quantity(value, unit)))
    return rows


def input_rows(
    engine_input: dict[str, Any], fields: tuple[str, ...], sources: dict[str, str]
) -> list[tuple[str, str, str]]:
    """(label, value, where it came from) for the engine-input fields behind one section."""
    rows = []
    for spec in fields:
        section, _, name = spec.partition(".")
        values = engine_input.get(section) or {}
        names = [name] if name else list(values)
        for field_name in names:
            value = values.get(field_name)
            if value is None or value == [] or value == "":
                continue
            path = f"{section}.{field_name}"
            source = SOURCES.get(sources.get(path, ""), "")
            rows.append((input_term(path).label, describe_value(path, value), source))
    return rows
