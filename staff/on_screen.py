"""The proposal as a web page: for the customer at their own address, and behind a share link.

Both pages render the PDF's own body and context (``reports.document.proposal_context``) in the
site's layout (``reports/web_proposal.html``): the same words and figures, the charts inline as
SVG. Nothing is laid out by WeasyPrint in the request, so no address on the page reaches its
fetcher. The customer's page follows the approval gate (``pipeline.versions.customer_proposal``:
the first estimate, marked preliminary, until an engineer approves a version) and opens only in
the browser that holds the questionnaire (its private link, ``questionnaire.access``) or for
staff who may download that proposal; any other request gets the same 404 as an unknown one.
"""

import logging
from typing import Any
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from pipeline.models import Proposal
from pipeline.services import proposal_data
from pipeline.versions import customer_proposal
from questionnaire import access
from questionnaire.models import Submission
from reports.document import proposal_context
from staff.downloads import can_download, shared_link
from staff.sending import record_view
from staff.workflow import full_name

logger = logging.getLogger(__name__)


def proposal_page_context(proposal: Proposal) -> dict[str, Any]:
    """The web version's context: the PDF's, for the version ``proposal`` was rendered from.

    Without the proposal's (``data`` and the rest) when its stored version cannot be laid out
    again: the PDF was checked when it was made, and the share link must still lead to it."""
    page = {"proposal": proposal, "preliminary": not proposal.recommendation.is_approved}
    try:
        return {**proposal_context(proposal_data(proposal.recommendation)), **page}
    except Exception:
        logger.exception("proposal %s has no web version", proposal.pk)
        return page


def private_headers(response: HttpResponse) -> HttpResponse:
    """A customer's proposal is neither indexed nor named to the next site in a Referer."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


@never_cache
@require_safe
def customer_web_proposal(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    """The proposal the customer may see, on screen, at an address only their browser opens."""
    submission = Submission.objects.select_related("draft").filter(draft_id=draft_id).first()
    proposal = customer_proposal(submission) if submission is not None else None
    if proposal is None or not (
        access.may_open(request, submission.draft) or can_download(request.user, proposal)
    ):
        raise Http404("No such proposal.")
    response = render(
        request,
        "staff/customer_proposal.html",
        {**proposal_page_context(proposal), "submission": submission},
    )
    return private_headers(response)


@never_cache
@require_safe
def shared_web_proposal(request: HttpRequest, signed: str) -> HttpResponse:
    """The customer's page behind an emailed link: the note, the PDF link and the proposal."""
    link = shared_link(signed)
    record_view(link=link)
    proposal = link.proposal
    response = render(
        request,
        "staff/shared_proposal.html",
        {
            **proposal_page_context(proposal),
            "link": link,
            "submission": proposal.submission,
            "sender_name": full_name(link.created_by) if link.created_by else "",
            "signed": signed,
        },
    )
    return private_headers(response)
