"""Why one run's cluster is this size, and whether its memory plan is tight: the sentences the
proposal says about it, from the same reader as the review page's first estimate
(:func:`sizing.words.estimate.size_set_by`), so the document gives one reason, not two.
"""

from collections.abc import Mapping

from sizing.engine.hardware import ACCELERATORS
from sizing.engine.numbers import format_quantity
from sizing.stored_result import StoredResult
from sizing.words.estimate import (
    DEADLINE,
    DEADLINE_MISSED,
    FEWEST_HOURS,
    MEMORY,
    OWNED,
    fewest_hours_reason,
    owned_size_reason,
    size_set_by,
)
from sizing.words.plural import count_of
from sizing.words.provenance import deadline_by, deadline_days, deadline_words

# [x] a plan using more than this share of the usable memory is said to fit tightly: what is
# left is less than the allocator's own variation from step to step, so a trial run decides
TIGHT_MEMORY_SHARE = 0.95


def memory_tight(result: StoredResult) -> str:
    """When the plan uses more than :data:`TIGHT_MEMORY_SHARE` of the usable memory, the end of
    the memory sentence saying so and what to do ("" otherwise). The usable memory already
    leaves the engine's margin (``usable_memory_fraction``) of the device free."""
    memory = result.section("memory")
    need, usable = memory.get("per_gpu_gb"), memory.get("usable_gpu_gb")
    if not (isinstance(need, int | float) and isinstance(usable, int | float) and usable > 0):
        return ""
    if need / usable <= TIGHT_MEMORY_SHARE:
        return ""
    spec = ACCELERATORS.get(result.accelerator)
    margin = ""
    if spec is not None and spec.memory_gb > usable:
        margin = (
            f" ({format_quantity(spec.memory_gb - usable, 'GB')} of the "
            f"{format_quantity(spec.memory_gb, 'GB')})"
        )
    return (
        f", so the plan fits, but tightly: it leaves only {format_quantity(usable - need, 'GB')} "
        f"of the usable memory free. The usable memory already keeps a margin{margin} free for "
        "the memory allocator, but a longer sequence or a larger batch than planned would not "
        "fit. Our engineer checks it on a trial run; if it is too tight, one more accelerator "
        "per copy of the model, or recomputing intermediate results, gives room."
    )


def size_reason(result: StoredResult, sources: Mapping[str, str] | None = None) -> str:
    """Why one run's cluster is this size, in one sentence, from the one reader the review page
    uses too (:func:`sizing.words.estimate.size_set_by`); the deadline says who set it."""
    set_by = size_set_by(dict(result.raw))
    if set_by == OWNED:
        return f"The cluster is {owned_size_reason(result)}."
    days = deadline_days(result)
    deadline = deadline_words(days, deadline_by(result, sources or {})) if days else ""
    if set_by == DEADLINE_MISSED and deadline:
        return (
            f"No size finishes a run within {deadline}: the cluster stops "
            "where more accelerators stop shortening the run."
        )
    if set_by == FEWEST_HOURS:
        return (
            f"The cluster is sized for the fewest accelerator-hours within {deadline}: "
            f"{fewest_hours_reason(dict(result.raw))}."
        )
    if set_by == MEMORY and (result.gpus_per_job or 0) <= 1:
        return "One accelerator holds the model and is the smallest cluster" + (
            f"; it finishes a run within {deadline}." if deadline else "."
        )
    if set_by == MEMORY:
        return (
            f"The memory the model needs sets the cluster at "
            f"{count_of(result.gpus_per_job or 0, 'accelerator')} for one run"
            + (f"; fewer would meet {deadline}." if deadline else ".")
        )
    if set_by == DEADLINE and deadline:
        return f"The cluster is sized to finish a run within {deadline}."
    return "The cluster is sized to the computing one run needs."
