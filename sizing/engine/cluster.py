"""Cluster size and timeline: GPU-hours, wall-clock days, the trade-off table.

One run needs ``F`` model FLOPs.  On ``n`` accelerators of peak ``P`` at
utilisation ``MFU`` (:mod:`sizing.engine.efficiency`) and goodput ``g``
(:mod:`sizing.engine.resilience`)::

    wall_clock_hours = F / (n * P * MFU) / 3600 / g        [h]
    gpu_hours        = n * wall_clock_hours                [GPU-h]

The recommended size is the smallest whole number of nodes (or, below one
node, power-of-two GPUs) that meets the deadline and fits in memory.

References
----------
.. [1] Narayanan et al., arXiv 2104.04473 (2021), eq. 4: training time
       ~ 8 T P / (n X) with recomputation (6 T P without).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .hardware import AcceleratorSpec, peak_tflops
from .parallelism import Plan, Workload, search_plan
from .resilience import ResilienceResult, plan_resilience
from .resolve import Resolved

_FLOPS_PER_TFLOP = 1e12
_SECONDS_PER_HOUR = 3600.0
_MINUTES_PER_HOUR = 60.0
_HOURS_PER_DAY = 24.0
_MIN_MFU = 1e-6  # [-] guards the division when a plan computes nothing useful
SUB_NODE_GPUS = (1, 2, 4, 8, 16, 32, 64)  # sizes below one node: powers of two


@dataclass(frozen=True)
class RunEstimate:
    """One run on ``gpus`` accelerators."""

    gpus: int
    nodes: int
    plan: Plan
    compute_hours: float  # [h] failure-free wall clock
    wall_clock_days: float  # [d]
    gpu_hours: float  # [GPU-h] including lost time
    resilience: ResilienceResult


def nodes_for(gpus: int, per_node: int) -> int:
    """Whole nodes that hold ``gpus`` accelerators (at least one)."""
    return max(1, -(-gpus // per_node))


def estimate_run(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    gpus: int,
    total_flops: float,
) -> RunEstimate:
    """Plan and time one run of ``total_flops`` model FLOPs on ``gpus`` accelerators."""
    plan = search_plan(w, r, acc, gpus)
    peak = peak_tflops(acc, w.precision)
    rate = gpus * peak * _FLOPS_PER_TFLOP * max(plan.mfu, _MIN_MFU)  # [FLOP/s]
    compute_hours = total_flops / rate / _SECONDS_PER_HOUR
    nodes = nodes_for(gpus, r.gpus_per_node)
    res = plan_resilience(
        gpus=gpus,
        nodes=nodes,
        compute_hours=compute_hours,
        write_hours=r.checkpoint_minutes_max / _MINUTES_PER_HOUR,
        max_lost_hours=r.max_lost_hours,
        forced_interval_hours=r.checkpoint_interval_hours,
    )
    wall_hours = compute_hours / res.goodput
    return RunEstimate(
        gpus=gpus,
        nodes=nodes,
        plan=plan,
        compute_hours=compute_hours,
        wall_clock_days=wall_hours / _HOURS_PER_DAY,
        gpu_hours=wall_hours * gpus,
        resilience=res,
    )


MAX_NODES = 16384  # [nodes] search ceiling (131,072 GPUs at 8 per node)


def size_cluster(
    w: Workload, r: Resolved, acc: AcceleratorSpec, total_flops: float
) -> tuple[RunEstimate, int]:
    """Smallest run that meets the deadline, and the memory minimum [GPUs].

    Returns the estimate for the chosen size and ``min_gpus`` (the smallest
    count with a plan that fits; ``0`` when nothing fits up to the ceiling).
    """
    per_node = r.gpus_per_node
    cache: dict[int, RunEstimate] = {}

    def run(gpus: int) -> RunEstimate:
        if gpus not in cache:
            cache[gpus] = estimate_run(w, r, acc, gpus, total_flops)
        return cache[gpus]

    min_gpus = _memory_minimum(run, per_node)
    if not min_gpus:
        return run(MAX_NODES * per_node), 0
    return _deadline_size(run, per_node, min_gpus, r.deadline_days), min_gpus


def _memory_minimum(run: Callable[[int], RunEstimate], per_node: int) -> int:
    """Fewest GPUs with a plan that fits: sub-node sizes, then doubling nodes, then bisection.

    ``0`` when nothing fits up to :data:`MAX_NODES`.
    """
    for gpus in (g for g in SUB_NODE_GPUS if g < per_node):
        if run(gpus).plan.fits:
            return gpus
    hi = 1
    while hi <= MAX_NODES and not run(hi * per_node).plan.fits:
        hi *= 2
    if hi > MAX_NODES:
        return 0
    lo = hi // 2  # lo nodes does not fit (or 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if run(mid * per_node).plan.fits:
            hi = mid
        else:
            lo = mid
    return hi * per_node


def _deadline_size(
    run: Callable[[int], RunEstimate], per_node: int, min_gpus: int, deadline_days: float
) -> RunEstimate:
    """Smallest count from ``min_gpus`` up that meets the deadline (days fall as GPUs grow).

    Sub-node sizes first, then doubling whole nodes and bisecting; the
    ceiling of :data:`MAX_NODES` when no size meets it.
    """

    def meets_deadline(gpus: int) -> bool:
        return run(gpus).wall_clock_days <= deadline_days

    for gpus in (g for g in SUB_NODE_GPUS if min_gpus <= g < per_node):
        if meets_deadline(gpus):
            return run(gpus)
    lo_nodes = max(1, min_gpus // per_node)
    if meets_deadline(lo_nodes * per_node):
        return run(lo_nodes * per_node)
    hi = lo_nodes * 2
    while hi <= MAX_NODES and not meets_deadline(hi * per_node):
        lo_nodes, hi = hi, hi * 2
    if hi > MAX_NODES:
        return run(MAX_NODES * per_node)
    while hi - lo_nodes > 1:
        mid = (lo_nodes + hi) // 2
        if meets_deadline(mid * per_node):
            hi = mid
        else:
            lo_nodes = mid
    return run(hi * per_node)
