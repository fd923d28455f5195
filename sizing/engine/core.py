"""``size(inputs)``: compose every concern into one :class:`Recommendation`."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from .assumptions import ASSUMPTIONS
from .cluster import RunEstimate, estimate_run, nodes_for, size_cluster
from .compute import recompute_flops_per_token, training_flops
from .cost import plan_cost
from .deployment import plan_deployment
from .explain import DISCOVERY_QUESTIONS, concurrency, drivers, risks
from .hardware import ACCELERATORS, AcceleratorSpec, peak_tflops
from .hosts import plan_hosts
from .inputs import SizingInput
from .network import plan_network
from .parallelism import Workload, workload
from .prices import PRICES
from .provenance import UsedAssumption
from .resolve import Resolved, resolve
from .result import (
    Alternative,
    ClusterResult,
    ComputeResult,
    MemoryResult,
    ParallelismResult,
    Recommendation,
    ResilienceOut,
    TimelineOption,
    TimelineResult,
    recommendation_to_dict,
)
from .storage import plan_storage
from .validation import parse_input
from .version import ENGINE_VERSION

_RULE_MFU = 0.40  # [-] the "6 N D at 40 % MFU" rule of thumb, reported for comparison only


def _run_for(
    w: Workload, r: Resolved, acc: AcceleratorSpec, flops: float
) -> tuple[RunEstimate, int]:
    if r.count is not None:
        run = estimate_run(w, r, acc, r.count, flops)
        return run, (r.count if run.plan.fits else 0)
    return size_cluster(w, r, acc, flops)


def _allowed(r: Resolved, acc: AcceleratorSpec) -> bool:
    return not (r.cuda_only and acc.software != "cuda")


def size(inputs: SizingInput) -> Recommendation:
    """Size the infrastructure for ``inputs``."""
    r = resolve(inputs)
    acc = ACCELERATORS[r.accelerator]
    w = workload(r)
    flops = training_flops(w.model_flops_per_token, r.tokens, r.epochs)
    run, min_gpus = _run_for(w, r, acc, flops)
    plan = run.plan
    per_node = r.gpus_per_node
    warnings: list[str] = []
    if not plan.fits:
        warnings.append(f"does not fit: {plan.reason}")
    if r.deadline_given and run.wall_clock_days > r.deadline_days:
        warnings.append(
            f"one run takes {run.wall_clock_days:.1f} days, beyond the "
            f"{r.deadline_days:g}-day deadline"
        )
    if not _allowed(r, acc):
        warnings.append(f"{acc.name} does not run CUDA-only software or custom CUDA kernels")
    jobs = r.concurrent_jobs
    gpus_per_job = run.gpus
    if r.count is not None:
        total_gpus = r.count
    else:
        total_gpus = gpus_per_job * jobs
        if total_gpus > per_node:
            total_gpus = nodes_for(total_gpus, per_node) * per_node
        else:  # within one node: a power of two (servers hold 1, 2, 4 or 8)
            total_gpus = min(per_node, 1 << (total_gpus - 1).bit_length())
    nodes = nodes_for(total_gpus, per_node)
    spare = run.resilience.spare_nodes
    hw_flops = w.model_flops_per_token + recompute_flops_per_token(
        w.active_params, w.layers, w.hidden, w.seq, plan.recompute
    )
    peak = peak_tflops(acc, r.precision)
    tokens_per_s = run.gpus * peak * 1e12 * plan.mfu / w.model_flops_per_token
    rule = 6.0 * r.active_params * r.tokens * r.epochs / (peak * 1e12 * _RULE_MFU) / 3600.0
    compute = ComputeResult(
        flops,
        w.model_flops_per_token,
        hw_flops,
        flops * r.experiments,
        run.gpu_hours,
        run.gpu_hours * r.experiments,
        plan.mfu,
        run.resilience.goodput,
        acc.id,
        peak,
        tokens_per_s,
        rule,
    )
    mem = plan.memory
    bpp = w.bpp
    memory = MemoryResult(
        mem.total_gb,
        plan.usable_gb,
        plan.fits,
        min_gpus,
        {
            "weights": mem.weights_gb,
            "gradients": mem.gradients_gb,
            "optimizer": mem.optimizer_gb,
            "activations": mem.activations_gb,
            "overhead": mem.overhead_gb,
        },
        _bpp_dict(r, bpp.weights, bpp.gradients, bpp.optimizer),
    )
    forced = tuple(
        k
        for k, v in (
            ("tensor", r.forced_tensor),
            ("pipeline", r.forced_pipeline),
            ("data", r.forced_data),
            ("expert", r.forced_expert),
            ("zero_stage", r.forced_zero),
        )
        if v is not None
    )
    par = ParallelismResult(
        plan.tensor,
        plan.pipeline,
        plan.data,
        plan.expert,
        plan.zero_stage,
        plan.micro_batch_size,
        plan.recompute == "full",
        plan.reason,
        forced,
    )
    options = _timeline(w, r, acc, flops, run, min_gpus)
    timeline = TimelineResult(
        run.wall_clock_days,
        r.deadline_days if r.deadline_given else None,
        run.wall_clock_days * r.experiments / max(1, jobs),
        options,
    )
    net = plan_network(
        w,
        plan,
        acc,
        gpus_per_node=per_node,
        inter_node=r.inter_node,
        max_comm_share=r.max_comm_share,
        oversubscription=r.oversubscription,
    )
    storage = plan_storage(
        r, adapter_params=w.adapter_params, tokens_per_s=tokens_per_s * jobs, gpus=total_gpus
    )
    warnings.extend(storage.notes)
    warnings.extend(n for n in net.notes if "exceeds" in n)
    hosts = plan_hosts(acc, per_node, r.modality, r.preprocessing)
    res = run.resilience
    resilience = ResilienceOut(
        res.checkpoint_interval_hours,
        res.optimal_interval_hours,
        res.expected_interruptions,
        res.job_mtbf_hours,
        res.expected_lost_hours,
        res.lost_gpu_hours,
        spare,
    )
    allowed = _allowed_costs(r)
    cost = plan_cost(
        r,
        acc,
        gpus=total_gpus,
        nodes=nodes,
        storage_tb=storage.total_capacity_tb,
        run_gpu_hours=run.gpu_hours,
        allowed=allowed,
    )
    pref = {
        "cloud_on_demand": "cloud",
        "cloud_reserved": "cloud",
        "buy": "on_prem",
        "hybrid": "hybrid",
    }[cost.recommended_option]
    deployment = plan_deployment(r, acc, nodes + spare, pref)
    conc = concurrency(r, gpus_per_job, per_node)
    alts, excluded = _alternatives(r, flops)
    cluster = ClusterResult(acc.id, acc.name, total_gpus, nodes, per_node, gpus_per_job, spare)
    concurrency_question = (
        (
            f"The cluster holds {jobs} full-size runs at once ({jobs} x {gpus_per_job} accelerators): "
            "are some of them smaller experiments that need less?",
        )
        if jobs > 1 and r.count is None
        else ()
    )
    questions = list(
        dict.fromkeys((*r.open_questions, *concurrency_question, *DISCOVERY_QUESTIONS))
    )
    assumptions = (*r.assumptions, *_constants_used())
    return Recommendation(
        ENGINE_VERSION,
        r.model_name,
        compute,
        memory,
        par,
        cluster,
        timeline,
        net,
        storage,
        hosts,
        resilience,
        deployment,
        cost,
        conc,
        alts,
        excluded,
        drivers(r, run, min_gpus),
        risks(r, run),
        assumptions,
        tuple(questions),
        tuple(warnings),
    )


def _bpp_dict(r: Resolved, weights: float, grads: float, opt: float) -> dict[str, Any]:
    if r.method in ("lora", "qlora"):
        base = 0.516 if r.method == "qlora" else 2.0
        return {
            "accounting": f"{r.method}: frozen base weights at {base:g} B/param; adapters "
            "train with 16 B/param (4 weights + 4 gradients + 8 Adam)",
            "weights": base,
            "gradients": 0.0,
            "optimizer": 0.0,
            "total": base,
            "adapter_total": 16.0,
        }
    return {
        "accounting": f"{r.precision} {r.optimizer}: {weights:g} weights + {grads:g} gradients + "
        f"{opt:g} optimizer (ZeRO paper counts 16 with 16-bit gradients; "
        "see docs/engine.md)",
        "weights": weights,
        "gradients": grads,
        "optimizer": opt,
        "total": weights + grads + opt,
    }


def _allowed_costs(r: Resolved) -> tuple[str, ...]:
    if r.air_gapped or r.dedicated_hardware or r.location in ("on_prem", "colocation"):
        return ("buy",)
    if r.location == "cloud":
        return ("cloud_on_demand", "cloud_reserved")
    return ("cloud_on_demand", "cloud_reserved", "buy", "hybrid")


def _timeline(
    w: Workload, r: Resolved, acc: AcceleratorSpec, flops: float, run: RunEstimate, min_gpus: int
) -> tuple[TimelineOption, ...]:
    per_node = r.gpus_per_node
    counts = {run.gpus}
    top = max(16, 4 * nodes_for(run.gpus, per_node))
    k = 1
    while k <= top:
        if k * per_node >= min_gpus:
            counts.add(k * per_node)
        k *= 2
    out = []
    for g in sorted(counts):
        est = run if g == run.gpus else estimate_run(w, r, acc, g, flops)
        out.append(
            TimelineOption(
                g,
                est.nodes,
                est.wall_clock_days,
                est.gpu_hours,
                est.gpu_hours * r.cloud_usd_per_gpu_hour,
                est.wall_clock_days <= r.deadline_days,
            )
        )
    return tuple(out)


def _alternatives(r: Resolved, flops: float) -> tuple[tuple[Alternative, ...], tuple[str, ...]]:
    alts: list[Alternative] = []
    excluded: list[str] = []
    for acc in ACCELERATORS.values():
        if acc.id == r.accelerator:
            continue
        if not _allowed(r, acc):
            excluded.append(f"{acc.id}: needs CUDA-free software ({acc.software})")
            continue
        rr = _with_accelerator(r, acc)
        w = workload(rr)
        est, _ = _run_for(w, rr, acc, flops)
        alts.append(
            Alternative(
                acc.id,
                acc.name,
                est.gpus,
                est.nodes,
                est.wall_clock_days,
                est.gpu_hours,
                est.gpu_hours * acc.cloud_usd_per_gpu_hour,
                est.plan.fits,
            )
        )
    alts.sort(key=lambda a: (not a.fits, a.run_cost_usd if math.isfinite(a.run_cost_usd) else 1e30))
    return tuple(alts[:6]), tuple(excluded)


def _with_accelerator(r: Resolved, acc: AcceleratorSpec) -> Resolved:
    return replace(r, accelerator=acc.id, cloud_usd_per_gpu_hour=acc.cloud_usd_per_gpu_hour)


def _constants_used() -> tuple[UsedAssumption, ...]:
    out = []
    for registry in (ASSUMPTIONS, PRICES):
        for key, a in registry.items():
            out.append(
                UsedAssumption(key, a.value, a.unit, a.source, a.as_of, "default", a.rationale)
            )
    return tuple(out)


def size_dict(data: dict[str, Any]) -> dict[str, Any]:
    """``recommendation_to_dict(size(parse_input(data)))``."""
    return recommendation_to_dict(size(parse_input(data)))
