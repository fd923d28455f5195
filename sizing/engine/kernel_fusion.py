"""Fused kernels: how much less memory-bound traffic a hand-fused training stack moves.

The efficiency model's memory-bound term (:func:`efficiency.base_hfu`, ``c / (B (h + k/6))``)
is fitted on published framework runs.  A stack whose team writes its own kernels (llm.c,
DeepSeek) fuses the element-wise work into fewer passes over memory, and for small models that
work is much of the step: the loss over the vocabulary alone moves as many bytes per token as
every layer of GPT-2 124M together.  The term is scaled by the bytes a fused stack moves over
those an unfused one moves, counted kernel by kernel per token (16-bit values, 2 B; forward
and backward; the GEMMs' own reads and writes belong to the GEMMs, attention to FlashAttention):

* **a transformer layer, unfused** (PyTorch eager, nanoGPT's ``model.py`` [1]_): two layer
  norms (read, write: 2 x 2 h), the attention output's transpose copy (2 h), two residual adds
  (2 x 3 h), the GELU of the ``4 h`` MLP (8 h): 20 h values forward; backward, the two
  residual gradients summed (2 x 3 h), GELU's gradient (read input and gradient, write: 12 h),
  two layer norms (2 x 3 h), the transpose (2 h) and the bias gradients, a reduction reading
  each linear layer's output gradient (3 h + h + 4 h + h = 9 h): 35 h.  **55 h values,
  110 h bytes.**
* **the same layer fused** (llm.c ``train_gpt2.cu`` [2]_): each residual add fused into the
  next layer norm (2 x 4 h), attention reading and writing its heads in place (cuDNN), GELU
  in the MLP GEMM's epilogue, which also keeps the pre-activation (4 h): 12 h forward;
  backward, the bias gradients (9 h), GELU's gradient (12 h), two layer norms that also
  accumulate the residual gradient (2 x 4 h): 29 h.  **41 h values, 82 h bytes.**
* **the loss over V vocabulary entries, unfused** (PyTorch ``cross_entropy`` under autocast
  [1]_): 16-bit logits cast to FP32 (2 V read, 4 V written), log-softmax (4 V + 4 V), its
  gradient (4 V written; 8 V read, 4 V written), cast back (4 V + 2 V): **36 V bytes.**
* **the loss fused** (llm.c's ``fused_classifier`` [2]_; flash-attn's cross-entropy kernel
  likewise): the 16-bit logits read once, their gradient written in place: **4 V bytes.**

So a fused stack moves ``(82 h L + 4 V) / (110 h L + 36 V)`` of the bytes per token: 0.34 of
them for GPT-2 124M (12 layers of 768, 50,257 tokens), 0.63 for GPT-2 1.5B, 0.71 for a 70B
model with a 128k vocabulary: fusion matters most where the vocabulary is large against the
layers.  Which stacks are fused: the customer's answer that they write custom CUDA kernels, or
a framework answer of CUDA code or Triton (question 8) [3]_.

References
----------
.. [1] karpathy/nanoGPT ``model.py`` (2023): ``LayerNorm``, ``CausalSelfAttention`` (PyTorch
       ``scaled_dot_product_attention``, then ``transpose(1, 2).contiguous()``), ``MLP`` (GELU),
       ``F.cross_entropy`` on the logits.
.. [2] karpathy/llm.c ``train_gpt2.cu`` and ``llmc/`` (2024-05 to 2024-07):
       ``fused_residual_forward5``, ``layernorm_backward`` (accumulates the residual
       gradient), ``matmul_forward_cublaslt`` with GELU in the epilogue (``-ge 1``),
       ``attention_forward_cudnn``, ``fused_classifier``, ``matmul_backward_bias``,
       ``gelu_backward_inplace``.
.. [3] ``sizing/engine/validation.py``: ``software.custom_cuda_kernels`` and
       ``software.frameworks`` (``cuda``: "CUDA code", ``triton``).
"""

from __future__ import annotations

from collections.abc import Iterable

# [B per token and hidden unit] memory-bound traffic of one transformer layer, forward and
# backward (module docstring)
UNFUSED_LAYER_BYTES = 110.0
FUSED_LAYER_BYTES = 82.0
# [B per token and vocabulary entry] the loss over the logits, forward and backward
UNFUSED_LOSS_BYTES = 36.0
FUSED_LOSS_BYTES = 4.0
# Framework answers that mean the team writes its own kernels
_KERNEL_WRITING = frozenset({"cuda", "triton"})


def fuses_kernels(*, custom_cuda_kernels: bool, frameworks: Iterable[str]) -> bool:
    """Whether the customer's stack fuses its memory-bound kernels (module docstring)."""
    return custom_cuda_kernels or bool(_KERNEL_WRITING & {f.lower() for f in frameworks})


def memory_bound_scale(*, fused: bool, hidden: int, layers: int, vocab: int) -> float:
    """The memory-bound traffic of the stack over that of the unfused stacks the efficiency
    model is fitted on [-]: 1 unfused, ``(82 h L + 4 V) / (110 h L + 36 V)`` fused.
    """
    if not fused or hidden <= 0 or layers <= 0:
        return 1.0
    per_layers = hidden * layers
    fused_bytes = FUSED_LAYER_BYTES * per_layers + FUSED_LOSS_BYTES * vocab
    unfused_bytes = UNFUSED_LAYER_BYTES * per_layers + UNFUSED_LOSS_BYTES * vocab
    return fused_bytes / unfused_bytes
