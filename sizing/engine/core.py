"""``size(inputs)``: compose every concern into one :class:`SizingResult`."""

from __future__ import annotations

import datetime
import math
from dataclasses import replace
from functools import partial
from typing import Any

from .alternatives import (
    MemoryCache,
    Reference,
    compare_accelerators,
    exclusion_of,
    searches_for,
)
from .assumptions import ASSUMPTIONS, value
from .cluster import (
    MAX_NODES,
    ClusterSizing,
    FoundPlans,
    RunEstimate,
    Searches,
    nodes_for,
    size_searched,
)
from .compute import FLOPS_PER_PARAM_TOKEN, recompute_flops_per_token, training_flops
from .cost.accelerator_prices import cloud_price_confirmed
from .cost.choice import renting_allowed
from .cost.option import OWNED_OPTIONS
from .cost.owned import NO_HELP, RentedHelp
from .cost.plan import CostInputs, CostResult, plan_cost
from .cost.prices import PRICES
from .deadline import deadline_result
from .deployment import plan_deployment
from .explain import (
    DISCOVERY_QUESTIONS,
    accelerators,
    checkpoint_interval_warning,
    concurrency,
    context_warning,
    deadline_warnings,
    drivers,
    full_size_runs,
    headroom_gpus,
    precision_fallback_warning,
    risks,
)
from .hardware import ACCELERATORS, AcceleratorSpec, peak_tflops
from .hosts import plan_hosts
from .inputs import ADAPTER_METHODS, SizingInput
from .memory import BytesPerParam, adapter_bytes_per_param, frozen_base_bytes
from .network import plan_network
from .numbers import format_count, noun_for_count
from .output import (
    ClusterResult,
    ComputeResult,
    DeadlineResult,
    MemoryResult,
    ParallelismResult,
    ResilienceOut,
    SizingResult,
    TimelineOption,
    TimelineResult,
    sizing_result_to_dict,
)
from .owned_first import size_with_estate
from .parallelism import Plan, Workload, whole_micro_batches, workload
from .peer import nvidia_peer
from .provenance import Assumption, Price, UsedAssumption
from .ranges import ConfidenceResult, confidence, gpus_needed, spread
from .resilience import spare_nodes
from .resolve.resolved import Resolved, resolve
from .storage import plan_storage
from .units import SECONDS_PER_HOUR
from .validation import parse_input
from .version import ENGINE_VERSION

# [-] a size above the fewest that meet the deadline must need at most this share of their
# accelerator-hours to be recommended (:func:`_cheapest_listed_size`)
CLEARLY_FEWER_HOURS = 0.9

_FLOPS_PER_TFLOP = 1e12
_CLOUD_PRICE_KEY = "prices.cloud_on_demand_usd_per_gpu_hour"  # as resolve_site records it
_TIMELINE_MIN_NODES = 16  # the trade-off table doubles nodes up to at least this many
_TIMELINE_SPAN = 4  # ... or up to this many times the recommended nodes


def _run_for(searches: Searches) -> ClusterSizing:
    """The run on the given count (else the sized one) and the memory minimum [GPUs].

    The minimum never depends on the given count: it is the fewest
    accelerators on which a plan fits, so a count that is too small can say
    how many it would take.  A given count that fits bounds it: forced
    degrees (say tensor 8 x pipeline 35) may admit no other count the search
    tries.
    """
    r = searches.r
    if r.count is None:
        return size_searched(searches)
    run = searches.run(r.count)
    least = searches.memory_minimum()
    if run.plan.fits and not 0 < least <= r.count:
        least = r.count
    met = run.plan.fits and run.wall_clock_days <= r.deadline_days
    return ClusterSizing(run, least, met, None)


def size(
    inputs: SizingInput, *, today: datetime.date | None = None, alternatives: bool = True
) -> SizingResult:
    """Size the infrastructure for ``inputs``.

    With an owned estate or a ceiling (``inputs.estate``) the answers are sized by
    :func:`sizing.engine.owned_first.size_with_estate`: the owned accelerators first, then
    what to add, within the budget and the power.

    Parameters
    ----------
    inputs : SizingInput
    today : datetime.date, optional
        Date of the answers, recorded as the ``as_of`` of each customer or
        assumed entry; the current date when not given.
    alternatives : bool, optional
        False leaves out the other accelerators sized for the same run (``alternatives`` and
        ``excluded_accelerators`` empty), a third of a sizing: for a page that shows none of
        them (the review page's first estimate). Every other figure is the same.
    """
    if today is None:
        today = datetime.date.today()  # at call time, never at import
    # the estate's steps and the peer size the same answers again: one plan search serves all
    sized = partial(size_plain, plans=FoundPlans(), alternatives=alternatives)
    if inputs.estate.given:
        result = size_with_estate(inputs, today, sized)
    else:
        result = sized(inputs, today)[0]
    # the peer is read for its time, cost and power alone: its own alternatives go unread
    peer = nvidia_peer(inputs, result, today, partial(sized, alternatives=False))
    return result if peer is None else replace(result, peer=peer)


def size_plain(
    inputs: SizingInput,
    today: datetime.date,
    *,
    owned_gpus: int = 0,
    budget_usd: float | None = None,
    owned_storage_tb: float | None = None,
    owned_only: bool = False,
    help: RentedHelp = NO_HELP,
    plans: FoundPlans | None = None,
    alternatives: bool = True,
) -> tuple[SizingResult, Resolved]:
    """:func:`size` without the estate's steps, and the answers resolved; ``owned_gpus`` of
    the sized accelerator are already the customer's (no capital, :mod:`cost.owned`), and
    ``budget_usd`` excludes the options above it (:func:`cost.choice.over_budget`);
    ``owned_storage_tb`` of shared storage is theirs too (None: the storage the run needs);
    ``owned_only``: their accelerators are all an owned option holds (the rest is rented
    beside them, :mod:`sizing.engine.estate`), so none is bought to serve more hours;
    ``help``: what is rented beside them for each run, in the owned options' totals;
    ``plans``: the plans the sizing's other steps searched (:class:`cluster.FoundPlans`);
    ``alternatives``: False leaves the other accelerators unsized (see :func:`size`)."""
    r = resolve(inputs, today=today)
    acc = ACCELERATORS[r.accelerator]
    w = workload(r)
    flops = training_flops(w.model_flops_per_token, r.tokens, r.epochs)
    shared = MemoryCache()
    plans = FoundPlans() if plans is None else plans
    searches = searches_for(w, r, acc, flops, shared, plans=plans)
    fewest = _run_for(searches)  # the fewest accelerators that meet the deadline
    sizing = _cheapest_listed_size(searches, fewest)
    run, min_gpus = sizing.run, sizing.min_gpus
    deadline = deadline_result(w, r, acc, sizing, searches)
    plan = run.plan
    per_node = r.gpus_per_node
    runs_at_once = full_size_runs(r)
    total_gpus = _cluster_gpus(r, run.gpus)
    nodes = nodes_for(total_gpus, per_node)
    sure = confidence(r, run.gpus)
    gpus_range = _gpus_range(r, run, min_gpus, deadline, sure, fewest.run.gpus)
    compute = _compute_result(w, r, acc, flops, run, sure)
    network = plan_network(
        w,
        plan,
        acc,
        gpus_per_node=per_node,
        inter_node=r.inter_node,
        max_comm_share=r.max_comm_share,
        oversubscription=r.oversubscription,
        assumed_gbps=(r.nic_gbps_per_gpu or acc.nic_gbps_per_gpu) / (r.oversubscription or 1.0),
    )
    storage = plan_storage(
        r,
        adapter_params=w.adapter_params,
        tokens_per_s=compute.tokens_per_s * runs_at_once,
        gpus=total_gpus,
    )
    cost = plan_cost(
        r,
        acc,
        CostInputs(
            cluster_gpus=total_gpus,
            gpus_per_run=run.gpus,
            storage_tb=storage.total_capacity_tb,
            storage_kept_tb=storage.kept_between_runs_tb,
            run_gpu_hours=run.gpu_hours,
            all_runs_days=run.wall_clock_days * math.ceil(r.experiments / runs_at_once),
            gpu_hours_factors=(sure.low_factor, sure.high_factor),
            fabric_oversubscription=network.oversubscription,
            owned_gpus=owned_gpus,
            owned_storage_tb=owned_storage_tb,
            owned_only=owned_only,
            budget_usd=budget_usd,
            help=help,
            # each run in one server: no fabric between servers to buy (network.plan_network)
            fabric=bool(network.nic_gbps),
        ),
    )
    spare = _spares_held(spare_nodes(nodes, r.spare_nodes_wanted), total_gpus, per_node, owned_gpus)
    deployment = plan_deployment(
        r, acc, _site_nodes(r, nodes + spare, cost), cost.recommended_option
    )
    compared, excluded = (
        compare_accelerators(Reference(r, acc, run, sizing.deadline_met), flops, shared, plans)
        if alternatives
        else ((), ())
    )
    warnings = (
        *_run_warnings(r, acc, run, deadline, min_gpus),
        *storage.notes,
        *(note for note in network.notes if "exceeds" in note),
    )
    result = SizingResult(
        engine_version=ENGINE_VERSION,
        model_name=r.model_name,
        compute=compute,
        memory=_memory_result(w, r, run, min_gpus),
        parallelism=_parallelism_result(w, r, plan),
        cluster=ClusterResult(
            accelerator=acc.id,
            accelerator_name=acc.name,
            gpus=total_gpus,
            nodes=nodes,
            gpus_per_node=per_node,
            gpus_per_job=run.gpus,
            spare_nodes=spare,
            gpus_range=gpus_range,
            nodes_per_job=run.nodes,
            gpus_in_service=total_gpus + spare * per_node,
        ),
        timeline=_timeline_result(searches, run, min_gpus, deadline, sure, fewest.run.gpus),
        network=network,
        storage=storage,
        hosts=plan_hosts(acc, min(per_node, total_gpus), r.modality, r.preprocessing),
        resilience=_resilience_result(run, spare),
        deployment=deployment,
        cost=cost,
        concurrency=concurrency(r, run.gpus, per_node),
        alternatives=compared,
        excluded_accelerators=excluded,
        confidence=sure,
        drivers=drivers(r, run, min_gpus, deadline, fewest.run),
        risks=risks(r, run, cost.recommended_option),
        assumptions=(*r.assumptions, *_constants_used()),
        open_questions=_open_questions(r, run.gpus),
        warnings=warnings,
    )
    return result, r


def _run_warnings(
    r: Resolved,
    acc: AcceleratorSpec,
    run: RunEstimate,
    deadline: DeadlineResult,
    min_gpus: int,
) -> tuple[str, ...]:
    """Warnings about the run itself: memory, deadline, software."""
    warnings: list[str] = []
    if not run.plan.fits:
        warnings.append(_memory_warning(r, run, min_gpus))
    if r.deadline_given:
        warnings.extend(deadline_warnings(r, run, deadline))
    if r.precision != r.precision_asked:
        warnings.append(precision_fallback_warning(r, acc))
    interval = checkpoint_interval_warning(r, run)
    if interval:
        warnings.append(interval)
    if r.max_context is not None and r.sequence_length > r.max_context:
        warnings.append(context_warning(r))
    excluded = exclusion_of(r, acc)
    if excluded:
        warnings.append(f"{acc.name}: {excluded}")
    if not cloud_price_confirmed(acc.id) and not _given(r, _CLOUD_PRICE_KEY):
        warnings.append(
            f"the cloud price of the {acc.name} is not confirmed (no published price was found): "
            "its cost figures are estimates until we have a quote"
        )
    return tuple(warnings)


def _given(r: Resolved, key: str) -> bool:
    """Whether the customer answered ``key`` (rather than the engine assuming it)."""
    return any(a.key == key and a.provided_by == "customer" for a in r.assumptions)


def _memory_warning(r: Resolved, run: RunEstimate, min_gpus: int) -> str:
    """Why the run does not fit, and how many accelerators it would take."""
    detail = run.plan.reason.removeprefix("does not fit: ")
    if not min_gpus:
        ceiling = format_count(MAX_NODES * r.gpus_per_node)
        return f"does not fit: {detail}; no size up to {ceiling} accelerators fits"
    given = format_count(run.gpus)
    if min_gpus > run.gpus:
        return (
            f"does not fit: {detail}; {accelerators(run.gpus)} "
            f"{'is' if run.gpus == 1 else 'are'} too few, "
            f"memory needs at least {format_count(min_gpus)}"
        )
    return (
        f"does not fit: {detail}; no plan fits on {given} accelerators, "
        f"though one fits on {format_count(min_gpus)}"
    )


def _cluster_gpus(r: Resolved, job_gpus: int) -> int:
    """Accelerators in the whole cluster: the given count, or the jobs it holds at once.

    The full-size runs held at once (concurrent jobs, at most the planned
    runs) times one run's accelerators, plus headroom for the other
    concurrent jobs; rounded up to whole nodes, within one node to a power
    of two (servers hold 1, 2, 4 or 8).
    """
    if r.count is not None:
        return r.count
    per_node = r.gpus_per_node
    gpus = job_gpus * full_size_runs(r) + headroom_gpus(r, job_gpus)
    if gpus > per_node:
        return nodes_for(gpus, per_node) * per_node
    return min(per_node, 1 << (gpus - 1).bit_length())


def _gpus_range(
    r: Resolved,
    run: RunEstimate,
    min_gpus: int,
    deadline: DeadlineResult,
    sure: ConfidenceResult,
    fewest_gpus: int,
) -> tuple[int, int]:
    """The cluster that meets the deadline at the low and high ends of the range [GPUs].

    The given count, or the knee when no size meets the deadline, stays: the days move.  A
    size chosen above the fewest that meet the deadline (``fewest_gpus``) because it takes
    fewer accelerator-hours keeps its low end: a faster run makes it no dearer.
    """
    total = _cluster_gpus(r, run.gpus)
    if r.count is not None or not deadline.met:
        return total, total
    low, high = (
        _cluster_gpus(
            r, gpus_needed(run.gpus, run.wall_clock_days, r.deadline_days, min_gpus, factor)
        )
        for factor in (sure.low_factor, sure.high_factor)
    )
    if run.gpus > fewest_gpus:
        low = total
    return min(low, total), max(high, total)


def _compute_result(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    flops: float,
    run: RunEstimate,
    sure: ConfidenceResult,
) -> ComputeResult:
    """FLOPs, GPU-hours and throughput of one run (and all planned runs).

    The rule of thumb is ``6 N D / (P * MFU_rule)`` [GPU-h], for comparison.
    """
    plan = run.plan
    hardware_flops_per_token = w.model_flops_per_token + recompute_flops_per_token(
        w.active_params, w.layers, w.hidden, w.seq, plan.recompute, w.causal
    )
    peak = peak_tflops(acc, r.precision)
    tokens_per_s = run.gpus * peak * _FLOPS_PER_TFLOP * plan.mfu / w.model_flops_per_token
    rule_flops = FLOPS_PER_PARAM_TOKEN * r.active_params * r.tokens * r.epochs
    rule_gpu_hours = (
        rule_flops / (peak * _FLOPS_PER_TFLOP * value("rule_of_thumb_mfu")) / SECONDS_PER_HOUR
    )
    return ComputeResult(
        training_flops=flops,
        flops_per_token=w.model_flops_per_token,
        hardware_flops_per_token=hardware_flops_per_token,
        all_experiments_flops=flops * r.experiments,
        gpu_hours=run.gpu_hours,
        all_experiments_gpu_hours=run.gpu_hours * r.experiments,
        assumed_mfu=plan.mfu,
        goodput=run.resilience.goodput,
        accelerator=acc.id,
        peak_tflops=peak,
        tokens_per_s=tokens_per_s,
        rule_of_thumb_gpu_hours=rule_gpu_hours,
        gpu_hours_range=spread(run.gpu_hours, sure),
        all_experiments_gpu_hours_range=spread(run.gpu_hours * r.experiments, sure),
    )


def _memory_result(w: Workload, r: Resolved, run: RunEstimate, min_gpus: int) -> MemoryResult:
    plan = run.plan
    mem = plan.memory
    return MemoryResult(
        per_gpu_gb=mem.total_gb,
        usable_gpu_gb=plan.usable_gb,
        fits=plan.fits,
        min_gpus=min_gpus,
        breakdown_gb={
            "weights": mem.weights_gb,
            "gradients": mem.gradients_gb,
            "optimizer": mem.optimizer_gb,
            "activations": mem.activations_gb,
            "overhead": mem.overhead_gb,
        },
        bytes_per_param=_bpp_dict(r, w.bpp),
    )


def _parallelism_result(w: Workload, r: Resolved, plan: Plan) -> ParallelismResult:
    forced = tuple(
        name
        for name, degree in (
            ("tensor", r.forced_tensor),
            ("pipeline", r.forced_pipeline),
            ("data", r.forced_data),
            ("expert", r.forced_expert),
            ("context", r.forced_context),
            ("zero_stage", r.forced_zero),
        )
        if degree is not None
    )
    return ParallelismResult(
        tensor=plan.tensor,
        pipeline=plan.pipeline,
        data=plan.data,
        expert=plan.expert,
        context=plan.context,
        zero_stage=plan.zero_stage,
        micro_batch_size=plan.micro_batch_size,
        micro_batches=whole_micro_batches(w, plan.data, plan.micro_batch_size),
        gradient_checkpointing=plan.recompute != "none",
        recompute=plan.recompute,
        virtual_pipeline_stages=plan.virtual_stages,
        layers=r.layers,
        reason=plan.reason,
        forced=forced,
    )


def _timeline_result(
    searches: Searches,
    run: RunEstimate,
    min_gpus: int,
    deadline: DeadlineResult,
    sure: ConfidenceResult,
    fewest_gpus: int,
) -> TimelineResult:
    """One run's days, the deadline and the trade-off table (which also lists
    ``fewest_gpus``, the fewest accelerators that meet the deadline)."""
    r = searches.r
    all_days = run.wall_clock_days * math.ceil(r.experiments / full_size_runs(r))
    return TimelineResult(
        wall_clock_days=run.wall_clock_days,
        deadline_days=r.deadline_days,
        all_experiments_days=all_days,
        options=_timeline(searches, run, min_gpus, fewest_gpus),
        deadline=deadline,
        wall_clock_days_range=spread(run.wall_clock_days, sure),
        all_experiments_days_range=spread(all_days, sure),
        deadline_assumed=not r.deadline_given,
    )


def _site_nodes(r: Resolved, nodes: int, cost: CostResult) -> int:
    """Servers the site must power and rack: when the recommended option buys hardware, the
    most it owns in any year (it grows with the work), else the cluster with its spares."""
    owned = cost.usage.owned_gpus_by_year
    if cost.recommended_option in OWNED_OPTIONS and owned:
        return max(nodes, nodes_for(max(owned), r.gpus_per_node))
    return nodes


def _spares_held(wanted: int, gpus: int, per_node: int, owned_gpus: int) -> int:
    """Hot spare servers the cluster holds [nodes]: on a cluster the customer's own accelerators
    hold, only the servers they own beyond it (none when the run uses all of theirs), as the
    owned option's cost counts them (:func:`cost.owned.within_estate`); a cluster larger than
    theirs is bought with its spares."""
    if owned_gpus and gpus <= owned_gpus:
        return min(wanted, (owned_gpus - gpus) // per_node)
    return wanted


def _resilience_result(run: RunEstimate, spare: int) -> ResilienceOut:
    """One run's failures and checkpoints; ``spare`` nodes for the whole cluster."""
    res = run.resilience
    return ResilienceOut(
        checkpoint_interval_hours=res.checkpoint_interval_hours,
        optimal_interval_hours=res.optimal_interval_hours,
        expected_interruptions=res.expected_interruptions,
        job_mtbf_hours=res.job_mtbf_hours,
        expected_lost_hours=res.expected_lost_hours,
        lost_gpu_hours=res.lost_gpu_hours,
        spare_nodes=spare,
    )


def _open_questions(r: Resolved, gpus_per_job: int) -> tuple[str, ...]:
    """The answers' questions, one about how concurrent jobs share the cluster, then discovery."""
    jobs = r.concurrent_jobs
    runs = full_size_runs(r)
    concurrency_question: tuple[str, ...] = ()
    if jobs > 1 and r.count is None:
        held = f"The cluster holds {runs} {noun_for_count(runs, 'full-size run')} at once"
        if runs == jobs:
            question = (
                f"{held} ({jobs} jobs of {accelerators(gpus_per_job)} each): are some of "
                "them smaller experiments that need less?"
            )
        else:
            # "one job of 24,576 accelerators", never "1 jobs of" (as sizing.words.counts says it)
            full = (
                f"one job of {accelerators(gpus_per_job)}"
                if runs == 1
                else f"{runs} jobs of {accelerators(gpus_per_job)} each"
            )
            question = (
                f"{held} ({full}, as many as the planned runs) "
                f"and {accelerators(headroom_gpus(r, gpus_per_job))} for the other "
                f"{jobs - runs} of {jobs} jobs: are those smaller experiments, or more full runs?"
            )
        concurrency_question = (question,)
    questions = (*r.open_questions, *concurrency_question, *DISCOVERY_QUESTIONS)
    return tuple(dict.fromkeys(questions))


def _bpp_dict(r: Resolved, bpp: BytesPerParam) -> dict[str, Any]:
    """Bytes per parameter and how they are counted (see ``docs/engine.md``)."""
    if r.method in ADAPTER_METHODS:
        base = frozen_base_bytes(r.method)
        adapter = adapter_bytes_per_param()
        return {
            "accounting": f"{r.method}: frozen base weights at {base:g} B/param; adapters "
            f"train with {adapter.total:g} B/param ({adapter.weights:g} weights + "
            f"{adapter.gradients:g} gradients + {adapter.optimizer:g} Adam)",
            "weights": base,
            "gradients": 0.0,
            "optimizer": 0.0,
            "total": base,
            "adapter_total": adapter.total,
        }
    weights, grads, opt = bpp.weights, bpp.gradients, bpp.optimizer
    return {
        "accounting": f"{r.precision} {r.optimizer}: {weights:g} weights + {grads:g} gradients + "
        f"{opt:g} optimizer (ZeRO paper counts 16 with 16-bit gradients; "
        "see docs/engine.md)",
        "weights": weights,
        "gradients": grads,
        "optimizer": opt,
        "total": weights + grads + opt,
    }


def _listed_counts(r: Resolved, gpus: int, min_gpus: int) -> set[int]:
    """Counts of the trade-off table: 1, 2, 4 ... nodes from the memory minimum up."""
    per_node = r.gpus_per_node
    counts = set()
    top = max(_TIMELINE_MIN_NODES, _TIMELINE_SPAN * nodes_for(gpus, per_node))
    k = 1
    while k <= top:
        if k * per_node >= min_gpus:
            counts.add(k * per_node)
        k *= 2
    return counts


def _cheapest_listed_size(searches: Searches, sizing: ClusterSizing) -> ClusterSizing:
    """The fewest accelerators, among the sized run and the sizes of the trade-off table that
    meet the deadline, whose accelerator-hours are within reach of the fewest any of them needs.

    The size search returns the fewest accelerators that meet the deadline, but a larger size
    can be both faster and cheaper: at the memory minimum the plan pays for recomputation, a
    deep pipeline or ZeRO traffic that more accelerators remove (Llama 3.1 70B full fine-tune:
    24 H100 take 2.5 days and 1,436 GPU-h, 32 take 1.7 days and 1,272 GPU-h).  So the
    recommendation is the fewest accelerators whose accelerator-hours times
    ``CLEARLY_FEWER_HOURS`` are at most the fewest accelerator-hours of any such size: no
    listed size meeting the deadline saves a tenth of its hours, and a saving of a few per
    cent, within what two neighbouring estimates can differ by, does not buy more
    accelerators.  A longer deadline only adds sizes, so it never asks for more accelerators.
    When the customer's rules allow no renting (:func:`cost.choice.renting_allowed`), an
    owned cluster is paid for by its size, not its hours: the fewest that meet the deadline.
    The table's sizes are searched for the table anyway, so this costs no search beyond it;
    time is not monotone in the node count either (a data-parallel degree that is not a power
    of two can cost a few per cent), so a smaller table size may also win.
    """
    r, run = searches.r, sizing.run
    if r.count is not None or not sizing.deadline_met:
        return sizing
    meeting = [run]
    for gpus in sorted(_listed_counts(r, run.gpus, sizing.min_gpus)):
        other = searches.run(gpus)
        if other.plan.fits and other.wall_clock_days <= r.deadline_days:
            meeting.append(other)
    if renting_allowed(r):
        fewest_hours = min(est.gpu_hours for est in meeting)
        meeting = [e for e in meeting if e.gpu_hours * CLEARLY_FEWER_HOURS <= fewest_hours]
    best = min(meeting, key=lambda est: (est.gpus, est.gpu_hours))
    return sizing if best is run else replace(sizing, run=best)


def _timeline(
    searches: Searches, run: RunEstimate, min_gpus: int, fewest_gpus: int
) -> tuple[TimelineOption, ...]:
    """The recommended size, the fewest accelerators that meet the deadline, 1, 2, 4 ... nodes
    from the memory minimum up, and the memory minimum itself when the recommended (given)
    size does not fit."""
    r = searches.r
    counts = {run.gpus, fewest_gpus} | _listed_counts(r, run.gpus, min_gpus)
    if not run.plan.fits and min_gpus:
        counts.add(min_gpus)
    hourly = r.prices.gpu_cloud or r.prices.large_cloud
    out = []
    for g in sorted(counts):
        est = run if g == run.gpus else searches.run(g)
        out.append(
            TimelineOption(
                gpus=g,
                nodes=est.nodes,
                wall_clock_days=est.wall_clock_days,
                gpu_hours=est.gpu_hours,
                cost_usd=None if hourly is None else est.gpu_hours * hourly.value,
                meets_deadline=est.plan.fits and est.wall_clock_days <= r.deadline_days,
                fits=est.plan.fits,
            )
        )
    return tuple(out)


def _constants_used() -> tuple[UsedAssumption, ...]:
    """The listed engine constants and prices, as recorded in every recommendation.

    Made again only when an entry of the registries changed (the calibration's
    ``assumptions.overridden``): equal entries make equal constants, and every sizing would
    otherwise make the same 95 of them.
    """
    entries = (*ASSUMPTIONS.items(), *PRICES.items())
    if _LAST_CONSTANTS and _LAST_CONSTANTS[0][0] == entries:
        return _LAST_CONSTANTS[0][1]
    used = tuple(
        UsedAssumption(
            key=key,
            value=a.value,
            unit=a.unit,
            source=f"{a.source} ({a.flag})" if isinstance(a, Price) else a.source,
            as_of=a.as_of,
            provided_by="default",
            rationale=a.rationale,
        )
        for key, a in entries
    )
    _LAST_CONSTANTS[:] = [(entries, used)]
    return used


# The registries' entries :func:`_constants_used` last made its constants of, and those
_LAST_CONSTANTS: list[tuple[tuple[tuple[str, Assumption], ...], tuple[UsedAssumption, ...]]] = []


def size_dict(
    data: dict[str, Any], *, today: datetime.date | None = None, alternatives: bool = True
) -> dict[str, Any]:
    """``sizing_result_to_dict(size(parse_input(data), today=today, alternatives=…))``."""
    return sizing_result_to_dict(size(parse_input(data), today=today, alternatives=alternatives))
