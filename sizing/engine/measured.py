"""Figures measured on the customer's own hardware by the verification kit.

The kit (``kit/verify_hardware.py``) times dense matrix multiplies on the accelerator it finds.
Their throughput over the datasheet peak of the same precision is the share of peak that large
GEMMs reach on that machine, with its drivers and libraries: the quantity the efficiency model
otherwise takes from its calibration, ``eff_matmul_ceiling`` (eta, :mod:`.efficiency`). For the
accelerator measured, the engine uses the measured share instead.

References
----------
.. [1] NVIDIA, "Matrix Multiplication Background User's Guide" (2023, retrieved 2026-12): the
       achieved fraction of peak of a large GEMM is what a timed ``C = A B`` of ``2 m n k`` FLOP
       reports; cuBLAS and rocBLAS reach different shares of different datasheet peaks, which
       is why a measurement on the machine itself is worth more than the catalog's share.
.. [2] ``kit/verify_hardware.py``: how each figure is timed, and its own references.
"""

from __future__ import annotations

import re

from .hardware import ACCELERATORS, peak_tflops
from .inputs import MeasuredInput

# The kit's precision that each training precision's GEMMs run at: FP8 training runs its linear
# layers in FP8 (efficiency.py [6]); FP16 runs on the same tensor cores at the same peak as BF16
# (the datasheets of hardware.py). FP32 and TF32 have peaks of their own the kit does not time.
_MEASURED_PRECISION = {"bf16": "bf16", "fp16": "bf16", "fp8": "fp8"}

# Accelerator names as their drivers report them (``torch.cuda.get_device_name``:
# "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"), first match wins: the more specific first.
DEVICE_NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), accelerator)
    for pattern, accelerator in (
        (r"\bH100\b.*\bPCIe\b|\bH100 PCIe", "h100-pcie"),
        (r"\bH100\b", "h100-sxm"),
        (r"\bH800\b", "h800"),
        (r"\bH200\b", "h200"),
        (r"\bB200\b", "b200"),
        (r"\bA100\b.*\b40\s?GB\b", "a100-40gb"),
        (r"\bA100\b", "a100-80gb"),
        (r"\bL40S\b", "l40s"),
        (r"\bRTX A6000\b", "rtx-a6000"),
        (r"\bL4\b", "l4"),
        (r"\bMI325X\b", "mi325x"),
        (r"\bMI300X\b", "mi300x"),
        (r"\bMI250X?\b", "mi250x"),
        (r"\bGaudi\s?3\b|\bHL-325", "gaudi3"),
        (r"\bGaudi\s?2\b|\bHL-225", "gaudi2"),
    )
)


def accelerator_of_device(name: str) -> str | None:
    """The catalog id of the accelerator a driver names ``name``, or None (a CPU, or one the
    catalog does not hold)."""
    return next((acc for pattern, acc in DEVICE_NAMES if pattern.search(name)), None)


def measured_tflops(measured: MeasuredInput, precision: str) -> float | None:
    """The kit's GEMM throughput in the precision ``precision`` trains in [TFLOP/s]."""
    kit_precision = _MEASURED_PRECISION.get(precision)
    if kit_precision == "fp8":
        return measured.matmul_fp8_tflops
    return measured.matmul_bf16_tflops if kit_precision == "bf16" else None


def measured_matmul_share(
    measured: MeasuredInput, accelerator: str, precision: str
) -> float | None:
    """Share of the datasheet peak [-] that the kit's GEMMs reached on ``accelerator`` in the
    GEMM precision of ``precision``: ``measured TFLOP/s / peak TFLOP/s`` [1]_; None when the
    kit measured another accelerator, or not that precision."""
    tflops = measured_tflops(measured, precision)
    if measured.accelerator != accelerator or tflops is None:
        return None
    peak = peak_tflops(ACCELERATORS[accelerator], _MEASURED_PRECISION[precision])
    return min(1.0, tflops / peak) if peak > 0 else None
