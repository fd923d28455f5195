"""The PDF leaves private storage only through the checked views, with download-only headers."""

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from staff import sharing
from staff.models import AuditEvent, ProposalDownload
from tests.staff.factories import make_ready_submission, pdf_bytes, sign_in

pytestmark = pytest.mark.django_db


def download(client, submission, version=1):
    return client.get(f"/proposals/{submission.public_id}/v{version}.pdf")


def test_an_engineer_gets_the_pdf_with_safe_headers_and_the_download_is_recorded(engineer):
    submission, _, proposal = make_ready_submission(
        company='Evil"\r\nSet-Cookie: x=1; ../../a.html'
    )
    client = Client()
    sign_in(client, engineer)
    response = download(client, submission)
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert body == pdf_bytes() or body.startswith(b"%PDF")
    assert response["Content-Type"] == "application/pdf"
    disposition = response["Content-Disposition"]
    assert disposition == (
        f'attachment; filename="proposal-{submission.reference}-v1.pdf"; '
        f"filename*=UTF-8''proposal-{submission.reference}-v1.pdf"
    )
    assert "Evil" not in disposition and "\n" not in disposition
    assert "no-store" in response["Cache-Control"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "Set-Cookie" not in response or "x=1" not in str(response.cookies)
    record = ProposalDownload.objects.get()
    assert (record.proposal, record.user) == (proposal, engineer)


def test_the_pdf_has_no_public_url_and_a_guessed_media_path_is_not_served(engineer):
    submission, _, proposal = make_ready_submission()
    with pytest.raises(NotImplementedError):
        proposal.pdf.url  # noqa: B018 - the storage refuses to build a public address
    client = Client()
    sign_in(client, engineer)
    assert client.get(f"/media/{proposal.pdf.name}").status_code == 404


def test_a_pdf_missing_from_storage_is_a_404_and_not_recorded(engineer):
    submission, _, proposal = make_ready_submission()
    proposal.pdf.storage.delete(proposal.pdf.name)
    client = Client()
    sign_in(client, engineer)
    assert download(client, submission).status_code == 404
    assert not ProposalDownload.objects.exists()


def test_a_share_link_lets_the_customer_download_until_revoked(engineer):
    submission, _, proposal = make_ready_submission()
    link = sharing.create_share_link(proposal=proposal, user=engineer)
    path = urlsplit(sharing.share_url(link)).path
    customer = Client()
    page = customer.get(path)
    assert page.status_code == 200
    assert page["X-Robots-Tag"] == "noindex, nofollow" and "no-store" in page["Cache-Control"]
    assert submission.reference in page.content.decode()
    response = customer.get(f"{path}proposal.pdf")
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF")
    assert ProposalDownload.objects.get().share_link == link
    assert AuditEvent.objects.filter(action=AuditEvent.Action.SHARE_CREATED).exists()
    assert link.expires_at - link.created_at == timedelta(days=7)

    sharing.revoke_share_link(link=link, user=engineer)
    assert customer.get(path).status_code == 404
    assert customer.get(f"{path}proposal.pdf").status_code == 404


def test_an_expired_or_tampered_share_link_is_refused(engineer):
    submission, _, proposal = make_ready_submission()
    link = sharing.create_share_link(proposal=proposal, user=engineer)
    signed = sharing._signer().sign(str(link.token))
    customer = Client()
    assert customer.get(f"/proposals/shared/{signed}x/").status_code == 404
    assert customer.get(f"/proposals/shared/{link.token}/").status_code == 404
    link.expires_at = timezone.now() - timedelta(seconds=1)
    link.save()
    assert customer.get(f"/proposals/shared/{signed}/").status_code == 404
    assert customer.get(f"/proposals/shared/{signed}/proposal.pdf").status_code == 404
    assert not ProposalDownload.objects.exists()
    link.refresh_from_db()
    assert link.first_viewed_at is None


def test_staff_revoke_a_sent_link_from_the_submission_page(account_manager):
    submission, _, proposal = make_ready_submission()
    link = sharing.create_share_link(proposal=proposal, user=account_manager, sent_to="a@b.c")
    client = Client()
    sign_in(client, account_manager)
    base = f"/admin/questionnaire/submission/{submission.pk}"
    page = client.get(f"{base}/change/").content.decode()
    assert "works until" in page and str(link.token) not in page
    assert client.post(f"{base}/share-links/{link.pk}/revoke/").status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None and link.revoked_by == account_manager
    assert "revoked" in client.get(f"{base}/change/").content.decode()


def test_account_managers_download_approved_versions_only(account_manager, engineer):
    submission, recommendation, proposal = make_ready_submission()
    client = Client()
    sign_in(client, account_manager)
    url = f"/proposals/{submission.public_id}/v1.pdf"
    page = client.get(f"/admin/questionnaire/submission/{submission.pk}/change/").content.decode()
    assert "downloadable once an engineer approves this version" in page
    assert client.get(url).status_code == 403
    recommendation.approved_at, recommendation.approved_by = timezone.now(), engineer
    recommendation.save()
    response = client.get(url)
    assert response.status_code == 200
    assert ProposalDownload.objects.get().user == account_manager
    page = client.get(f"/admin/questionnaire/submission/{submission.pk}/change/").content.decode()
    assert "Download PDF v1" in page
