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

from dataclasses import dataclass

from .hardware import AcceleratorSpec, peak_tflops
from .parallelism import Plan, Workload, search_plan
from .resilience import ResilienceResult, plan_resilience
from .resolve import Resolved


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
    return max(1, -(-gpus // per_node))


def estimate_run(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    gpus: int,
    total_flops: float,
    *,
    nic_gbps_per_gpu: float | None = None,
) -> RunEstimate:
    """Plan and time one run of ``total_flops`` model FLOPs on ``gpus`` accelerators."""
    plan = search_plan(w, r, acc, gpus, nic_gbps_per_gpu=nic_gbps_per_gpu)
    rate = gpus * peak_tflops(acc, w.precision) * 1e12 * max(plan.mfu, 1e-6)  # [FLOP/s]
    compute_hours = total_flops / rate / 3600.0
    nodes = nodes_for(gpus, r.gpus_per_node)
    res = plan_resilience(
        gpus=gpus,
        nodes=nodes,
        compute_hours=compute_hours,
        write_hours=r.checkpoint_minutes_max / 60.0,
        max_lost_hours=r.max_lost_hours,
        forced_interval_hours=r.checkpoint_interval_hours,
    )
    wall_hours = compute_hours / res.goodput
    return RunEstimate(gpus, nodes, plan, compute_hours, wall_hours / 24.0, wall_hours * gpus, res)


def candidate_counts(per_node: int, max_nodes: int) -> list[int]:
    """1, 2, 4 ... up to one node, then whole nodes."""
    small = [g for g in (1, 2, 4, 8, 16, 32, 64) if g < per_node]
    return small + [per_node * k for k in range(1, max_nodes + 1)]


MAX_NODES = 16384  # [nodes] search ceiling (131,072 GPUs at 8 per node)


def size_cluster(
    w: Workload, r: Resolved, acc: AcceleratorSpec, total_flops: float
) -> tuple[RunEstimate, int]:
    """Smallest run that meets the deadline, and the memory minimum [GPUs].

    Returns the estimate for the chosen size and ``min_gpus`` (the smallest
    count with a plan that fits; ``0`` when nothing fits up to the ceiling).
    """
    per_node = r.gpus_per_node
    small = [g for g in (1, 2, 4, 8, 16, 32, 64) if g < per_node]
    cache: dict[int, RunEstimate] = {}

    def run(g: int) -> RunEstimate:
        if g not in cache:
            cache[g] = estimate_run(w, r, acc, g, total_flops)
        return cache[g]

    # memory minimum: scan sub-node sizes, then double nodes, then bisect
    min_gpus = 0
    for g in small:
        if run(g).plan.fits:
            min_gpus = g
            break
    if not min_gpus:
        hi = 1
        while hi <= MAX_NODES and not run(hi * per_node).plan.fits:
            hi *= 2
        if hi <= MAX_NODES:
            lo = hi // 2  # lo nodes does not fit (or 0)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if run(mid * per_node).plan.fits:
                    hi = mid
                else:
                    lo = mid
            min_gpus = hi * per_node
    if not min_gpus:
        return run(MAX_NODES * per_node), 0

    # deadline: smallest count >= min_gpus meeting it (days fall as GPUs grow)
    def ok(g: int) -> bool:
        return run(g).wall_clock_days <= r.deadline_days

    for g in [s for s in small if s >= min_gpus]:
        if ok(g):
            return run(g), min_gpus
    lo_nodes = max(1, min_gpus // per_node)
    if ok(lo_nodes * per_node):
        return run(lo_nodes * per_node), min_gpus
    hi = lo_nodes * 2
    while hi <= MAX_NODES and not ok(hi * per_node):
        lo_nodes, hi = hi, hi * 2
    if hi > MAX_NODES:
        return run(MAX_NODES * per_node), min_gpus
    while hi - lo_nodes > 1:
        mid = (lo_nodes + hi) // 2
        if ok(mid * per_node):
            hi = mid
        else:
            lo_nodes = mid
    return run(hi * per_node), min_gpus
