"""What it would take to meet a deadline that no cluster size meets.

When the search in :mod:`sizing.engine.cluster` finds no size that meets
the deadline, it recommends the knee of the time curve.  This module says
what would fit in the deadline on that cluster instead:

* fewer tokens: the plan depends on the step, not on the length of the run,
  so the run is re-timed with fewer FLOPs until it fits (a fixed point of
  ``D' = D * deadline / t(D)``; one step when goodput does not depend on
  the length of the run);
* a smaller model: the same fixed point on the parameter FLOPs per token
  (``6 N`` of ``6 N + 6 L h s``, causal attention [1]_), at the utilisation of the
  recommended plan; an estimate, since a smaller model runs a different plan;
* more time: the recommended run's days, and the fastest any size achieves.

A run that does not fit in memory cannot start: it meets no deadline and
nothing "fits in the deadline" on it (``met`` is ``None``); instead the
result gives the memory minimum and one run's days on it.

References
----------
.. [1] Chowdhery et al., PaLM, arXiv 2204.02311 (2022), appendix B.
"""

from __future__ import annotations

from .cluster import ClusterSizing, RunEstimate, Searches, time_plan
from .compute import attention_flops_per_token
from .hardware import AcceleratorSpec
from .output import DeadlineResult
from .parallelism import Workload
from .resolve.resolved import Resolved

_FIXED_POINT_STEPS = 3  # converges in one step while goodput is independent of run length


def deadline_result(
    w: Workload, r: Resolved, acc: AcceleratorSpec, sizing: ClusterSizing, searches: Searches
) -> DeadlineResult:
    """Whether the deadline is met, and if not the fastest run and what would fit.

    ``sizing.fastest`` is ``None`` when the customer fixed the count (no search).
    """
    if not sizing.run.plan.fits:
        least = searches.run(sizing.min_gpus) if sizing.min_gpus else None
        return DeadlineResult(
            met=None,
            fastest_gpus=None,
            fastest_days=None,
            tokens_within_deadline=None,
            params_within_deadline=None,
            fits=False,
            min_gpus=sizing.min_gpus or None,
            min_gpus_wall_clock_days=least.wall_clock_days if least else None,
            min_gpus_gpu_hours=least.gpu_hours if least else None,
            min_gpus_meets_deadline=least.wall_clock_days <= r.deadline_days if least else None,
        )
    total_flops = searches.total_flops
    if sizing.deadline_met:
        return DeadlineResult(
            met=True,
            fastest_gpus=None,
            fastest_days=None,
            tokens_within_deadline=None,
            params_within_deadline=None,
        )
    run = sizing.run
    fastest = sizing.fastest
    share = _share_within_deadline(r, acc, run, total_flops)
    attention = attention_flops_per_token(w.layers, w.hidden, w.seq, w.causal)
    param_flops = w.model_flops_per_token - attention
    param_share = max(0.0, (share * w.model_flops_per_token - attention) / param_flops)
    return DeadlineResult(
        met=False,
        fastest_gpus=fastest.gpus if fastest else None,
        fastest_days=fastest.wall_clock_days if fastest else None,
        tokens_within_deadline=r.tokens * share,
        params_within_deadline=r.total_params * param_share,
    )


def _share_within_deadline(
    r: Resolved, acc: AcceleratorSpec, run: RunEstimate, total_flops: float
) -> float:
    """Share of the run's FLOPs that ``run``'s plan completes within the deadline [-]."""
    share = 1.0
    days = run.wall_clock_days
    for _ in range(_FIXED_POINT_STEPS):
        share *= r.deadline_days / days
        days = time_plan(run.plan, r, acc, total_flops * share).wall_clock_days
    return share
