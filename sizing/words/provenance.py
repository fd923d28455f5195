"""Who set each value a sentence states: the customer, worked out from their answers, assumed
by us, or set by our engineer, and the words each sentence uses for it.

The engine knows only its input, so a value our engineer set reads to it like the customer's
answer (``provided_by: "customer"``). Where each input field came from is recorded beside the
result (``Recommendation.input_sources``, ``SizedAnswers.sources``: ``sizing.adapters``); every
surface passes it in as plain data, and this module is the one reader of it. No sentence may
credit the customer with a value our engineer set: "you asked for" and "your deadline" are
written here only for :attr:`Setter.CUSTOMER` (and values worked out from their answers).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from sizing.engine.numbers import format_days
from sizing.stored_result import StoredResult, read_result

ACCELERATOR = "hardware.accelerator"
DEADLINE = "schedule.deadline_days"


class Setter(StrEnum):
    """Who chose a value."""

    # their answer: typed, or read from their file or sentence and confirmed by them on the
    # question's page (questionnaire.prefill saves it as their answer, the file named in notes)
    CUSTOMER = "customer"
    WORKED_OUT = "derived"  # worked out from their answers (a date becomes days)
    ASSUMED = "assumed"  # our assumption: they were not sure, or left it to us
    ENGINEER = "override"  # our engineer set it on a re-run

    @property
    def customers(self) -> bool:
        """Whether the customer gave the value (themselves, or through another answer)."""
        return self in (Setter.CUSTOMER, Setter.WORKED_OUT)


def who_set(path: str, sources: Mapping[str, str], result: StoredResult) -> Setter:
    """Who set the engine input ``path`` ("hardware.accelerator") of ``result``: the recorded
    source when there is one, else what the engine's list of used values says (results stored
    without their sources)."""
    source = sources.get(path)
    if source == "override":
        return Setter.ENGINEER
    if source == "customer":
        return Setter.CUSTOMER
    if source == "derived":
        return Setter.WORKED_OUT
    if source is not None:
        return Setter.ASSUMED  # not sure, unusable, left to us, no preference
    used = next((a for a in result.assumptions if a.key == path), None)
    if used is None or used.provided_by == "customer":
        return Setter.CUSTOMER  # the engine lists every value it did not take from the input
    return Setter.ASSUMED


# How a sentence names who chose a value it states: (inside a sentence, as a label beside it).
_CHOSEN: dict[str, tuple[str, str]] = {
    "customer": ("you asked for", "your choice"),
    "engineer": ("our engineer chose", "chosen by our engineer"),
    "us": ("we sized", "chosen by us"),
}


def _chooser(setter: Setter) -> str:
    if setter.customers:
        return "customer"
    return "engineer" if setter is Setter.ENGINEER else "us"


def chosen_words(setter: Setter) -> str:
    """Who chose a value, inside a sentence: "the H200 you asked for", "… our engineer chose",
    "… we sized"."""
    return _CHOSEN[_chooser(setter)][0]


def chosen_label(setter: Setter) -> str:
    """Who chose a value, as a label beside it: "your choice", "chosen by our engineer",
    "chosen by us"."""
    return _CHOSEN[_chooser(setter)][1]


def accelerator_by(result: StoredResult, sources: Mapping[str, str]) -> Setter:
    return who_set(ACCELERATOR, sources, result)


def accelerator_label(result: StoredResult, sources: Mapping[str, str]) -> str:
    """Who chose the accelerator, as a label beside it; the accelerators a plan runs on because
    the customer owns them were not chosen: "the ones you own"."""
    if result.on_owned_estate:
        return "the ones you own"
    return chosen_label(accelerator_by(result, sources))


def as_fast_as_the_budget_allows(result: StoredResult) -> bool:
    """Whether one run ends as soon as their budget allows: no deadline, theirs or assumed,
    applies to it (the result's estate, ``cost_is_one_run``)."""
    estate = result.estate
    return bool(estate and estate.cost_is_one_run)


def deadline_days(result: StoredResult) -> float | None:
    """The deadline one run is sized to [d], given or assumed (None: there is none, or the
    run ends as soon as their budget allows)."""
    if as_fast_as_the_budget_allows(result):
        return None
    timeline = result.section("timeline")
    given = timeline.get("deadline_days")
    if isinstance(given, int | float) and not isinstance(given, bool):
        return float(given)
    used = next((a for a in result.assumptions if a.key == DEADLINE), None)
    if used is not None and isinstance(used.value, int | float):
        return float(used.value)
    return None


def deadline_by(result: StoredResult, sources: Mapping[str, str]) -> Setter:
    """Who set the deadline: the engine marks one it assumed (``deadline_assumed``)."""
    if result.section("timeline").get("deadline_assumed"):
        return Setter.ASSUMED
    return who_set(DEADLINE, sources, result)


def deadline_words(days: float, setter: Setter) -> str:
    """The deadline with who set it, to follow "within" or "past": "your deadline of 21 days",
    "the deadline our engineer set, 20 days", "the deadline we assumed, 30 days"."""
    if setter.customers:
        return f"your deadline of {format_days(days)}"
    if setter is Setter.ENGINEER:
        return f"the deadline our engineer set, {format_days(days)}"
    return f"the deadline we assumed, {format_days(days)}"


def the_deadline(result: StoredResult, sources: Mapping[str, str]) -> str:
    """:func:`deadline_words` of ``result``'s deadline ("" when there is none)."""
    days = deadline_days(result)
    return "" if days is None else deadline_words(days, deadline_by(result, sources))


# The engine writes some sentences itself (drivers, reasons, notes, risks, questions) and credits
# the customer with the inputs it was given ("on the 320 accelerators you gave"): it cannot know
# that our engineer set one. For an input our engineer set, its words are said so.
# (input, the engine's words for the customer's value, the words for our engineer's)
_ENGINE_CREDITS: tuple[tuple[str, str, str], ...] = (
    ("hardware.count", "accelerators you gave", "accelerators our engineer set"),
    ("hardware.count", "accelerator you gave", "accelerator our engineer set"),
    ("schedule.scheduler", "as you chose", "as our engineer set"),
    ("hardware.vendors", "you asked for", "our engineer allowed"),
    ("roadmap.hours_per_run", "the run length you gave us", "the run length our engineer set"),
)


def engine_sentence(text: str, sources: Mapping[str, str] | None) -> str:
    """One of the engine's sentences with the customer's credit for a value our engineer set
    given to our engineer ("the 320 accelerators our engineer set")."""
    for path, customers, engineers in _ENGINE_CREDITS:
        if (sources or {}).get(path) == "override":
            text = text.replace(customers, engineers)
    return text


def credited(result: StoredResult, sources: Mapping[str, str] | None) -> StoredResult:
    """``result`` with every sentence the engine wrote crediting whoever set each value
    (:func:`engine_sentence`); the same result when our engineer set none of those inputs."""
    if not any((sources or {}).get(path) == "override" for path, _, _ in _ENGINE_CREDITS):
        return result

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return engine_sentence(value, sources)
        if isinstance(value, Mapping):
            return {key: walk(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [walk(item) for item in value]
        return value

    return read_result(walk(result.raw))
