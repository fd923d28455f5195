"""Proposal PDFs leave private storage only through these views, after a check.

Engineers (``staff.download_proposal``) download any version; account managers
(``staff.download_approved_proposal``) the approved ones; customers need an active share link,
which opens their proposal on screen (``staff.on_screen``, recording that they opened it) with
the PDF behind it. Every download is recorded. Refusals give the same answer whether or not the
proposal exists.
"""

import logging
import re
from urllib.parse import quote
from uuid import UUID

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest
from django.views.decorators.http import require_safe

from pipeline.models import Proposal
from staff.sending import record_view
from staff.sharing import record_download, resolve_share_link

logger = logging.getLogger(__name__)

DOWNLOAD_PERMISSION = "staff.download_proposal"
DOWNLOAD_APPROVED_PERMISSION = "staff.download_approved_proposal"


def can_download(user, proposal: Proposal | None = None) -> bool:
    """Whether ``user`` may download ``proposal`` (or, without one, any proposal at all)."""
    if not (user.is_active and user.is_staff):
        return False
    if user.has_perm(DOWNLOAD_PERMISSION):
        return True
    if not user.has_perm(DOWNLOAD_APPROVED_PERMISSION):
        return False
    return proposal is None or proposal.recommendation.is_approved


def proposal_filename(proposal: Proposal) -> str:
    """An ASCII-only name built from the reference (never from customer text)."""
    reference = re.sub(r"[^A-Za-z0-9-]", "", proposal.submission.reference) or "proposal"
    return f"proposal-{reference}-v{int(proposal.version)}.pdf"


def pdf_response(proposal: Proposal) -> FileResponse:
    """Stream a proposal's PDF from private storage with download-only headers."""
    try:
        handle = proposal.pdf.open("rb")
    except (FileNotFoundError, ValueError):
        logger.error("proposal %s has no file in storage", proposal.pk)
        raise Http404("No such proposal.") from None
    response = FileResponse(handle, content_type="application/pdf")
    name = proposal_filename(proposal)
    response["Content-Disposition"] = (
        f"attachment; filename=\"{name}\"; filename*=UTF-8''{quote(name)}"
    )
    response["Cache-Control"] = "no-store, private"
    response["X-Content-Type-Options"] = "nosniff"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_safe
def download_proposal(request: HttpRequest, public_id: UUID, version: int) -> FileResponse:
    """A proposal PDF for staff with a download permission (account managers: approved ones)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_download(request.user):
        logger.warning("proposal download refused for user %s", request.user.pk)
        raise PermissionDenied
    proposal = (
        Proposal.objects.select_related("submission", "recommendation")
        .filter(submission__public_id=public_id, version=version, status=Proposal.Status.DONE)
        .exclude(pdf="")
        .first()
    )
    if not request.user.has_perm(DOWNLOAD_PERMISSION) and (
        proposal is None or not can_download(request.user, proposal)
    ):
        # The same refusal for an unapproved, a missing and a guessed proposal.
        logger.warning("proposal download refused for user %s", request.user.pk)
        raise PermissionDenied
    if proposal is None:
        raise Http404("No such proposal.")
    response = pdf_response(proposal)
    record_download(proposal=proposal, user=request.user)
    return response


def shared_link(signed: str):
    link = resolve_share_link(signed)
    if link is None:
        logger.info("share link refused (bad, expired or revoked)")
        raise Http404("This link is not valid any more.")
    return link


@require_safe
def shared_proposal_pdf(request: HttpRequest, signed: str) -> FileResponse:
    """The PDF behind a valid share link (opening it counts as viewing, too)."""
    link = shared_link(signed)
    record_view(link=link)
    response = pdf_response(link.proposal)
    record_download(proposal=link.proposal, share_link=link)
    return response
