"""Builds the proposal document: context from a Recommendation, HTML, then PDF bytes."""

from dataclasses import dataclass

from django.template.loader import render_to_string
from weasyprint import HTML
from weasyprint.urls import FatalURLFetchingError

from reports.fetcher import BASE_URL, BlockedResource, ProposalURLFetcher
from sizing.models import Recommendation


@dataclass(frozen=True)
class RenderedPdf:
    pdf: bytes
    page_count: int


def render_pdf(*, recommendation: Recommendation) -> RenderedPdf:
    html = render_to_string("reports/proposal.html", {"recommendation": recommendation})
    return html_to_pdf(html)


def html_to_pdf(html: str) -> RenderedPdf:
    fetcher = ProposalURLFetcher()
    try:
        doc = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).render()
        pdf = doc.write_pdf()
    except FatalURLFetchingError as exc:  # a BaseException: turn it into an ordinary error
        raise BlockedResource(str(exc)) from None
    return RenderedPdf(pdf=pdf, page_count=len(doc.pages))
