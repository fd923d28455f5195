"""Staff-triggered pipeline work: re-run with overrides, regenerate, retry.

The pipeline itself belongs to ``pipeline.services``; this module only
adds what staff actions need on top: permission-free business calls plus the audit trail
and an optional note, so the admin, tests and any later API behave the same.
"""

import json
from typing import Any

from django.db import transaction

from pipeline import services as pipeline_services
from pipeline.models import Proposal, Recommendation
from pipeline.versions import latest_finished, latest_recommendation
from questionnaire.models import Submission
from staff.models import AuditEvent, Note
from staff.workflow import record, start_review

InvalidOverrides = pipeline_services.InvalidOverrides


def rerun_with_overrides(
    *, submission: Submission, overrides: dict[str, Any], user, reason: str = ""
) -> Recommendation:
    """A new recommendation (and, once sized, a new proposal) with the engineer's overrides.

    Previous versions are kept, and the new one stays internal until an engineer approves it;
    a submission nobody had approved is now in review. Raises ``InvalidOverrides`` naming the
    fields the engine refuses; nothing is written then.
    """
    with transaction.atomic():
        recommendation = pipeline_services.rerun_sizing(
            submission=submission, overrides=overrides, user=user
        )
        summary = ", ".join(f"{k}={_short(v)}" for k, v in sorted(_dotted(overrides).items()))
        record(
            submission=submission,
            actor=user,
            action=AuditEvent.Action.RERUN,
            new=f"v{recommendation.version}",
            detail=summary or "no overrides",
        )
        if reason.strip():
            Note.objects.create(
                submission=submission,
                author=user,
                text=f"Re-run as v{recommendation.version}: {reason.strip()}",
            )
        start_review(submission=submission, user=user)
    return recommendation


def rerun(*, submission: Submission, user) -> Recommendation:
    """Size again with the latest version's overrides (e.g. after an engine update)."""
    latest = latest_recommendation(submission)
    return rerun_with_overrides(
        submission=submission, overrides=(latest.overrides if latest else {}) or {}, user=user
    )


def regenerate_proposal(*, submission: Submission, user) -> Recommendation | None:
    """Produce the latest finished recommendation's proposal again; None if there is none.

    A missing or failed proposal is rendered for the same version. A finished PDF is never
    overwritten (it may have been sent): the submission is sized again with the same
    overrides, giving a new recommendation and proposal version.
    """
    latest = latest_finished(submission)
    if latest is None:
        return None
    proposal = Proposal.objects.filter(recommendation=latest).first()
    if proposal is not None and proposal.status == Proposal.Status.DONE:
        return rerun_with_overrides(
            submission=submission, overrides=latest.overrides or {}, user=user
        )
    with transaction.atomic():
        if proposal is not None and proposal.status == Proposal.Status.FAILED:
            pipeline_services.retry_failed_proposal(recommendation=latest)
        else:
            pipeline_services.schedule_proposal(latest)
        record(
            submission=submission,
            actor=user,
            action=AuditEvent.Action.REGENERATE,
            new=f"v{latest.version}",
        )
    return latest


def retry_failed(*, submission: Submission, user) -> bool:
    """Give a failed run fresh attempts; False if nothing had failed."""
    with transaction.atomic():
        retried = pipeline_services.retry_failed(submission=submission)
        if retried is None:
            return False
        record(
            submission=submission,
            actor=user,
            action=AuditEvent.Action.RETRY,
            new=f"{retried._meta.verbose_name} v{retried.version}",
        )
    return True


def _dotted(overrides: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in overrides.items():
        if isinstance(value, dict):
            flat.update({f"{key}.{name}": item for name, item in value.items()})
        else:
            flat[key] = value
    return flat


def _short(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value
