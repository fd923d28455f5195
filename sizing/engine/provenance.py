"""Provenance of every constant the engine uses, and of every answer.

An :class:`Assumption` is a value with its unit, its public source, the date
the figure was observed and why the engine uses it.  Formulas never contain
bare numbers; they read ``Assumption.value`` from the registries in
:mod:`sizing.engine.assumptions` and :mod:`sizing.engine.cost.prices`.

An :class:`AnswerRecorder` records each answer as a :class:`UsedAssumption`:
the customer's, or the default the engine picked when the customer was not
sure (with the question that default raises).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

CUSTOMER_ANSWER = "customer answer"


@dataclass(frozen=True)
class Assumption:
    """A sourced constant.

    Parameters
    ----------
    value : float
        The figure, in ``unit``.
    unit : str
        Unit of ``value`` (``"B/param"``, ``"USD/GPU-h"``, ``"h"``...).
    source : str
        Public source (paper, datasheet, price page) the figure was read in.
    as_of : str
        ISO date (or year) the figure was observed or published.
    rationale : str
        Why the engine uses this figure.
    stays : str
        Why a figure older than the price book's limit (three years) is still used: no newer
        public figure found, and what that means.  Empty for a current figure.
    """

    value: float
    unit: str
    source: str
    as_of: str
    rationale: str
    stays: str = field(default="", kw_only=True)


LIST_PRICE = "list price"
PUBLIC_QUOTE = "public quote"
PUBLISHED_FIGURE = "published figure"
ESTIMATE = "estimate — confirm with us"
PRICE_FLAGS = (LIST_PRICE, PUBLIC_QUOTE, PUBLISHED_FIGURE, ESTIMATE)
"""How firm a price is: a vendor's or a statistics office's published price, a quote or
price observation published by someone else, a measured or surveyed figure that is not a
price (a PUE, a hardware life) as its author published it, or a figure we derived or
estimated."""

GLOBAL = "global"
NORTH_AMERICA = "north_america"
EU = "eu"
REGIONS = (GLOBAL, NORTH_AMERICA, EU)


@dataclass(frozen=True)
class Price(Assumption):
    """A sourced price (or price ratio) with its region, firmness and plausible range.

    Parameters
    ----------
    region : str
        Where the figure holds: ``"global"``, ``"north_america"`` or ``"eu"``.
    flag : str
        One of :data:`PRICE_FLAGS`.
    low, high : float
        The plausible range, in ``unit``, for the sensitivity analysis (the lowest and
        highest published figure found, or the stated range of an estimate).
    """

    region: str
    flag: str
    low: float
    high: float


@dataclass(frozen=True)
class UsedAssumption:
    """One entry of a recommendation's ``assumptions`` list.

    ``provided_by`` is ``"customer"`` when the answer came from the input,
    ``"assumed"`` when the customer was not sure and the engine picked a
    documented default, ``"default"`` for engine constants.
    """

    key: str
    value: float | str | bool | None
    unit: str
    source: str
    as_of: str
    provided_by: str
    rationale: str


@dataclass
class AnswerRecorder:
    """Collects, in order, one :class:`UsedAssumption` per answer and the open questions.

    ``as_of`` is the ISO date of the customer's answers, and of the defaults
    picked for them.
    """

    as_of: str
    items: list[UsedAssumption] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)

    def take(
        self,
        key: str,
        given: T | None,
        default: T,
        *,
        unit: str,
        why: str,
        question: str | None = None,
        source: str = "our usual assumption",
    ) -> T:
        """The customer's answer if given, else ``default`` (asking ``question``)."""
        if given is not None:
            self.record(key, given, unit=unit, given=True, source=source, why=why)
            return given
        self.record(key, default, unit=unit, given=False, source=source, why=why)
        if question:
            self.ask(question)
        return default

    def record(
        self, key: str, answer: object, *, unit: str, given: bool, source: str, why: str
    ) -> None:
        """Record ``answer`` as the customer's (``given``) or as assumed from ``source``."""
        self.items.append(
            UsedAssumption(
                key=key,
                value=_plain(answer),
                unit=unit,
                source=CUSTOMER_ANSWER if given else source,
                as_of=self.as_of,
                provided_by="customer" if given else "assumed",
                rationale=why,
            )
        )

    def ask(self, question: str) -> None:
        """Add an open question for the customer."""
        self.questions.append(question)


def _plain(answer: object) -> float | str | bool | None:
    """``answer`` as a JSON scalar (a list of names becomes one comma-separated string)."""
    if answer is None or isinstance(answer, bool | str):
        return answer
    if isinstance(answer, int | float):
        return answer
    if isinstance(answer, tuple):
        return ", ".join(str(x) for x in answer)
    return str(answer)
