"""The command line honours the contract: exit codes, stdout/stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "sizing" / "engine" / "examples").glob("*.json"))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sizing.engine", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_four_customer_scenarios_are_examples() -> None:
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_run(path: Path) -> None:
    proc = run(str(path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["cluster"]["gpus"] >= 1


def test_stdin_and_text_format() -> None:
    proc = run("-", "--format", "text", stdin='{"model": {"name": "Mistral 7B"}}')
    assert proc.returncode == 0
    assert "Cluster:" in proc.stdout


@pytest.mark.parametrize(
    "payload",
    [
        '{"model": {"total_params": "-7"}}',
        "{not json",
        "[1, 2]",
        '{"data": {"tokens": NaN}}',
        '{"data": {"tokens": Infinity}}',
        '{"data": {"tokens": 1e999}}',
        '{"modle": {}}',
        "",
        "[" * 100000,
    ],
)
def test_invalid_input_exits_2_with_nothing_on_stdout(payload: str) -> None:
    proc = run("-", stdin=payload)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip()
    assert "Traceback" not in proc.stderr
    assert all(":" in line for line in proc.stderr.strip().splitlines())


def test_missing_file_exits_2() -> None:
    proc = run("/nonexistent/input.json")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
