"""What an engineer's re-run changed, in words, ordered by what matters to the customer.

The cost first, then the accelerators, nodes and days, then the other headline figures, each with
its unit; then the inputs that changed, named by the vocabulary; then how many other outputs
changed. ``pipeline.versions.describe_changes`` is the complete list by dotted path.
"""

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.models import Recommendation
from pipeline.versions import describe_changes
from sizing.public import (
    StoredResult,
    cost_headline,
    count_of,
    describe_value,
    format_days,
    format_quantity,
    input_term,
    money_of,
    read_result,
)


@dataclass(frozen=True)
class Change:
    label: str
    before: str
    after: str


def _cost(result: StoredResult) -> str:
    """The customer's headline (``sizing.words.cost``): the net figure over the plan."""
    cost = cost_headline(result)
    return f"{cost.amount} over {cost.years} ({cost.option})" if cost.priced else "—"


def _cost_range(result: StoredResult) -> str:
    return cost_headline(result).range or "—"


def _count(value: float | None, noun: str) -> str:
    """ "1 node", "3 nodes"; "—" when missing."""
    return "—" if value is None else count_of(value, noun)


# (label, reader) in the order a customer cares about; the reader gives words with units.
HEADLINE: tuple[tuple[str, Callable[[StoredResult], str]], ...] = (
    ("Recommended cost", _cost),
    ("Likely cost range", _cost_range),
    ("Accelerator", lambda r: r.accelerator_name or "—"),
    ("Accelerators", lambda r: _count(r.gpus, "GPU")),
    ("Servers (nodes)", lambda r: _count(r.nodes, "node")),
    (
        "Time for one run",
        lambda r: "—" if r.wall_clock_days is None else format_days(r.wall_clock_days),
    ),
    ("Accelerator-hours", lambda r: _count(r.gpu_hours, "GPU-hour")),
    ("One run in the cloud", lambda r: money_of(r)(r.one_run_cloud_usd)),
    (
        "Peak memory per accelerator",
        lambda r: format_quantity(r.section("memory").get("per_gpu_gb"), "GB"),
    ),
    (
        "Shared storage in all",
        lambda r: format_quantity(r.section("storage").get("total_capacity_tb"), "TB"),
    ),
    (
        "Checkpoint size",
        lambda r: format_quantity(r.section("storage").get("checkpoint_size_gb"), "GB"),
    ),
)
# The dotted outputs the headline already covers (so they are not counted again).
_COVERED = (
    "cost.",
    "cluster.accelerator",
    "cluster.gpus",
    "cluster.nodes",
    "timeline.wall_clock_days",
    "compute.gpu_hours",
    "memory.per_gpu_gb",
    "storage.total_capacity_tb",
    "storage.checkpoint_size_gb",
)


@dataclass(frozen=True)
class VersionDiff:
    figures: list[Change]  # headline figures that changed, cost first
    inputs: list[Change]  # engine inputs that changed, in words
    other_outputs: int  # further outputs that changed, only counted
    engine: Change | None  # the engine version, when it changed


def diff_versions(previous: Recommendation, current: Recommendation) -> VersionDiff:
    before, after = read_result(previous.result), read_result(current.result)
    figures = []
    for label, read in HEADLINE:
        old, new = read(before), read(after)
        if old != new:
            figures.append(Change(label, old, new))
    changes = describe_changes(previous, current)
    inputs = [
        Change(
            input_term(change["field"]).label,
            _input_words(change["field"], change["before"]),
            _input_words(change["field"], change["after"]),
        )
        for change in changes["inputs"]
    ]
    others = [
        change
        for change in changes["outputs"]
        if not change["field"].startswith(_COVERED)
        and not change["field"].startswith(("assumptions", "drivers", "warnings"))
    ]
    engine = changes.get("engine_version")
    return VersionDiff(
        figures=figures,
        inputs=inputs,
        other_outputs=len(others),
        engine=Change("Engine version", engine["before"], engine["after"]) if engine else None,
    )


def _input_words(path: str, value) -> str:
    if value is None:
        return "left to the engine"
    return describe_value(path, value)
