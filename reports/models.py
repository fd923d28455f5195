"""PDF proposals rendered from a recommendation."""

from django.core.files.storage import storages
from django.db import models


def _proposal_storage():  # a callable, so tests and deployments can swap the storage
    return storages["proposals"]


def proposal_path(instance: "Proposal", filename: str) -> str:
    return f"proposals/{instance.submission.public_id}/v{instance.version}-{filename}"


class Proposal(models.Model):
    """A rendered PDF proposal; one per recommendation version."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RENDERING = "rendering", "Rendering"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="proposals"
    )
    recommendation = models.OneToOneField(
        "sizing.Recommendation", on_delete=models.CASCADE, related_name="proposal"
    )
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    pdf = models.FileField(storage=_proposal_storage, upload_to=proposal_path, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    size_bytes = models.PositiveIntegerField(null=True, blank=True)
    page_count = models.PositiveSmallIntegerField(null=True, blank=True)
    engine_version = models.CharField(max_length=40, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["submission", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "version"], name="unique_proposal_version"
            )
        ]

    def __str__(self) -> str:
        return f"Proposal v{self.version} for {self.submission_id}"
