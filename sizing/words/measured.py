"""Measured reality in words: the verification kit's figures, and an actual run beside the
estimate it is judged by (issue 30). The customer's hardware page, the admin and the chart's
labels read them here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sizing.engine.numbers import format_count, format_percent

# The kit's figures (kit/verify_hardware.py) in the order the page lists them: label and unit.
KIT_FIGURES: dict[str, tuple[str, str]] = {
    "matmul_bf16_tflops": ("Matrix multiply, BF16", "TFLOP/s"),
    "matmul_fp8_tflops": ("Matrix multiply, FP8", "TFLOP/s"),
    "memory_bandwidth_gb_per_s": ("Memory bandwidth", "GB/s"),
    "all_reduce_bus_gb_per_s_within_node": ("All-reduce within the node (bus)", "GB/s"),
    "all_reduce_bus_gb_per_s_across_nodes": ("All-reduce across nodes (bus)", "GB/s"),
    "storage_write_gb_per_s": ("Storage, write", "GB/s"),
    "storage_read_gb_per_s": ("Storage, read", "GB/s"),
}


def kit_figure_rows(results: Mapping[str, object]) -> list[tuple[str, str]]:
    """``(label, "742 TFLOP/s")`` for each kit figure, "not measured" where it is null."""
    rows = []
    for name, (label, unit) in KIT_FIGURES.items():
        value = results.get(name)
        shown = (
            f"{format_count(value)} {unit}" if isinstance(value, int | float) else "not measured"
        )
        rows.append((label, shown))
    return rows


@dataclass(frozen=True)
class AgainstEstimate:
    """An actual run's accelerator-hours against the estimate's, as a ratio and in words."""

    ratio: float  # [x] actual over estimated accelerator-hours
    within_range: bool | None  # None: the estimate gave no range
    words: str


def against_estimate(
    actual_hours: float, estimated_hours: float, hours_range: tuple[float, float] | None
) -> AgainstEstimate:
    """How the actual accelerator-hours compare with the estimate and its range."""
    ratio = actual_hours / estimated_hours
    within = None if hours_range is None else hours_range[0] <= actual_hours <= hours_range[1]
    direction = "more" if ratio > 1 else "fewer"
    text = (
        f"{format_count(actual_hours)} accelerator-hours against "
        f"{format_count(estimated_hours)} estimated: "
        f"{format_percent(abs(ratio - 1))} {direction}"
    )
    if within is not None:
        text += ", within the range we gave" if within else ", outside the range we gave"
    return AgainstEstimate(ratio=ratio, within_range=within, words=text + ".")
