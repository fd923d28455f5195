"""Versioned sizing results for a submission."""

from django.conf import settings
from django.db import models


class Recommendation(models.Model):
    """One run of the sizing engine over a submission's answers (plus any engineer overrides).

    Each re-run is a new version; earlier versions are kept so a sent proposal can always be
    explained later with the exact engine input, version and assumptions it used.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="recommendations"
    )
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    engine_version = models.CharField(max_length=40, blank=True)
    overrides = models.JSONField(default=dict, blank=True)
    engine_input = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["submission", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "version"], name="unique_recommendation_version"
            )
        ]

    def __str__(self) -> str:
        return f"Recommendation v{self.version} for {self.submission_id}"
