"""FP8 training: the casts its GEMMs need, a memory-bound pass the BF16 run does not make.

An FP8 linear layer multiplies FP8 copies of its operands: each step, every linear layer's
input is cast to FP8 before its forward GEMM and its output gradient before its backward
GEMMs [1]_.  Each cast reads the 16-bit tensor and writes the FP8 copy and, for the Hopper
tensor cores' layout, a transposed FP8 copy: ``2 + 1 + 1 = 4`` bytes per value [1]_.  The
scale comes from earlier steps' largest magnitudes (delayed scaling, Transformer Engine's
default recipe [1]_) or from each 1 x 128 tile inside the cast kernel (DeepSeek-V3 [3]_); per-
tensor current scaling reads the tensor once more for its largest magnitude (6 bytes; not
assumed).  Weights are cast once per step and reused by every micro-batch [1]_: not counted.

A linear layer of ``h`` inputs and ``n`` outputs costs ``6 h n`` FLOPs per token forward and
backward and casts ``h + n`` values, so a transformer layer casts ``(h + n) / (6 h n)`` values
per FLOP summed over its linears: ``16 h`` values against ``72 h^2`` FLOPs for a GPT layer
(QKV ``h -> 3h``, projection ``h -> h``, MLP ``h -> 4h -> h``) and ``16.75 h`` against
``76.5 h^2`` for Llama 3 70B (grouped-query attention, SwiGLU of width 3.5 h): about
``0.22 / h`` values per FLOP whatever the shape.

References
----------
.. [1] NVIDIA Transformer Engine user guide, "Using FP8 with Transformer Engine" (2024-2025):
       FP8 GEMM inputs are cast per tensor with a scaling factor from the tensor's amax
       (current scaling computes it from the tensor itself); Hopper FP8 GEMMs need both the
       row-wise and the column-wise (transposed) copies; the FP8 weight copy is cached across
       micro-batches of a step (``is_first_microbatch``).
.. [2] Micikevicius et al., FP8 Formats for Deep Learning, arXiv 2209.05433 (2022), sec. 3:
       per-tensor scaling from the tensor's maximum magnitude.
.. [3] DeepSeek-V3 report, arXiv 2412.19437 (2024), sec. 3.3.2 (tile-wise 1 x 128 activation
       scaling computed online) and 3.3.4 (the cast reads 16-bit activations from HBM and
       writes the FP8 values back, to be read again by the GEMM).
"""

from __future__ import annotations

# [B] per value cast: 16-bit read (2), FP8 write (1), transposed FP8 write (1)
CAST_BYTES_PER_VALUE = 4.0
# [values x hidden per FLOP] cast by a transformer layer's linears: 16 h / (72 h^2) (GPT),
# 16.75 h / (76.5 h^2) (Llama 3 70B) [module docstring]
CAST_VALUES_HIDDEN_PER_FLOP = 16.0 / 72.0


def cast_bytes_per_flop(precision: str, hidden: int) -> float:
    """Bytes the FP8 casts move per FLOP of the linear layers [B/FLOP]; 0 for 16-bit training.

    ``4 B x 0.22 / h``: 1.1e-4 B/FLOP at ``h = 8192``.
    """
    if precision != "fp8" or hidden <= 0:
        return 0.0
    return CAST_BYTES_PER_VALUE * CAST_VALUES_HIDDEN_PER_FLOP / hidden
