"""Time one full recommendation and one CLI call.

Usage: ``python benchmarks/engine.py [REPEATS]`` from the repository root.
Targets on the 2-core dev machine: < 50 ms per recommendation (including the
plan search, the trade-off table and the alternatives), < 300 ms per CLI call.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sizing.engine import parse_input, recommendation_to_dict, size  # noqa: E402

EXAMPLES = sorted((ROOT / "sizing" / "engine" / "examples").glob("*.json"))


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    for path in EXAMPLES:
        data = json.loads(path.read_text())
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            recommendation_to_dict(size(parse_input(data)))
            times.append(time.perf_counter() - start)
        print(f"recommendation {path.stem:<28} median {statistics.median(times) * 1e3:7.1f} ms")
    cli = []
    for _ in range(max(3, repeats // 2)):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "sizing.engine", str(EXAMPLES[0])],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        cli.append(time.perf_counter() - start)
    print(f"CLI call ({EXAMPLES[0].name:<30})   median {statistics.median(cli) * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
