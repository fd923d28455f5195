"""What the customer reads once an engineer has checked their proposal: who checked it and
when, and in one sentence what changed from the first estimate and why.

The proposal's cover, the status page and the proposal email say the same
(:class:`Checked`). The change is read from the two results (the first estimate and the
approved version) and from the inputs the engineer changed between them (plain data: the
pipeline compares the versions): the first headline figure that moved, in the order a customer
cares about (cost, accelerators for one run, the accelerator, the time for one run), and the
inputs that moved it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sizing.engine.numbers import format_count
from sizing.engine.vocabulary import describe_value, in_sentence, input_term
from sizing.stored_result import StoredResult
from sizing.words.cost import cost_headline
from sizing.words.durations import run_time
from sizing.words.plural import count_of, in_words

# How many changed inputs the sentence names before counting the rest.
_NAMED_INPUTS = 2


@dataclass(frozen=True)
class InputChange:
    """One engine input an engineer changed: its dotted path, the value before (``None``:
    the engine chose it) and after."""

    path: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Checked:
    """Who checked a proposal and when, and what changed from the first estimate."""

    engineer: str  # "Erin Engineer" ("" for a version approved before approvals were named)
    on: date
    change: str  # "The 3-year cost moved from $435,442 to $671,287 because our engineer …"

    @property
    def by(self) -> str:
        """ "Checked by our engineer Erin Engineer on 4 December 2026." """
        who = f"our engineer {self.engineer}" if self.engineer else "our engineers"
        return f"Checked by {who} on {self.on.day} {self.on:%B %Y}."

    @property
    def sentence(self) -> str:
        """Both sentences, for a page or an email."""
        return f"{self.by} {self.change}"


def _cost(result: StoredResult) -> str:
    return cost_headline(result).amount


def _per_run(result: StoredResult) -> str:
    return format_count(result.gpus_per_job) if result.gpus_per_job else ""


def _accelerator(result: StoredResult) -> str:
    return result.accelerator_name or ""


def _days(result: StoredResult) -> str:
    days = result.wall_clock_days
    return "" if days is None else run_time(days)


# (what moved, reader), in the order a customer cares about.
def _headline(result: StoredResult) -> tuple[tuple[str, Callable[[StoredResult], str]], ...]:
    return (
        (f"the {result.years}-year cost", _cost),
        ("the accelerators for one run", _per_run),
        ("the accelerator", _accelerator),
        ("the time for one run", _days),
    )


def change_from_first(
    first: StoredResult,
    approved: StoredResult,
    changed: Sequence[InputChange],
) -> str:
    """One sentence on what moved from the first estimate to the approved version and why:
    "The 3-year cost moved from $435,442 to $671,287 because our engineer changed the
    accelerator from NVIDIA H100 SXM5 80GB to NVIDIA A100 SXM4 80GB."; "Our engineer kept the
    figures of the first estimate." when nothing the customer reads moved."""
    moved = ""
    for (what, read), _ in zip(_headline(approved), _headline(first), strict=True):
        old, new = read(first), read(approved)
        if old and new and old != new:
            moved = f"{what[:1].upper()}{what[1:]} moved from {old} to {new}"
            break
    why = _why(first, changed)
    if not moved:
        if changed:
            return f"Our engineer {why}; the figures of the first estimate stay as they were."
        return "Our engineer kept the figures of the first estimate."
    if not changed:
        return f"{moved} because our engineer sized it again with our current prices and methods."
    return f"{moved} because our engineer {why}."


def _why(first: StoredResult, changed: Sequence[InputChange]) -> str:
    """ "changed the accelerator from X to Y", "set the time you allow for one run to 20
    days", or, for several, "changed the accelerator, the number precision and 2 other
    settings"."""
    if len(changed) == 1:
        change = changed[0]
        label = in_sentence(input_term(change.path).label)
        before = change.before if change.before is not None else _used(first, change.path)
        after = describe_value(change.path, change.after)
        if before is None:
            return f"set {_the(label)} to {after}"
        return f"changed {_the(label)} from {describe_value(change.path, before)} to {after}"
    names = [_the(in_sentence(input_term(c.path).label)) for c in changed[:_NAMED_INPUTS]]
    rest = len(changed) - len(names)
    if rest:
        names.append(count_of(rest, "other setting"))
    return f"changed {in_words(names)}"


def _the(label: str) -> str:
    return label if label.startswith(("the ", "your ")) else f"the {label}"


def _used(result: StoredResult, path: str) -> Any:
    """The value the engine used for an input it chose itself (its assumption), or None."""
    for item in result.assumptions:
        if item.key == path:
            return item.value
    return None
