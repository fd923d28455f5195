"""Parallelism plan search: tensor, pipeline, data, expert, ZeRO, recomputation.

For a given accelerator and GPU count, every combination of tensor degree
(within a node, dividing the heads), pipeline degree, expert degree, ZeRO
stage and recomputation is checked for memory; among those that fit, the one
with the highest model-FLOPs utilisation (:mod:`sizing.engine.efficiency`)
wins, ties going to the simpler plan.  Forced settings restrict the search.

References
----------
.. [1] Narayanan et al., arXiv 2104.04473 (2021): keep tensor parallelism
       inside a node, use pipeline parallelism across nodes.
.. [2] Rajbhandari et al., ZeRO, arXiv 1910.02054 (2019).
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value
from .compute import flops_per_token, lora_params, recompute_flops_per_token
from .efficiency import StepCost, step_cost
from .hardware import AcceleratorSpec
from .memory import (
    BytesPerParam,
    MemoryBreakdown,
    activations_gb,
    bytes_per_param,
    usable_gb,
    zero_model_states_gb,
)
from .resolve import Resolved

_POW2 = (1, 2, 4, 8, 16, 32, 64, 128, 256)


@dataclass(frozen=True)
class Workload:
    """What one training run needs, independent of the cluster."""

    method: str
    precision: str
    optimizer: str
    moe: bool
    dense_params: float  # [param] replicated across expert ranks
    expert_params: float  # [param] sharded across expert ranks
    adapter_params: float  # [param] trainable LoRA parameters
    layers: int
    hidden: int
    heads: int
    vocab: int
    experts: int
    top_k: int
    seq: int
    tokens_per_step: float
    active_params: float
    model_flops_per_token: float
    bpp: BytesPerParam


def workload(r: Resolved) -> Workload:
    """Derive the workload of one run from resolved answers."""
    moe = r.architecture == "moe" and r.experts > r.experts_per_token
    expert = 0.0
    if moe:
        per_expert = (r.total_params - r.active_params) / (r.experts - r.experts_per_token)
        expert = min(r.total_params, per_expert * r.experts)
    adapters = 0.0
    if r.method in ("lora", "qlora"):
        adapters = lora_params(
            r.layers, r.hidden_size, r.attention_heads, r.kv_heads, r.ffn_hidden_size, r.lora_rank
        )
    per_token = flops_per_token(
        r.active_params, r.layers, r.hidden_size, r.sequence_length, r.method, adapters
    )
    return Workload(
        r.method,
        r.precision,
        r.optimizer,
        moe,
        r.total_params - expert,
        expert,
        adapters,
        r.layers,
        r.hidden_size,
        r.attention_heads,
        r.vocab_size,
        r.experts,
        r.experts_per_token if moe else 1,
        r.sequence_length,
        r.global_batch_tokens,
        r.active_params,
        per_token,
        bytes_per_param(r.precision, r.optimizer),
    )


@dataclass(frozen=True)
class Plan:
    """One parallelism plan and its consequences."""

    gpus: int
    tensor: int
    pipeline: int
    data: int
    expert: int
    zero_stage: int
    micro_batch_size: int
    recompute: str  # "none" | "full"
    memory: MemoryBreakdown
    usable_gb: float
    fits: bool
    cost: StepCost
    reason: str

    @property
    def mfu(self) -> float:
        return self.cost.mfu


def plan_memory(
    w: Workload,
    acc: AcceleratorSpec,
    *,
    tp: int,
    pp: int,
    dp: int,
    ep: int,
    zero: int,
    micro_batch: int,
    recompute: str,
) -> MemoryBreakdown:
    """Memory breakdown of one plan on one accelerator [GB]."""
    params_rank = w.dense_params / (tp * pp) + w.expert_params / (tp * pp * ep)
    if w.method in ("lora", "qlora"):
        base = value("qlora_base_bytes") if w.method == "qlora" else value("weight_bytes_16bit")
        base_gb = params_rank * base / (dp if zero >= 3 else 1) / 1e9
        ad = w.adapter_params / (tp * pp)
        ad_w, ad_g, ad_o = zero_model_states_gb(ad, BytesPerParam(4.0, 4.0, 8.0), zero, dp)
        weights, grads, opt = base_gb + ad_w, ad_g, ad_o
    else:
        weights, grads, opt = zero_model_states_gb(params_rank, w.bpp, zero, dp)
    micro_batches = w.tokens_per_step / dp / (micro_batch * w.seq)
    act = activations_gb(
        seq=w.seq,
        micro_batch=micro_batch,
        hidden=w.hidden,
        heads=w.heads,
        layers=w.layers,
        vocab=w.vocab,
        tp=tp,
        pp=pp,
        micro_batches=micro_batches,
        recompute=recompute,
        top_k=w.top_k,
    )
    return MemoryBreakdown(weights, grads, opt, act, value("framework_overhead_gb"))


def _degrees(limit: int, forced: int | None, divides: int | None = None) -> list[int]:
    if forced is not None:
        return [forced]
    return [d for d in _POW2 if d <= limit and (divides is None or divides % d == 0)]


def search_plan(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    gpus: int,
    *,
    nic_gbps_per_gpu: float | None = None,
) -> Plan:
    """Best plan for ``gpus`` accelerators (the lowest-memory one if none fits)."""
    per_node = min(r.gpus_per_node, gpus)
    nic = nic_gbps_per_gpu or r.nic_gbps_per_gpu or acc.nic_gbps_per_gpu
    oversub = r.oversubscription or 1.0
    sequences = max(1.0, w.tokens_per_step / w.seq)
    recomputes = ["none", "full"]
    if r.gradient_checkpointing is True:
        recomputes = ["full"]
    elif r.gradient_checkpointing is False:
        recomputes = ["none"]
    best: Plan | None = None
    smallest: Plan | None = None
    for tp in _degrees(per_node, r.forced_tensor, w.heads):
        for pp in _degrees(min(w.layers, gpus), r.forced_pipeline):
            if gpus % (tp * pp):
                continue
            dp = gpus // (tp * pp)
            if (r.forced_data is not None and dp != r.forced_data) or dp > sequences:
                continue
            eps = _degrees(min(dp, w.experts), r.forced_expert, w.experts) if w.moe else [1]
            for ep in eps:
                if dp % ep:
                    continue
                zeros = (
                    [r.forced_zero]
                    if r.forced_zero is not None
                    else ([0] if dp == 1 else [1, 2, 3])
                )
                found = False
                for recompute in recomputes:  # "none" first: recompute only if needed
                    if found:
                        break
                    mb = r.micro_batch_size or 1
                    for zero in zeros:  # lowest stage first: higher stages only add traffic
                        mem = plan_memory(
                            w,
                            acc,
                            tp=tp,
                            pp=pp,
                            dp=dp,
                            ep=ep,
                            zero=zero,
                            micro_batch=mb,
                            recompute=recompute,
                        )
                        usable = usable_gb(acc.memory_gb)
                        fits = mem.total_gb <= usable
                        if not fits and best is not None:
                            continue
                        hw = w.model_flops_per_token + recompute_flops_per_token(
                            w.active_params, w.layers, w.hidden, w.seq, recompute
                        )
                        params_rank = w.dense_params / (tp * pp) + w.expert_params / (tp * pp * ep)
                        cost = step_cost(
                            acc=acc,
                            precision=w.precision,
                            hidden=w.hidden,
                            layers=w.layers,
                            seq=w.seq,
                            model_flops_per_token=w.model_flops_per_token,
                            hardware_flops_per_token=hw,
                            params_per_gpu=params_rank,
                            tokens_per_step=w.tokens_per_step,
                            gpus=gpus,
                            tp=tp,
                            pp=pp,
                            ep=ep,
                            micro_batch=mb,
                            zero_stage=zero,
                            top_k=w.top_k,
                            moe=w.moe,
                            method=w.method,
                            recompute=recompute,
                            gpus_per_node=per_node,
                            nic_gbps_per_gpu=nic,
                            oversubscription=oversub,
                        )
                        plan = Plan(
                            gpus, tp, pp, dp, ep, zero, mb, recompute, mem, usable, fits, cost, ""
                        )
                        if fits:
                            found = True
                            if best is None or cost.mfu > best.cost.mfu * 1.001:
                                best = plan
                            break
                        elif smallest is None or mem.total_gb < smallest.memory.total_gb:
                            smallest = plan
    chosen = best or smallest
    if chosen is None:  # forced settings admit no plan at all: fall back to pure data parallel
        mem = plan_memory(
            w, acc, tp=1, pp=1, dp=gpus, ep=1, zero=0, micro_batch=1, recompute="full"
        )
        hw = w.model_flops_per_token
        cost = step_cost(
            acc=acc,
            precision=w.precision,
            hidden=w.hidden,
            layers=w.layers,
            seq=w.seq,
            model_flops_per_token=hw,
            hardware_flops_per_token=hw,
            params_per_gpu=w.dense_params + w.expert_params,
            tokens_per_step=w.tokens_per_step,
            gpus=gpus,
            tp=1,
            pp=1,
            ep=1,
            micro_batch=1,
            zero_stage=0,
            top_k=w.top_k,
            moe=w.moe,
            method=w.method,
            recompute="full",
            gpus_per_node=per_node,
            nic_gbps_per_gpu=nic,
            oversubscription=oversub,
        )
        return Plan(
            gpus,
            1,
            1,
            gpus,
            1,
            0,
            1,
            "full",
            mem,
            usable_gb(acc.memory_gb),
            False,
            cost,
            "no plan satisfies the forced settings",
        )
    return _with_reason(chosen)


def _with_reason(p: Plan) -> Plan:
    if not p.fits:
        reason = (
            f"does not fit: even the leanest plan needs {p.memory.total_gb:.0f} GB "
            f"of {p.usable_gb:.0f} GB per accelerator"
        )
    else:
        parts = []
        if p.tensor > 1:
            parts.append(f"tensor {p.tensor} inside a node splits each layer")
        if p.pipeline > 1:
            parts.append(f"pipeline {p.pipeline} splits the layers")
        if p.expert > 1:
            parts.append(f"expert {p.expert} spreads the experts")
        if p.zero_stage:
            parts.append(
                f"ZeRO-{p.zero_stage} shards {'optimizer state' if p.zero_stage == 1 else 'model states'}"
            )
        if p.recompute == "full":
            parts.append("activation recomputation trades compute for memory")
        reason = (
            ("fastest plan that fits: " + "; ".join(parts))
            if parts
            else "fastest plan that fits: plain data parallelism"
        )
    return Plan(
        p.gpus,
        p.tensor,
        p.pipeline,
        p.data,
        p.expert,
        p.zero_stage,
        p.micro_batch_size,
        p.recompute,
        p.memory,
        p.usable_gb,
        p.fits,
        p.cost,
        reason,
    )
