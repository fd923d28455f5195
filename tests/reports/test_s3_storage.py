"""Proposal PDFs in S3-compatible object storage (S3_BUCKET), against a real SeaweedFS.

The bucket is private: objects have no URL of ours and an unsigned request is refused; the PDF
leaves only through the permission-checked download view, streamed; retention deletes the
objects with the rows.
"""

import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.test import Client

from pipeline.models import Proposal
from reports.storage import PrivateS3Storage
from staff.models import ProposalDownload
from staff.retention import delete_submission
from tests.staff.factories import make_ready_submission, make_user, pdf_bytes, sign_in

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def s3_storage(s3_service, s3_bucket):
    return PrivateS3Storage(
        bucket_name=s3_bucket,
        endpoint_url=s3_service.endpoint_url,
        region_name="us-east-1",
        access_key=s3_service.access_key,
        secret_key=s3_service.secret_key,
        addressing_style="path",
        signature_version="s3v4",
        file_overwrite=True,
    )


@pytest.fixture
def proposals_in_s3(s3_storage, monkeypatch):
    """Proposal rows made from here on keep their PDFs in the bucket (the field's storage is
    resolved once, when the model is loaded)."""
    monkeypatch.setattr(Proposal._meta.get_field("pdf"), "storage", s3_storage)
    return s3_storage


def test_the_settings_put_proposals_in_the_bucket_when_s3_is_configured(
    s3_service, s3_bucket, tmp_path
):
    script = (
        "from django.core.files.base import ContentFile\n"
        "from django.core.files.storage import storages\n"
        "s = storages['proposals']\n"
        "print(type(s).__name__, s.save('proposals/x/v1-proposal.pdf', ContentFile(b'%PDF-1.7')))"
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "S3_"))},
        "DJANGO_SECRET_KEY": "a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        "DJANGO_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_EMBEDDED_SERVICES": "database,cache,broker",
        **s3_service.settings_env(s3_bucket),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == ["PrivateS3Storage", "proposals/x/v1-proposal.pdf"]
    assert s3_service.keys(s3_bucket) == ["proposals/x/v1-proposal.pdf"]
    assert not (tmp_path / "var" / "private").exists()  # nothing written on this host


def test_an_object_round_trips_and_has_no_url_and_no_anonymous_access(s3_storage, s3_service):
    content = pdf_bytes(2)
    name = s3_storage.save("proposals/check/v1-proposal.pdf", ContentFile(content))
    assert name == "proposals/check/v1-proposal.pdf"
    assert s3_storage.exists(name)
    with s3_storage.open(name, "rb") as stored:
        assert stored.read() == content
    head = s3_service.client().head_object(Bucket=s3_storage.bucket_name, Key=name)
    assert head["ContentType"] == "application/pdf"
    with pytest.raises(NotImplementedError):
        s3_storage.url(name)
    address = f"{s3_service.endpoint_url}/{s3_storage.bucket_name}/{name}"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(address, timeout=10)  # noqa: S310 - 127.0.0.1
    assert refused.value.code == 403
    # The pipeline writes each version under a fixed name: a second save replaces the first.
    assert s3_storage.save(name, ContentFile(b"%PDF-1.7 again")) == name
    s3_storage.delete(name)
    assert not s3_storage.exists(name)
    with pytest.raises(FileNotFoundError):
        s3_storage.open(name, "rb")


@pytest.mark.django_db
def test_staff_download_streams_the_object_through_the_checked_view(proposals_in_s3):
    submission, _, proposal = make_ready_submission()
    assert proposals_in_s3.exists(proposal.pdf.name)
    client = Client()
    assert client.get(f"/proposals/{submission.public_id}/v1.pdf").status_code == 302  # sign in
    sign_in(client, make_user("Engineers"))
    response = client.get(f"/proposals/{submission.public_id}/v1.pdf")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == pdf_bytes()
    assert response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    assert ProposalDownload.objects.filter(proposal=proposal).count() == 1


@pytest.mark.django_db
def test_a_missing_object_is_a_404_not_a_500(proposals_in_s3):
    submission, _, proposal = make_ready_submission()
    proposals_in_s3.delete(proposal.pdf.name)
    client = Client()
    sign_in(client, make_user("Engineers"))
    assert client.get(f"/proposals/{submission.public_id}/v1.pdf").status_code == 404
    assert not ProposalDownload.objects.exists()


@pytest.mark.django_db
def test_deleting_a_submission_deletes_its_objects(
    proposals_in_s3, s3_service, django_capture_on_commit_callbacks
):
    submission, _, proposal = make_ready_submission()
    kept, _, kept_proposal = make_ready_submission()
    bucket = proposals_in_s3.bucket_name
    assert s3_service.keys(bucket, f"proposals/{submission.public_id}/") == [proposal.pdf.name]

    with django_capture_on_commit_callbacks(execute=True):
        assert delete_submission(submission=submission, reason="retention") == 1

    assert s3_service.keys(bucket, f"proposals/{submission.public_id}/") == []
    assert s3_service.keys(bucket) == [kept_proposal.pdf.name]
