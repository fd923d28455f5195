"""Read-only admin for the staff records: they are written by the workflow, never by hand."""

from django.contrib import admin

from staff.admin.read_only import ReadOnlyMixin
from staff.models import AuditEvent, DeletionRecord, Note, ProposalDownload, ShareLink


class AuditEventInline(ReadOnlyMixin, admin.TabularInline):
    model = AuditEvent
    verbose_name_plural = "Audit trail (who changed what, when)"
    fields = ["created_at", "actor", "action", "old_value", "new_value", "detail"]
    readonly_fields = fields
    extra = 0


class NoteInline(ReadOnlyMixin, admin.TabularInline):
    model = Note
    verbose_name_plural = "Internal notes"
    fields = ["created_at", "author", "text"]
    readonly_fields = fields
    extra = 0


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "submission", "actor", "action", "old_value", "new_value"]
    list_filter = ["action", ("created_at", admin.DateFieldListFilter)]
    search_fields = ["submission__reference"]
    list_select_related = ["submission", "actor"]


@admin.register(ProposalDownload)
class ProposalDownloadAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["downloaded_at", "proposal", "user", "share_link"]
    search_fields = ["proposal__submission__reference"]
    list_select_related = ["proposal", "user", "share_link"]


@admin.register(ShareLink)
class ShareLinkAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["proposal", "created_by", "created_at", "expires_at", "revoked_at"]
    search_fields = ["proposal__submission__reference"]
    list_select_related = ["proposal__submission", "created_by"]
    exclude = ["token"]  # the raw token is half of a working link


@admin.register(DeletionRecord)
class DeletionRecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["reference", "reason", "deleted_by", "files_deleted", "deleted_at"]
    list_filter = ["reason"]
    search_fields = ["reference"]
