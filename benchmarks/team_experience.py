"""Who trains: how far published runs by teams like most customers sit from the engine.

Usage (from the repository root)::

    PYTHONPATH=. python benchmarks/team_experience.py

Every published row says who trained it (``trainer`` in ``tests/sizing/data/published_runs.json``):
a framework's maker benchmarking its own stack, a frontier lab, or a team like most customers
(:data:`sizing.engine.team_experience.TEAM_TRAINERS`: a research team or a company team).  No
row records whether its team had trained at that scale before, or knew its set-up; the teams'
rows are the nearest published evidence for a customer who tells us no one on their team knows
the training set-up (``software.team_knows_setup`` false).  On the development rows only (the
set-aside fifth is reported, never read), from the cross-validated errors of
``benchmarks/calibration.py`` (each source predicted with constants fitted without it):

* **the centre**: the median over the teams' sources of each source's median signed error, and
  its standard error (1.2533 s / sqrt(n) for the median of n values); the engine moves its
  centre only when the shift is larger than its standard error (:func:`centre_moves`);
* **the slow end**: the accelerator-hours the teams' runs took, as a multiple of the engine's,
  at the lower percentile of their signed errors, the percentile chosen among
  ``range_table.CANDIDATE_PERCENTILES`` so that the teams' runs are held, leave one source out
  (each team source judged with the factor of the *other* teams' sources and the regime range of
  ``range_table``), nearest the stated coverage; ties take the narrower.  The engine ships it as
  ``team_new_to_setup_hours_high``; ``tests/sizing/test_team_experience.py`` fails when the two
  differ.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from benchmarks.calibration import Result, cross_validate, development, load_rows, set_aside
from benchmarks.range_table import (
    CANDIDATE_PERCENTILES,
    STATED_COVERAGE,
    _percentile,
    holds,
    leave_one_source_out,
    measured_errors,
    range_for,
)
from sizing.engine.measured_error_table import CALIBRATION
from sizing.engine.ranges import RegimeRange
from sizing.engine.team_experience import TEAM_TRAINERS

# The median of n draws scatters about 1.2533 times as much as their mean (normal errors).
_MEDIAN_STANDARD_ERROR = 1.2533


def is_team(result: Result) -> bool:
    return result.row.data.get("trainer") in TEAM_TRAINERS


def per_source(results: Sequence[Result]) -> dict[str, float]:
    """Each source's median signed log2(engine's accelerator-hours / published): each weighs once."""
    by: dict[str, list[float]] = {}
    for r in results:
        by.setdefault(r.row.source, []).append(r.gpu_hours_log2_err)
    return {source: statistics.median(errs) for source, errs in by.items()}


def slow_end(errors: Sequence[float], lower: float) -> float:
    """The multiple of the engine's hours at the ``lower`` percentile of the signed errors."""
    return max(1.0, 2.0 ** -_percentile(errors, lower))


@dataclass(frozen=True)
class TeamMeasure:
    sources: int
    centre: float  # median signed log2 error of the teams' sources (negative: too few hours)
    standard_error: float
    rest_centre: float  # the same over every other development source
    percentile: float  # the lower percentile the slow end is read at
    high: float  # [x] the slow end: the engine's hours times this
    held_before: int  # teams' runs inside the regime range alone, leave one source out
    held_after: int  # ... with the slow end widened
    runs: int

    @property
    def centre_moves(self) -> bool:
        return abs(self.centre) > self.standard_error


def _held(
    judged: Sequence[tuple[Result, RegimeRange]], team: Mapping[str, float], lower: float
) -> tuple[int, int, int]:
    before = after = runs = 0
    for r, regime in judged:
        if not is_team(r):
            continue
        others = [e for source, e in team.items() if source != r.row.source]
        widened = replace(regime, high=max(regime.high, slow_end(others, lower)))
        runs += 1
        before += holds(r, regime)
        after += holds(r, widened)
    return before, after, runs


def measure(results: Sequence[Result]) -> TeamMeasure:
    """The teams' centre and slow end on the development rows (the set-aside fifth unread)."""
    dev = development(results)
    team = per_source([r for r in dev if is_team(r)])
    rest = per_source([r for r in dev if not is_team(r)])
    judged = leave_one_source_out(dev, CALIBRATION.percentiles)
    scored = {lower: _held(judged, team, lower) for lower, _ in CANDIDATE_PERCENTILES}
    lower = min(
        scored,
        key=lambda p: (abs(scored[p][1] / scored[p][2] - STATED_COVERAGE), -p),
    )
    before, after, runs = scored[lower]
    values = list(team.values())
    return TeamMeasure(
        sources=len(values),
        centre=statistics.median(values),
        standard_error=_MEDIAN_STANDARD_ERROR * statistics.stdev(values) / math.sqrt(len(values)),
        rest_centre=statistics.median(rest.values()),
        percentile=lower,
        high=round(slow_end(values, lower), 2),
        held_before=before,
        held_after=after,
        runs=runs,
    )


def set_aside_held(results: Sequence[Result], high: float) -> tuple[int, int, int]:
    """(held before, held after, runs) of the set-aside teams' runs, with the development table."""
    table = measured_errors(development(results), "", CALIBRATION.percentiles)
    before = after = runs = 0
    for r in set_aside(results):
        if not is_team(r):
            continue
        regime = range_for(r.row, table)
        taken = 2.0**-r.gpu_hours_log2_err
        runs += 1
        before += holds(r, regime)
        after += regime.low <= taken <= max(regime.high, high)
    return before, after, runs


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    results = cross_validate(load_rows())
    m = measure(results)
    team = per_source([r for r in development(results) if is_team(r)])
    print(f"Teams' development sources ({m.sources}), hours taken / engine's (cross-validated):")
    for source, err in sorted(team.items(), key=lambda kv: kv[1]):
        print(f"  {source}: x{2.0**-err:.2f}")
    print(
        f"Centre: the teams' median source took x{2.0**-m.centre:.2f} the engine's hours "
        f"(standard error of that median x{2.0**m.standard_error:.2f}); every other source "
        f"x{2.0**-m.rest_centre:.2f}.  Centre moves: {'yes' if m.centre_moves else 'no'}."
    )
    print(
        f"Slow end: the {m.percentile:g}th percentile of the teams' errors, x{m.high:.2f} "
        f"(team_new_to_setup_hours_high).  Teams' runs held, leave one source out: "
        f"{m.held_before} of {m.runs} with the regime ranges alone, {m.held_after} of {m.runs} "
        "with the slow end widened."
    )
    before, after, runs = set_aside_held(results, m.high)
    print(f"Set aside: teams' runs held {before} of {runs} before, {after} of {runs} after.")


if __name__ == "__main__":
    main()
