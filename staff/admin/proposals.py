"""Proposal versions in the admin: read-only, with a download link for those allowed."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from pipeline.models import Proposal
from staff.admin.read_only import ReadOnlyMixin
from staff.downloads import can_download


def download_link(user, proposal: Proposal) -> str:
    """A link to the permission-checked download view, or a plain note why there is none."""
    if proposal.status != Proposal.Status.DONE or not proposal.pdf:
        return proposal.get_status_display()
    if not can_download(user, proposal):
        return "PDF ready; downloadable once an engineer approves this version"
    url = reverse(
        "proposals:download_proposal", args=[proposal.submission.public_id, proposal.version]
    )
    return format_html(
        '<a href="{}" class="download-pdf">Download PDF v{}</a>', url, proposal.version
    )


def _download_column(request):
    """A per-request display callable (admin instances are shared between requests)."""
    column = getattr(request, "_proposal_download_column", None)
    if column is None:

        @admin.display(description="PDF")
        def column(proposal: Proposal) -> str:
            return download_link(request.user, proposal)

        request._proposal_download_column = column
    return column


class ProposalReadOnly(ReadOnlyMixin):
    """Proposals are written by the pipeline only; staff read them and download the PDF."""

    shown = ["version", "status", "PDF", "page_count", "size_bytes", "created_at", "error"]

    def get_fields(self, request, obj=None):
        column = _download_column(request)
        return [column if name == "PDF" else name for name in self.shown]

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)


class ProposalInline(ProposalReadOnly, admin.TabularInline):
    model = Proposal
    verbose_name_plural = "Proposal versions"
    extra = 0
    ordering = ["-version"]


@admin.register(Proposal)
class ProposalAdmin(ProposalReadOnly, admin.ModelAdmin):
    shown = [
        "submission",
        "version",
        "status",
        "PDF",
        "page_count",
        "size_bytes",
        "sha256",
        "engine_version",
        "created_at",
        "finished_at",
        "error",
    ]
    list_display = ["__str__", "submission", "status", "page_count", "created_at"]
    list_filter = ["status"]
    search_fields = ["submission__reference"]
    list_select_related = ["submission"]
