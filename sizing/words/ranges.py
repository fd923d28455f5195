"""What the ranges of one run say, and what backs them: the run's time with its likely range,
the accelerators a deadline needs at the ends of the range, and the published runs behind
them. The proposal, the confirmation and status pages say them in these words.
"""

from __future__ import annotations

from sizing.engine.numbers import format_range
from sizing.stored_result import StoredResult
from sizing.words.durations import run_time, run_time_range
from sizing.words.plural import count_of


def backing(result: StoredResult) -> str:
    """What backs the ranges, in a few words: "backed by 25 published runs of similar scale"."""
    sure = result.confidence
    if sure is None:
        return ""
    if sure.covered:
        return f"backed by {count_of(sure.published_runs, 'published run')} of similar scale"
    return "a wide range: no published run we compare with is quite like this one"


def gpus_needed(result: StoredResult) -> str:
    """ " (80–112 to meet the deadline)" when the count needed moves with the range, else ""."""
    pair = result.gpus_range
    if not pair or pair[0] == pair[1]:
        return ""
    return f" ({format_range(*pair)} to meet the deadline)"


def days_with_range(result: StoredResult) -> str:
    """ "about 12.3 days (9.1–16 days)" for one run on the recommended cluster."""
    return f"about {run_time(result.wall_clock_days or 0)}" + (
        f" ({run_time_range(*pair)})" if (pair := result.wall_clock_days_range) else ""
    )
