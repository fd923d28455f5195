"""A verification kit's file is read as safely as "fill from a file": a hostile or wrong file is
refused whole, with a message saying why (issue 30)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pipeline.kit_file import FIGURES, KIT_NAME, MAX_KIT_FILE_BYTES, read_kit_file
from questionnaire.prefill.reading import UnreadableFile

REFERENCE = "TQ-2026-00042"
GOOD: dict[str, Any] = {
    "kit": KIT_NAME,
    "kit_version": 1,
    "reference": REFERENCE,
    "measured_at": "2026-12-04T21:36:34+00:00",
    "profile": "full",
    "hardware": {
        "device": "cuda",
        "accelerator_name": "NVIDIA H100 80GB HBM3",
        "accelerators_per_node": 8,
        "nodes": 1,
    },
    "results": {
        "matmul_bf16_tflops": 742.5,
        "matmul_fp8_tflops": 1300.0,
        "memory_bandwidth_gb_per_s": 2900.0,
        "all_reduce_bus_gb_per_s_within_node": 360.0,
        "all_reduce_bus_gb_per_s_across_nodes": None,
        "storage_write_gb_per_s": 2.1,
        "storage_read_gb_per_s": 5.3,
    },
    "notes": [],
}


def _file(**changes: Any) -> bytes:
    data = copy.deepcopy(GOOD)
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        place = data
        for parent in parents:
            place = place[parent]
        if value is _DROP:
            del place[last]
        else:
            place[last] = value
    return json.dumps(data).encode()


_DROP = object()


def test_a_kit_file_names_its_hardware_and_figures():
    read = read_kit_file(_file(), reference=REFERENCE)
    assert read.accelerator == "h100-sxm"
    assert read.accelerator_name == "NVIDIA H100 80GB HBM3"
    assert read.accelerators_per_node == 8
    assert read.results["matmul_bf16_tflops"] == 742.5
    assert read.results["all_reduce_bus_gb_per_s_across_nodes"] is None
    assert set(read.results) == set(FIGURES)


def test_a_cpu_run_is_read_but_names_no_catalog_accelerator():
    cpu = _file(hardware__accelerator_name="CPU only", hardware__accelerators_per_node=0)
    assert read_kit_file(cpu, reference=REFERENCE).accelerator == ""


NAN = (
    b'{"kit": "%s", "kit_version": 1, "reference": "%s", "profile": "full", "hardware": {"accelerator_name": "x", "accelerators_per_node": 1}, "results": {"matmul_bf16_tflops": NaN}}'
    % (
        KIT_NAME.encode(),
        REFERENCE.encode(),
    )
)


@pytest.mark.parametrize(
    "content, says",
    [
        (b"", "empty"),
        (b"\x00\x01binary", "not a text file"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"{" + b" " * MAX_KIT_FILE_BYTES + b"}", "larger than"),
        (b"kit: training-sizer-verification-kit\n", "not a file our verification kit wrote"),
        (b"[1, 2, 3]", "named settings"),
        (b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested too deeply"),
        (b'{"kit": "other"}', "not a file our verification kit wrote"),
        (b'{"kit": 1' + b"1" * 40 + b"}", "more than 30 digits"),
        (_file(kit_version=True), "version of the kit"),
        (_file(kit_version=2), "version of the kit"),
        (_file(reference="TQ-2026-00001"), "names the estimate “TQ-2026-00001”, not"),
        (_file(reference=_DROP), "names the estimate “none”"),
        (_file(hardware="H100"), "no “hardware” section"),
        (_file(hardware__accelerator_name="NVIDIA \u202eH100"), "characters no driver reports"),
        (_file(hardware__accelerator_name="A" * 101), "more than 100 characters"),
        (_file(hardware__accelerator_name="   "), "does not give the accelerator's name"),
        (_file(hardware__accelerators_per_node=1000), "accelerators per node"),
        (_file(hardware__accelerators_per_node=8.5), "accelerators per node"),
        (_file(hardware__nodes=0), "nodes"),
        (_file(profile="huge"), "profile"),
        (_file(measured_at="yesterday"), "date"),
        (_file(results__storage_read_gb_per_s=_DROP), "no “storage_read_gb_per_s” figure"),
        (_file(results__matmul_bf16_tflops=None), "no BF16"),
        (_file(results__memory_bandwidth_gb_per_s=-3.0), "not a figure any machine measures"),
        (_file(results__memory_bandwidth_gb_per_s=0), "not a figure any machine measures"),
        (_file(results__storage_write_gb_per_s=1e6), "not a figure any machine measures"),
        (_file(results__storage_write_gb_per_s=True), "is not a number"),
        (_file(results__storage_write_gb_per_s="fast"), "is not a number"),
        (_file(results__matmul_bf16_tflops=5000.0), "above the datasheet peak"),
        (NAN, "not a figure any machine measures"),
        (NAN.replace(b"NaN", b"1e400"), "not a figure any machine measures"),
    ],
)
def test_a_hostile_or_wrong_file_is_refused_saying_why(content, says):
    with pytest.raises(UnreadableFile) as refused:
        read_kit_file(content, reference=REFERENCE)
    assert says in str(refused.value)
