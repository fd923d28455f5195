"""Customer share links for a proposal PDF: signed, expiring after SHARE_LINK_DAYS, revocable.

The URL holds ``signing.dumps``-style text over the link's random token (a UUID4: 122 random
bits), so a guessed or altered URL fails the signature before any database lookup; the row then
decides whether the link is still valid, which is what makes revocation immediate.
"""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from pipeline.models import Proposal
from staff.models import AuditEvent, ProposalDownload, ShareLink
from staff.workflow import record

_SALT = "staff.share-link"


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=_SALT)


def share_url(link: ShareLink) -> str:
    """The absolute URL to give the customer."""
    signed = _signer().sign(str(link.token))
    return settings.SITE_URL + reverse("proposals:shared_proposal", args=[signed])


def create_share_link(*, proposal: Proposal, user, sent_to: str = "", note: str = "") -> ShareLink:
    """Create a link to ``proposal`` that works for SHARE_LINK_DAYS days or until revoked.

    ``sent_to`` and ``note``: the address and personal note it is emailed with
    (``staff.sending.send_proposal``)."""
    if proposal.status != Proposal.Status.DONE or not proposal.pdf:
        raise ValueError("Only a finished proposal can be shared.")
    now = timezone.now()
    with transaction.atomic():
        link = ShareLink.objects.create(
            proposal=proposal,
            created_by=user,
            created_at=now,
            expires_at=now + timedelta(days=settings.SHARE_LINK_DAYS),
            sent_to=sent_to,
            note=note,
        )
        record(
            submission=proposal.submission,
            actor=user,
            action=AuditEvent.Action.SHARE_CREATED,
            new=f"v{proposal.version} until {link.expires_at:%Y-%m-%d %H:%M} UTC",
        )
    return link


def revoke_share_link(*, link: ShareLink, user) -> bool:
    """Stop a link working at once; returns False if it was already revoked."""
    with transaction.atomic():
        updated = ShareLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now(), revoked_by=user
        )
        if updated:
            record(
                submission=link.proposal.submission,
                actor=user,
                action=AuditEvent.Action.SHARE_REVOKED,
                old=f"v{link.proposal.version}",
            )
    return bool(updated)


def resolve_share_link(signed: str) -> ShareLink | None:
    """The active link behind a signed URL segment, or None (bad, expired or revoked)."""
    try:
        token = _signer().unsign(signed, max_age=timedelta(days=settings.SHARE_LINK_DAYS))
    except signing.BadSignature:  # includes SignatureExpired
        return None
    link = (
        ShareLink.objects.select_related("proposal__submission")
        .filter(token=token, revoked_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if link is None or link.proposal.status != Proposal.Status.DONE:
        return None
    return link


def record_download(*, proposal: Proposal, user=None, share_link: ShareLink | None = None) -> None:
    """Remember who fetched a proposal PDF and when."""
    ProposalDownload.objects.create(
        proposal=proposal,
        user=user if user and user.is_authenticated else None,
        share_link=share_link,
    )
