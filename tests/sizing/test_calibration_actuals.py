"""The calibration report reads customers' actual runs as a source of their own (issue 30)."""

from __future__ import annotations

import json

from benchmarks.calibration import (
    ROOT,
    actuals_markdown,
    coverage_with_actuals,
    load_actuals,
)


def _raw(reference: str, actual: float, **changes) -> dict:
    raw = {
        "reference": reference,
        "demo": False,
        "engine_version": "2026.12.14",
        "estimated_accelerator": "h100-sxm",
        "estimated_gpus": 64,
        "estimated_gpu_hours": 1000.0,
        "estimated_gpu_hours_low": 800.0,
        "estimated_gpu_hours_high": 1500.0,
        "accelerator": "h100-sxm",
        "accelerators": 64,
        "days": 1.0,
        "gpu_hours": actual,
        "tokens": 1e11,
        "interruptions": 0,
        "mfu": None,
    }
    return {**raw, **changes}


def test_real_actual_runs_on_the_estimated_accelerator_count_in_the_coverage(tmp_path):
    path = tmp_path / "actual_runs.json"
    rows = [
        _raw("TQ-1", 1200.0),  # held
        _raw("TQ-2", 2000.0),  # missed
        _raw("TQ-3", 1100.0, demo=True),  # listed, never counted
        _raw("TQ-4", 900.0, accelerator="a100-80gb"),  # another accelerator: not evidence
        _raw("TQ-5", 900.0, estimated_gpu_hours_low=None, estimated_gpu_hours_high=None),
    ]
    path.write_text(json.dumps({"actual_runs": rows}))
    actuals = load_actuals(path)
    assert coverage_with_actuals(45.0, 57, actuals) == (46, 59)
    table = actuals_markdown(actuals)
    assert "TQ-3 (demo)" in table and "TQ-4 (other accelerator)" in table
    assert "| 1.20 |" in table and "| yes |" in table and "| no |" in table


def test_the_committed_actual_runs_file_is_the_demo_and_changes_no_coverage():
    actuals = load_actuals(ROOT / "benchmarks" / "inputs" / "actual_runs.json")
    assert actuals and all(a.demo for a in actuals)
    assert coverage_with_actuals(45.0, 57, actuals) == (45, 57)
