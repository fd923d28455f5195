"""The first estimate a customer sees before sending their answers, and the answer that set it.

The review page shows the size the answers lead to and names the one answer that set it, with
a link to change it there: the deadline (or the one we assumed), or the memory the model
needs. It reads the engine's result for the answers
(:func:`sizing.adapters.size_answers`) and the question each engine field came from.
"""

from dataclasses import dataclass
from typing import Any

from sizing.adapters import InvalidInput, SizedAnswers, size_answers
from sizing.counts import plan_text, read_counts
from sizing.engine.numbers import format_days, format_days_range, format_money
from sizing.stored_result import StoredResult, read_result

# The questions whose answers set the size, by the engine field they feed (the questionnaire's
# slugs, as the adapters record them in ``question_of``); used when the field was left unset.
_DEADLINE_QUESTION = "timeline"
_MODEL_QUESTION = "model"


@dataclass(frozen=True)
class Figures:
    """What the customer reads of one engine result, the same on the review page before sending
    and on the confirmation page after: what is bought or rented and how a run uses it
    (``sizing.counts``, as the proposal says it), one run's time and the recommended option's
    cost, in the proposal's formatters."""

    plan: str  # "208 × NVIDIA H100 SXM5 80GB (26 servers of 8) bought in year 1, …"
    days: str  # "about 6.49 days", "about 1.3 hours"
    days_range: str  # "2.5–17 days", "31 minutes–3.4 hours" ("" when not known)
    option: str  # "Buy, in your own data centre" ("" when no option is priced)
    cost: str  # "about $16.25 million over 5 years"
    cost_range: str  # "$13.2 million to $19.1 million"


def figures_of(result: StoredResult) -> Figures:
    """:class:`Figures` of a stored engine result."""
    best = result.recommended_cost
    days = result.wall_clock_days_range
    years = f"{result.years} {'year' if result.years == 1 else 'years'}"
    return Figures(
        plan=plan_text(read_counts(result)),
        days=f"about {format_days(result.wall_clock_days or 0)}",
        days_range=format_days_range(*days) if days else "",
        option=best.label if best else "",
        cost=f"about {format_money(best.total_usd)} over {years}" if best else "",
        cost_range=f"{format_money(best.low_usd)} to {format_money(best.high_usd)}" if best else "",
    )


@dataclass(frozen=True)
class FirstEstimate:
    """One run's accelerators and days, and what set that size.

    ``reason`` completes "What sets this size: …"; ``question`` is the slug of the question
    whose answer to change to move it, empty when no single answer does.
    """

    gpus: int
    accelerator: str
    days: str  # "about 12 days"
    reason: str
    question: str
    figures: Figures  # what the confirmation page shows after sending, from the same result


def first_estimate(answers: dict[str, Any]) -> FirstEstimate | None:
    """Size ``answers`` and say what set the size; ``None`` when the engine refuses them."""
    try:
        sized = size_answers(answers=answers)
    except InvalidInput:
        return None
    return estimate_of(sized)


# What sets one run's size, in the engine's order of causes (``sizing.engine.explain.drivers``).
DEADLINE_MISSED = "deadline_missed"  # no size meets the deadline
# fewer accelerators also meet the deadline, but these finish sooner in clearly fewer
# accelerator-hours (the engine's ``core._cheapest_listed_size``)
FEWEST_HOURS = "fewest_hours"
MEMORY = "memory"  # the memory the model needs, the deadline alone would need fewer
DEADLINE = "deadline"  # the deadline, given or assumed
COMPUTE = "compute"  # no deadline: the computing one run needs


def size_set_by(result: dict[str, Any]) -> str:
    """What sets one run's size, the one source of every "why this size" sentence (the review
    page's and the proposal's): a deadline no size meets, a larger size chosen for its fewer
    accelerator-hours, memory, then the deadline (answers never give the count; only an
    engineer's override does)."""
    cluster, timeline = result["cluster"], result["timeline"]
    gpus = int(cluster["gpus_per_job"])
    deadline_days = timeline.get("deadline_days") or _assumed(result, "schedule.deadline_days")
    if (timeline.get("deadline") or {}).get("met") is False and deadline_days:
        return DEADLINE_MISSED
    if _fewer_meeting_the_deadline(timeline, gpus):
        return FEWEST_HOURS
    min_gpus = (result.get("memory") or {}).get("min_gpus")
    if min_gpus and gpus <= min_gpus:
        return MEMORY
    return DEADLINE if deadline_days else COMPUTE


def estimate_of(sized: SizedAnswers) -> FirstEstimate:
    """:class:`FirstEstimate` of answers already sized, its reason from :func:`size_set_by`."""
    result = sized.result
    cluster, timeline = result["cluster"], result["timeline"]
    gpus = int(cluster["gpus_per_job"])
    deadline_days = timeline.get("deadline_days") or _assumed(result, "schedule.deadline_days")
    deadline_question = sized.question_of.get("schedule.deadline_days", _DEADLINE_QUESTION)
    given = sized.sources.get("schedule.deadline_days") in ("customer", "derived")
    set_by = size_set_by(result)
    if set_by == DEADLINE_MISSED:
        whose = "your deadline of" if given else "the deadline we assumed,"
        reason = (
            f"no size finishes within {whose} {format_days(deadline_days)}, so this is "
            "where more accelerators stop shortening the run"
        )
        question = deadline_question
    elif set_by == FEWEST_HOURS:
        reason = f"the fewest accelerator-hours: {fewest_hours_reason(result)}"
        question = deadline_question if given else ""
    elif set_by == MEMORY:
        reason = "the memory your model needs for training, not your deadline"
        question = sized.question_of.get("model.total_params", _MODEL_QUESTION)
    elif set_by == COMPUTE:
        reason = "the computing one run needs"
        question = ""
    elif given:
        reason = f"your deadline of {format_days(deadline_days)} for one run"
        question = deadline_question
    else:
        reason = (
            f"the deadline we assumed for one run ({format_days(deadline_days)}), because you "
            "did not give one; a later or earlier deadline changes the size"
        )
        question = deadline_question
    return FirstEstimate(
        gpus=gpus,
        accelerator=str(cluster.get("accelerator_name") or cluster.get("accelerator")),
        days=f"about {format_days(float(timeline['wall_clock_days']))}",
        reason=reason,
        question=question,
        figures=figures_of(read_result(result)),
    )


def fewest_hours_reason(result: dict[str, Any]) -> str:
    """Why a size above the fewest that meet the deadline was chosen ("32 finish sooner and
    cost less than the 24 your model's memory needs")."""
    timeline = result["timeline"]
    gpus = int(result["cluster"]["gpus_per_job"])
    fewest = _fewer_meeting_the_deadline(timeline, gpus)
    least = (result.get("memory") or {}).get("min_gpus") or 0
    smaller = (
        f"the {fewest:,} your model's memory needs"
        if fewest <= least
        else f"the {fewest:,} that would just finish in time"
    )
    return f"{gpus:,} finish sooner and cost less than {smaller}"


def _fewer_meeting_the_deadline(timeline: dict[str, Any], gpus: int) -> int:
    """The fewest accelerators of the trade-off table that meet the deadline, when fewer than
    the recommended ``gpus`` (chosen because they take fewer accelerator-hours); else 0."""
    meeting = [
        int(o["gpus"])
        for o in timeline.get("options", ())
        if o.get("meets_deadline") and int(o["gpus"]) < gpus
    ]
    return min(meeting, default=0)


def _assumed(result: dict[str, Any], key: str) -> float | None:
    """The value the engine assumed for input ``key``, ``None`` when it assumed none."""
    for item in result.get("assumptions", ()):
        if item.get("key") == key and isinstance(item.get("value"), int | float):
            return float(item["value"])
    return None
