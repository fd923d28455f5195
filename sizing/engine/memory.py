"""Memory per accelerator: model states, activations, overhead.

Bytes per parameter (the "16, 18 or 20?" question, see ``docs/engine.md``):

============  =======  =========  =========  =====
precision     weights  gradients  optimizer  total
============  =======  =========  =========  =====
ZeRO paper    2        2          12         16
bf16 (ours)   2        4 (FP32)   12         18
fp16          2        6          12         20
fp32          4        4          8          16
============  =======  =========  =========  =====

References
----------
.. [1] Rajbhandari et al., ZeRO, arXiv 1910.02054 (2019), sec. 3.1 and 5
       (model states 16 Psi; stage 1: 4 Psi + 12 Psi/N_d; stage 2:
       2 Psi + 14 Psi/N_d; stage 3: 16 Psi/N_d).
.. [2] Korthikanti et al., arXiv 2205.05198 (2022), eq. 1-2 and table 2:
       activations per layer s b h (34 + 5 a s / h) bytes; with tensor and
       sequence parallelism divided by t; full recomputation keeps 2 s b h.
.. [3] Dao et al., FlashAttention, arXiv 2205.14135 (2022): the a s^2 term
       is not stored.
.. [4] Dettmers et al., QLoRA, arXiv 2305.14314 (2023).
.. [5] DeepSeek-V3 report, arXiv 2412.19437 (2024), sec. 3.3.3 ("we cache the activations
       in FP8 format for the backward pass of the Linear operator"); NVIDIA Transformer
       Engine's FP8 Linear likewise saves its quantised input for the weight gradient.
       Korthikanti et al. [2]_ sec. 4.1: the linear inputs of a layer are the QKV input (2),
       the output projection's input (2), the first MLP linear's input (2) and the second's
       (8 for a 4h-wide MLP).
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value
from .units import BYTES_PER_GB

_DENSE_MLP_WIDTH = 4.0
# [B/(s b h)] 16-bit inputs of the QKV and output projections, and of an MLP's first linear [2]_
_ATTENTION_LINEAR_INPUT_BYTES = 4.0
_MLP_INPUT_BYTES = 2.0


@dataclass(frozen=True)
class BytesPerParam:
    """Bytes per trainable parameter by component [B/param]."""

    weights: float
    gradients: float
    optimizer: float

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer


@dataclass(frozen=True)
class MemoryBreakdown:
    """Peak memory on one accelerator [GB] (10^9 bytes)."""

    weights_gb: float
    gradients_gb: float
    optimizer_gb: float
    activations_gb: float
    overhead_gb: float

    @property
    def total_gb(self) -> float:
        return (
            self.weights_gb
            + self.gradients_gb
            + self.optimizer_gb
            + self.activations_gb
            + self.overhead_gb
        )


def optimizer_state_bytes(optimizer: str) -> float:
    """Optimizer moments per parameter, excluding master weights [B/param]."""
    return {
        "adamw": value("adam_state_bytes"),
        "adamw_8bit": value("adam8bit_state_bytes"),
        "adafactor": value("adafactor_state_bytes"),
        "sgd": value("momentum_state_bytes"),
        "lion": value("momentum_state_bytes"),
    }[optimizer]


def bytes_per_param(
    precision: str, optimizer: str, *, grad_bytes: float | None = None
) -> BytesPerParam:
    """Model-state bytes per parameter for full training [B/param] [1]_.

    Parameters
    ----------
    precision : str
        ``fp32 | tf32 | fp16 | bf16 | fp8``.
    optimizer : str
    grad_bytes : float, optional
        Override the gradient bytes (2 reproduces the ZeRO paper's 16).
    """
    moments = optimizer_state_bytes(optimizer)
    if precision in ("fp32", "tf32"):
        return BytesPerParam(
            weights=value("weight_bytes_fp32"),
            gradients=grad_bytes if grad_bytes is not None else value("grad_bytes_fp32"),
            optimizer=moments,
        )
    weights = value("weight_bytes_16bit")
    if precision == "fp8":
        weights += value("fp8_extra_weight_bytes")
    grads = value("grad_bytes_fp16") if precision == "fp16" else value("grad_bytes_bf16")
    return BytesPerParam(
        weights=weights,
        gradients=grad_bytes if grad_bytes is not None else grads,
        optimizer=value("master_weight_bytes") + moments,
    )


def adapter_bytes_per_param() -> BytesPerParam:
    """Model-state bytes per trainable LoRA/QLoRA adapter parameter [B/param] [4]_.

    Adapters train like full FP32 Adam parameters: FP32 weights and
    gradients plus the two Adam moments.
    """
    return BytesPerParam(
        weights=value("weight_bytes_fp32"),
        gradients=value("grad_bytes_fp32"),
        optimizer=value("adam_state_bytes"),
    )


def frozen_base_bytes(method: str) -> float:
    """Bytes per frozen base parameter under LoRA (16-bit) or QLoRA (NF4) [B/param] [4]_."""
    return value("qlora_base_bytes") if method == "qlora" else value("weight_bytes_16bit")


def zero_model_states_gb(
    params: float, bpp: BytesPerParam, zero_stage: int, dp: int
) -> tuple[float, float, float]:
    """Weights, gradients and optimizer state per GPU under ZeRO [GB] [1]_.

    Stage 1 shards the optimizer state over the ``dp`` data-parallel ranks,
    stage 2 also the gradients, stage 3 also the weights.

    Parameters
    ----------
    params : float
        Parameters held by this model-parallel rank [parameters].
    bpp : BytesPerParam
    zero_stage : int
    dp : int
        Data-parallel degree [-].
    """
    w = params * bpp.weights / (dp if zero_stage >= 3 else 1)
    g = params * bpp.gradients / (dp if zero_stage >= 2 else 1)
    o = params * bpp.optimizer / (dp if zero_stage >= 1 else 1)
    return w / BYTES_PER_GB, g / BYTES_PER_GB, o / BYTES_PER_GB


def activation_bytes_per_layer(
    seq: int,
    micro_batch: int,
    hidden: int,
    heads: int,
    tp: int,
    recompute: str,
    *,
    flash_attention: bool = True,
    top_k: int = 1,
    expert_width: float = 0.0,
    fp8_linear_inputs: bool = False,
) -> float:
    """Activation memory of one transformer layer for one micro-batch [B] [2]_.

    ``s b h (34 + 5 a s / h) / t`` with tensor + sequence parallelism; the
    ``5 a s / h`` term vanishes with flash attention [3]_.  Of the 34, 19 are
    the MLP's (for a ``4 h``-wide MLP: 3 that do not depend on its width plus
    4 per unit of width ``f / h``).  An MoE layer stores one MLP per routed
    expert, each ``3 + 4 f_e / h`` for experts of width ``f_e`` (``expert_width``
    = ``f_e / h``; 0 means dense).

    Recomputation:

    * ``"selective"`` rebuilds the two layer norms' outputs (4) and each MLP's
      activation-function output (``2 f / h``), elementwise work without GEMMs;
    * ``"full"`` keeps only each layer's 16-bit input, ``2 s b h / t``.

    FP8 training (``fp8_linear_inputs``) keeps the input of each linear layer for its
    weight-gradient GEMM in FP8, one byte a value instead of two [5]_: of the 34, the
    inputs of the QKV and output projections (2 + 2) and of each MLP's two linears
    (2, and 2 per unit of width unless selective recomputation rebuilds it) halve.

    Parameters
    ----------
    seq, micro_batch : int
        Sequence length [tokens] and micro-batch size [sequences].
    hidden, heads, tp : int
        Hidden size, attention heads and tensor-parallel degree [-].
    recompute : str
        ``"none" | "selective" | "full"``.
    top_k : int
        Routed experts per token [-] (1 for a dense layer).
    expert_width : float
        Width of one routed expert over the hidden size, ``f_e / h`` [-].
    """
    sbh = float(seq) * micro_batch * hidden
    if recompute == "full":
        return value("act_full_recompute_coefficient") * sbh / tp
    dense_mlp = value("act_mlp_coefficient")
    fixed = value("act_mlp_fixed_coefficient")
    width_bytes = (dense_mlp - fixed) / _DENSE_MLP_WIDTH  # 4 B per unit of width
    mlps = float(top_k)  # one MLP per routed expert (1 for a dense layer)
    width = expert_width or _DENSE_MLP_WIDTH
    coeff = value("act_sbh_coefficient") - dense_mlp + mlps * (fixed + width_bytes * width)
    if recompute == "selective":
        coeff -= value("act_layernorm_coefficient") + mlps * width_bytes / 2.0 * width
    if fp8_linear_inputs:
        # half of each cached 16-bit linear input: attention's two (2 B each), each MLP's
        # first (2 B) and, when kept, its second (2 B per unit of width) [5]_
        second = 0.0 if recompute == "selective" else width_bytes / 2.0 * width
        coeff -= (_ATTENTION_LINEAR_INPUT_BYTES + mlps * (_MLP_INPUT_BYTES + second)) / 2.0
    if not flash_attention:
        coeff += value("act_attention_coefficient") * heads * seq / hidden
    return sbh * coeff / tp


def interleaving_memory_factor(pp: int, virtual_stages: int) -> float:
    """Extra activation memory of an interleaved pipeline schedule [-] [2]_.

    With ``v`` model chunks per stage the first stage holds ``1 + (p - 1) / (p v)``
    times the activations of the plain 1F1B schedule (Korthikanti et al.,
    sec. 4.2.3); without interleaving (``v = 1``) the factor is 1.
    """
    if virtual_stages <= 1 or pp <= 1:
        return 1.0
    return 1.0 + (pp - 1) / (pp * virtual_stages)


def activations_gb(
    *,
    seq: int,
    micro_batch: int,
    hidden: int,
    heads: int,
    layers: int,
    vocab: int,
    tp: int,
    pp: int,
    micro_batches: float,
    recompute: str,
    top_k: int = 1,
    expert_width: float = 0.0,
    virtual_stages: int = 1,
    fp8_linear_inputs: bool = False,
) -> float:
    """Peak activation memory on the first pipeline stage [GB] [2]_.

    With 1F1B scheduling the first stage holds ``min(p, m)`` micro-batches of
    ``L / p`` layers (times :func:`interleaving_memory_factor` when interleaved);
    with full recomputation one layer's activations are rebuilt at a time.
    Adds FP32 logits ``4 s b V / t``.
    """
    per_layer = activation_bytes_per_layer(
        seq,
        micro_batch,
        hidden,
        heads,
        tp,
        recompute,
        top_k=top_k,
        expert_width=expert_width,
        fp8_linear_inputs=fp8_linear_inputs,
    )
    in_flight = min(float(pp), max(1.0, micro_batches))
    total = per_layer * layers / pp * in_flight * interleaving_memory_factor(pp, virtual_stages)
    if recompute == "full":
        total += activation_bytes_per_layer(
            seq, micro_batch, hidden, heads, tp, "none", top_k=top_k, expert_width=expert_width
        )
    total += value("logits_bytes") * seq * micro_batch * vocab / tp
    return total / BYTES_PER_GB


def usable_gb(memory_gb: float) -> float:
    """Device memory available to training [GB]."""
    return memory_gb * value("usable_memory_fraction")
