"""Efficiency model: achievable utilisation of an accelerator for one plan.

The model has four calibrated parameters (``docs/calibration.md``):

* ``eff_matmul_ceiling`` (eta): share of peak reached by large GEMMs;
* ``eff_memory_bound_coefficient`` (c): memory-bound kernels (norms,
  activations, optimizer, attention softmax) move ``O(h)`` bytes per
  ``O(h^2)`` FLOPs, so their time relative to GEMMs grows with the machine
  balance ``P / B`` and shrinks with the hidden size ``h``;
* ``eff_comm_overlap``: share of data-parallel communication hidden behind
  the backward pass;
* ``eff_moe_factor``: routing and load-imbalance losses of MoE layers (the
  smaller expert GEMMs are modelled, not folded into this factor).

Hardware utilisation of the compute itself is a roofline sum of times per
FLOP [1]_ [5]_::

    1 / (P HFU_0) = (1 - a - e) / (eta P) + a / (eta P_16)
                    + e * max(1 / (eta P), 1 / (B I_e)) + c / (B (h + k/6))

with P the peak of the training precision (FP8 peak for FP8: linear layers run
in FP8 [6]_; a dense FP8 GEMM reaches ``1.75 P_16 / P`` of the share of its peak a
BF16 GEMM reaches, ``fp8_gemm_speedup_over_bf16`` [12]_), P_16 the BF16 peak (attention stays in BF16 [6]_), a the share of
FLOPs in attention (``12 L h k`` for ``k`` keys a query attends to: ``s / 2`` under a
causal mask, ``compute.attended_keys``), e the share in expert GEMMs, and I_e the
arithmetic intensity of one expert GEMM of ``m`` routed tokens,
``2 m h n / (bytes (m h + h n + m n))`` [FLOP/B].  Memory-bound kernels move
``O(h)`` bytes per token and layer against ``72 h^2 + 12 h k = 72 h (h + k/6)``
FLOPs (PaLM's count with ``N = 12 L h^2``, ``k = s`` in PaLM's full count), hence
``h + k/6``: long sequences add compute-bound attention work, so small hidden sizes
are not over-penalised.

and of a plan, with exposed communication and the pipeline bubble::

    MFU = HFU_0 * (model FLOPs / hardware FLOPs) * moe * method
          / (1 + t_tp/t + t_ep/t + max(0, t_dp - overlap*t)/t + t_dq/t) * (1 - bubble)

with the bubble of :func:`pipeline_bubble` (``(p-1)/(v m + p-1)`` once ``m >= p``)

with ``t_dq`` QLoRA's de-quantisation of its 4-bit frozen weights, a memory-bound pass
per micro-batch before the forward and the backward GEMMs [9]_.

References
----------
.. [1] S. Williams, A. Waterman, D. Patterson, "Roofline", CACM 52(4), 2009.
.. [2] Narayanan et al., Megatron-LM PTD-P, arXiv 2104.04473 (2021), sec. 2.2 (pipeline
       bubble (p-1)/m of the 1F1B schedule, (p-1)/(v m) interleaved, for a pipeline the
       micro-batches fill) and sec. 3 (tensor-parallel all-reduces per layer).
.. [3] nccl-tests doc/PERFORMANCE.md: a ring all-reduce moves 2 (n-1)/n of the buffer.
.. [4] Rajbhandari et al., ZeRO, arXiv 1910.02054 (2019), sec. 7: 16-bit gradients;
       stage 3 moves 1.5x the data-parallel volume.
.. [5] Chowdhery et al., PaLM, arXiv 2204.02311 (2022), app. B: 6 N + 12 L h s.
.. [6] DeepSeek-V3 report, arXiv 2412.19437 (2024), sec. 3.3.1: GEMMs in FP8;
       attention, embedding, output head, gating and norms in BF16/FP32
       (NVIDIA Transformer Engine likewise runs Linear layers in FP8).
.. [8] Liu, Zaharia, Abbeel, Ring Attention, arXiv 2310.01889 (2023), sec. 3 (key-value
       blocks passed round a ring of devices, each transfer overlapped with the attention of
       the block in hand); NVIDIA Megatron-Core, "context parallel" user guide (sequence split
       over cp ranks, activations divided by cp, gradients reduced over the data and context
       ranks together).
.. [9] Dettmers et al., QLoRA, arXiv 2305.14314 (2023), sec. 3: NF4 storage, BF16
       computation ("we dequantize the storage data type to the computation data type
       to perform the forward and backward pass"); the measured cost per micro-batch:
       QwenLM/Qwen README, "Profiling of Memory and Speed" (assumption
       ``qlora_dequant_bandwidth_share``).
.. [10] PyTorch FSDP (Zhao et al., arXiv 2304.11277, 2023), sec. 3.2: with full sharding each
       unit's parameters are all-gathered before its forward and again before its backward,
       frozen or not (``requires_grad=False`` parameters are sharded and gathered the same);
       Answer.AI's FSDP-QLoRA (2024) gathers the 4-bit base the same way.  DeepSpeed ZeRO-3
       likewise fetches every partitioned parameter for each micro-batch's forward and backward.
.. [7] Software-stack factors ``eff_software_<stack>`` (CUDA 1, ROCm, Gaudi) from
       same-benchmark public comparisons: ``benchmarks/vendors.py``.
.. [12] NVIDIA technical blog, "Boosting Matrix Multiplication Speed and Flexibility with
       NVIDIA cuBLAS 12.9" (2025-05): on Hopper, channel- and block-scaled FP8 matmuls run
       1.75x the BF16 baseline on large matrices, at least 1.25x on most other shapes.  It
       measures dense matmuls; no public FP8-against-BF16 figure for grouped expert GEMMs
       was found, so those keep the FP8 peak's share (with it, DeepSeek-V3's published
       layout would read 1.28x its published GPU-hours instead of 1.22x).
.. [13] Kernel fusion: the memory-bound bytes of a stack that writes its own kernels over an
       unfused one's, counted kernel by kernel (:mod:`sizing.engine.kernel_fusion`).
.. [11] Software-family factors ``eff_stack_<family>`` (who trains with what), measured on the
       published runs by family: :mod:`sizing.engine.stack_efficiency`, ``docs/calibration.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .assumptions import value
from .compute import FLOPS_PER_PARAM_TOKEN, attended_keys, attention_flops_per_token
from .expert_traffic import (
    ALL_TO_ALLS_PER_LAYER,
    all_to_all_bytes_per_value,
    all_to_all_copies,
    dualpipe_bubble,
    dualpipe_stretch,
    nodes_spanned,
    overlapped_schedule,
)
from .hardware import AcceleratorSpec, peak_tflops
from .inputs import ADAPTER_METHODS
from .quantisation import cast_bytes_per_flop
from .stack_efficiency import TYPICAL, stack_factor
from .units import BITS_PER_BYTE, BYTES_PER_GB
from .vendor_scale import software_scale_factor

_FLOPS_PER_TFLOP = 1e12
_DIRECTIONS = 2.0  # scale-up bandwidth is quoted both ways; one way is half

# Communication per step, by collective (volumes in the module docstring of network.py)
RING_ALL_REDUCE = 2.0  # a ring all-reduce sends 2 (n-1)/n of the buffer per GPU [3]_
BYTES_PER_VALUE = 2.0  # [B] activations and gradients travel in 16 bits [4]_
# Tensor parallelism all-reduces each layer's output twice forward and twice backward;
# full recomputation repeats the forward pair [2]_.
TP_ALL_REDUCES_PER_LAYER = 4.0
TP_ALL_REDUCES_PER_LAYER_RECOMPUTE = 6.0
# ZeRO-3 gathers the weights for forward and backward and reduce-scatters the gradients of
# every micro-batch: 3 half all-reduces each (the paper's 1.5x all-reduce for one) [4]_
ZERO3_UNITS_PER_MICRO_BATCH = 3.0
# Frozen weights (the LoRA/QLoRA base) sharded by ZeRO-3/FSDP are gathered for the forward and
# again for the backward of every micro-batch, but have no gradient to reduce-scatter [4]_ [10]_
FROZEN_GATHERS_PER_MICRO_BATCH = 2.0
# Context parallelism passes each rank's keys and values round the ring once forward and, with
# their gradients, twice backward [8]_
CP_KV_PASSES = 3.0
# A pipeline stage sends activations forward and gradients back per micro-batch and chunk [2]_
PP_TRANSFERS_PER_CHUNK = 2.0
# [B] bytes per value a GEMM reads: FP8 operands are one byte, 16-bit two [6]_
GEMM_BYTES_PER_VALUE = {"fp8": 1.0}
# Weight matrices per expert MLP: gate, up and down projections (SwiGLU; Mixtral, DeepSeek, Qwen3)
EXPERT_MATRICES = 3.0
# QLoRA de-quantises the frozen weights for the forward and the backward GEMMs of every
# micro-batch, and once more when full recomputation re-runs the forward [9]_
DEQUANT_PASSES = 2.0
DEQUANT_PASSES_RECOMPUTE = 3.0
# FLOPs per token per layer are 72 h^2 + 12 h k = 72 h (h + k / 6), k keys attended [5]_
ATTENTION_SEQ_PER_HIDDEN = 6.0


@dataclass(frozen=True)
class StepCost:
    """Time shares of one training step on one accelerator (unitless ratios)."""

    hfu_base: float
    tp_comm_ratio: float
    dp_comm_ratio: float
    ep_comm_ratio: float
    pp_bubble: float  # [-] fraction of step idle in the pipeline bubble
    mfu: float


def base_hfu(
    acc: AcceleratorSpec,
    precision: str,
    hidden: int,
    *,
    keys: float = 0.0,
    attention_share: float = 0.0,
    expert_share: float = 0.0,
    expert_intensity: float = math.inf,
    dense_intensity: float = math.inf,
    memory_bound_extra: float = 0.0,
    matmul_ceiling: float | None = None,
    memory_bound_scale: float = 1.0,
) -> float:
    """Hardware FLOPs utilisation of the computation alone, of the precision's peak [-].

    FP8 adds the casts of its GEMM operands, ``(1 - a) q / B`` per FLOP with ``q`` the
    cast bytes per linear-layer FLOP (:func:`quantisation.cast_bytes_per_flop`).

    Parameters
    ----------
    acc : AcceleratorSpec
    precision : str
    hidden : int
        Model hidden size [-].
    keys : float
        Keys each query attends to, on average [tokens] (half the sequence under a
        causal mask, :func:`compute.attended_keys`).
    attention_share, expert_share : float
        Shares of the FLOPs in attention scores and in expert GEMMs [-].
    expert_intensity, dense_intensity : float
        Arithmetic intensity of one expert GEMM and of the smallest dense GEMM
        of a micro-batch [FLOP/B]; below the machine balance ``P / B`` the GEMM
        is bandwidth-bound.
    memory_bound_extra : float
        Memory-bound work repeated by selective recomputation, as a share of
        the memory-bound term [-].
    matmul_ceiling : float or None
        Share of peak large GEMMs reach, measured on this accelerator by the verification kit
        (:mod:`.measured`) [-]; None: the calibrated ``eff_matmul_ceiling``.
    memory_bound_scale : float
        The memory-bound bytes of the stack over those of the unfused stacks ``c`` is fitted
        on (:func:`kernel_fusion.memory_bound_scale`: below 1 for fused kernels) [-].
    """
    p = peak_tflops(acc, precision)
    p16 = peak_tflops(acc, "bf16") if precision == "fp8" else p
    eta = value("eff_matmul_ceiling") if matmul_ceiling is None else matmul_ceiling
    c = value("eff_memory_bound_coefficient")
    bw = acc.memory_bw_tbps
    # a dense FP8 GEMM runs fp8_gemm_speedup_over_bf16 (1.75x) the BF16 one, not the 2x of
    # the peaks; the figure is for dense matmuls, so expert GEMMs keep the peak's share [12]_
    gemm = 1.0 / (eta * min(p, p16 * value("fp8_gemm_speedup_over_bf16")))
    expert = max(1.0 / (eta * p), 1.0 / (bw * expert_intensity))
    dense = max(gemm, 1.0 / (bw * dense_intensity))
    dense_share = max(0.0, 1.0 - attention_share - expert_share)
    memory_bound = c * memory_bound_scale / (bw * (hidden + keys / ATTENTION_SEQ_PER_HIDDEN))
    # [B/FLOP] / [TB/s] = [s/TFLOP]: the FP8 casts of the linear layers' operands
    casts = (1.0 - attention_share) * cast_bytes_per_flop(precision, hidden) / bw
    seconds_per_tflop = (
        dense_share * dense
        + attention_share / (eta * p16)
        + expert_share * expert
        + memory_bound * (1.0 + memory_bound_extra)
        + casts
    )
    # the software stack reaches its own share of what the hardware allows [7]_
    return value(f"eff_software_{acc.software}") / (p * seconds_per_tflop)


def gemm_intensity(*, tokens: float, hidden: int, ffn: float, precision: str) -> float:
    """Arithmetic intensity of an ``m x h`` by ``h x n`` GEMM [FLOP/B] [1]_.

    ``I = 2 m h n / (bytes (m h + h n + m n))``: with few tokens (a small
    micro-batch, or few tokens routed to an expert) the weights dominate the
    traffic and the GEMM is bandwidth-bound.
    """
    nbytes = GEMM_BYTES_PER_VALUE.get(precision, BYTES_PER_VALUE)
    m = max(1.0, tokens)
    return 2.0 * m * hidden * ffn / (nbytes * (m * hidden + hidden * ffn + m * ffn))


def scale_up_bytes_per_s(acc: AcceleratorSpec) -> float:
    """Achievable one-way scale-up bandwidth per GPU [B/s]."""
    return acc.scale_up_gb_per_s / _DIRECTIONS * BYTES_PER_GB * value("nccl_scale_up_efficiency")


def scale_out_bytes_per_s(nic_gbps_per_gpu: float, oversubscription: float) -> float:
    """Achievable one-way scale-out bandwidth per GPU [B/s]."""
    return (
        nic_gbps_per_gpu
        / BITS_PER_BYTE
        * BYTES_PER_GB
        * value("nccl_scale_out_efficiency")
        / oversubscription
    )


class StepCostModel:
    """Step costs of the plans of one workload on one accelerator and fabric.

    What does not depend on the plan (peaks, bandwidths, the attention share,
    the calibrated constants) is worked out once, and the compute utilisation
    once per tensor degree, expert degree, micro-batch and recomputation: a
    plan search costs hundreds of plans of the same workload.
    """

    def __init__(
        self,
        *,
        acc: AcceleratorSpec,
        precision: str,
        hidden: int,
        layers: int,
        seq: int,
        model_flops_per_token: float,
        tokens_per_step: float,
        top_k: int,
        moe: bool,
        method: str,
        gpus_per_node: int,
        nic_gbps_per_gpu: float,
        oversubscription: float,
        experts: int = 1,
        expert_params: float = 0.0,
        kv_hidden: float = 0.0,
        hfu_cache: dict[tuple[int, int, int, bool, int], float] | None = None,
        quantised_params: float = 0.0,
        causal: bool = True,
        routed_node_limit: int = 0,
        stack_family: str = TYPICAL,
        matmul_ceiling: float | None = None,
        memory_bound_scale: float = 1.0,
    ) -> None:
        """``hfu_cache`` may be shared by the models of one workload on one accelerator
        (the compute utilisation does not depend on the fabric or the GPU count)."""
        self.acc = acc
        self.precision = precision
        self.hidden = hidden
        self.layers = layers
        self.seq = seq
        self.model_flops_per_token = model_flops_per_token
        self.tokens_per_step = tokens_per_step
        self.top_k = top_k
        self.moe = moe
        self.experts = experts
        self.expert_params = expert_params
        self.gpus_per_node = gpus_per_node
        self.kv_hidden = kv_hidden or hidden  # [-] width of the keys (and of the values)
        self.attention = min(
            1.0, attention_flops_per_token(layers, hidden, seq, causal) / model_flops_per_token
        )
        self.keys = attended_keys(seq, causal)  # [tokens] each query attends to
        self.routed_experts = moe and experts > 1 and expert_params > 0
        self.peak = peak_tflops(acc, precision) * _FLOPS_PER_TFLOP  # [FLOP/s]
        self.up = scale_up_bytes_per_s(acc)
        self.out = scale_out_bytes_per_s(nic_gbps_per_gpu, oversubscription)
        self.selective_extra = value("selective_recompute_memory_bound_share")
        self.dp_overlap = value("eff_comm_overlap")
        self.routed_node_limit = routed_node_limit  # [nodes] 0: routing sees every node
        self.ep_bytes = ALL_TO_ALLS_PER_LAYER * all_to_all_bytes_per_value(precision)
        self._expert_s: dict[tuple[int, int, int], float] = {}  # by tensor, expert, context
        self._overlapped: dict[tuple[int, int, int, int], bool] = {}  # and pipeline
        # who trains with what: the software family's share of the modelled utilisation [11]_
        self.factor = workload_factor(moe=moe, method=method) * stack_factor(stack_family)
        self.matmul_ceiling = matmul_ceiling  # measured on this accelerator, or None
        # fused kernels move fewer memory-bound bytes (kernel_fusion) [13]_
        self.memory_bound_scale = memory_bound_scale
        self._hfu = {} if hfu_cache is None else hfu_cache
        # [s per micro-batch and de-quantisation pass] of the dense 4-bit base (QLoRA)
        self.dequant_s = dequantisation_seconds(quantised_params - expert_params, acc)
        self.dequant_expert_s = dequantisation_seconds(
            expert_params if quantised_params else 0.0, acc
        )

    def hfu(self, tp: int, ep: int, micro_batch: int, selective: bool, cp: int = 1) -> float:
        """Compute utilisation of one micro-batch's kernels (:func:`base_hfu`) [-].

        With context parallelism each accelerator holds ``1 / cp`` of each sequence,
        so its GEMMs see that many fewer tokens.
        """
        key = (tp, ep, micro_batch, selective, cp)
        found = self._hfu.get(key)
        if found is not None:
            return found
        hidden = self.hidden
        tokens_per_micro_batch = float(self.seq) * micro_batch / cp
        expert_share = 0.0
        intensity = math.inf
        if self.routed_experts:
            active_expert = self.expert_params * self.top_k / self.experts
            expert_share = min(
                1.0 - self.attention,
                FLOPS_PER_PARAM_TOKEN * active_expert / self.model_flops_per_token,
            )
            # each expert GEMM sees the routed tokens of one micro-batch from ep ranks
            routed = tokens_per_micro_batch * self.top_k * ep / self.experts
            ffn = expert_width(self.expert_params, self.experts, self.layers, hidden) * hidden / tp
            intensity = gemm_intensity(
                tokens=routed, hidden=hidden, ffn=ffn, precision=self.precision
            )
        # the narrowest dense GEMM of a micro-batch: a projection h -> h / t
        dense_intensity = gemm_intensity(
            tokens=tokens_per_micro_batch, hidden=hidden, ffn=hidden / tp, precision=self.precision
        )
        found = self._hfu[key] = base_hfu(
            self.acc,
            self.precision,
            hidden,
            keys=self.keys,
            attention_share=self.attention,
            expert_share=expert_share,
            expert_intensity=intensity,
            dense_intensity=dense_intensity,
            memory_bound_extra=self.selective_extra if selective else 0.0,
            matmul_ceiling=self.matmul_ceiling,
            memory_bound_scale=self.memory_bound_scale,
        )
        return found

    def ceiling(
        self,
        tp: int,
        ep: int,
        cp: int,
        micro_batch: int,
        hardware_flops_per_token: float,
        overlapped: bool | None = None,
    ) -> float:
        """An upper bound of the MFU (:meth:`ratios`) of every plan with these tensor, expert
        and context degrees, at most ``micro_batch`` sequences a micro-batch and
        ``hardware_flops_per_token`` [-].

        Per second of computation, the tensor-parallel all-reduces and the expert
        all-to-alls of a plan do not depend on its pipeline or data degrees: their volumes
        and its computation both scale with the tokens each rank holds.  The pipeline's
        transfers and bubble, data-parallel traffic and context-parallel transfers only
        lower the MFU further, and so does a smaller micro-batch (slower kernels).
        ``overlapped``: whether the plans bounded run DualPipe (:meth:`overlapped`); ``None``
        bounds both schedules.
        """
        hfu = self.hfu(tp, ep, micro_batch, False, cp)
        # seconds of communication per byte moved per token and layer, over seconds of compute
        per_byte = self.layers * self.peak * hfu / hardware_flops_per_token
        comm = 0.0
        if tp > 1:
            reduces = TP_ALL_REDUCES_PER_LAYER * RING_ALL_REDUCE * (tp - 1)
            comm += reduces * BYTES_PER_VALUE * self.hidden * per_byte / self.up
        if self.moe and ep > 1:
            # per token and layer, over the compute time; DualPipe hides it but slows the
            # computation (the smaller of the two schedules' costs bounds both)
            ep_ratio = self.expert_seconds_per_token(tp, ep, cp) * per_byte
            hidden = dualpipe_stretch(ep_ratio) - 1.0  # DualPipe: hidden, slower compute
            if overlapped is None:  # inside a node every plan runs 1F1B
                crosses = nodes_spanned(ep * cp * tp, self.gpus_per_node) > 1
                comm += min(ep_ratio, hidden) if crosses else ep_ratio
            else:
                comm += hidden if overlapped else ep_ratio
        model_share = self.model_flops_per_token / hardware_flops_per_token
        return hfu * model_share * self.factor / (1.0 + comm)

    def expert_seconds_per_token(self, tp: int, ep: int, cp: int) -> float:
        """Seconds the four expert all-to-alls of one token and layer take on the slower of
        their two legs, scale-out and scale-up (:func:`expert_traffic.all_to_all_copies`)
        [s]: ``max(out copies / out, up copies / up) x bytes x h``.
        """
        found = self._expert_s.get((tp, ep, cp))
        if found is not None:
            return found
        nodes = nodes_spanned(ep * cp * tp, self.gpus_per_node)
        out_copies, up_copies = all_to_all_copies(
            top_k=self.top_k, ep=ep, nodes=nodes, node_limit=self.routed_node_limit
        )
        per_copy = self.ep_bytes * self.hidden
        out_s = out_copies * per_copy / self.out
        up_s = up_copies * per_copy / self.up
        found = self._expert_s[(tp, ep, cp)] = out_s if out_s >= up_s else up_s
        return found

    def overlapped(self, tp: int, ep: int, cp: int, pp: int) -> bool:
        """Whether a plan of these degrees runs DualPipe (:mod:`expert_traffic`)."""
        if not self.moe or ep <= 1:
            return False
        key = (tp, ep, cp, pp)
        found = self._overlapped.get(key)
        if found is None:
            nodes = nodes_spanned(ep * cp * tp, self.gpus_per_node)
            found = self._overlapped[key] = overlapped_schedule(
                moe=self.moe, ep=ep, pp=pp, nodes=nodes
            )
        return found

    def ratios(
        self,
        gpus: int,
        tp: int,
        pp: int,
        ep: int,
        micro_batch: int,
        zero_stage: int,
        recompute: str,
        hardware_flops_per_token: float,
        params_per_gpu: float,
        virtual_stages: int,
        cp: int = 1,
        frozen_bytes_per_gpu: float = 0.0,
    ) -> tuple[float, float, float, float, float, float]:
        """The fields of the :class:`StepCost` of one plan, in order (a tuple: a plan search
        compares tens of thousands); its MFU is the model FLOPs utilisation (see module
        docstring) [-].

        Communication per step and GPU, each over the fastest link its group spans:

        * tensor parallel: 4 all-reduces of ``s b h`` 16-bit values per layer and
          micro-batch (6 with full recomputation), ring volume ``2 (t-1)/t`` [2]_;
        * data parallel, in units of ``2 (d-1)/d`` bytes per parameter of the rank
          (one all-reduce, or one reduce-scatter plus one all-gather) [4]_: ZeRO-0/1
          reduce once per step (2 units); ZeRO-2 reduce-scatters the gradients of
          every micro-batch and gathers the weights once (``m + 1``); ZeRO-3 also
          gathers the weights for every micro-batch's forward and backward
          (``3 m``; the paper's 1.5x all-reduce is ``m = 1``) [4]_.  Under ZeRO-3
          the ``frozen_bytes_per_gpu`` of a LoRA/QLoRA base (its share of the
          frozen weights, in their stored bytes) are gathered too, forward and
          backward, every micro-batch (:func:`data_parallel_bytes`) [10]_.  A share
          ``eff_comm_overlap`` of compute time can hide it;
        * expert parallel: dispatch and combine, forward and backward, of each
          token's copies over the slower of its scale-out and scale-up legs
          (:mod:`expert_traffic`); under 1F1B the step waits for it, under DualPipe
          (an MoE pipeline whose all-to-all crosses nodes) it and the pipeline
          transfers hide behind the computation, which runs on fewer multiprocessors,
          and the bubble is DualPipe's;
        * pipeline: each stage sends its output forward and its gradient back for
          every micro-batch and model chunk (``2 v`` transfers of ``s b h / t``),
          not hidden;
        * context parallel (``cp`` ranks split each sequence): each rank's keys and
          values pass ``cp - 1`` ranks on, once forward and twice backward with
          their gradients [8]_, hidden behind the attention computation as far as
          it lasts; tensor, expert and pipeline volumes fall to ``1 / cp``, and
          gradients are reduced over ``d cp`` ranks.

        The interleaved schedule with ``v`` model chunks per stage shrinks the
        bubble to ``(p-1) / (v m + p-1)`` of the step [2]_ when a replica has at least
        as many micro-batches as stages, and no further than ``(p-m)/p`` when it has
        fewer (:func:`pipeline_bubble`).
        """
        # the same arithmetic as written out above, with few lookups and calls: a search
        # costs hundreds of plans
        hidden, layers = self.hidden, self.layers
        dp = gpus // (tp * cp * pp) or 1
        selective = recompute == "selective"
        hfu = self._hfu.get((tp, ep, micro_batch, selective, cp))
        if hfu is None:
            hfu = self.hfu(tp, ep, micro_batch, selective, cp)
        tokens_per_step = self.tokens_per_step
        t_comp = hardware_flops_per_token * tokens_per_step / gpus / (self.peak * hfu)  # [s]
        up, out = self.up, self.out
        tokens_per_replica = tokens_per_step / dp
        micro_batches = tokens_per_replica / (float(self.seq) * micro_batch)
        if not micro_batches > 1.0:
            micro_batches = 1.0
        tokens_per_rank = tokens_per_replica / cp  # each context rank holds 1 / cp of a sequence
        t_tp = 0.0
        if tp > 1:
            if recompute == "full":
                reduces = TP_ALL_REDUCES_PER_LAYER_RECOMPUTE
            else:
                reduces = TP_ALL_REDUCES_PER_LAYER
            vol = reduces * RING_ALL_REDUCE * (tp - 1) / tp * BYTES_PER_VALUE * hidden
            vol = vol * tokens_per_rank * layers / pp
            t_tp = vol / up
        t_dp = 0.0
        reducers = dp * cp  # gradients are reduced over the context ranks too [8]_
        if reducers > 1:
            vol = data_parallel_bytes(
                zero_stage, micro_batches, reducers, params_per_gpu, frozen_bytes_per_gpu
            )
            t_dp = vol / (out if gpus > self.gpus_per_node else up)
        t_ep = 0.0
        overlapped = False
        if self.moe and ep > 1:
            # the cached figures read in place: a search asks for them tens of thousands of times
            per_token = self._expert_s.get((tp, ep, cp))
            if per_token is None:
                per_token = self.expert_seconds_per_token(tp, ep, cp)
            t_ep = per_token * tokens_per_rank / tp * layers / pp
            found = self._overlapped.get((tp, ep, cp, pp))
            overlapped = self.overlapped(tp, ep, cp, pp) if found is None else found
        t_pp = 0.0
        bubble = 0.0
        if pp > 1:
            vol = PP_TRANSFERS_PER_CHUNK * virtual_stages * BYTES_PER_VALUE * hidden
            vol = vol * tokens_per_rank / tp
            t_pp = vol / (up if tp * cp * pp <= self.gpus_per_node else out)
            if overlapped:
                bubble = dualpipe_bubble(pp, micro_batches)
            else:
                bubble = pipeline_bubble(
                    pp, micro_batches, balanced_chunks(layers // pp, virtual_stages)
                )
        exposed_cp = 0.0
        if cp > 1:
            # ring attention: each rank passes its keys and values on cp - 1 times forward,
            # and keys, values and their gradients backward; each block's transfer hides
            # behind the previous block's attention [8]_
            vol = CP_KV_PASSES * 2.0 * self.kv_hidden * BYTES_PER_VALUE * (cp - 1)
            vol = vol * tokens_per_rank / tp * layers / pp
            t_cp = vol / (up if tp * cp <= self.gpus_per_node else out)
            exposed_cp = t_cp - self.attention * t_comp
            if not exposed_cp > 0.0:
                exposed_cp = 0.0
        t_dq = 0.0
        if self.dequant_s or self.dequant_expert_s:
            passes = DEQUANT_PASSES_RECOMPUTE if recompute == "full" else DEQUANT_PASSES
            per_pass = (self.dequant_s + self.dequant_expert_s / ep) / (tp * pp)
            t_dq = passes * micro_batches * per_pass
        exposed_dp = t_dp - self.dp_overlap * t_comp
        if not exposed_dp > 0.0:
            exposed_dp = 0.0
        others = (t_tp + exposed_dp + exposed_cp + t_dq) / t_comp
        if overlapped:  # DualPipe hides the all-to-all and the pipeline transfers
            stretch = dualpipe_stretch((t_ep + t_pp) / t_comp) + others
        else:
            stretch = 1.0 + (t_ep + t_pp) / t_comp + others
        mfu = (
            hfu * (self.model_flops_per_token / hardware_flops_per_token) / stretch * (1.0 - bubble)
        )
        mfu *= self.factor
        if self.acc.software != "cuda":  # a stack's factor falls beyond one node (vendor_scale)
            mfu *= software_scale_factor(self.acc.software, gpus)
        return hfu, t_tp / t_comp, t_dp / t_comp, t_ep / t_comp, bubble, mfu


def pipeline_bubble(stages: int, micro_batches: float, chunks: float = 1.0) -> float:
    """Share of a step each pipeline stage idles, with ``m`` micro-batches a step over ``p``
    stages of ``v`` model chunks each (1F1B, interleaved when ``v > 1``) [-] [2]_.

    Let ``t`` be the time one stage takes for the forward and backward of one
    micro-batch; one model chunk takes ``t / v``.  A stage's own work is ``m t``.

    * ``m >= p``: the schedule fills the pipeline; warm-up and cool-down leave
      ``(p-1) t / v`` idle (Narayanan et al. 2021, sec. 2.2.1 for ``v = 1``, 2.2.2 for
      the interleaved schedule), so the step takes ``(m + (p-1)/v) t`` and the bubble is
      ``(p-1) / (v m + p-1)``.
    * ``m < p``: the pipeline never fills.  Micro-batch ``j`` enters model chunk ``k``
      (of ``p v``, round the stages ``v`` times) at ``(j + k) t / v``: the first needs
      ``p v`` chunk-times to pass every chunk, the last follows ``m - 1`` chunk-times
      behind, and no two meet on a stage (``j + k`` differ while ``j < m < p``).  The
      step takes ``(p + (m-1)/v) t``, so the bubble is::

          1 - m / (p + (m-1)/v) = (v (p-m) + m-1) / (v p + m-1)

      at least ``(p-m)/p`` however many chunks: 4 micro-batches over 8 stages idle
      at least half of each step, where ``(p-1)/(v m + p-1)`` gave 18 % with 8 chunks.

    Both cases agree at ``m = p``, and with one chunk both are ``(p-1)/(m+p-1)``.
    ``m`` is the average replica's (whole micro-batches are counted by
    :func:`parallelism.whole_micro_batches`); at least one.
    """
    if stages <= 1:
        return 0.0
    m = micro_batches if micro_batches > 1.0 else 1.0
    v = chunks if chunks > 1.0 else 1.0
    p = float(stages)
    if m >= p:
        return (p - 1.0) / (v * m + p - 1.0)
    return (v * (p - m) + m - 1.0) / (v * p + m - 1.0)


def balanced_chunks(layers_per_stage: int, chunks: int) -> float:
    """The model chunks per stage the interleaved bubble sees [-].

    A stage of ``L`` layers split into ``v`` chunks holds ``ceil(L / v)`` layers in its
    largest chunk, and the warm-up and cool-down of the schedule wait on that chunk:
    the bubble is that of ``L / ceil(L / v)`` equal chunks (20 layers in 8 chunks of 2 or
    3 layers: 6.7).  Large runs do split stages unevenly (Llama 3 Herd of Models,
    arXiv 2407.21783, sec. 3.3.2: one layer fewer on the first and last stages).
    """
    if chunks <= 1 or layers_per_stage <= 0:
        return float(max(1, chunks))
    return layers_per_stage / math.ceil(layers_per_stage / chunks)


def dequantisation_seconds(params: float, acc: AcceleratorSpec) -> float:
    """Time to de-quantise ``params`` 4-bit frozen weights to BF16 once [s] [9]_.

    QLoRA keeps the base weights in NF4 and de-quantises each layer's weights before
    every GEMM that reads them, forward and backward (and again when a full
    recomputation re-runs the forward): each pass reads the 4-bit weights with their
    constants (``qlora_base_bytes``) and writes BF16 (``weight_bytes_16bit``), at the
    share ``qlora_dequant_bandwidth_share`` of the memory bandwidth those kernels reach::

        t = N (b_4 + b_16) / (B share)
    """
    if params <= 0.0:
        return 0.0
    moved = params * (value("qlora_base_bytes") + value("weight_bytes_16bit"))  # [B]
    bandwidth = acc.memory_bw_tbps * 1e12 * value("qlora_dequant_bandwidth_share")  # [B/s]
    return moved / bandwidth


def workload_factor(*, moe: bool, method: str) -> float:
    """Losses outside the roofline: MoE routing and imbalance, small adapter kernels [-]."""
    factor = value("eff_moe_factor") if moe else 1.0
    if method in ADAPTER_METHODS:
        factor *= value("eff_small_kernel_penalty")
    return factor


def data_parallel_units(zero_stage: int, micro_batches: float) -> float:
    """Data-parallel traffic per step in all-reduce halves (see :meth:`StepCostModel.ratios`) [-] [4]_.

    One unit moves ``(d-1)/d`` of the rank's 16-bit parameters: an all-reduce
    is 2, ZeRO-2 ``m + 1``, ZeRO-3 ``3 m`` for ``m`` micro-batches per step.
    """
    if zero_stage >= 3:
        return ZERO3_UNITS_PER_MICRO_BATCH * micro_batches
    if zero_stage == 2:
        return micro_batches + 1.0
    return RING_ALL_REDUCE


def data_parallel_bytes(
    zero_stage: int,
    micro_batches: float,
    reducers: int,
    trainable_params: float,
    frozen_bytes: float = 0.0,
) -> float:
    """Bytes one accelerator moves over its data-parallel group per step [B] [4]_ [10]_.

    ``trainable_params`` [param] are the rank's trained weights (16-bit gradients and
    weights, :func:`data_parallel_units`); ``frozen_bytes`` [B] its share of frozen weights
    in the bytes they are stored in (a LoRA base 2 B/param, QLoRA's NF4 0.516), which only
    ZeRO-3 shards, so only ZeRO-3 gathers them, forward and backward, every micro-batch::

        V = (n-1)/n (units 2 B N_train + [ZeRO-3] 2 m B_frozen)

    over ``n`` ranks.  DeepSeek-V3 (671B) LoRA on 32 H200 in ZeRO-3: each rank gathers
    31/32 x 1.34 TB twice a micro-batch, 2.6 TB, 52 s at 50 GB/s (400 Gb/s).
    """
    if reducers <= 1:
        return 0.0
    units = data_parallel_units(zero_stage, micro_batches) * BYTES_PER_VALUE * trainable_params
    if zero_stage >= 3:
        units += FROZEN_GATHERS_PER_MICRO_BATCH * micro_batches * frozen_bytes
    return units * (reducers - 1) / reducers


def expert_width(expert_params: float, experts: int, layers: int, hidden: int) -> float:
    """Width of one routed expert's MLP over the hidden size, ``f_e / h`` [-].

    Each expert is a gated MLP of three ``h x f_e`` matrices per layer.
    """
    if experts <= 0 or layers <= 0 or expert_params <= 0:
        return 0.0
    return expert_params / (experts * layers * EXPERT_MATRICES * hidden) / hidden
