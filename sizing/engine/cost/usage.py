"""How much the customer will train: accelerator-hours per year from the answers.

Three bases, in order of preference::

    utilisation given:  A_k = u x N_cluster x 8760 x (1 + g)^k
    runs a month given: A_k = runs x h_run x 12 x (1 + g)^k
                        h_run = hours_per_run x GPUs_per_run   (hours per run given)
                              = GPU-hours of the sized run      (otherwise)
    neither:            A_0 = experiments x GPU-hours of the sized run, A_k>0 = 0

``A_k`` [GPU-h] is the demand of year ``k`` (0-based), ``g`` the yearly growth.  The last
basis ("planned runs") invents nothing: the cost covers the runs the customer named, and the
output says that usage is unknown and how often owning would pay off.

References
----------
.. [1] The customer's answers to question 15 (``docs/answers.md``: runs a month, hours per
       run, yearly growth, utilisation); a year of use is 8,760 hours
       (:mod:`sizing.engine.units`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frozen_copies import with_changes
from ..resolve.resolved import Resolved
from ..units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR, MONTHS_PER_YEAR

ROADMAP = "roadmap"
UTILISATION = "utilisation"
PLANNED_RUNS = "planned_runs"


@dataclass(frozen=True)
class Usage:
    """Accelerator-hours the customer needs, year by year."""

    basis: str  # ROADMAP | UTILISATION | PLANNED_RUNS
    runs_per_month: float | None  # [runs/month] as given
    gpus_per_run: int  # [GPUs] accelerators one run occupies
    gpu_hours_per_run: float  # [GPU-h]
    gpu_hours_by_year: tuple[float, ...]  # [GPU-h/yr]
    months_by_year: tuple[float, ...]  # [months] with work in each year
    growth: float = 0.0  # [1/yr] yearly growth g applied to A_0 (0 on the planned-runs basis)

    @property
    def known(self) -> bool:
        """Whether the customer said how much they will train (not only the planned runs)."""
        return self.basis != PLANNED_RUNS

    @property
    def gpu_hours(self) -> float:
        """All accelerator-hours over the horizon [GPU-h]."""
        return sum(self.gpu_hours_by_year)


def usage(
    r: Resolved,
    *,
    run_gpu_hours: float,
    gpus_per_run: int,
    cluster_gpus: int,
    all_runs_days: float,
) -> Usage:
    """The demand behind the cost (see module docstring).

    Parameters
    ----------
    run_gpu_hours : float
        Accelerator-hours of one sized run [GPU-h].
    gpus_per_run : int
        Accelerators one run occupies [GPUs].
    cluster_gpus : int
        Accelerators of the whole recommended cluster [GPUs].
    all_runs_days : float
        Calendar days of all planned runs on the cluster [d].
    """
    growth = tuple((1.0 + r.roadmap_growth) ** k for k in range(r.years))
    per_run = run_gpu_hours if r.hours_per_run is None else r.hours_per_run * gpus_per_run
    full_year = tuple(MONTHS_PER_YEAR for _ in growth)
    if r.utilisation is not None:
        yearly = r.utilisation * cluster_gpus * HOURS_PER_YEAR
        return Usage(
            UTILISATION,
            None,
            gpus_per_run,
            per_run,
            tuple(yearly * g for g in growth),
            full_year,
            r.roadmap_growth,
        )
    if r.runs_per_month is not None:
        yearly = r.runs_per_month * per_run * MONTHS_PER_YEAR
        return Usage(
            ROADMAP,
            r.runs_per_month,
            gpus_per_run,
            per_run,
            tuple(yearly * g for g in growth),
            full_year,
            r.roadmap_growth,
        )
    months = min(MONTHS_PER_YEAR, all_runs_days * HOURS_PER_DAY / HOURS_PER_MONTH)
    first = (r.experiments * run_gpu_hours,)
    rest = tuple(0.0 for _ in growth[1:])
    return Usage(
        PLANNED_RUNS,
        None,
        gpus_per_run,
        run_gpu_hours,
        first + rest,
        (months,) + rest,
    )


def with_growth(work: Usage, growth: float) -> Usage:
    """The same work at another yearly growth ``g`` [1/yr]: ``A_k = A_0 x (1 + g)^k``.

    The planned-runs basis has no later years to grow, so it is returned unchanged.
    """
    if not work.known:
        return work
    first = work.gpu_hours_by_year[0]
    hours = tuple(first * (1.0 + growth) ** k for k in range(len(work.gpu_hours_by_year)))
    return with_changes(work, gpu_hours_by_year=hours, growth=growth)


def with_runs_per_month(work: Usage, runs_per_month: float) -> Usage:
    """The same work at another number of runs a month: every year's ``A_k`` scales by
    ``runs' / runs`` (module docstring); unchanged when the work is not given in runs."""
    if work.basis != ROADMAP or not work.runs_per_month:
        return work
    ratio = runs_per_month / work.runs_per_month
    hours = tuple(h * ratio for h in work.gpu_hours_by_year)
    return with_changes(work, gpu_hours_by_year=hours, runs_per_month=runs_per_month)
