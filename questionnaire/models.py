"""Stored questionnaires: unfinished drafts and submitted answers."""

import uuid

from django.conf import settings
from django.db import models


class Draft(models.Model):
    """An unfinished questionnaire, saved after every step so nothing is lost.

    The wizard's raw step data lives here (not only in the session), so an expired session,
    a second browser or a private resume link can pick up where the customer left off.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    step_data = models.JSONField(default=dict, blank=True)
    current_step = models.CharField(max_length=64, blank=True)
    email = models.EmailField(blank=True)
    # Only a hash of the resume token is stored; the raw token exists in the emailed link.
    resume_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    resume_token_expires_at = models.DateTimeField(null=True, blank=True)
    # Bumped on every save of a step: a page rendered at an older revision was overtaken by
    # another tab or device, which the wizard tells the customer about.
    revision = models.PositiveIntegerField(default=0)
    # Answers filled from the customer's file or discovery sentence once they confirmed them,
    # ``{slug: {field: {"values": [...], "from": "words" | "file"}}}``: the question pages and
    # the review page mark each one while it still holds the value filled.
    prefilled = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Draft {self.id} (step {self.current_step or '-'})"

    @property
    def is_submitted(self) -> bool:
        return Submission.objects.filter(draft_id=self.pk).exists()


class Submission(models.Model):
    """A submitted questionnaire: the customer's answers and where their proposal stands."""

    class WorkflowStatus(models.TextChoices):
        # Moved only by the staff workflow's actions (staff/workflow.py, docs/workflow.md).
        NEW = "new", "Waiting for engineer review"
        IN_REVIEW = "in_review", "In engineer review"
        APPROVED = "approved", "Approved, ready to send"
        PROPOSAL_SENT = "proposal_sent", "Proposal sent"
        VIEWED = "viewed", "Viewed by the customer"
        WON = "won", "Won"
        LOST = "lost", "Lost"
        CLOSED = "closed", "Closed"

    class PipelineStatus(models.TextChoices):
        PENDING = "pending", "Waiting for sizing"
        SIZING = "sizing", "Sizing"
        RENDERING = "rendering", "Writing the proposal"
        READY = "ready", "Proposal ready"
        FAILED = "failed", "Failed"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    reference = models.CharField(max_length=20, unique=True)
    # One draft becomes at most one submission: a double submit cannot create two.
    draft = models.OneToOneField(
        Draft, null=True, blank=True, on_delete=models.SET_NULL, related_name="submission"
    )

    contact_name = models.CharField(max_length=200)
    contact_email = models.EmailField()
    company = models.CharField(max_length=200)
    contact_role = models.CharField(max_length=200, blank=True)
    country = models.CharField(max_length=100, blank=True)
    privacy_consent_at = models.DateTimeField()

    # Answers keyed by question slug, exactly as the customer gave them.
    answers = models.JSONField(default=dict)
    schema_version = models.PositiveSmallIntegerField(default=1)

    status = models.CharField(
        max_length=20, choices=WorkflowStatus.choices, default=WorkflowStatus.NEW, db_index=True
    )
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="assigned_submissions",
    )

    pipeline_status = models.CharField(
        max_length=20,
        choices=PipelineStatus.choices,
        default=PipelineStatus.PENDING,
        db_index=True,
    )
    pipeline_error = models.TextField(blank=True)
    pipeline_updated_at = models.DateTimeField(auto_now_add=True)

    submitted_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-submitted_at"]

    def __str__(self) -> str:
        return f"{self.reference} — {self.company}"


class ReferenceCounter(models.Model):
    """Per-year counter behind human-readable references such as TQ-2026-00042."""

    year = models.PositiveSmallIntegerField(primary_key=True)
    last_number = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.year}: {self.last_number}"
