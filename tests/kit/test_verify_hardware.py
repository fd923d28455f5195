"""The verification kit runs for real on this machine's CPU: tiny sizes, two gloo processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[2] / "kit" / "verify_hardware.py"
MEASURED = (
    "matmul_bf16_tflops",
    "memory_bandwidth_gb_per_s",
    "storage_write_gb_per_s",
    "storage_read_gb_per_s",
)


def _run(arguments: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        arguments, cwd=folder, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_kit_measures_a_cpu_node_and_writes_one_file_naming_the_submission(tmp_path):
    done = _run([sys.executable, str(KIT), "--reference", "TQ-2026-00042"], tmp_path)
    assert done.returncode == 0, done.stderr
    written = list(tmp_path.iterdir())
    assert [p.name for p in written] == ["kit-results-TQ-2026-00042.json"]  # storage file gone
    results = json.loads(written[0].read_text())
    assert results["reference"] == "TQ-2026-00042"
    assert results["profile"] == "tiny"
    assert results["hardware"]["device"] == "cpu"
    assert results["hardware"]["all_reduce_ranks"] == 2  # two gloo processes
    for name in (*MEASURED, "all_reduce_bus_gb_per_s_within_node"):
        assert results["results"][name] > 0, name
    assert results["results"]["matmul_fp8_tflops"] is None
    assert any("FP8 was not measured" in note for note in results["notes"])


def test_the_kit_measures_an_all_reduce_across_ranks_started_by_torchrun(tmp_path):
    output = tmp_path / "across.json"
    done = _run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc-per-node",
            "2",
            str(KIT),
            "--reference",
            "TQ-2026-00042",
            "--across-nodes",
            "--output",
            str(output),
            "--storage",
            str(tmp_path),
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(output.read_text())
    assert results["hardware"]["all_reduce_ranks"] == 2
    assert results["results"]["all_reduce_bus_gb_per_s_across_nodes"] > 0
    assert results["results"]["all_reduce_bus_gb_per_s_within_node"] is None


@pytest.mark.parametrize("reference", ["", "TQ 42", "../../etc/passwd", "x" * 21])
def test_the_kit_refuses_a_reference_that_is_not_one(tmp_path, reference):
    done = _run([sys.executable, str(KIT), "--reference", reference], tmp_path)
    assert done.returncode == 2
    assert "reference" in done.stderr
    assert not list(tmp_path.iterdir())
