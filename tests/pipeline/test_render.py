"""pipeline/services.py, the render step: a proposal rendered and stored once, never half-written."""

import hashlib
from io import BytesIO

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from pipeline import services
from pipeline.models import Proposal
from pipeline.steps import MAX_ATTEMPTS
from questionnaire.models import Submission
from reports.fetcher import BlockedResource
from reports.proposal_check import Finding
from tests.reports.factories import make_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def sized(published):
    """A submission sized by the real engine, with its pending proposal."""
    submission = make_submission()
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    return Proposal.objects.get(recommendation_id=recommendation.pk)


def test_render_stores_the_pdf_with_checksum_size_pages_and_engine_version(
    sized, notified, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.render_proposal(proposal_id=sized.pk)
    proposal = Proposal.objects.get(pk=sized.pk)
    assert proposal.status == Proposal.Status.DONE
    with proposal.pdf.open("rb") as stored:
        pdf = stored.read()
    assert pdf.startswith(b"%PDF")
    assert proposal.sha256 == hashlib.sha256(pdf).hexdigest()
    assert proposal.size_bytes == len(pdf)
    assert proposal.page_count == len(PdfReader(BytesIO(pdf)).pages)
    assert proposal.engine_version == proposal.recommendation.engine_version != ""
    assert proposal.pdf.name == (
        f"proposals/{proposal.submission.public_id}/v{proposal.version}-proposal.pdf"
    )
    assert Submission.objects.get(pk=proposal.submission_id).pipeline_status == "ready"
    assert notified == [("ready", proposal.submission.reference)]


def test_rendering_twice_keeps_one_file_and_one_checksum(sized):
    services.render_proposal(proposal_id=sized.pk)
    first = Proposal.objects.get(pk=sized.pk)
    services.render_proposal(proposal_id=sized.pk)
    second = Proposal.objects.get(pk=sized.pk)
    assert (second.attempts, second.sha256, second.pdf.name) == (1, first.sha256, first.pdf.name)
    folder = first.pdf.name.rsplit("/", 1)[0]
    assert first.pdf.storage.listdir(folder)[1] == ["v1-proposal.pdf"]


def test_schedule_proposal_is_idempotent(sized, published):
    again = services.schedule_proposal(sized.recommendation)
    assert again.pk == sized.pk
    assert Proposal.objects.filter(recommendation=sized.recommendation).count() == 1


class ZeroByteStorage(FileSystemStorage):
    """A disk that accepts the write and then has nothing there (full disk, broken mount)."""

    def _save(self, name, content):
        return super()._save(name, ContentFile(b""))


def test_a_storage_that_loses_the_write_is_retried_then_failed_never_done_empty(
    sized, notified, monkeypatch, tmp_path, django_capture_on_commit_callbacks
):
    storage = ZeroByteStorage(location=tmp_path)
    monkeypatch.setattr(Proposal.pdf.field, "storage", storage)
    for _attempt in range(1, MAX_ATTEMPTS):
        with pytest.raises(services.StorageWriteError):
            services.render_proposal(proposal_id=sized.pk)
        proposal = Proposal.objects.get(pk=sized.pk)
        assert proposal.status == Proposal.Status.PENDING
        assert "StorageWriteError" in proposal.error
    with django_capture_on_commit_callbacks(execute=True):
        services.render_proposal(proposal_id=sized.pk)
    proposal = Proposal.objects.get(pk=sized.pk)
    assert (proposal.status, proposal.attempts) == (Proposal.Status.FAILED, MAX_ATTEMPTS)
    assert (proposal.pdf.name, proposal.sha256, proposal.size_bytes) == ("", "", None)
    assert list(tmp_path.rglob("*.pdf")) == []  # the empty file was removed
    assert Submission.objects.get(pk=sized.submission_id).pipeline_status == "failed"
    assert notified == [("failed", sized.submission.reference)]


def test_a_storage_error_is_retried_and_a_later_attempt_succeeds(sized, monkeypatch):
    real_save = FileSystemStorage._save
    failures = iter([OSError("No space left on device")])

    def flaky_save(self, name, content):
        for error in failures:
            raise error
        return real_save(self, name, content)

    monkeypatch.setattr(FileSystemStorage, "_save", flaky_save)
    with pytest.raises(OSError, match="No space left"):
        services.render_proposal(proposal_id=sized.pk)
    services.render_proposal(proposal_id=sized.pk)
    proposal = Proposal.objects.get(pk=sized.pk)
    assert (proposal.status, proposal.attempts) == (Proposal.Status.DONE, 2)


def test_a_blocked_resource_fails_the_render_at_once(sized, monkeypatch, notified):
    def blocked(data):
        raise BlockedResource("blocked resource in proposal: 'file:///etc/passwd'")

    monkeypatch.setattr("reports.document.render_data", blocked)
    services.render_proposal(proposal_id=sized.pk)
    proposal = Proposal.objects.get(pk=sized.pk)
    assert (proposal.status, proposal.attempts) == (Proposal.Status.FAILED, 1)
    assert "file:///etc/passwd" in proposal.error


def test_an_older_version_finishing_late_does_not_mark_the_pipeline_ready(sized, published):
    submission = sized.submission
    newer = services.rerun_sizing(
        submission=submission, overrides={"training.experiments": 1}, user=None
    )
    services.render_proposal(proposal_id=sized.pk)
    assert Proposal.objects.get(pk=sized.pk).status == "done"
    assert Submission.objects.get(pk=submission.pk).pipeline_status == "pending"
    services.run_sizing(recommendation_id=newer.pk)
    services.render_proposal(proposal_id=Proposal.objects.get(recommendation=newer).pk)
    assert Submission.objects.get(pk=submission.pk).pipeline_status == "ready"


def test_render_proposal_command_renders_the_demo_without_a_broker(tmp_path):
    out = tmp_path / "demo.pdf"
    call_command("render_proposal", "--demo", str(out))
    assert len(PdfReader(out).pages) > 10


def test_render_proposal_command_renders_a_stored_submission(sized, tmp_path):
    out = tmp_path / "stored.pdf"
    call_command("render_proposal", "--submission", sized.submission.reference, str(out))
    text = PdfReader(out).pages[0].extract_text()
    assert sized.submission.reference in text


def test_a_proposal_the_checker_faults_is_failed_with_its_findings_never_done(
    sized, monkeypatch, notified, django_capture_on_commit_callbacks
):
    def one_finding(*, html, pages):
        return [Finding("plural", "page 2", "How many | 1 nodes of 8")]

    monkeypatch.setattr("reports.document.check_proposal", one_finding)
    with django_capture_on_commit_callbacks(execute=True):
        services.render_proposal(proposal_id=sized.pk)
    proposal = Proposal.objects.get(pk=sized.pk)
    # Failed at once (the same answers render the same proposal), with what staff must fix.
    assert (proposal.status, proposal.attempts) == (Proposal.Status.FAILED, 1)
    assert "The proposal failed its check (1 finding):" in proposal.error
    assert "page 2, a count and its noun disagree: \u201cHow many | 1 nodes of 8\u201d" in (
        proposal.error
    )
    assert (proposal.pdf.name, proposal.sha256) == ("", "")
    submission = Submission.objects.get(pk=sized.submission_id)
    assert submission.pipeline_status == "failed" and "1 nodes of 8" in submission.pipeline_error
    assert notified == [("failed", sized.submission.reference)]


def test_the_render_reads_the_submission_once_with_the_claimed_row(sized):
    """The claim reads the proposal with its submission; the proposal's data (the answers, the
    contact) comes from that row, not from a second read through the recommendation."""
    with CaptureQueriesContext(connection) as queries:
        services.render_proposal(proposal_id=sized.pk)
    assert Proposal.objects.get(pk=sized.pk).status == Proposal.Status.DONE
    rereads = [
        q["sql"] for q in queries if q["sql"].startswith('SELECT "questionnaire_submission"')
    ]
    assert rereads == []
