"""Reading a verification kit's file (``kit/verify_hardware.py``) as safely as "fill from a file".

The file is parsed by the same reader (``questionnaire.prefill.reading``: in memory, JSON with
bounded integers, no object hooks, nesting bounded), then held to the kit's own schema: its
name and version, the estimate's reference, the hardware in short printable text, and each
figure a finite number within bounds no real machine reaches. Anything else refuses the whole
file with a message that says why, and nothing is stored.
"""

from __future__ import annotations

import datetime
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from questionnaire.prefill.reading import UnreadableFile, read_document
from sizing.public import ACCELERATORS, accelerator_of_device, peak_tflops

KIT_NAME = "training-sizer-verification-kit"  # as kit/verify_hardware.py writes it
KIT_VERSIONS = (1,)
# The kit's file is about 1.5 KB; a tenth of "fill from a file"'s limit is plenty.
MAX_KIT_FILE_BYTES = 32 * 1024
MAX_NAME_CHARACTERS = 100
# The kit measures one node or a few: more is no run of the kit.
MAX_ACCELERATORS_PER_NODE = 64
MAX_NODES = 64
PROFILES = ("full", "tiny")
# Each figure the kit writes, with the most any machine of 2026 reaches, ten times over
# (NVIDIA B200 datasheet: 2.25 PFLOP/s dense BF16, 4.5 FP8, 8 TB/s of memory; NVLink 5:
# 1.8 TB/s; a node's NVMe: tens of GB/s). A larger figure is a damaged or made-up file.
FIGURES: dict[str, float] = {
    "matmul_bf16_tflops": 25_000.0,  # [TFLOP/s]
    "matmul_fp8_tflops": 50_000.0,  # [TFLOP/s]
    "memory_bandwidth_gb_per_s": 100_000.0,  # [GB/s]
    "all_reduce_bus_gb_per_s_within_node": 20_000.0,  # [GB/s]
    "all_reduce_bus_gb_per_s_across_nodes": 20_000.0,  # [GB/s]
    "storage_write_gb_per_s": 1_000.0,  # [GB/s]
    "storage_read_gb_per_s": 1_000.0,  # [GB/s]
}
NOT_KIT_FILE = (
    "This is not a file our verification kit wrote. Upload the kit-results-….json file that "
    "verify_hardware.py wrote."
)


@dataclass(frozen=True)
class KitResults:
    """A kit's file, checked: what it ran on and what it measured."""

    accelerator_name: str  # as the driver reported it
    accelerator: str  # catalog id, "" for a CPU or one the catalog does not hold
    accelerators_per_node: int
    nodes: int
    profile: str
    measured_at: datetime.datetime | None
    results: dict[str, float | None]  # every name of FIGURES


def read_kit_file(content: bytes, *, reference: str) -> KitResults:
    """The kit's results in ``content``, for the submission ``reference``.

    Raises :class:`~questionnaire.prefill.reading.UnreadableFile` saying what is wrong."""
    if len(content) > MAX_KIT_FILE_BYTES:
        raise UnreadableFile(
            f"The file is larger than {MAX_KIT_FILE_BYTES // 1024} KB; the kit's file is about "
            "2 KB. Check that you chose kit-results-….json."
        )
    document = read_document(content)
    if document.syntax != "json":
        raise UnreadableFile(NOT_KIT_FILE)
    data = document.data
    if data.get("kit") != KIT_NAME:
        raise UnreadableFile(NOT_KIT_FILE)
    if not _whole(data.get("kit_version")) or data["kit_version"] not in KIT_VERSIONS:
        raise UnreadableFile(
            "This file was written by a version of the kit we do not read. Download the kit "
            "again from this page and run it once more."
        )
    written_for = data.get("reference")
    if written_for != reference:
        shown = _text(written_for, "reference", 20) if isinstance(written_for, str) else "none"
        raise UnreadableFile(
            f"This file names the estimate “{shown}”, not {reference}. Run the kit with "
            f"--reference {reference}, or upload it on that estimate's page."
        )
    hardware = _section(data, "hardware")
    name = _text(hardware.get("accelerator_name"), "the accelerator's name", MAX_NAME_CHARACTERS)
    accelerator = accelerator_of_device(name) or ""
    results = _figures(_section(data, "results"))
    if results["matmul_bf16_tflops"] is None:
        raise UnreadableFile("The file holds no BF16 matrix-multiply figure: run the kit again.")
    if accelerator:
        _within_peaks(results, accelerator)
    return KitResults(
        accelerator_name=name,
        accelerator=accelerator,
        accelerators_per_node=_count(
            hardware.get("accelerators_per_node"),
            "accelerators per node",
            0,
            MAX_ACCELERATORS_PER_NODE,
        ),
        nodes=_count(hardware.get("nodes", 1), "nodes", 1, MAX_NODES),
        profile=_profile(data.get("profile")),
        measured_at=_when(data.get("measured_at")),
        results=results,
    )


def _section(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    section = data.get(name)
    if not isinstance(section, Mapping):
        raise UnreadableFile(f"The file has no “{name}” section: it is not the kit's whole file.")
    return section


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, what: str, longest: int) -> str:
    """Short printable text: no control or format characters (a right-to-left override could
    make a name read as another on the page), at most ``longest`` characters."""
    if not isinstance(value, str) or not value.strip():
        raise UnreadableFile(f"The file does not give {what}.")
    if len(value) > longest:
        raise UnreadableFile(f"The file gives {what} in more than {longest} characters.")
    if any(unicodedata.category(character) in ("Cc", "Cf", "Cs", "Co") for character in value):
        raise UnreadableFile(f"The file gives {what} with characters no driver reports.")
    return value.strip()


def _count(value: object, what: str, fewest: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not fewest <= value <= most:
        raise UnreadableFile(f"The file's {what} is not a whole number from {fewest} to {most}.")
    return value


def _profile(value: object) -> str:
    if value not in PROFILES:
        raise UnreadableFile("The file's profile is neither “full” nor “tiny”.")
    return str(value)


def _when(value: object) -> datetime.datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise UnreadableFile("The file's date is not a date.")
    try:
        when = datetime.datetime.fromisoformat(value)
    except ValueError as error:
        raise UnreadableFile("The file's date is not a date.") from error
    return when if when.tzinfo else when.replace(tzinfo=datetime.UTC)


def _figures(results: Mapping[str, Any]) -> dict[str, float | None]:
    """Each of FIGURES: a positive, finite number below its bound, or null (not measured)."""
    figures: dict[str, float | None] = {}
    for name, most in FIGURES.items():
        if name not in results:
            raise UnreadableFile(
                f"The file has no “{name}” figure: it is not the kit's whole file."
            )
        value = results[name]
        if value is None:
            figures[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UnreadableFile(f"The file's “{name}” is not a number.")
        number = float(value)
        if not math.isfinite(number) or not 0 < number <= most:
            raise UnreadableFile(
                f"The file's “{name}” ({value:g}) is not a figure any machine measures: it must "
                f"be above 0 and at most {most:,.0f}."
            )
        figures[name] = number
    return figures


def _within_peaks(results: Mapping[str, float | None], accelerator: str) -> None:
    """No matrix multiply runs faster than its accelerator's datasheet peak."""
    spec = ACCELERATORS[accelerator]
    for name, precision in (("matmul_bf16_tflops", "bf16"), ("matmul_fp8_tflops", "fp8")):
        measured = results[name]
        peak = peak_tflops(spec, precision)
        if measured is not None and measured > peak:
            raise UnreadableFile(
                f"The file's “{name}” ({measured:,.0f} TFLOP/s) is above the datasheet peak of "
                f"the {spec.name} ({peak:,.0f}): a measurement cannot be. Run the kit again."
            )
