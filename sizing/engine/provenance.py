"""Provenance of every constant the engine uses.

An :class:`Assumption` is a value with its unit, its public source, the date
the figure was observed and why the engine uses it.  Formulas never contain
bare numbers; they read ``Assumption.value`` from the registries in
:mod:`sizing.engine.assumptions` and :mod:`sizing.engine.prices`.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    """

    value: float
    unit: str
    source: str
    as_of: str
    rationale: str


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
