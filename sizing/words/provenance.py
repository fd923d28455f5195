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

from sizing.engine.numbers import format_days
from sizing.results import StoredResult

ACCELERATOR = "hardware.accelerator"
DEADLINE = "schedule.deadline_days"


class Setter(StrEnum):
    """Who chose a value."""

    CUSTOMER = "customer"  # their answer
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


def chosen_words(setter: Setter) -> str:
    """How a sentence says who chose a value it names: "you asked for", "our engineer chose",
    "we sized"."""
    if setter.customers:
        return "you asked for"
    if setter is Setter.ENGINEER:
        return "our engineer chose"
    return "we sized"


def chosen_label(setter: Setter) -> str:
    """Who chose a value, as a label beside it: "your choice", "chosen by our engineer",
    "chosen by us"."""
    if setter.customers:
        return "your choice"
    if setter is Setter.ENGINEER:
        return "chosen by our engineer"
    return "chosen by us"


def accelerator_by(result: StoredResult, sources: Mapping[str, str]) -> Setter:
    return who_set(ACCELERATOR, sources, result)


def deadline_days(result: StoredResult) -> float | None:
    """The deadline one run is sized to [d], given or assumed (None: there is none)."""
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
