"""Parallelism plan search: tensor, context, pipeline, data, expert, ZeRO, recomputation.

For a given accelerator and GPU count, every combination of tensor degree
(within a node, dividing the heads), context degree (long sequences), pipeline
degree, expert degree, ZeRO stage and recomputation is checked for memory; among those that fit, the one
with the highest model-FLOPs utilisation (:mod:`sizing.engine.efficiency`)
wins, ties going to the simpler plan.  Forced settings restrict the search.

References
----------
.. [1] Narayanan et al., arXiv 2104.04473 (2021): keep tensor parallelism
       inside a node, use pipeline parallelism across nodes.
.. [2] Rajbhandari et al., ZeRO, arXiv 1910.02054 (2019).
.. [3] Rajbhandari et al., DeepSpeed-MoE, arXiv 2201.05596 (2022), sec. 5;
       DeepSpeed ``deepspeed/utils/groups.py``, ``_create_expert_and_data_parallel``:
       with 16 ranks and expert-parallel size 2, expert parameters are reduced
       over expert-data-parallel groups of 8 ranks, dense ones over all 16.
.. [4] Liu et al., MoE Parallel Folding, arXiv 2504.14960 (2025), sec. 3
       (Megatron-Core): the expert-data-parallel group is the data-parallel
       group divided by the expert-parallel degree; the distributed optimizer
       shards expert states over it.
.. [5] Korthikanti et al., arXiv 2205.05198 (2022), and Megatron-Core's context-parallel
       guide: with context parallelism each rank keeps the activations of its part of
       every sequence.
"""

from __future__ import annotations

import heapq
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .assumptions import value
from .compute import (
    attends_causally,
    flops_per_token,
    lora_params,
    recompute_flops_per_token,
)
from .efficiency import (
    StepCost,
    StepCostModel,
    expert_width,
    gemm_intensity,
    pipeline_bubble,
)
from .expert_traffic import DUALPIPE_PARAMETER_COPIES, dualpipe_bubble
from .frozen_copies import with_changes
from .hardware import AcceleratorSpec, peak_tflops
from .inputs import ADAPTER_METHODS, MeasuredInput
from .kernel_fusion import fuses_kernels, memory_bound_scale
from .measured import measured_matmul_share
from .memory import (
    BytesPerParam,
    MemoryBreakdown,
    activations_gb,
    adapter_bytes_per_param,
    bytes_per_param,
    frozen_base_bytes,
    usable_gb,
    zero_model_states_gb,
)
from .resolve.resolved import Resolved
from .stack_efficiency import TYPICAL
from .units import BYTES_PER_GB

_POW2 = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# Micro-batch sizes and interleaved model chunks per stage the search tries: powers of two up
# to 8, as in the published configurations of the calibration rows (Megatron-LM, NeMo
# performance tables: micro-batch 1-4 at scale); more sequences per micro-batch changed no
# cross-validated figure and cost time.
_MICRO_BATCHES = (1, 2, 4, 8)
_VIRTUAL_STAGES = (1, 2, 4, 8)
# Below this many layouts bounding them costs more than exploring them all (simplest first).
_BOUNDED_LAYOUTS = 12
# A fitting plan replaces the best one only if its MFU is 0.1 % higher: near-ties go to the
# simpler plan, which the search meets first.
_MFU_TIE_MARGIN = 1.001
_WHOLE_TOLERANCE = 1e-6  # [sequences] a count this close to a whole number is that number
# A group's ceiling is raised by rounding's worth so that it is never below a quick bound
# worked out with the same formulas in another order.
_CEILING_ROUNDING = 1.0 + 1e-9


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
    kv_heads: int
    vocab: int
    experts: int
    top_k: int
    expert_width: float  # [-] width of one routed expert over the hidden size; 0 if dense
    seq: int
    tokens_per_step: float
    active_params: float
    model_flops_per_token: float
    bpp: BytesPerParam
    causal: bool = True  # causal attention (a decoder): half the score FLOPs of full attention
    routed_node_limit: int = 0  # [nodes] each token's experts on at most this many; 0: any
    stack_family: str = TYPICAL  # who trains with what: the efficiency prior (stack_efficiency)
    # the memory-bound bytes of the stack over an unfused one's: below 1 for fused kernels
    memory_bound_scale: float = 1.0
    # the kit's measurements on the customer's hardware (:mod:`.measured`): the GEMMs' share of
    # peak on the accelerator it ran on, instead of the calibrated one
    measured: MeasuredInput = field(default_factory=MeasuredInput)


def workload(r: Resolved) -> Workload:
    """Derive the workload of one run from resolved answers."""
    moe = r.architecture == "moe" and r.experts > r.experts_per_token
    expert = 0.0
    if moe:
        per_expert = (r.total_params - r.active_params) / (r.experts - r.experts_per_token)
        expert = min(r.total_params, per_expert * r.experts)
    adapters = active_adapters = 0.0
    if r.method in ADAPTER_METHODS:
        shape = (r.layers, r.hidden_size, r.attention_heads, r.kv_heads, r.ffn_hidden_size)
        router = r.experts if moe else 0
        # every expert holds adapters; a token runs through those of its top-k experts
        adapters = lora_params(
            *shape, r.lora_rank, experts=r.experts if moe else 1, router_experts=router
        )
        active_adapters = lora_params(
            *shape, r.lora_rank, experts=r.experts_per_token if moe else 1, router_experts=router
        )
    causal = attends_causally(r.modality)
    per_token = flops_per_token(
        r.active_params,
        r.layers,
        r.hidden_size,
        r.sequence_length,
        r.method,
        active_adapters,
        causal,
    )
    return Workload(
        method=r.method,
        precision=r.precision,
        optimizer=r.optimizer,
        moe=moe,
        dense_params=r.total_params - expert,
        expert_params=expert,
        adapter_params=adapters,
        layers=r.layers,
        hidden=r.hidden_size,
        heads=r.attention_heads,
        kv_heads=r.kv_heads,
        vocab=r.vocab_size,
        experts=r.experts,
        top_k=r.experts_per_token if moe else 1,
        expert_width=expert_width(expert, r.experts, r.layers, r.hidden_size) if moe else 0.0,
        seq=r.sequence_length,
        tokens_per_step=r.global_batch_tokens,
        active_params=r.active_params,
        model_flops_per_token=per_token,
        bpp=bytes_per_param(r.precision, r.optimizer),
        causal=causal,
        routed_node_limit=r.routed_node_limit if moe else 0,
        stack_family=r.stack_family,
        memory_bound_scale=memory_bound_scale(
            fused=fuses_kernels(custom_cuda_kernels=r.custom_cuda_kernels, frameworks=r.frameworks),
            hidden=r.hidden_size,
            layers=r.layers,
            vocab=r.vocab_size,
        ),
        measured=r.measured,
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
    recompute: str  # "none" | "selective" | "full"
    memory: MemoryBreakdown
    usable_gb: float
    fits: bool
    cost: StepCost
    reason: str
    virtual_stages: int = 1  # model chunks per pipeline stage (interleaved schedule)
    context: int = 1  # accelerators that split each sequence (context parallelism)
    # DualPipe (expert_traffic): the experts' all-to-all hidden behind the computation
    dualpipe: bool = False

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
    virtual_stages: int = 1,
) -> MemoryBreakdown:
    """Memory breakdown of one plan on one accelerator [GB].

    Dense parameters ``N_d`` are split over tensor and pipeline ranks and
    their states sharded by ZeRO over the ``d`` data-parallel ranks [2]_.
    Expert parameters ``N_e`` are also split over the ``e`` expert-parallel
    ranks, which are carved out of the data-parallel group; each expert then
    has ``d / e`` replicas (its expert-data-parallel group), and ZeRO shards
    its states over those only [3]_ [4]_::

        dense  = zero(N_d / (t p),   stage, d)
        expert = zero(N_e / (t p e), stage, d / e)

    Under ZeRO-3 the states summed over all ``t p d`` accelerators are
    exactly ``(N_d + N_e) x bytes per parameter``: no state is divided twice.

    Parameters
    ----------
    tp, pp, dp, ep : int
        Tensor, pipeline, data and expert degrees [-]; ``ep`` divides ``dp``.
    zero : int
        ZeRO stage (0-3).
    """
    weights, grads, opt = model_states_gb(w, tp=tp, pp=pp, dp=dp, ep=ep, zero=zero)
    return MemoryBreakdown(
        weights_gb=weights,
        gradients_gb=grads,
        optimizer_gb=opt,
        activations_gb=plan_activations_gb(
            w,
            tp=tp,
            pp=pp,
            dp=dp,
            micro_batch=micro_batch,
            recompute=recompute,
            virtual_stages=virtual_stages,
        ),
        overhead_gb=value("framework_overhead_gb"),
    )


def model_states_gb(
    w: Workload, *, tp: int, pp: int, dp: int, ep: int, zero: int
) -> tuple[float, float, float]:
    """Weights, gradients and optimizer state per accelerator [GB] (see :func:`plan_memory`)."""
    dense_rank = w.dense_params / (tp * pp)
    expert_rank = w.expert_params / (tp * pp * ep)
    expert_dp = max(1, dp // ep)
    if w.method in ADAPTER_METHODS:
        base = frozen_base_bytes(w.method)
        base_gb = (
            dense_rank * base / (dp if zero >= 3 else 1)
            + expert_rank * base / (expert_dp if zero >= 3 else 1)
        ) / BYTES_PER_GB
        adapters_rank = w.adapter_params / (tp * pp)
        adapter_w, adapter_g, adapter_o = zero_model_states_gb(
            adapters_rank, adapter_bytes_per_param(), zero, dp
        )
        return base_gb + adapter_w, adapter_g, adapter_o
    dense = zero_model_states_gb(dense_rank, w.bpp, zero, dp)
    expert = zero_model_states_gb(expert_rank, w.bpp, zero, expert_dp)
    return dense[0] + expert[0], dense[1] + expert[1], dense[2] + expert[2]


def plan_activations_gb(
    w: Workload,
    *,
    tp: int,
    pp: int,
    dp: int,
    micro_batch: int,
    recompute: str,
    virtual_stages: int,
    cp: int = 1,
) -> float:
    """Peak activation memory per accelerator of one plan [GB] (:func:`memory.activations_gb`).

    Context parallelism leaves each accelerator ``1 / cp`` of every sequence, and of its
    activations and logits [5]_.
    """
    return activations_gb(
        seq=w.seq // cp,
        micro_batch=micro_batch,
        hidden=w.hidden,
        heads=w.heads,
        layers=w.layers,
        vocab=w.vocab,
        tp=tp,
        pp=pp,
        micro_batches=w.tokens_per_step / dp / (micro_batch * w.seq),  # sequences, not chunks
        recompute=recompute,
        top_k=w.top_k,
        expert_width=w.expert_width,
        virtual_stages=virtual_stages,
        fp8_linear_inputs=w.precision == "fp8",
    )


def _degrees(limit: int, forced: int | None, divides: int | None = None) -> list[int]:
    if forced is not None:
        return [forced]
    return [d for d in _POW2 if d <= limit and (divides is None or divides % d == 0)]


class _Layout(NamedTuple):
    """Parallel degrees of one plan: tensor x context x pipeline x data GPUs, experts
    across data."""

    tensor: int
    pipeline: int
    data: int
    expert: int
    context: int = 1


# QLoRA stacks split no model: PEFT + bitsandbytes run data parallel with FSDP (Answer.AI
# FSDP-QLoRA, 2024-03) or DeepSpeed ZeRO-3 (Hugging Face PEFT docs, "DeepSpeed" guide:
# ZeRO-3 and QLoRA), torchtune's QLoRA recipes with FSDP2 (lora_finetune_distributed); none
# offers tensor, pipeline, expert or context parallelism (Accelerate's device_map="auto"
# puts layers on several GPUs but runs them one after another, no pipeline schedule).
_QLORA_SPLIT = 1


def _model_split_limit(w: Workload) -> int:
    """The largest tensor, pipeline, expert or context degree the training stack offers
    (unless the customer forces one): 1 for QLoRA, else no limit."""
    return _QLORA_SPLIT if w.method == "qlora" else sys.maxsize


def _layouts(w: Workload, r: Resolved, gpus: int, per_node: int) -> Iterator[_Layout]:
    """Every layout of ``gpus`` the forced settings allow, simplest first [1]_.

    Tensor degrees stay inside a node and divide the heads; data-parallel
    replicas never exceed the sequences in a step; expert degrees divide the
    experts and the data degree.
    """
    sequences = max(1.0, w.tokens_per_step / w.seq)
    split = _model_split_limit(w)
    # the degrees each loop tries do not depend on the loops around it (a search of hundreds
    # of layouts lists them once), nor the expert degrees on more than the data degree
    tensors = _degrees(min(per_node, split), r.forced_tensor, w.heads)
    pipelines = _degrees(min(w.layers, gpus, split), r.forced_pipeline)
    experts_by_data: dict[int, list[int]] = {}
    for cp in _context_options(w, r, gpus):
        for tp in tensors:
            for pp in pipelines:
                if gpus % (tp * cp * pp):
                    continue
                dp = gpus // (tp * cp * pp)
                if (r.forced_data is not None and dp != r.forced_data) or dp > sequences:
                    continue
                eps = experts_by_data.get(dp)
                if eps is None:
                    experts = min(dp, w.experts, split)
                    eps = _degrees(experts, r.forced_expert, w.experts) if w.moe else [1]
                    experts_by_data[dp] = eps
                for ep in eps:
                    if dp % ep == 0:
                        yield _Layout(tensor=tp, pipeline=pp, data=dp, expert=ep, context=cp)


# Context parallelism splits sequences of 8K tokens and more (Megatron-Core parallelism guide:
# "Long sequences (8K+ tokens)") and leaves each accelerator at least 4,096 tokens of each:
# NVIDIA's published Llama 3.1 405B configuration splits 8,192-token sequences over 2
# (Megatron-Bridge performance summary, 25.11, DGX-H100), Meta's long-context stage splits
# 131,072-token ones over 16 (Llama 3 Herd of Models, Table 4); Meta kept 8,192-token
# sequences whole.  Shorter chunks make smaller attention kernels, which the cost model
# does not price.
CONTEXT_MIN_SEQUENCE = 8192
CONTEXT_MIN_TOKENS_PER_RANK = 4096
_CONTEXT_DEGREES = (1, 2, 4, 8, 16, 32)


def _context_options(w: Workload, r: Resolved, gpus: int) -> tuple[int, ...]:
    """Context-parallel degrees to try, 1 (no split) first.

    Each rank holds two of the ``2 cp`` chunks of a sequence (the load-balanced
    split of causal attention), so ``2 cp`` must divide the sequence length.
    """
    if r.forced_context is not None:
        return (r.forced_context,)
    if w.seq < CONTEXT_MIN_SEQUENCE or _model_split_limit(w) == 1:
        return (1,)
    return tuple(
        cp
        for cp in _CONTEXT_DEGREES
        if cp <= gpus and w.seq % (2 * cp) == 0 and w.seq // cp >= CONTEXT_MIN_TOKENS_PER_RANK
    )


def _recompute_options(r: Resolved) -> tuple[str, ...]:
    """Recomputation settings to try, lightest first: recompute only as much as needed.

    "Yes" to activation checkpointing means what it means in PyTorch and
    Hugging Face: each layer's activations are recomputed in full.
    """
    if r.gradient_checkpointing is True:
        return ("full",)
    if r.gradient_checkpointing is False:
        return ("none",)
    return ("none", "selective", "full")


def _zero_stages(r: Resolved, layout: _Layout) -> tuple[int, ...]:
    """ZeRO stages to try, lowest first: higher stages only add traffic [2]_."""
    if r.forced_zero is not None:
        return (r.forced_zero,)
    return (0,) if layout.data == 1 else (1, 2, 3)


def _micro_batch_options(w: Workload, r: Resolved, layout: _Layout) -> tuple[int, ...]:
    """Micro-batch sizes to try [sequences], smallest first, up to the sequences per replica."""
    if r.micro_batch_size:
        return (r.micro_batch_size,)
    sequences = w.tokens_per_step / w.seq / layout.data
    return tuple(b for b in _MICRO_BATCHES if b == 1 or b <= sequences)


def _larger_micro_batch_can_help(
    w: Workload, acc: AcceleratorSpec, layout: _Layout, zero: int
) -> bool:
    """Whether a micro-batch above 1 can raise the MFU of this layout.

    It always costs activation memory and, with a pipeline, a larger bubble.
    It gains where a GEMM of one sequence is bandwidth-bound (the experts of
    an MoE layer, or a dense projection below the machine balance ``P / B``)
    or where ZeRO-2/3 traffic repeats for every micro-batch of the step.
    """
    if w.moe or zero >= 2:
        return True
    balance = peak_tflops(acc, w.precision) / acc.memory_bw_tbps  # [FLOP/B]
    dense = gemm_intensity(
        tokens=w.seq, hidden=w.hidden, ffn=w.hidden / layout.tensor, precision=w.precision
    )
    return dense < balance


def _virtual_stage_options(w: Workload, layout: _Layout) -> tuple[int, ...]:
    """Model chunks per pipeline stage to try (1: no interleaving) [1]_.

    Interleaving needs at least one layer per chunk.  The original schedule
    also wanted the micro-batches to be a multiple of the stages; Megatron-Core
    has since lifted that, so any count of micro-batches is allowed (the bubble
    ``(p-1) / (v m + p-1)`` still grows as they become few).
    """
    if layout.pipeline == 1:
        return (1,)
    layers_per_stage = w.layers // layout.pipeline
    return tuple(v for v in _VIRTUAL_STAGES if v <= layers_per_stage)


class _Candidate(NamedTuple):
    """Settings of one plan beyond its layout (a tuple: a search makes tens of thousands)."""

    zero: int
    micro_batch: int
    recompute: str
    virtual_stages: int


class _LayoutMemory:
    """Memory of the candidates of one layout: model states per ZeRO stage and activations
    per micro-batch, recomputation and interleaving, each computed once."""

    def __init__(
        self,
        w: Workload,
        layout: _Layout,
        usable: float,
        activation_cache: ActivationCache | None = None,
        parameter_copies: float = 1.0,
    ) -> None:
        """``activation_cache`` may be shared by every search of ``w`` (activation memory
        depends on the workload and the degrees alone, not on the accelerator).
        ``parameter_copies``: DualPipe holds two copies of each stage's weights and
        gradients (:mod:`expert_traffic`)."""
        self.w = w
        self.parameter_copies = parameter_copies
        self.layout = layout
        self.usable = usable
        self.overhead = value("framework_overhead_gb")
        self._states: dict[int, tuple[float, float, float]] = {}
        self._totals: dict[int, float] = {}  # [GB] model states per ZeRO stage
        self._activations: dict[tuple[int, str, int], float] = {}
        self._shared = {} if activation_cache is None else activation_cache

    def states(self, zero: int) -> tuple[float, float, float]:
        if zero not in self._states:
            lay = self.layout
            # ZeRO shards states over the data and context ranks together [4]_
            weights, grads, optimizer = model_states_gb(
                self.w,
                tp=lay.tensor,
                pp=lay.pipeline,
                dp=lay.data * lay.context,
                ep=lay.expert,
                zero=zero,
            )
            copies = self.parameter_copies
            self._states[zero] = (weights * copies, grads * copies, optimizer)
            self._totals[zero] = sum(self._states[zero])
        return self._states[zero]

    def activations(self, micro_batch: int, recompute: str, virtual_stages: int) -> float:
        key = (micro_batch, recompute, virtual_stages)
        found = self._activations.get(key)
        if found is None:
            lay = self.layout
            # the data degree matters only through the micro-batches the first stage holds
            # (:func:`memory.activations_gb`): counts with the same share one entry
            w = self.w
            in_flight = min(
                float(lay.pipeline), max(1.0, w.tokens_per_step / lay.data / (micro_batch * w.seq))
            )
            shared_key = (lay.tensor, lay.pipeline, in_flight, lay.context, *key)
            found = self._shared.get(shared_key)
            if found is None:
                found = self._shared[shared_key] = plan_activations_gb(
                    self.w,
                    tp=lay.tensor,
                    pp=lay.pipeline,
                    dp=lay.data,
                    micro_batch=micro_batch,
                    recompute=recompute,
                    virtual_stages=virtual_stages,
                    cp=lay.context,
                )
            self._activations[key] = found
        return found

    def fitting_zero(
        self, zeros: tuple[int, ...], micro_batch: int, recompute: str, virtual_stages: int
    ) -> int | None:
        """The lowest ZeRO stage of ``zeros`` that fits, ``None`` when none does."""
        act = self._activations.get((micro_batch, recompute, virtual_stages))
        if act is None:
            act = self.activations(micro_batch, recompute, virtual_stages)
        totals = self._totals
        for zero in zeros:
            if zero not in totals:
                self.states(zero)
            if totals[zero] + act + self.overhead <= self.usable:
                return zero
        return None

    def lowest_fitting_zero(
        self, zeros: tuple[int, ...], micro_batch: int, recompute: str, virtual_stages: int
    ) -> tuple[int, MemoryBreakdown, bool]:
        """The lowest ZeRO stage that fits, or the stage with the least memory if none does."""
        act = self.activations(micro_batch, recompute, virtual_stages)
        zero = self.fitting_zero(zeros, micro_batch, recompute, virtual_stages)
        if zero is not None:
            return zero, self._breakdown(zero, act), True
        least = min(zeros, key=lambda z: (self._totals[z], zeros.index(z)))
        return least, self._breakdown(least, act), False

    def _breakdown(self, zero: int, activations: float) -> MemoryBreakdown:
        weights, grads, opt = self.states(zero)
        return MemoryBreakdown(
            weights_gb=weights,
            gradients_gb=grads,
            optimizer_gb=opt,
            activations_gb=activations,
            overhead_gb=self.overhead,
        )


def any_plan_fits(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    gpus: int,
    activation_cache: ActivationCache | None = None,
) -> bool:
    """Whether some plan :func:`search_plan` would consider fits in memory on ``gpus``.

    The same layouts and settings, memory only and stopping at the first fit:
    the memory-minimum search needs no step costs.  Activation memory only
    grows with the micro-batch and the interleaving, so the smallest of each
    decides.
    """
    per_node = min(r.gpus_per_node, gpus)
    micro_batch = r.micro_batch_size or 1
    usable = usable_gb(acc.memory_gb)
    # Under ZeRO-3 every layout holds exactly 1/gpus of the model states on each accelerator
    # (:func:`plan_memory`), and no layout or lower stage holds less.
    if sum(model_states_gb(w, tp=1, pp=1, dp=gpus, ep=1, zero=3)) > usable:
        return False
    for layout in _layouts(w, r, gpus, per_node):
        memory = _LayoutMemory(w, layout, usable, activation_cache)
        zeros = _zero_stages(r, layout)
        for recompute in _recompute_options(r):
            if memory.fitting_zero(zeros, micro_batch, recompute, 1) is not None:
                return True
    return False


def _layout_memory(
    w: Workload,
    acc: AcceleratorSpec,
    layout: _Layout,
    zero: int,
    micro_batch: int,
    recompute: str,
    virtual_stages: int = 1,
) -> MemoryBreakdown:
    """Per-GPU memory of one candidate (layout, ZeRO stage, micro-batch, recomputation)."""
    return plan_memory(
        w,
        acc,
        tp=layout.tensor,
        pp=layout.pipeline,
        dp=layout.data,
        ep=layout.expert,
        zero=zero,
        micro_batch=micro_batch,
        recompute=recompute,
        virtual_stages=virtual_stages,
    )


# Compute utilisation by tensor degree, expert degree, micro-batch, selective recomputation
# and context degree
HfuCache = dict[tuple[int, int, int, bool, int], float]
# [GB] activation memory by tensor and pipeline degree, micro-batches in flight on the first
# stage, context degree, micro-batch, recomputation and model chunks
ActivationCache = dict[tuple[int, int, float, int, int, str, int], float]


@dataclass(frozen=True)
class _Fabric:
    gpus_per_node: int
    nic_gbps_per_gpu: float  # [Gb/s]
    oversubscription: float  # [x:1]


# The step costs of one workload on one accelerator by fabric: every count of a node or more
# has the same fabric, so the searches of one run share one model and what it works out once
CostModelCache = dict[_Fabric, StepCostModel]


class _Scored(NamedTuple):
    """One costed candidate of a search (a :class:`Plan` is built for the chosen one only)."""

    layout: _Layout
    candidate: _Candidate
    memory: MemoryBreakdown
    ratios: tuple[float, float, float, float, float, float]  # the fields of a StepCost

    @property
    def mfu(self) -> float:
        return self.ratios[5]

    @property
    def pp_bubble(self) -> float:
        return self.ratios[4]

    @property
    def zero_stage(self) -> int:
        return self.candidate.zero


def _cost_model(
    w: Workload, acc: AcceleratorSpec, fabric: _Fabric, hfu_cache: HfuCache | None = None
) -> StepCostModel:
    """The step costs of ``w`` on ``acc`` over ``fabric``."""
    return StepCostModel(
        acc=acc,
        precision=w.precision,
        hidden=w.hidden,
        layers=w.layers,
        seq=w.seq,
        model_flops_per_token=w.model_flops_per_token,
        tokens_per_step=w.tokens_per_step,
        top_k=w.top_k,
        moe=w.moe,
        method=w.method,
        gpus_per_node=fabric.gpus_per_node,
        nic_gbps_per_gpu=fabric.nic_gbps_per_gpu,
        oversubscription=fabric.oversubscription,
        experts=w.experts,
        expert_params=w.expert_params,
        kv_hidden=w.hidden * w.kv_heads / w.heads if w.kv_heads else 0.0,
        hfu_cache=hfu_cache,
        quantised_params=w.dense_params + w.expert_params if w.method == "qlora" else 0.0,
        causal=w.causal,
        routed_node_limit=w.routed_node_limit,
        stack_family=w.stack_family,
        memory_bound_scale=w.memory_bound_scale,
        matmul_ceiling=measured_matmul_share(w.measured, acc.id, w.precision),
    )


class _Search:
    """What the candidates of one plan search share: workload, accelerator, count, fabric."""

    def __init__(
        self,
        w: Workload,
        acc: AcceleratorSpec,
        gpus: int,
        fabric: _Fabric,
        usable: float,
        hfu_cache: HfuCache | None = None,
        costs: StepCostModel | None = None,
    ) -> None:
        """``costs``: the step costs of ``w`` on ``acc`` over ``fabric``, when already made."""
        self.w = w
        self.acc = acc
        self.gpus = gpus
        self.fabric = fabric
        self.usable = usable
        self.costs = _cost_model(w, acc, fabric, hfu_cache) if costs is None else costs
        self._hardware_flops: dict[str, float] = {}
        self._most_chunks: dict[int, int] = {}  # by pipeline degree
        # [B/param] of a LoRA/QLoRA base's frozen weights (none otherwise)
        self.frozen_bytes = frozen_base_bytes(w.method) if w.method in ADAPTER_METHODS else 0.0

    def parameter_copies(self, layout: _Layout) -> float:
        """Copies of each stage's weights and gradients a rank holds: two under DualPipe."""
        overlapped = self.costs.overlapped(
            layout.tensor, layout.expert, layout.context, layout.pipeline
        )
        return DUALPIPE_PARAMETER_COPIES if overlapped else 1.0

    def hardware_flops_per_token(self, recompute: str) -> float:
        found = self._hardware_flops.get(recompute)
        if found is None:
            w = self.w
            found = w.model_flops_per_token + recompute_flops_per_token(
                w.active_params, w.layers, w.hidden, w.seq, recompute, w.causal
            )
            self._hardware_flops[recompute] = found
        return found

    def score(self, layout: _Layout, candidate: _Candidate, memory: MemoryBreakdown) -> _Scored:
        """Cost one candidate of ``layout`` with its memory breakdown."""
        ratios = self._ratios(
            layout,
            candidate.zero,
            candidate.micro_batch,
            candidate.recompute,
            candidate.virtual_stages,
        )
        return _Scored(layout, candidate, memory, ratios)

    def _ratios(
        self, layout: _Layout, zero: int, micro_batch: int, recompute: str, virtual_stages: int
    ) -> tuple[float, float, float, float, float, float]:
        """The :class:`StepCost` fields of one candidate (:meth:`StepCostModel.ratios`)."""
        w = self.w
        tp, pp, ep = layout.tensor, layout.pipeline, layout.expert
        params_rank = w.dense_params / (tp * pp) + w.expert_params / (tp * pp * ep)
        frozen = 0.0
        if w.method in ADAPTER_METHODS:  # only the adapters' gradients are reduced
            frozen = params_rank * self.frozen_bytes  # gathered too under ZeRO-3
            params_rank = w.adapter_params / (tp * pp)
        flops = self._hardware_flops.get(recompute)
        if flops is None:
            flops = self.hardware_flops_per_token(recompute)
        return self.costs.ratios(
            self.gpus,
            tp,
            pp,
            ep,
            micro_batch,
            zero,
            recompute,
            flops,
            params_rank,
            virtual_stages,
            layout.context,
            frozen,
        )

    def bound(
        self, layout: _Layout, zero: int, micro_batch: int, recompute: str, bubble_micro_batch: int
    ) -> float:
        """An upper bound of the MFU of the candidates of ``layout`` with at least ZeRO stage
        ``zero`` and recomputation ``recompute`` and at most ``micro_batch`` sequences.

        Their cost without interleaving, with the bubble of the most model chunks
        and of micro-batches of ``bubble_micro_batch`` sequences: more chunks only
        add pipeline transfers and memory, a higher stage only data-parallel
        traffic, heavier recomputation only FLOPs and all-reduces, and a smaller
        micro-batch slower kernels and more ZeRO-2/3 traffic.
        """
        ratios = self._ratios(layout, zero, micro_batch, recompute, 1)
        p = layout.pipeline
        if p == 1:
            return ratios[5]
        # the bubble with the most model chunks, micro-batches of ``bubble_micro_batch``
        w = self.w
        micro_batches = w.tokens_per_step / layout.data / (w.seq * bubble_micro_batch)
        if not micro_batches > 1.0:
            micro_batches = 1.0
        if self.costs.overlapped(layout.tensor, layout.expert, layout.context, p):
            least = dualpipe_bubble(p, micro_batches)
        else:
            chunks = self._most_chunks.get(p)
            if chunks is None:
                chunks = self._most_chunks[p] = max(_virtual_stage_options(w, layout))
            least = pipeline_bubble(p, micro_batches, chunks)
        return ratios[5] / (1.0 - ratios[4]) * (1.0 - least)

    def plan(self, scored: _Scored) -> Plan:
        """The :class:`Plan` of a costed candidate (the reason is written later)."""
        layout, candidate, memory = scored.layout, scored.candidate, scored.memory
        return Plan(
            gpus=self.gpus,
            tensor=layout.tensor,
            pipeline=layout.pipeline,
            data=layout.data,
            expert=layout.expert,
            zero_stage=candidate.zero,
            micro_batch_size=candidate.micro_batch,
            recompute=candidate.recompute,
            memory=memory,
            usable_gb=self.usable,
            fits=memory.total_gb <= self.usable,
            cost=StepCost(*scored.ratios),
            reason="",
            virtual_stages=candidate.virtual_stages,
            context=layout.context,
            dualpipe=self.costs.overlapped(
                layout.tensor, layout.expert, layout.context, layout.pipeline
            ),
        )


# The answers :func:`search_plan` reads beyond the workload, the accelerator and the count (a
# test checks it reads no other): the deadline, the prices, the count asked for and the rest
# of the answers move no plan.
PLAN_ANSWERS = (
    "gpus_per_node",
    "nic_gbps_per_gpu",
    "oversubscription",
    "forced_tensor",
    "forced_pipeline",
    "forced_data",
    "forced_expert",
    "forced_context",
    "forced_zero",
    "micro_batch_size",
    "gradient_checkpointing",
)


def search_plan(
    w: Workload,
    r: Resolved,
    acc: AcceleratorSpec,
    gpus: int,
    hfu_cache: HfuCache | None = None,
    hint: Plan | None = None,
    activation_cache: ActivationCache | None = None,
    cost_models: CostModelCache | None = None,
) -> Plan:
    """Best plan for ``gpus`` accelerators (the lowest-memory one if none fits).

    For each layout, the lightest recomputation that lets some plan fit
    without sharding weights or gradients (ZeRO-0/1) is the heaviest tried;
    under each, every micro-batch size and interleaving worth trying
    (:func:`_micro_batch_options`, :func:`_virtual_stage_options`) is costed
    at its lowest fitting ZeRO stage.  The plan with the highest MFU wins,
    near-ties going to the simpler layout.  Layouts are explored from the
    highest MFU bound down (:func:`_layout_bound`), and the search stops at
    the first whose bound cannot reach the best plan found.  ``hfu_cache`` may be shared
    by the searches of one workload on one accelerator (:class:`efficiency.StepCostModel`).
    ``hint``, a plan found on another count, has its layout explored first when this count
    has it: a good plan found early lets the bounds rule out more (the result is the same).
    ``activation_cache`` may be shared by every search of ``w`` (:class:`_LayoutMemory`), and
    ``cost_models`` by the searches of ``w`` on ``acc`` that share ``hfu_cache``
    (:data:`CostModelCache`).
    """
    fabric = _Fabric(
        gpus_per_node=min(r.gpus_per_node, gpus),
        nic_gbps_per_gpu=r.nic_gbps_per_gpu or acc.nic_gbps_per_gpu,
        oversubscription=r.oversubscription or 1.0,
    )
    usable = usable_gb(acc.memory_gb)
    costs = None if cost_models is None else cost_models.get(fabric)
    search = _Search(w, acc, gpus, fabric, usable, hfu_cache, costs)
    if cost_models is not None:
        cost_models[fabric] = search.costs
    best: _Scored | None = None
    best_rank = 0  # position of the best plan's layout in the simplest-first order
    smallest: _Scored | None = None
    layouts = list(_layouts(w, r, gpus, fabric.gpus_per_node))
    by_data: dict[int, tuple[int, ...]] = {}  # the options depend on the data degree alone
    options = [
        by_data.get(lay.data) or by_data.setdefault(lay.data, _micro_batch_options(w, r, lay))
        for lay in layouts
    ]
    bounded = len(layouts) > _BOUNDED_LAYOUTS
    # Bounds in two steps: one that needs no memory check orders the layouts and stops the
    # search; the tighter one (:func:`_layout_can_tie`) is worked out only for layouts reached.
    queue = _LayoutQueue(search, r, layouts, options, hint, bounded)
    while True:
        rank = queue.next(best.mfu if best is not None else None)
        if rank is None:
            break  # no candidate of a layout left can even tie the best
        layout, micro_batches = layouts[rank], options[rank]
        layout_memory = _LayoutMemory(
            w, layout, usable, activation_cache, search.parameter_copies(layout)
        )
        if (
            bounded
            and best is not None
            and not _layout_can_tie(search, r, layout_memory, layout, micro_batches, best.mfu)
        ):
            continue  # its candidates need more ZeRO traffic than the best one can afford
        zeros = _zero_stages(r, layout)
        virtuals = _virtual_stage_options(w, layout)
        for recompute in _recompute_options(r):
            fitted = False
            first_zero = 0  # ZeRO stage of the smallest micro-batch that fits
            previous: _Scored | None = None  # the best plan of the previous micro-batch size
            for micro_batch in micro_batches:
                if fitted and not _larger_micro_batch_can_help(w, acc, layout, first_zero):
                    break
                if (
                    best is not None
                    and len(virtuals) > 1
                    and search.bound(layout, zeros[0], micro_batch, recompute, micro_batch)
                    * _MFU_TIE_MARGIN
                    <= best.mfu
                ):
                    continue  # no interleaving or ZeRO stage of this micro-batch can tie the best
                batch_best: _Scored | None = None
                for virtual in virtuals:
                    zero, memory, fits = layout_memory.lowest_fitting_zero(
                        zeros, micro_batch, recompute, virtual
                    )
                    candidate = _Candidate(zero, micro_batch, recompute, virtual)
                    if not fits:
                        if best is None and (
                            smallest is None or memory.total_gb < smallest.memory.total_gb
                        ):
                            smallest = search.score(layout, candidate, memory)
                        break  # more model chunks only need more memory
                    if not fitted:
                        first_zero = zero
                    fitted = True
                    plan = search.score(layout, candidate, memory)
                    if batch_best is not None and plan.mfu <= batch_best.mfu:
                        if plan.zero_stage == batch_best.zero_stage:
                            break  # the bubble saved no longer pays for the extra transfers
                        continue  # a higher ZeRO stage cost this one; more chunks may still pay
                    batch_best = plan
                if batch_best is None:
                    break  # a larger micro-batch only needs more memory
                if best is None or _better(w, batch_best, rank, best, best_rank):
                    best, best_rank = batch_best, rank
                if (
                    previous is not None
                    and batch_best.mfu <= previous.mfu
                    and batch_best.zero_stage == previous.zero_stage
                ):
                    break  # larger micro-batches stopped paying
                previous = batch_best
            if fitted and first_zero <= 1:
                break  # heavier recomputation only costs time; ZeRO-2/3 traffic may cost more
    chosen = best or smallest
    if chosen is None:  # forced settings admit no plan at all
        return _data_parallel_fallback(w, acc, gpus, usable, fabric)
    return _with_reason(search.plan(chosen))


def best_case_hfu(w: Workload, acc: AcceleratorSpec) -> float:
    """The highest compute utilisation any plan of ``w`` reaches on ``acc`` [-].

    The utilisation of :class:`efficiency.StepCostModel` grows with the tokens each GEMM
    sees: no tensor or context split, the largest micro-batch, every expert on its own rank.
    Every plan's MFU is at most this times the workload factor.
    """
    costs = _cost_model(w, acc, _Fabric(1, acc.nic_gbps_per_gpu, 1.0))  # fabric: no bearing
    return costs.hfu(1, max(1, w.experts) if w.moe else 1, _MICRO_BATCHES[-1], False)


def mfu_ceiling_from(
    w: Workload, r: Resolved, acc: AcceleratorSpec, min_gpus: int, hfu_cache: HfuCache | None = None
) -> float:
    """An upper bound of the MFU of the plan :func:`search_plan` finds on any count of at
    least ``min_gpus`` accelerators, whole nodes of ``r.gpus_per_node`` [-].

    Each layout's quick bound (:func:`_layout_bound`) falls as its data
    degree grows at fixed tensor, context, pipeline and expert degrees: computation per
    accelerator falls with it while the tensor, expert, pipeline and context traffic fall
    in step, the data-parallel traffic does not, and fewer micro-batches per replica
    widen the pipeline bubble.  So every layout of such a count is bounded by the same
    degrees on ``floor(min_gpus / (t c p))`` replicas; a split whose replicas would
    already outnumber the sequences of a step cannot be used at all (a large cluster
    must split the model further, and pays for it).  The degrees tried are a superset
    of those of :func:`_layouts` at any such count.  Groups of the same tensor, expert and
    context degrees are passed over when their ceiling
    (:meth:`efficiency.StepCostModel.ceiling`) cannot beat the bound so far.
    ``inf`` (no bound from the count) when a forced data degree leaves the replicas fixed,
    below one node, or when no layout is left (the search then falls back to plain data
    parallelism).
    """
    if r.forced_data is not None or min_gpus < r.gpus_per_node:
        return math.inf
    per_node = r.gpus_per_node
    fabric = _Fabric(
        gpus_per_node=per_node,
        nic_gbps_per_gpu=r.nic_gbps_per_gpu or acc.nic_gbps_per_gpu,
        oversubscription=r.oversubscription or 1.0,
    )
    usable = usable_gb(acc.memory_gb)
    hfu_cache = {} if hfu_cache is None else hfu_cache
    searches: dict[int, _Search] = {}
    sequences = max(1.0, w.tokens_per_step / w.seq)
    costs = _cost_model(w, acc, fabric, hfu_cache)
    flops = w.model_flops_per_token + recompute_flops_per_token(
        w.active_params, w.layers, w.hidden, w.seq, "none", w.causal
    )
    micro_batch = r.micro_batch_size or _MICRO_BATCHES[-1]
    split = _model_split_limit(w)
    experts = _degrees(min(w.experts, split), r.forced_expert, w.experts) if w.moe else [1]
    pipelines = _degrees(min(w.layers, split), r.forced_pipeline)
    groups: list[tuple[float, int, int, int]] = []  # (ceiling, tensor, expert, context)
    for cp in _context_options(w, r, max(min_gpus, _CONTEXT_DEGREES[-1])):
        for tp in _degrees(min(per_node, split), r.forced_tensor, w.heads):
            for ep in experts:
                ceiling = costs.ceiling(tp, ep, cp, micro_batch, flops) * _CEILING_ROUNDING
                groups.append((ceiling, tp, ep, cp))
    groups.sort(key=lambda group: -group[0])
    best = -math.inf
    for ceiling, tp, ep, cp in groups:
        if ceiling <= best:
            break
        for pp in pipelines:
            dp = max(1, min_gpus // (tp * cp * pp))
            if dp > sequences:
                continue
            layout = _Layout(tp, pp, dp, ep, cp)
            gpus = tp * cp * pp * dp
            search = searches.get(gpus)
            if search is None:
                search = searches[gpus] = _Search(w, acc, gpus, fabric, usable, costs=costs)
            options = _micro_batch_options(w, r, layout)
            best = max(best, _layout_bound(search, r, layout, options))
    return best if best > -math.inf else math.inf  # no layout: the search falls back


class _LayoutQueue:
    """The layouts of one search in the order it explores them: the hinted layout first, then
    from the highest quick bound down (:func:`_layout_bound`), the simpler on
    a tie; it stops at the first whose bound cannot tie the best plan found.

    Layouts of the same tensor, expert and context degrees share a ceiling
    (:meth:`efficiency.StepCostModel.ceiling`) at least as high as each of their quick
    bounds, so a group's quick bounds are worked out only once its ceiling could put one
    of them next in that order or keep the search going: the order is the one all the
    quick bounds would give, at a fraction of their cost.
    """

    def __init__(
        self,
        search: _Search,
        r: Resolved,
        layouts: list[_Layout],
        options: list[tuple[int, ...]],
        hint: Plan | None,
        bounded: bool,
    ) -> None:
        self.search, self.r, self.layouts, self.options = search, r, layouts, options
        self.quick: list[tuple[float, int]] = []  # heap of (-quick bound, rank)
        self.groups: list[tuple[float, list[int]]] = []  # (ceiling, ranks), highest last
        self.first: list[int] = []
        if hint is not None:
            shape = (hint.tensor, hint.pipeline, hint.expert, hint.context)
            self.first = [i for i, lay in enumerate(layouts) if _shape(lay) == shape]
        rest = [i for i in range(len(layouts)) if i not in self.first]
        self.bounds = {i: self._quick_bound(i) if bounded else 1.0 for i in self.first}
        if not bounded:
            self.quick = [(-1.0, i) for i in rest]  # already a heap: ranks in order
            return
        # grouped by degrees and schedule (DualPipe or 1F1B)
        grouped: dict[tuple[int, int, int, bool], list[int]] = {}
        costs = search.costs
        for i in rest:
            lay = layouts[i]
            overlapped = costs.overlapped(lay.tensor, lay.expert, lay.context, lay.pipeline)
            grouped.setdefault((lay.tensor, lay.expert, lay.context, overlapped), []).append(i)
        flops = search.hardware_flops_per_token("none")
        micro_batch = r.micro_batch_size or _MICRO_BATCHES[-1]
        for (tp, ep, cp, overlapped), ranks in grouped.items():
            ceiling = costs.ceiling(tp, ep, cp, micro_batch, flops, overlapped)
            ceiling *= _CEILING_ROUNDING
            self.groups.append((ceiling, ranks))
        self.groups.sort(key=lambda group: group[0])

    def _quick_bound(self, rank: int) -> float:
        return _layout_bound(self.search, self.r, self.layouts[rank], self.options[rank])

    def next(self, best_mfu: float | None) -> int | None:
        """The rank of the next layout to explore, ``None`` when none left can tie
        ``best_mfu``."""
        if self.first:
            rank = self.first.pop(0)
            if best_mfu is not None and self.bounds[rank] * _MFU_TIE_MARGIN <= best_mfu:
                return None
            return rank
        groups, quick = self.groups, self.quick
        while groups and (best_mfu is None or groups[-1][0] * _MFU_TIE_MARGIN > best_mfu):
            if quick and groups[-1][0] < -quick[0][0]:
                break  # every layout of the groups left comes after the next one
            for rank in groups.pop()[1]:
                heapq.heappush(quick, (-self._quick_bound(rank), rank))
        if not quick:
            return None
        bound, rank = heapq.heappop(quick)
        if best_mfu is not None and -bound * _MFU_TIE_MARGIN <= best_mfu:
            return None  # no candidate of this or any later layout can even tie the best
        return rank


def _shape(layout: _Layout) -> tuple[int, int, int, int]:
    """The degrees of a layout that do not change with the GPU count."""
    return layout.tensor, layout.pipeline, layout.expert, layout.context


def _better(w: Workload, plan: _Scored, rank: int, best: _Scored, best_rank: int) -> bool:
    """Whether ``plan`` (of the layout at ``rank``) beats ``best``: 0.1 % faster, or as fast
    within 0.1 % and dealing each replica whole micro-batches where ``best`` does not
    (:func:`splits_evenly`), or as fast and as even and simpler (met earlier in the
    simplest-first order)."""
    if plan.mfu > best.mfu * _MFU_TIE_MARGIN:
        return True
    if plan.mfu * _MFU_TIE_MARGIN < best.mfu:
        return False
    even = splits_evenly(w, plan.layout.data, plan.candidate.micro_batch)
    if even != splits_evenly(w, best.layout.data, best.candidate.micro_batch):
        return even
    return rank < best_rank


def splits_evenly(w: Workload, dp: int, micro_batch: int) -> bool:
    """Whether a step's sequences deal out to ``dp`` replicas as whole micro-batches of
    ``micro_batch`` sequences each (1,024 over 256 replicas in micro-batches of 2: yes;
    over 448: no)."""
    per_micro_batch = w.tokens_per_step / (w.seq * dp * micro_batch)
    return abs(per_micro_batch - round(per_micro_batch)) <= _WHOLE_TOLERANCE


def whole_micro_batches(w: Workload, dp: int, micro_batch: int) -> int:
    """Micro-batches a step of the busiest of ``dp`` data-parallel replicas [-].

    A step's sequences are dealt out whole: when ``dp`` does not divide them (1,024 over
    448 replicas, 2.29 each) some replicas run ``ceil(S / d)`` sequences, in
    ``ceil(ceil(S / d) / b)`` micro-batches of at most ``b``, and the others one fewer.
    (The step time is worked out from the average replica; the plan search prefers a
    degree that divides the sequences where it is as fast, :func:`_better`.)
    """
    sequences = w.tokens_per_step / w.seq / dp
    busiest = max(1, math.ceil(sequences - _WHOLE_TOLERANCE))
    return math.ceil(busiest / micro_batch)


def _layout_bound(
    search: _Search, r: Resolved, layout: _Layout, micro_batches: tuple[int, ...]
) -> float:
    """An upper bound of the MFU of every candidate of ``layout`` (:meth:`_Search.bound`)
    that needs no memory check: the lowest ZeRO stage the search tries, no recomputation
    and the largest micro-batch (the quick bound; :func:`_layout_can_tie` tightens it with
    the memory of the layout).
    """
    return search.bound(layout, _zero_stages(r, layout)[0], max(micro_batches), "none", 1)


def _layout_can_tie(
    search: _Search,
    r: Resolved,
    memory: _LayoutMemory,
    layout: _Layout,
    micro_batches: tuple[int, ...],
    best_mfu: float,
) -> bool:
    """Whether some candidate of ``layout`` may tie ``best_mfu``: whether, for some
    recomputation setting, the bound of its candidates (:meth:`_Search.bound`) times the
    tie margin exceeds it.

    Those candidates need at least the ZeRO stage that fits one sequence without
    interleaving and at most the largest micro-batch that fits at the highest stage.  The
    memory of a setting is checked only when its bound at the lowest stage and the largest
    micro-batch is high enough; the lightest setting's is the layout's quick bound
    (:func:`_layout_bound`), which its place in the queue already put above the best.
    """
    zeros = _zero_stages(r, layout)
    highest = zeros[-1:]
    most = max(micro_batches)
    for index, recompute in enumerate(_recompute_options(r)):
        if (
            index
            and search.bound(layout, zeros[0], most, recompute, 1) * _MFU_TIE_MARGIN <= best_mfu
        ):
            continue
        zero = memory.fitting_zero(zeros, 1, recompute, 1)
        if zero is None:
            continue
        largest = 1
        for micro_batch in micro_batches:
            if micro_batch > largest:
                if memory.fitting_zero(highest, micro_batch, recompute, 1) is None:
                    break
                largest = micro_batch
        if search.bound(layout, zero, largest, recompute, 1) * _MFU_TIE_MARGIN > best_mfu:
            return True
    return False


def _plan(
    w: Workload,
    acc: AcceleratorSpec,
    gpus: int,
    layout: _Layout,
    candidate: _Candidate,
    memory: MemoryBreakdown,
    usable: float,
    fabric: _Fabric,
) -> Plan:
    """Cost one candidate outside a search (the reason is written later)."""
    search = _Search(w, acc, gpus, fabric, usable)
    return search.plan(search.score(layout, candidate, memory))


def cost_on_fabric(
    w: Workload,
    acc: AcceleratorSpec,
    plan: Plan,
    *,
    gpus_per_node: int,
    nic_gbps_per_gpu: float,
    oversubscription: float,
) -> StepCost:
    """Step cost of ``plan`` on another scale-out fabric (NIC speed [Gb/s], oversubscription).

    The same model that chose the plan, so a fabric sized from it delivers
    the plan's utilisation.
    """
    layout = _Layout(
        tensor=plan.tensor,
        pipeline=plan.pipeline,
        data=plan.data,
        expert=plan.expert,
        context=plan.context,
    )
    fabric = _Fabric(
        gpus_per_node=min(gpus_per_node, plan.gpus),
        nic_gbps_per_gpu=nic_gbps_per_gpu,
        oversubscription=oversubscription,
    )
    candidate = _Candidate(
        plan.zero_stage, plan.micro_batch_size, plan.recompute, plan.virtual_stages
    )
    return _plan(w, acc, plan.gpus, layout, candidate, plan.memory, plan.usable_gb, fabric).cost


def _data_parallel_fallback(
    w: Workload, acc: AcceleratorSpec, gpus: int, usable: float, fabric: _Fabric
) -> Plan:
    """Pure data parallelism with full recomputation, reported as not fitting."""
    layout = _Layout(tensor=1, pipeline=1, data=gpus, expert=1)
    candidate = _Candidate(zero=0, micro_batch=1, recompute="full", virtual_stages=1)
    memory = _layout_memory(w, acc, layout, 0, 1, "full")
    plan = _plan(w, acc, gpus, layout, candidate, memory, usable, fabric)
    return replace(plan, fits=False, reason="no plan satisfies the forced settings")


def _with_reason(p: Plan) -> Plan:
    """``p`` with the plain-language reason for its layout."""
    if not p.fits:
        reason = (
            f"does not fit: even the leanest plan needs {p.memory.total_gb:.0f} GB "
            f"of {p.usable_gb:.0f} GB per accelerator"
        )
    else:
        parts = []
        if p.tensor > 1:
            parts.append(f"tensor {p.tensor} inside a node splits each layer")
        if p.context > 1:
            parts.append(f"context {p.context} splits each sequence")
        if p.pipeline > 1:
            parts.append(f"pipeline {p.pipeline} splits the layers")
        if p.expert > 1:
            parts.append(f"expert {p.expert} spreads the experts")
        if p.dualpipe:
            parts.append(
                "a DualPipe schedule (DeepSeek's) hides the experts' traffic between servers"
                " behind the computation"
            )
        if p.zero_stage:
            parts.append(
                f"ZeRO-{p.zero_stage} shards {'optimizer state' if p.zero_stage == 1 else 'model states'}"
            )
        if p.virtual_stages > 1:
            parts.append(
                f"each pipeline stage holds {p.virtual_stages} interleaved chunks of layers,"
                " which shrinks the pipeline's idle time"
            )
        if p.micro_batch_size > 1:
            parts.append(
                f"micro-batches of {p.micro_batch_size} sequences keep the matrix units busy"
            )
        if p.recompute == "full":
            parts.append("activation recomputation trades compute for memory")
        elif p.recompute == "selective":
            parts.append("selective recomputation rebuilds cheap activations to save memory")
        reason = (
            ("Fastest plan that fits: " + "; ".join(parts) + ".")
            if parts
            else "Fastest plan that fits: plain data parallelism."
        )
    return with_changes(p, reason=reason)
