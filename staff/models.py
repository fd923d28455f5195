"""What staff do with a submission: the audit trail, notes, downloads and share links.

Rows here belong to a submission and go when it goes (retention or an explicit delete);
only :class:`DeletionRecord` outlives it, and it holds the reference and nothing personal.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class StaffCapability(models.Model):
    """Holds the staff permissions that are actions rather than rows (no table).

    Django derives permissions from models; these capabilities span several apps
    (re-running sizing writes a recommendation and a proposal), so they live on one
    table-less model. Roles are granted them in ``0002_roles``.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = "staff capability"
        permissions = [
            ("rerun_sizing", "Can override assumptions and re-run sizing"),
            ("regenerate_proposal", "Can regenerate a proposal PDF"),
            ("retry_pipeline", "Can retry a failed sizing or proposal"),
            ("download_proposal", "Can download proposal PDFs"),
            ("download_approved_proposal", "Can download approved proposal PDFs"),
            ("approve_version", "Can approve a version for the customer"),
            ("send_proposal", "Can send an approved proposal to the customer"),
            ("record_outcome", "Can mark a submission won, lost or closed, and reopen it"),
            ("share_proposal", "Can create and revoke customer share links"),
            ("export_submissions", "Can export submissions as CSV"),
            ("view_overview", "Can see the staff overview"),
        ]

    def __str__(self) -> str:
        return "staff capability"


class AuditEvent(models.Model):
    """One thing a person (or the retention task) did to a submission: who, what, when."""

    class Action(models.TextChoices):
        STATUS = "status", "Workflow status changed"
        APPROVED = "approved", "Version approved"
        SENT = "sent", "Proposal sent"
        VIEWED = "viewed", "Customer opened the proposal"
        ASSIGNED = "assigned", "Assignee changed"
        NOTE = "note", "Note added"
        RERUN = "rerun", "Sizing re-run"
        REGENERATE = "regenerate", "Proposal regenerated"
        RETRY = "retry", "Failed run retried"
        SHARE_CREATED = "share_created", "Share link created"
        SHARE_REVOKED = "share_revoked", "Share link revoked"
        EXPORTED = "exported", "Exported as CSV"

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    old_value = models.CharField(max_length=200, blank=True)
    new_value = models.CharField(max_length=200, blank=True)
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "audit event"

    def __str__(self) -> str:
        return f"{self.get_action_display()} on {self.submission_id} at {self.created_at:%Y-%m-%d %H:%M}"


class Note(models.Model):
    """An internal note on a submission; never shown to the customer, never edited."""

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="notes"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField(max_length=5000)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Note by {self.author or 'a removed user'} at {self.created_at:%Y-%m-%d %H:%M}"


class ShareLink(models.Model):
    """A customer-facing link to one proposal PDF: signed, expiring and revocable.

    The URL carries a signature over ``token`` (see :mod:`staff.sharing`); the row decides
    whether it is still valid, so revoking takes effect at once.
    """

    proposal = models.ForeignKey(
        "pipeline.Proposal", on_delete=models.CASCADE, related_name="share_links"
    )
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Set when the link was emailed by sending the proposal (blank: made by hand, before sending).
    sent_to = models.EmailField(blank=True)
    note = models.TextField(blank=True, max_length=2000)
    first_viewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Share link for {self.proposal} until {self.expires_at:%Y-%m-%d}"

    def is_active(self, now=None) -> bool:
        now = now or timezone.now()
        return self.revoked_at is None and now < self.expires_at


class ProposalDownload(models.Model):
    """One download of a proposal PDF, by a staff member or through a share link."""

    proposal = models.ForeignKey(
        "pipeline.Proposal", on_delete=models.CASCADE, related_name="downloads"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    share_link = models.ForeignKey(
        ShareLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="downloads"
    )
    downloaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-downloaded_at"]
        verbose_name = "proposal download"

    def __str__(self) -> str:
        who = self.user or ("share link" if self.share_link_id else "unknown")
        return f"{self.proposal} downloaded by {who} at {self.downloaded_at:%Y-%m-%d %H:%M}"


class DeletionRecord(models.Model):
    """Proof that a submission was deleted, and why; keeps no personal data or answers."""

    class Reason(models.TextChoices):
        RETENTION = "retention", "Retention period passed"
        STAFF = "staff", "Deleted by staff"

    reference = models.CharField(max_length=20)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    files_deleted = models.PositiveIntegerField(default=0)
    deleted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-deleted_at"]

    def __str__(self) -> str:
        return (
            f"{self.reference} deleted ({self.get_reason_display()}) at {self.deleted_at:%Y-%m-%d}"
        )
