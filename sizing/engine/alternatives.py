"""The other accelerators: every allowed one sized for the same run, and the excluded ones.

An accelerator is excluded when the customer's makers or software rule it out
(:mod:`sizing.engine.platforms`), with the reason in words.  The others are sized for the
same run (on the given count, else on the size that meets the deadline) and ranked: those
that fit first, then (when the recommended run meets the deadline on a size of our choosing)
those that meet it too, then those whose GPU-cloud price is published (a list price or a public quote,
:func:`sizing.engine.cost.accelerator_prices.cloud_price_confirmed`) before those with an estimated
one, then the cheapest run; an accelerator with no public GPU-cloud price has no run cost and
ranks after every priced one.  At most :data:`MAX_ALTERNATIVES` are listed, the best of each
maker always among them.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from functools import cached_property

from .cluster import FoundPlans, RunEstimate, Searches, size_from_estimate, size_searched
from .cost.accelerator_prices import cloud_price_confirmed, gpu_cloud_price
from .cost.price_set import purchase_per_gpu
from .efficiency import workload_factor
from .frozen_copies import with_changes
from .hardware import ACCELERATORS, AcceleratorSpec, peak_tflops, training_precision
from .output import Alternative
from .parallelism import (
    ActivationCache,
    HfuCache,
    Plan,
    Workload,
    best_case_hfu,
    cost_on_fabric,
    mfu_ceiling_from,
    workload,
)
from .platforms import exclusion
from .resilience import highest_goodput
from .resolve.resolved import Resolved
from .units import HOURS_PER_DAY, SECONDS_PER_HOUR

MAX_ALTERNATIVES = 6  # alternatives listed
_FLOPS_PER_TFLOP = 1e12
# Rounds of the deadline bound (:func:`_best_case_in_time`): each lowers the rate the next
# count is worked out from; on DeepSeek-V3 the fourth changed it by under 0.5 %.
_IN_TIME_ROUNDS = 4
_IN_TIME_SETTLED = 0.99  # [-] a round that lowers the rate by less than 1 % ends them
# price, price not confirmed, run cost [USD]
_RankKey = tuple[bool, bool, bool, bool, float]


@dataclass(frozen=True)
class MemoryCache:
    """The memory worked out in one sizing, shared by its accelerators (``cluster.Searches``).

    ``fitting`` holds the memory checks by GPU count, per accelerator memory [GB], for the
    accelerators with the same memory; ``activations`` the activation memory, the same on
    every accelerator.
    """

    fitting: dict[float, dict[int, bool]] = field(default_factory=dict)
    activations: ActivationCache = field(default_factory=dict)


def searches_for(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    flops: float,
    shared: MemoryCache,
    hint: Plan | None = None,
    plans: FoundPlans | None = None,
) -> Searches:
    """The plan searches of one run on ``acc``, sharing memory with the sizing's other
    accelerators, and ``plans`` with its other steps (:class:`cluster.FoundPlans`)."""
    return Searches(
        w,
        r,
        acc,
        flops,
        fitting=shared.fitting.setdefault(acc.memory_gb, {}),
        activations=shared.activations,
        first_hint=hint,
        plans=FoundPlans() if plans is None else plans,
    )


def _sized_run(searches: Searches, reference: Reference) -> RunEstimate:
    """The run on the given count, else on the size that meets the deadline.

    The size is searched near an estimate from the recommended run
    (:func:`cluster.size_from_estimate`): its GPU-hours scaled by the ratio of
    the recommended plan's rates on the two accelerators, over the deadline.  When the
    recommended run cannot meet the deadline either, the alternative is shown
    on the same number of accelerators, so the table compares like with like.
    """
    r = searches.r
    if r.count is not None:
        return searches.run(r.count)
    if not reference.deadline_met:
        same = searches.run(reference.run.gpus)
        if same.plan.fits:
            return same
        return size_searched(searches).run
    rate_ratio = reference.plan_rate / _plan_rate(reference, searches.w, r, searches.acc)
    estimate = reference.run.gpu_hours * rate_ratio / (r.deadline_days * HOURS_PER_DAY)
    near = size_from_estimate(searches, estimate)
    return near if near is not None else size_searched(searches).run


def exclusion_of(r: Resolved, acc: AcceleratorSpec) -> str | None:
    """Why the customer's makers or software rule ``acc`` out; ``None`` when they do not."""
    return exclusion(
        acc,
        vendors=r.vendors,
        frameworks=r.frameworks,
        custom_cuda_kernels=r.custom_cuda_kernels,
    )


@dataclass(frozen=True)
class Reference:
    """The recommended run the alternatives are sized against."""

    r: Resolved
    acc: AcceleratorSpec
    run: RunEstimate
    deadline_met: bool

    @cached_property
    def plan_rate(self) -> float:
        """Model FLOPs per second of one of its accelerators on its plan (:func:`_plan_rate`)
        [FLOP/s], worked out once for all the alternatives sized against it."""
        return _plan_rate(self, workload(self.r), self.r, self.acc)


def compare_accelerators(
    reference: Reference,
    flops: float,
    shared: MemoryCache | None = None,
    plans: FoundPlans | None = None,
) -> tuple[tuple[Alternative, ...], tuple[str, ...]]:
    """Every other allowed accelerator sized for the same run, and the excluded ones.

    ``shared`` holds the memory worked out in this sizing so far and ``plans`` the plans its
    steps searched (see :func:`searches_for`).
    """
    r = reference.r
    shared = MemoryCache() if shared is None else shared
    alts: list[Alternative] = []
    excluded: list[str] = []
    candidates: list[AcceleratorSpec] = []
    for acc in ACCELERATORS.values():
        if acc.id == r.accelerator:
            continue
        reason = exclusion_of(r, acc)
        if reason:
            excluded.append(f"{acc.name}: {reason}")
        else:
            candidates.append(acc)
    # The same for every accelerator that runs the precision asked; one without it (FP8 on
    # an A100) runs BF16: another workload, with memory checks of its own.
    precisions = {acc.id: training_precision(r.precision_asked, acc) for acc in candidates}
    workloads = {r.precision: workload(r)}
    memories = {r.precision: shared}
    for acc in candidates:
        if precisions[acc.id] not in workloads:
            workloads[precisions[acc.id]] = workload(_with_accelerator(r, acc))
            memories[precisions[acc.id]] = MemoryCache()
    deadline = _deadline_to_meet(reference)
    best_cases = {
        acc.id: _best_case_key(workloads[precisions[acc.id]], acc, flops) for acc in candidates
    }
    # Every maker among the candidates will be listed (an accelerator is skipped only when
    # its maker already has a better one), so the slots left for the rest are known now.
    open_slots = max(0, MAX_ALTERNATIVES - len({acc.vendor for acc in candidates}))
    # Accelerators are taken from the best case up; the deadline's tighter bound is worked
    # out only for one that comes next, which then waits its turn by that bound, and only
    # once its maker has one sized (until then it would be its maker's best: never skipped).
    queue = [(best_cases[acc.id], i, False) for i, acc in enumerate(candidates)]
    searched: dict[int, Searches] = {}  # by candidate: its bound and its sizing share them
    heapq.heapify(queue)
    while queue:
        best_case, i, tight = heapq.heappop(queue)
        acc = candidates[i]
        if _cannot_be_listed(alts, acc, best_case, open_slots, deadline):
            continue  # sizing it cannot change the list: skip the search
        w = workloads[precisions[acc.id]]
        if i not in searched:
            memory = memories[precisions[acc.id]]
            # the answers on ``acc`` are made only for those sized (most never are)
            rr = _with_accelerator(r, acc)
            searched[i] = searches_for(w, rr, acc, flops, memory, reference.run.plan, plans)
        searches = searched[i]
        rr = searches.r
        if deadline is not None and not tight and _maker_sized(alts, acc):
            in_time = _best_case_in_time(w, rr, acc, flops, deadline, searches.hfu)
            heapq.heappush(queue, (in_time, i, True))
            continue
        est = _sized_run(searches, reference)
        hourly = gpu_cloud_price(acc.id)
        alts.append(
            Alternative(
                accelerator=acc.id,
                name=acc.name,
                gpus=est.gpus,
                nodes=est.nodes,
                wall_clock_days=est.wall_clock_days,
                gpu_hours=est.gpu_hours,
                run_cost_usd=None if hourly is None else est.gpu_hours * hourly,
                servers_usd=_servers_usd(acc, est.nodes * rr.gpus_per_node),
                fits=est.plan.fits,
                price_confirmed=cloud_price_confirmed(acc.id),
                precision=rr.precision,
            )
        )
    return _shortlist(alts, deadline), tuple(excluded)


def _servers_usd(acc: AcceleratorSpec, gpus: int) -> float | None:
    """Its servers bought at the public purchase price (:func:`price_set.purchase_per_gpu`,
    accelerators and their share of the server) [USD]; ``None`` without a public price.

    Whole servers, so a customer who must own the hardware compares what each choice buys.
    """
    price = purchase_per_gpu(acc.id)
    return None if price is None else gpus * price.value


def _maker_sized(alts: list[Alternative], acc: AcceleratorSpec) -> bool:
    """Whether an accelerator of ``acc``'s maker is already among ``alts``."""
    return any(ACCELERATORS[alt.accelerator].vendor == acc.vendor for alt in alts)


def _deadline_to_meet(reference: Reference) -> float | None:
    """The deadline the alternatives are ranked against [d]: the customer's, when the
    recommended run meets it on a size of our choosing; ``None`` otherwise (they run on the
    customer's count, or on the recommended run's when no size meets the deadline)."""
    r = reference.r
    return r.deadline_days if reference.deadline_met and r.count is None else None


def _plan_rate(reference: Reference, w: Workload, r: Resolved, acc: AcceleratorSpec) -> float:
    """Model FLOPs per second of one ``acc`` running the recommended plan [FLOP/s].

    The same layout on ``acc``'s own links, in the precision ``r`` runs on it (its workload
    ``w``): an estimate (the plan may not fit on ``acc``, or another plan may suit it better),
    which :func:`cluster.size_from_estimate` corrects.
    """
    plan = reference.run.plan
    cost = cost_on_fabric(
        w,
        acc,
        plan,
        gpus_per_node=r.gpus_per_node,
        nic_gbps_per_gpu=r.nic_gbps_per_gpu or acc.nic_gbps_per_gpu,
        oversubscription=r.oversubscription or 1.0,
    )
    return peak_tflops(acc, r.precision) * _FLOPS_PER_TFLOP * cost.mfu


def _best_case_rate(w: Workload, acc: AcceleratorSpec) -> float:
    """Model FLOPs per second of one ``acc`` at best [FLOP/s].

    The peak at the highest compute utilisation any plan reaches
    (:func:`parallelism.best_case_hfu`) times the workload factor: an upper bound of
    MFU, goodput at most 1.
    """
    mfu = best_case_hfu(w, acc) * workload_factor(moe=w.moe, method=w.method)
    return peak_tflops(acc, w.precision) * _FLOPS_PER_TFLOP * mfu


def _best_case_key(w: Workload, acc: AcceleratorSpec, flops: float) -> _RankKey:
    """The best rank ``acc`` could reach (:func:`_cheapest_fitting_first`) [-].

    It fits, and its run costs no less than the FLOPs at its best-case rate
    (:func:`_best_case_rate`) and the highest goodput (:func:`resilience.highest_goodput`).
    """
    hourly = gpu_cloud_price(acc.id)
    confirmed = cloud_price_confirmed(acc.id)
    if hourly is None:
        return (False, False, True, not confirmed, math.inf)
    rate = _best_case_rate(w, acc) * highest_goodput()
    return (False, False, False, not confirmed, flops / rate / SECONDS_PER_HOUR * hourly)


def _best_case_in_time(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    flops: float,
    deadline_days: float,
    hfu: HfuCache | None = None,
) -> _RankKey:
    """The best rank ``acc`` could reach on a run that meets ``deadline_days`` [-].

    Such a run needs at least ``F / (deadline x best-case rate x highest goodput)``
    accelerators (:func:`_best_case_key`), and no plan on that many or more beats
    :func:`parallelism.mfu_ceiling_from`: a slow accelerator needs a large cluster, whose
    replicas run out of sequences and must split the model.  That lower rate in turn needs
    more accelerators, so the bound is worked out again from them, a few rounds.  ``hfu``:
    the kernels' utilisation on ``acc``, shared with its plan searches
    (:class:`cluster.Searches`).  A run that misses the
    deadline ranks after every run that meets it (:func:`_cheapest_fitting_first`), so
    this bounds it too.
    """
    loose = _best_case_key(w, acc, flops)
    hourly = gpu_cloud_price(acc.id)
    if hourly is None:
        return loose
    goodput = highest_goodput()
    peak = peak_tflops(acc, w.precision) * _FLOPS_PER_TFLOP  # [FLOP/s]
    rate = _best_case_rate(w, acc) * goodput  # [FLOP/s] per accelerator
    hfu = {} if hfu is None else hfu  # the rounds (and the sizing after) share the kernels'
    for _ in range(_IN_TIME_ROUNDS):
        fewest = flops / (deadline_days * HOURS_PER_DAY * SECONDS_PER_HOUR * rate)
        slower = peak * mfu_ceiling_from(w, r, acc, math.floor(fewest), hfu) * goodput
        if slower >= rate * _IN_TIME_SETTLED:
            break
        rate = slower  # a slower best case needs more accelerators, whose bound is lower
    return (*loose[:4], flops / rate / SECONDS_PER_HOUR * hourly)


def _cannot_be_listed(
    alts: list[Alternative],
    acc: AcceleratorSpec,
    best_case: _RankKey,
    open_slots: int,
    deadline_days: float | None,
) -> bool:
    """Whether ``acc`` is out of the shortlist whatever its sizing gives.

    The list (:func:`_shortlist`) takes each maker's best, then the best ``open_slots``
    of the rest.  ``acc`` is out when an accelerator of its maker already ranks at or
    above its best case (so it is not its maker's best) and ``open_slots`` of the others
    that are not their maker's best do too: sized earlier, they rank before it on a tie,
    and an accelerator sized later can only push them further from being a maker's best.
    """
    ranked = sorted(alts, key=lambda alt: _cheapest_fitting_first(alt, deadline_days))
    makers_seen: set[str] = set()
    same_maker_ahead = False
    others_ahead = 0
    for alt in ranked:
        if _cheapest_fitting_first(alt, deadline_days) > best_case:
            break
        vendor = ACCELERATORS[alt.accelerator].vendor
        same_maker_ahead = same_maker_ahead or vendor == acc.vendor
        if vendor in makers_seen:
            others_ahead += 1
        makers_seen.add(vendor)
    return same_maker_ahead and others_ahead >= open_slots


def _shortlist(alts: list[Alternative], deadline_days: float | None) -> tuple[Alternative, ...]:
    """At most ``MAX_ALTERNATIVES``, ranked; the best of each maker is always among them.

    Unconfirmed and missing prices rank last, so without the per-maker pick a maker whose
    prices are all estimates or unpublished would drop out of the comparison altogether.
    """

    def rank(alt: Alternative) -> _RankKey:
        return _cheapest_fitting_first(alt, deadline_days)

    ranked = sorted(alts, key=rank)
    best_of_maker: dict[str, Alternative] = {}
    for alt in ranked:
        best_of_maker.setdefault(ACCELERATORS[alt.accelerator].vendor, alt)
    picked = list(best_of_maker.values())
    picked += [a for a in ranked if a not in picked][: max(0, MAX_ALTERNATIVES - len(picked))]
    return tuple(sorted(picked, key=rank))


def _cheapest_fitting_first(alt: Alternative, deadline_days: float | None) -> _RankKey:
    """Fitting first, then meeting ``deadline_days`` (when given) before missing it, then
    priced before unpriced, a published cloud price before an estimated one, then cheapest."""
    misses = deadline_days is not None and alt.wall_clock_days > deadline_days
    cost = alt.run_cost_usd
    if cost is None or not math.isfinite(cost):
        return (not alt.fits, misses, True, not alt.price_confirmed, math.inf)
    return (not alt.fits, misses, False, not alt.price_confirmed, cost)


def _with_accelerator(r: Resolved, acc: AcceleratorSpec) -> Resolved:
    """The run on ``acc``, in the precision asked, or in BF16 where ``acc`` has no FP8."""
    precision = training_precision(r.precision_asked, acc)
    return with_changes(r, accelerator=acc.id, precision=precision)
