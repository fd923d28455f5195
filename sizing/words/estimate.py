"""The first estimate a customer sees before sending their answers, the answer that set it, and
the figures every surface states of one result (:class:`Figures`).

The review page shows the size the answers lead to and names the one answer that set it, with
a link to change it there: the deadline (or the one we assumed), or the memory the model
needs. It reads the engine's result for the answers
(:func:`sizing.adapters.size_answers`) and the question each engine field came from.
The confirmation and status pages, the proposal's summary and the staff pages state the same
:class:`Figures`, so a figure cannot differ between two of them.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sizing.adapters import InvalidInput, SizedAnswers, size_answers
from sizing.engine.numbers import format_count
from sizing.stored_result import StoredResult, read_result
from sizing.words.cost import cost_headline, recurring_line, region_line
from sizing.words.counts import plan_text, read_counts
from sizing.words.durations import run_time, run_time_range
from sizing.words.estate import estate_lines, help_cost, helped_time
from sizing.words.plural import count_of
from sizing.words.provenance import (
    Setter,
    accelerator_label,
    deadline_by,
    deadline_days,
    deadline_words,
)
from sizing.words.rival import platform_lines

# The questions whose answers set the size, by the engine field they feed (the questionnaire's
# slugs, as the adapters record them in ``question_of``); used when the field was left unset.
_DEADLINE_QUESTION = "timeline"
_MODEL_QUESTION = "model"


@dataclass(frozen=True)
class Figures:
    """What a person reads of one engine result, the same on every surface: the review page
    before sending, the confirmation and status pages after, the proposal and the staff pages.
    What is bought or rented and how a run uses it (``sizing.words.counts``), one run's time,
    the deadline and who set it, and the recommended option's cost (``sizing.words.cost``).
    Each field is also tagged ``data-figure`` on the pages, so a test can compare them."""

    plan: str  # "208 × NVIDIA H100 SXM5 80GB (26 servers of 8) bought in year 1, …"
    accelerator: str  # "NVIDIA H100 SXM5 80GB"
    accelerator_by: str  # "your choice", "chosen by our engineer", "chosen by us"
    per_run: str  # accelerators one run uses: "96"
    bought: str  # accelerators bought in year 1 (or rented while a run goes): "208"
    days: str  # "about 6.49 days", "about 1.3 hours"
    days_range: str  # "2.5–17 days", "31 minutes–3.4 hours" ("" when not known)
    deadline: str  # "your deadline of 21 days", "the deadline our engineer set, 20 days" ("")
    # How the run stands to the deadline, the words before it: "sized to" when the deadline
    # sets the size (:func:`size_set_by`), otherwise "within" or "past" it.
    against_deadline: str
    option: str  # "Buy, in your own data centre" ("" when no option is priced)
    cost: str  # "about $16.25 million over 5 years" (the net figure, with what it nets)
    cost_amount: str  # "$16.25 million"
    cost_range: str  # "$13.2 million to $19.1 million": the same figure's likely range
    # What they own and their ceilings, in sentences (sizing.words.estate; empty: none given)
    estate: tuple[str, ...] = ()
    # Recurring work per month and per run: "About €1,064 a month, or €266 a run (…)." ("")
    recurring: str = ""
    # Where the cloud options run, from where the data must stay: "Cloud options: a region in
    # Germany (Frankfurt), …" ("" without a residency answer naming a place)
    region: str = ""
    # A plan on AMD or Intel accelerators: the software it runs on and the same run on the
    # NVIDIA counterpart (sizing.words.rival; empty for an NVIDIA plan)
    platform: tuple[str, ...] = ()
    # On what they own with help added beside it (sizing.words.estate): the time with that
    # help, after the time on theirs alone, and what the help costs ("" otherwise)
    with_help: str = ""
    help_cost: str = ""


def figures_of(result: StoredResult, sources: Mapping[str, str] | None = None) -> Figures:
    """:class:`Figures` of a stored engine result; ``sources`` says where each input field
    came from (an engineer's override: ``"override"``)."""
    sources = sources or {}
    days = result.wall_clock_days_range
    cost = cost_headline(result)
    counts = read_counts(result)
    deadline = deadline_days(result)
    cost_text = f"about {cost.amount} over {cost.years}" if cost.priced else ""
    return Figures(
        plan=plan_text(counts),
        accelerator=result.accelerator_name,
        accelerator_by=accelerator_label(result, sources),
        per_run=format_count(counts.per_run),
        bought=format_count(counts.year_one if counts.owned else counts.cluster),
        days=f"about {run_time(result.wall_clock_days or 0)}",
        days_range=run_time_range(*days) if days else "",
        deadline="" if deadline is None else deadline_words(deadline, deadline_by(result, sources)),
        against_deadline=_against_deadline(result),
        option=cost.option,
        cost=cost_text + (f" {cost.nets}" if cost.nets else ""),
        cost_amount=cost.amount,
        cost_range=cost.range,
        estate=tuple(estate_lines(result, sources)),
        recurring=recurring_line(result),
        region=region_line(result),
        platform=tuple(platform_lines(result)),
        with_help=helped_time(result),
        help_cost=help_cost(result),
    )


def _against_deadline(result: StoredResult) -> str:
    """ "sized to", "within" or "past": how one run stands to its deadline, so that a size set
    by memory is never said to be sized to the deadline."""
    raw = dict(result.raw)
    if size_set_by(raw) == DEADLINE:
        return "sized to"
    met = ((raw.get("timeline") or {}).get("deadline") or {}).get("met")
    return "past" if met is False else "within"


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
    # The sizing itself, for the review page's charts (drawn by the proposal's chart code).
    result: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    engine_input: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


def first_estimate(answers: dict[str, Any], *, contact_country: str = "") -> FirstEstimate | None:
    """Size ``answers`` (placed by ``contact_country`` when they name no place, as the pipeline
    sizes them) and say what set the size; ``None`` when the engine refuses them."""
    try:
        sized = size_answers(answers=answers, contact_country=contact_country)
    except InvalidInput:
        return None
    return estimate_of(sized)


# What sets one run's size, in the engine's order of causes (``sizing.engine.explain.drivers``).
DEADLINE_MISSED = "deadline_missed"  # no size meets the deadline
# fewer accelerators also meet the deadline, but these finish sooner in clearly fewer
# accelerator-hours (the engine's ``core._cheapest_listed_size``)
FEWEST_HOURS = "fewest_hours"
MEMORY = "memory"  # the memory the model needs; fewer would meet the deadline
DEADLINE = "deadline"  # the deadline, given or assumed
COMPUTE = "compute"  # no deadline: the computing one run needs
OWNED = "owned"  # the accelerators the customer owns, all of them (help is added beside them)


def size_set_by(result: dict[str, Any]) -> str:
    """What sets one run's size, the one source of every "why this size" sentence (the review
    page's and the proposal's): a deadline no size meets, a larger size chosen for its fewer
    accelerator-hours, memory, then the deadline (answers never give the count; only an
    engineer's override does)."""
    cluster, timeline = result["cluster"], result["timeline"]
    gpus = int(cluster["gpus_per_job"])
    if read_result(result).on_owned_estate:
        return OWNED
    deadline = timeline.get("deadline_days") or _assumed(result, "schedule.deadline_days")
    if (timeline.get("deadline") or {}).get("met") is False and deadline:
        return DEADLINE_MISSED
    if _fewer_meeting_the_deadline(timeline, gpus):
        return FEWEST_HOURS
    min_gpus = (result.get("memory") or {}).get("min_gpus")
    if min_gpus and gpus <= min_gpus:
        return MEMORY
    return DEADLINE if deadline else COMPUTE


def owned_size_reason(result: StoredResult) -> str:
    """Why a plan on what they own is this size: "the 512 accelerators you own, all of them;
    the help rented beside them is sized to finish as soon as your budget allows"."""
    estate = result.estate
    owned = count_of(estate.owned_count if estate else result.gpus or 0, "accelerator")
    reason = f"the {owned} you own, all of them"
    if estate and estate.add_count and estate.rent_capped:
        return reason + (
            f"; the help beside them is the most rented at short notice, "
            f"{count_of(estate.add_count, 'accelerator')}"
        )
    if estate and estate.add_count and estate.cost_is_one_run:
        return reason + "; the help beside them is sized to finish as soon as your budget allows"
    if estate and estate.add_count:
        return reason + "; the help beside them is sized to meet the deadline"
    return reason


def estimate_of(sized: SizedAnswers) -> FirstEstimate:
    """:class:`FirstEstimate` of answers already sized, its reason from :func:`size_set_by`."""
    result = sized.result
    cluster, timeline = result["cluster"], result["timeline"]
    gpus = int(cluster["gpus_per_job"])
    stored = read_result(result)
    deadline_question = sized.question_of.get("schedule.deadline_days", _DEADLINE_QUESTION)
    setter = deadline_by(stored, sized.sources)
    given = setter.customers
    deadline = deadline_days(stored) or 0.0
    set_by = size_set_by(result)
    if set_by == OWNED:
        reason = owned_size_reason(stored)
        question = ""
    elif set_by == DEADLINE_MISSED:
        reason = (
            f"no size finishes within {deadline_words(deadline, setter)}, so this is "
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
    elif given or setter is Setter.ENGINEER:
        reason = f"{deadline_words(deadline, setter)} for one run"
        question = deadline_question
    else:
        reason = (
            f"the deadline we assumed for one run ({run_time(deadline)}), because you "
            "did not give one; a later or earlier deadline changes the size"
        )
        question = deadline_question
    return FirstEstimate(
        gpus=gpus,
        accelerator=str(cluster.get("accelerator_name") or cluster.get("accelerator")),
        days=f"about {run_time(float(timeline['wall_clock_days']))}",
        reason=reason,
        question=question,
        figures=figures_of(stored, sized.sources),
        result=result,
        engine_input=sized.engine_input,
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
