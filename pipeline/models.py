"""The pipeline's two steps, as rows of one kind: a sizing run and the proposal rendered from it.

Each row is its own outbox entry: it is written pending, a task is published after commit, and
the task claims, works and finishes it (``pipeline.steps``). Both tables keep the names they had
when they lived in ``sizing`` and ``reports`` (migrations 0001 of this app), so no data moved.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from reports.storage import proposal_path, proposal_storage


class PipelineStep(models.Model):
    """What every step row has: its attempts, its last error and when it finished.

    Subclasses define ``Status`` with PENDING, DONE and FAILED, and name the status a claimed
    row is in while it works (``WORKING``).
    """

    version = models.PositiveIntegerField()
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    engine_version = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["submission", "-version"]


class Recommendation(PipelineStep):
    """One run of the sizing engine over a submission's answers (plus any engineer overrides).

    Each re-run is a new version; earlier versions are kept so a sent proposal can always be
    explained later with the exact engine input, version and assumptions it used.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    WORKING = Status.RUNNING

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="recommendations"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    overrides = models.JSONField(default=dict, blank=True)
    engine_input = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # Per engine-input field, where its value came from ("customer", "not_sure", "override" …).
    input_sources = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The approval gate: only an approved version reaches the customer (page, email, link).
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta(PipelineStep.Meta):
        db_table = "sizing_recommendation"
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "version"], name="unique_recommendation_version"
            )
        ]

    def __str__(self) -> str:
        return f"Recommendation v{self.version} for {self.submission.reference}"

    @property
    def is_approved(self) -> bool:
        return self.approved_at is not None


class Proposal(PipelineStep):
    """A rendered PDF proposal; one per recommendation version."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RENDERING = "rendering", "Rendering"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    WORKING = Status.RENDERING

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="proposals"
    )
    recommendation = models.OneToOneField(
        Recommendation, on_delete=models.CASCADE, related_name="proposal"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    pdf = models.FileField(storage=proposal_storage, upload_to=proposal_path, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    size_bytes = models.PositiveIntegerField(null=True, blank=True)
    page_count = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta(PipelineStep.Meta):
        db_table = "reports_proposal"
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "version"], name="unique_proposal_version"
            )
        ]

    def __str__(self) -> str:
        return f"Proposal v{self.version} for {self.submission.reference}"


class OutgoingEmail(models.Model):
    """One email about one event of one submission (and version): the outbox row.

    Written in the transaction of the event it tells about, sent after commit by a task
    (``pipeline.outbox``), retried with backoff, and kept with its outcome so a failed email is
    visible in the admin. ``key`` names the event, so the same event never sends twice. An
    email service's webhook later marks a sent email bounced or complained about
    (``pipeline.delivery_events``), found by ``message_id``.
    """

    class Kind(models.TextChoices):
        CONFIRMATION = "confirmation", "Request received (to the customer)"
        RECEIVED = "received", "New request (to the account manager)"
        NEEDS_REVIEW = "needs_review", "Needs review (to the engineers)"
        APPROVED = "approved", "Approved, ready to send (to the account manager)"
        PROPOSAL = "proposal", "Proposal (to the customer)"
        VIEWED = "viewed", "Customer opened the proposal (to the account manager)"
        FAILED = "failed", "A run failed, needs a hand (to staff)"
        RESUME_LINK = "resume_link", "Link to continue the questionnaire (to the customer)"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        # Reported by the email service's webhook after it was sent.
        BOUNCED = "bounced", "Bounced"
        COMPLAINED = "complained", "Marked as spam by the recipient"

    # One of the two: a submission's emails, or a draft's resume link (before any submission).
    submission = models.ForeignKey(
        "questionnaire.Submission",
        on_delete=models.CASCADE,
        related_name="emails",
        null=True,
        blank=True,
    )
    draft = models.ForeignKey(
        "questionnaire.Draft",
        on_delete=models.CASCADE,
        related_name="emails",
        null=True,
        blank=True,
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    version = models.PositiveIntegerField(null=True, blank=True)
    key = models.CharField(max_length=100, unique=True)
    to = models.JSONField(default=list)
    # Where a customer's answer goes: the assignee, or the account managers.
    reply_to = models.JSONField(default=list, blank=True)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # The email service's id for the sent message (empty over plain SMTP): its webhooks name it.
    message_id = models.CharField(max_length=200, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "outgoing email"

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.subject}"


class SubmissionFacts(models.Model):
    """What the customer said about model, method and deployment (``pipeline.facts``), stored
    beside the submission when it is saved, so that the staff list filters and searches in SQL
    instead of reading every submission's answers in Python (issue 31: 17 s at 10,000)."""

    submission = models.OneToOneField(
        "questionnaire.Submission",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="facts",
    )
    # Empty (None for the size) where the customer was not sure or the answers were unreadable.
    model_name = models.CharField(max_length=200, blank=True)
    total_params = models.FloatField(null=True, blank=True, db_index=True)
    architecture = models.CharField(max_length=20, blank=True, db_index=True)
    method = models.CharField(max_length=40, blank=True, db_index=True)
    deployment = models.CharField(max_length=40, blank=True, db_index=True)

    class Meta:
        verbose_name = "what the customer said"
        verbose_name_plural = "what the customers said"

    def __str__(self) -> str:
        return f"{self.model_name or 'model not said'}, {self.method or 'method not said'}"


class WhoRecorded(models.TextChoices):
    """Who put a measurement or an actual run on the submission."""

    CUSTOMER = "customer", "the customer, through their link"
    STAFF = "staff", "our engineer"


class HardwareMeasurement(models.Model):
    """What the verification kit (``kit/verify_hardware.py``) measured on the customer's
    hardware, read from the file they uploaded (``pipeline.kit_file``). Every sizing after it
    uses the latest measurement of a catalog accelerator (``pipeline.services._size``)."""

    submission = models.ForeignKey(
        "questionnaire.Submission",
        on_delete=models.CASCADE,
        related_name="hardware_measurements",
    )
    recorded_by = models.CharField(max_length=10, choices=WhoRecorded.choices)
    recorded_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    file_name = models.CharField(max_length=100, blank=True)
    # As the accelerator's driver reported it ("NVIDIA H100 80GB HBM3", "CPU only").
    accelerator_name = models.CharField(max_length=100)
    # The catalog id it is ("h100-sxm"), empty for a CPU or one the catalog does not hold.
    accelerator = models.CharField(max_length=40, blank=True)
    accelerators_per_node = models.PositiveSmallIntegerField()
    nodes = models.PositiveSmallIntegerField(default=1)
    profile = models.CharField(max_length=10)  # the kit's sizes: "full" or "tiny"
    measured_at = models.DateTimeField(null=True, blank=True)
    # The kit's figures by name (pipeline.kit_file.FIGURES), each bounded; None: not measured.
    results = models.JSONField(default=dict)

    class Meta:
        ordering = ["-created_at", "-id"]
        get_latest_by = ["created_at", "id"]
        verbose_name = "measurement of the customer's hardware"
        verbose_name_plural = "measurements of the customer's hardware"

    def __str__(self) -> str:
        return f"{self.accelerator_name}, {self.created_at:%Y-%m-%d}"

    def engine_section(self) -> dict | None:
        """The engine's ``measured`` section (``docs/engine-contract.md``), or None when the kit
        ran on no catalog accelerator (a CPU): then it changes nothing in the estimate."""
        bf16 = self.results.get("matmul_bf16_tflops")
        if not self.accelerator or bf16 is None:
            return None
        section = {"accelerator": self.accelerator, "matmul_bf16_tflops": bf16}
        if self.results.get("matmul_fp8_tflops") is not None:
            section["matmul_fp8_tflops"] = self.results["matmul_fp8_tflops"]
        return section

    @classmethod
    def latest_engine_section(cls, submission) -> dict | None:
        """The section of the latest measurement of a catalog accelerator on ``submission``."""
        latest = cls.objects.filter(submission=submission).exclude(accelerator="").first()
        return latest.engine_section() if latest is not None else None


class ActualRun(models.Model):
    """What happened when the customer trained: the figures our estimate is judged by.

    ``recommendation`` is the version the customer had when it was recorded (the estimate it is
    compared with); the calibration report reads these rows as a source of its own
    (``benchmarks/calibration.py``)."""

    submission = models.ForeignKey(
        "questionnaire.Submission", on_delete=models.CASCADE, related_name="actual_runs"
    )
    recommendation = models.ForeignKey(
        Recommendation, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_by = models.CharField(max_length=10, choices=WhoRecorded.choices)
    recorded_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accelerator = models.CharField(max_length=40)  # catalog id
    accelerators = models.PositiveIntegerField()
    days = models.FloatField()  # [d] wall-clock, first step to last
    gpu_hours = models.FloatField()  # [accelerator-hours] as billed or logged
    tokens = models.FloatField()  # [tokens] trained on, every epoch
    interruptions = models.PositiveIntegerField(default=0)  # restarts after a failure
    mfu = models.FloatField(null=True, blank=True)  # [-] model FLOPs utilisation, if known
    notes = models.TextField(blank=True, max_length=2000)
    # Made up by ``load_demo`` to show the chart and the report: never counted as evidence.
    demo = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "actual training run"

    def __str__(self) -> str:
        return f"{self.accelerators} × {self.accelerator}, {self.days:g} days"
