"""A submission's sizing versions: which one the customer may see, and what a re-run changed.

The approval gate: the customer sees version 1 as a preliminary estimate until an engineer
approves a version, and after that only the version approved last. A what-if re-run stays
internal until it is approved itself.
"""

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from pipeline.models import Proposal, Recommendation
from pipeline.people import full_name
from sizing.public import Checked, InputChange, change_from_first, read_result


def previous_version(recommendation: Recommendation) -> Recommendation | None:
    return (
        Recommendation.objects.filter(
            submission_id=recommendation.submission_id, version__lt=recommendation.version
        )
        .order_by("-version")
        .first()
    )


def latest_recommendation(submission) -> Recommendation | None:
    return submission.recommendations.order_by("-version").first()


def latest_finished(submission) -> Recommendation | None:
    return (
        submission.recommendations.filter(status=Recommendation.Status.DONE)
        .order_by("-version")
        .first()
    )


def failed_step(submission) -> tuple[Recommendation | None, str]:
    """The newest version of a submission whose run failed, and which step failed: "sizing" (or
    nothing sized at all), else "proposal" (its render or its check)."""
    latest = latest_recommendation(submission)
    if latest is None or latest.status == Recommendation.Status.FAILED:
        return latest, "sizing"
    return latest, "proposal"


def latest_approved(submission) -> Recommendation | None:
    """The version approved last (an engineer may approve an older version again)."""
    return (
        submission.recommendations.filter(
            status=Recommendation.Status.DONE, approved_at__isnull=False
        )
        .order_by("-approved_at", "-version")
        .first()
    )


# The first proposal is still being written (the customer's page waits for it).
WRITING = frozenset({Proposal.Status.PENDING, Proposal.Status.RENDERING})


@dataclass(frozen=True)
class CustomerVersion:
    """What the customer may be shown: the first version (preliminary) or an approved one.

    ``stranded``: nothing approved yet and the first version can no longer reach the customer on
    its own (its sizing failed, or its proposal failed the checker or its render): an engineer
    prepares the proposal by hand. ``writing``: the first version is sized and its proposal is
    still being written.
    """

    recommendation: Recommendation | None  # None: nothing to show yet (or the first run failed)
    preliminary: bool
    first: Recommendation | None  # version 1, whose progress the customer follows at first
    stranded: bool = False
    writing: bool = False


def customer_version(submission) -> CustomerVersion:
    """The version the customer's pages show; never an unapproved re-run."""
    approved = latest_approved(submission)
    first = submission.recommendations.filter(version=1).first()
    if approved is not None:
        return CustomerVersion(approved, preliminary=False, first=first)
    if first is None:
        failed = submission.pipeline_status == submission.PipelineStatus.FAILED
        return CustomerVersion(None, preliminary=True, first=None, stranded=failed)
    if first.status == Recommendation.Status.FAILED:
        return CustomerVersion(None, preliminary=True, first=first, stranded=True)
    if first.status != Recommendation.Status.DONE:
        return CustomerVersion(None, preliminary=True, first=first)
    proposal = Proposal.objects.filter(recommendation=first).values_list("status", flat=True)
    proposal_status = proposal.first()
    if proposal_status == Proposal.Status.FAILED:
        # Its figures failed the proposal's check: they are not shown as an estimate.
        return CustomerVersion(None, preliminary=True, first=first, stranded=True)
    return CustomerVersion(first, preliminary=True, first=first, writing=proposal_status in WRITING)


# Where a request keeps what :func:`customer_version_for` worked out for it.
_PER_REQUEST = "_customer_versions"


def customer_version_for(request, submission) -> CustomerVersion:
    """:func:`customer_version`, worked out once per request being served and submission.

    The customer's confirmation page asks for it from several tags (its status, its figures
    twice, its proposal on screen): kept on the request, it is worked out once per page view,
    and a later request (the page refreshing itself) or a task works it out afresh. Without a
    request (a template rendered elsewhere), worked out every time.
    """
    if request is None:
        return customer_version(submission)
    remembered = request.__dict__.setdefault(_PER_REQUEST, {})
    if submission.pk not in remembered:
        remembered[submission.pk] = customer_version(submission)
    return remembered[submission.pk]


def customer_proposal(submission, shown: CustomerVersion | None = None) -> Proposal | None:
    """The finished proposal of the version the customer may see (:func:`customer_version`,
    or ``shown`` when the caller has it already), or None: its web version is what the
    customer's page links to. Only a proposal that passed the checker is finished, so a failed
    one is never shown."""
    recommendation = (shown or customer_version(submission)).recommendation
    if recommendation is None:
        return None
    return Proposal.objects.filter(
        recommendation=recommendation, status=Proposal.Status.DONE
    ).first()


def describe_changes(previous: Recommendation, current: Recommendation) -> dict[str, Any]:
    """What changed between two versions: engine inputs, overrides, outputs and engine version.

    Returns ``{"inputs": [...], "overrides": [...], "outputs": [...], "engine_version":
    {"before", "after"} | None}``, each change ``{"field": "model.total_params", "before": …,
    "after": …}`` with dotted paths in the engine contract's vocabulary. Lists are compared
    whole; the engine version is reported on its own, not as an output.
    """
    outputs_before = dict(previous.result or {})
    outputs_after = dict(current.result or {})
    outputs_before.pop("engine_version", None)
    outputs_after.pop("engine_version", None)
    engine_version = None
    if previous.engine_version != current.engine_version:
        engine_version = {"before": previous.engine_version, "after": current.engine_version}
    return {
        "inputs": _diff(previous.engine_input or {}, current.engine_input or {}),
        "overrides": _diff(previous.overrides or {}, current.overrides or {}),
        "outputs": _diff(outputs_before, outputs_after),
        "engine_version": engine_version,
    }


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def _diff(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    flat_before, flat_after = _flatten(before), _flatten(after)
    changes = []
    for field in sorted(flat_before.keys() | flat_after.keys()):
        old, new = flat_before.get(field), flat_after.get(field)
        if old != new:
            changes.append({"field": field, "before": old, "after": new})
    return changes


def checked(recommendation: Recommendation) -> Checked | None:
    """Who approved ``recommendation`` and when, and what changed from the first estimate
    (version 1) in one sentence; None while it is not approved."""
    if not recommendation.is_approved or recommendation.approved_at is None:
        return None
    engineer = full_name(recommendation.approved_by) if recommendation.approved_by else ""
    return checked_as(
        recommendation, engineer=engineer, on=timezone.localdate(recommendation.approved_at)
    )


def checked_as(recommendation: Recommendation, *, engineer: str, on) -> Checked:
    """What the customer reads once ``engineer`` approves ``recommendation`` on ``on`` (the
    approval's confirmation page shows it before the approval)."""
    first = (
        Recommendation.objects.filter(submission_id=recommendation.submission_id, version=1)
        .exclude(pk=recommendation.pk)
        .first()
    )
    approved = read_result(recommendation.result)
    if first is None or not first.result:
        return Checked(engineer, on, change_from_first(approved, approved, []))
    engine_input = first.engine_input or {}
    changed = [
        InputChange(c["field"], _at(engine_input, c["field"]), c["after"])
        for c in describe_changes(first, recommendation)["overrides"]
        if c["after"] is not None
    ]
    return Checked(engineer, on, change_from_first(read_result(first.result), approved, changed))


def _at(nested: dict[str, Any], path: str) -> Any:
    section, _, name = path.partition(".")
    return (nested.get(section) or {}).get(name)
