"""How fast this machine runs plain Python at the moment a benchmark runs.

    .venv/bin/python benchmarks/machine_speed.py

The shared 2-core machines these benchmarks run on change speed by a factor of two or more
within a day: on 2026-12-05 the demo proposal rendered in a median 1.1-1.4 s of CPU around
noon and 3.5 s at 13:12, with much the same code (docs/load-results.md, issue 29). A figure is only
comparable with one taken minutes apart, back to back, or with the machine's speed beside it.
So the benchmarks print this yardstick with their figures: the median CPU time of a fixed
piece of pure Python (dictionary updates, string formatting and calls, the kind of work a
Django page and WeasyPrint's layout do), with no I/O. Twice the yardstick means about twice
every CPU figure beside it.
"""

from __future__ import annotations

import os
import statistics
import time

# Enough work to take tens of milliseconds, so the clock's resolution does not matter.
_ROUNDS = 200_000
_RUNS = 5


def _fixed_work() -> int:
    counts: dict[int, int] = {}
    total = 0
    for i in range(_ROUNDS):
        key = i & 1023
        counts[key] = counts.get(key, 0) + i
        total += len(f"{key}:{i}")
    return total + len(counts)


def yardstick_ms(runs: int = _RUNS) -> float:
    """The median CPU time of the fixed work over ``runs`` runs [ms]."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        _fixed_work()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def speed_line() -> str:
    """One line for a benchmark's output: the yardstick and the load average now."""
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return (
        f"machine speed: the fixed Python yardstick took {yardstick_ms():.0f} ms of CPU "
        f"(median of {_RUNS}; benchmarks/machine_speed.py); load average {load}"
    )


if __name__ == "__main__":
    print(speed_line())
