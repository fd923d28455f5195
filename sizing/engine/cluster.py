"""Cluster size and timeline: GPU-hours, wall-clock days, the trade-off table.

One run needs ``F`` model FLOPs.  On ``n`` accelerators of peak ``P`` at
utilisation ``MFU`` (:mod:`sizing.engine.efficiency`) and goodput ``g``
(:mod:`sizing.engine.resilience`)::

    wall_clock_hours = F / (n * P * MFU) / 3600 / g        [h]
    gpu_hours        = n * wall_clock_hours                [GPU-h]

The recommended size is the smallest node count that splits evenly
(:func:`even_nodes`; below one node, power-of-two GPUs) that meets the
deadline and fits in memory.

Time does not always fall as GPUs grow: past some size the data-parallel
degree runs out of sequences, pipelines deepen into their bubble and
failures eat the gain, so the time curve has a minimum.  The search walks
sizes from the memory minimum, doubling powers of two of nodes after it,
and stops where the time stops
falling.  When no size on that walk meets the deadline, the recommendation
is the *knee* of the curve: the last size before a doubling whose marginal
efficiency::

    E_m = (t(n) / t(k n) - 1) / (k - 1)      (k = 2 on the walk, 1.5-3 at its first step)

(the share of the added GPUs' work that shortens the run) falls below
``knee_marginal_efficiency`` [2]_ [3]_.  The knee is never beyond the
minimum of the time curve, so more GPUs never make the recommended run slower.

References
----------
.. [1] Narayanan et al., arXiv 2104.04473 (2021), eq. 4: training time
       ~ 8 T P / (n X) with recomputation (6 T P without).
.. [2] Llama 3 Herd of Models, arXiv 2407.21783 (2024), Table 4: 8,192 to
       16,384 H100 at 43 % to 41 % MFU (a doubling ~95 % efficient).
.. [3] Jiang et al., MegaScale, arXiv 2402.15627 (2024), Table 2 (strong
       scaling of a 175B model to 12,288 GPUs).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .assumptions import value
from .hardware import AcceleratorSpec, peak_tflops
from .parallelism import (
    PLAN_ANSWERS,
    ActivationCache,
    CostModelCache,
    HfuCache,
    Plan,
    Workload,
    any_plan_fits,
    search_plan,
)
from .resilience import ResilienceResult, plan_resilience
from .resolve.resolved import Resolved
from .units import HOURS_PER_DAY, MINUTES_PER_HOUR, SECONDS_PER_HOUR

_FLOPS_PER_TFLOP = 1e12
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
    hfu_cache: HfuCache | None = None,
    hint: Plan | None = None,
    activation_cache: ActivationCache | None = None,
) -> RunEstimate:
    """Plan and time one run of ``total_flops`` model FLOPs on ``gpus`` accelerators
    (``hfu_cache``, ``hint`` and ``activation_cache``: :func:`parallelism.search_plan`)."""
    plan = search_plan(w, r, acc, gpus, hfu_cache, hint, activation_cache)
    return time_plan(plan, r, acc, total_flops)


def time_plan(plan: Plan, r: Resolved, acc: AcceleratorSpec, total_flops: float) -> RunEstimate:
    """Time one run of ``total_flops`` model FLOPs with ``plan`` (see module docstring).

    The plan depends on the step, not on the length of the run, so a run of
    other FLOPs on the same cluster is timed without searching again.
    """
    gpus = plan.gpus
    peak = peak_tflops(acc, r.precision)
    rate = gpus * peak * _FLOPS_PER_TFLOP * max(plan.mfu, _MIN_MFU)  # [FLOP/s]
    compute_hours = total_flops / rate / SECONDS_PER_HOUR
    nodes = nodes_for(gpus, r.gpus_per_node)
    res = plan_resilience(
        gpus=gpus,
        nodes=nodes,
        compute_hours=compute_hours,
        write_hours=r.checkpoint_minutes_max / MINUTES_PER_HOUR,
        max_lost_hours=r.max_lost_hours,
        forced_interval_hours=r.checkpoint_interval_hours,
    )
    wall_hours = compute_hours / res.goodput
    return RunEstimate(
        gpus=gpus,
        nodes=nodes,
        plan=plan,
        compute_hours=compute_hours,
        wall_clock_days=wall_hours / HOURS_PER_DAY,
        gpu_hours=wall_hours * gpus,
        resilience=res,
    )


MAX_NODES = 16384  # [nodes] search ceiling (131,072 GPUs at 8 per node)


@dataclass(frozen=True)
class ClusterSizing:
    """The recommended run, the memory minimum and whether the deadline is met.

    ``fastest`` is the fastest size the search found when no size meets the
    deadline (``None`` when one does).
    """

    run: RunEstimate
    min_gpus: int  # [GPUs] 0 when nothing fits up to the ceiling
    deadline_met: bool
    fastest: RunEstimate | None


class FoundPlans:
    """The plans searched in one call of :func:`sizing.engine.core.size`, each kept by what
    its search reads: the workload, the accelerator, the count and :data:`PLAN_ANSWERS`.

    The estate's steps (:mod:`sizing.engine.owned_first`) size the same answers again with
    another deadline, budget or count, and the NVIDIA peer (:mod:`sizing.engine.peer`) sizes
    them on an accelerator the alternatives searched: many of their plans were found already.
    It lives for one sizing, so no plan outlives the tables it was found with.
    """

    def __init__(self) -> None:
        self._found: dict[tuple[object, ...], Plan] = {}

    def search(self, searches: Searches, gpus: int, hint: Plan | None) -> Plan:
        """:func:`parallelism.search_plan` of ``searches``' workload, answers and accelerator
        on ``gpus``, searched once for the same workload, accelerator, count and
        :data:`PLAN_ANSWERS` (``hint`` only orders the search: the plan is the same)."""
        w, r, acc = searches.w, searches.r, searches.acc
        key = (w, acc, gpus, *(getattr(r, name) for name in PLAN_ANSWERS))
        found = self._found.get(key)
        if found is None:
            found = search_plan(
                w, r, acc, gpus, searches.hfu, hint, searches.activations, searches.cost_models
            )
            self._found[key] = found
        return found


@dataclass(frozen=True)
class Searches:
    """The plan searches of one run on one accelerator, each GPU count searched once.

    The plan search (:mod:`sizing.engine.parallelism`) is nearly all of a
    sizing's time, and the size search, the memory minimum and the trade-off
    table ask for some of the same counts.  One :class:`Searches` serves one
    workload, set of answers, accelerator and run length.  Whether a count fits
    depends on the accelerator only through its memory, so ``fitting`` may be
    shared by accelerators with the same memory in one sizing (a test checks
    that dependence).  ``hfu`` holds the compute utilisation of the step
    costs, which depends on the workload and the accelerator only; ``activations``
    the activation memory, which depends on the workload only and may be shared by
    every accelerator of one sizing.
    """

    w: Workload
    r: Resolved
    acc: AcceleratorSpec
    total_flops: float  # [FLOP]
    runs: dict[int, RunEstimate] = field(default_factory=dict)
    fitting: dict[int, bool] = field(default_factory=dict)
    hfu: HfuCache = field(default_factory=dict)
    activations: ActivationCache = field(default_factory=dict)
    cost_models: CostModelCache = field(default_factory=dict)  # step costs, with ``hfu``
    first_hint: Plan | None = None  # explored first by the first search (another sizing's plan)
    plans: FoundPlans = field(default_factory=FoundPlans)  # shared by a sizing's steps

    def run(self, gpus: int) -> RunEstimate:
        """The run on ``gpus`` accelerators (:func:`estimate_run`)."""
        found = self.runs.get(gpus)
        if found is None:
            hint = self.runs[max(self.runs)].plan if self.runs else self.first_hint
            plan = self.plans.search(self, gpus, hint)
            found = time_plan(plan, self.r, self.acc, self.total_flops)
            self.runs[gpus] = found
        return found

    def fits(self, gpus: int) -> bool:
        """Whether some plan fits in memory on ``gpus`` accelerators."""
        found = self.fitting.get(gpus)
        if found is None:
            found = any_plan_fits(self.w, self.r, self.acc, gpus, self.activations)
            self.fitting[gpus] = found
        return found

    def memory_minimum(self) -> int:
        """Fewest GPUs with a plan that fits, whatever count the customer gave.

        ``0`` when nothing fits up to :data:`MAX_NODES`.
        """
        return _memory_minimum(self.fits, self.r.gpus_per_node)


def size_cluster(
    w: Workload, r: Resolved, acc: AcceleratorSpec, total_flops: float
) -> ClusterSizing:
    """Smallest run that meets the deadline, else the knee of the time curve.

    ``min_gpus`` is the smallest count with a plan that fits (``0`` when
    nothing fits up to the ceiling).
    """
    return size_searched(Searches(w, r, acc, total_flops))


def size_searched(searches: Searches) -> ClusterSizing:
    """:func:`size_cluster`, reusing and adding to the plan searches of ``searches``."""
    r = searches.r
    min_gpus = searches.memory_minimum()
    if not min_gpus:
        ceiling = searches.run(MAX_NODES * r.gpus_per_node)
        met = ceiling.plan.fits and ceiling.wall_clock_days <= r.deadline_days
        return ClusterSizing(ceiling, 0, met, None if met else ceiling)
    return _deadline_size(searches.run, r.gpus_per_node, min_gpus, r.deadline_days)


# Searches an estimate-and-correct sizing tries before it walks the full ladder instead.
_CORRECTIONS = 4
_ROUNDING = 1e-9  # a ratio of exactly one node count must not round up to the next
# Odd parts of the node counts an estimate-and-correct sizing tries: 1, 2, 3, 4, 5, 6, 7, 8,
# 10, 12, 14, 16, 20 ... nodes, at most a quarter apart.  Counts with a large odd factor
# (317 nodes) leave the parallel degrees few ways to divide them and can run far slower
# than their neighbours.
_EVEN_ODD_PARTS = (1, 3, 5, 7)


def even_nodes(nodes: int) -> int:
    """The smallest node count of the form ``o * 2^k`` (``o`` in 1, 3, 5, 7) at least ``nodes``."""
    best = 0
    for odd in _EVEN_ODD_PARTS:
        power = 1
        while odd * power < nodes:
            power *= 2
        if not best or odd * power < best:
            best = odd * power
    return best


def size_from_estimate(searches: Searches, estimate_gpus: float) -> RunEstimate | None:
    """The fewest nodes that meet the deadline among :func:`even_nodes` counts near ``estimate_gpus``.

    Each step searches one size and corrects the node count by the time it
    found, assuming time falls in proportion to the nodes (the utilisation of
    neighbouring sizes differs by a few per cent)::

        nodes' = even_nodes(ceil(nodes * days / deadline))

    It returns the smallest searched size that meets the deadline once the
    correction asks for no fewer nodes: usually two or three searches where the
    walk from the memory minimum and a bisection take ten or more.  When time
    rises with more nodes, or the ceiling misses the deadline, the deadline
    cannot be met: the knee of a walk from a quarter of the smallest size
    searched is returned (:func:`_knee_near`).  ``None`` when the estimate
    cannot settle it: below one node, a size that does not fit, or no agreement
    within ``_CORRECTIONS`` searches; the caller then sizes as
    :func:`size_searched`.
    """
    r = searches.r
    per_node = r.gpus_per_node
    if estimate_gpus < per_node:
        return None
    nodes = min(even_nodes(nodes_for(math.ceil(estimate_gpus), per_node)), MAX_NODES)
    met: RunEstimate | None = None  # the smallest searched size that meets the deadline
    missed = 0  # the largest searched node count that misses it
    previous: RunEstimate | None = None
    for _ in range(_CORRECTIONS):
        est = searches.run(nodes * per_node)
        if not est.plan.fits:
            return None
        if (
            previous is not None
            and est.gpus > previous.gpus
            and est.wall_clock_days >= previous.wall_clock_days
        ):
            return _knee_near(searches)  # past the minimum of the time curve
        if est.wall_clock_days <= r.deadline_days:
            if met is None or est.gpus < met.gpus:
                met = est
        else:
            missed = max(missed, nodes)
        wanted = math.ceil(nodes * est.wall_clock_days / r.deadline_days - _ROUNDING)
        wanted = even_nodes(max(wanted, missed + 1))
        if met is not None and wanted >= met.nodes:
            return met  # the correction asks for no fewer nodes than a size that meets it
        if wanted > MAX_NODES:
            if nodes == MAX_NODES:
                return _knee_near(searches)  # even the ceiling misses the deadline
            wanted = MAX_NODES
        previous, nodes = est, wanted
    return None


def _knee_near(searches: Searches) -> RunEstimate:
    """The knee (module docstring) of the walk from a quarter of the smallest size searched.

    Two doublings below it are enough to see where doubling stops paying near the sizes the
    estimate tried, without walking up from the memory minimum; when a quarter does not fit,
    the walk starts at the smallest size searched (every size searched so far fits).
    """
    r = searches.r
    smallest = min(searches.runs)
    start = max(r.gpus_per_node, smallest // 4 // r.gpus_per_node * r.gpus_per_node)
    if not searches.fits(start):
        start = smallest
    return _deadline_size(searches.run, r.gpus_per_node, start, r.deadline_days).run


def marginal_efficiency(smaller: RunEstimate, larger: RunEstimate) -> float:
    """Share of the added GPUs' work that shortens the run [-] [2]_.

    ``(t_small / t_large - 1) / (n_large / n_small - 1)``: 1 for perfect
    strong scaling, 0 when the added GPUs change nothing, negative when they
    slow the run down.
    """
    speedup = smaller.wall_clock_days / larger.wall_clock_days
    return (speedup - 1.0) / (larger.gpus / smaller.gpus - 1.0)


def _memory_minimum(fits: Callable[[int], bool], per_node: int) -> int:
    """Fewest GPUs with a plan that fits: sub-node sizes, then doubling nodes, then bisection.

    ``0`` when nothing fits up to :data:`MAX_NODES`.
    """
    for gpus in (g for g in SUB_NODE_GPUS if g < per_node):
        if fits(gpus):
            return gpus
    hi = 1
    while hi <= MAX_NODES and not fits(hi * per_node):
        hi *= 2
    if hi > MAX_NODES:
        return 0
    lo = hi // 2  # lo nodes does not fit (or 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid * per_node):
            hi = mid
        else:
            lo = mid
    return hi * per_node


# The walk's first step from a memory minimum that is not a power of two reaches a power of
# two at least this many times larger (so 1.5 to 3 times): the trade-off table lists powers
# of two, so the walk and the table share their searches, and a short first step would
# compare two sizes too close to tell a trend from the odd layout of one of them.
_FIRST_STEP = 1.5


def _ladder(per_node: int, min_gpus: int) -> list[int]:
    """Sizes the search walks: sub-node powers of two, the memory minimum in whole nodes,
    then doubling powers of two of nodes."""
    sizes = [g for g in SUB_NODE_GPUS if min_gpus <= g < per_node]
    nodes = max(1, min_gpus // per_node)
    sizes.append(nodes * per_node)
    power = 1
    while power <= nodes * _FIRST_STEP:
        power *= 2
    while power <= MAX_NODES:
        sizes.append(power * per_node)
        power *= 2
    return sizes


def _deadline_size(
    run: Callable[[int], RunEstimate],
    per_node: int,
    min_gpus: int,
    deadline_days: float,
) -> ClusterSizing:
    """Smallest count from ``min_gpus`` up that meets the deadline, else the knee.

    Walks :func:`_ladder` while the time still falls; bisects even node counts
    between the last size that misses the deadline and the first that meets
    it.  When none meets it, the knee (module docstring) is recommended.
    """
    threshold = value("knee_marginal_efficiency")
    prev: RunEstimate | None = None
    knee: RunEstimate | None = None
    for gpus in _ladder(per_node, min_gpus):
        est = run(gpus)
        if prev is not None and est.wall_clock_days >= prev.wall_clock_days:
            break  # past the minimum of the time curve
        if est.wall_clock_days <= deadline_days:
            if prev is not None and prev.gpus >= per_node:
                est = _bisect_nodes(
                    run, per_node, prev.gpus // per_node, gpus // per_node, deadline_days
                )
            return ClusterSizing(est, min_gpus, True, None)
        if prev is not None and knee is None and marginal_efficiency(prev, est) < threshold:
            knee = prev
        prev = est
    assert prev is not None  # the ladder starts at the memory minimum
    return ClusterSizing(knee or prev, min_gpus, False, prev)


def _bisect_nodes(
    run: Callable[[int], RunEstimate], per_node: int, lo: int, hi: int, deadline_days: float
) -> RunEstimate:
    """Fewest nodes in ``(lo, hi]`` meeting the deadline (``lo`` misses it, ``hi`` meets it),
    among the :func:`even_nodes` counts and ``hi``."""
    counts = _even_counts_between(lo, hi)
    low, high = -1, len(counts) - 1  # counts[high] meets the deadline, counts[low] misses it
    while high - low > 1:
        mid = (low + high) // 2
        if run(counts[mid] * per_node).wall_clock_days <= deadline_days:
            high = mid
        else:
            low = mid
    return run(counts[high] * per_node)


def _even_counts_between(lo: int, hi: int) -> list[int]:
    """The :func:`even_nodes` counts in ``(lo, hi)``, then ``hi`` itself, ascending."""
    counts = set()
    for odd in _EVEN_ODD_PARTS:
        power = 1
        while odd * power < hi:
            if odd * power > lo:
                counts.add(odd * power)
            power *= 2
    return [*sorted(counts), hi]
