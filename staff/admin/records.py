"""Read-only admin for the staff records: they are written by the workflow, never by hand."""

from django.contrib import admin

from staff.admin.read_only import ReadOnlyMixin
from staff.models import AuditEvent, DeletionRecord, Note, ProposalDownload, ShareLink
from staff.workflow import full_name


class PeopleByName:
    """People by full name, as everywhere on the staff pages ("Bob Tester", not "bob.am")."""

    @admin.display(description="Who", ordering="actor__last_name")
    def actor_name(self, obj) -> str:
        return full_name(obj.actor) if obj.actor_id else "the system or the customer"

    @admin.display(description="Author")
    def author_name(self, obj) -> str:
        return full_name(obj.author) if obj.author_id else "a removed user"

    @admin.display(description="By")
    def user_name(self, obj) -> str:
        return full_name(obj.user) if obj.user_id else "customer (share link)"

    @admin.display(description="Created by")
    def creator_name(self, obj) -> str:
        return full_name(obj.created_by) if obj.created_by_id else "—"

    @admin.display(description="Deleted by")
    def deleter_name(self, obj) -> str:
        return full_name(obj.deleted_by) if obj.deleted_by_id else "the retention task"


class AuditEventInline(PeopleByName, ReadOnlyMixin, admin.TabularInline):
    model = AuditEvent
    verbose_name_plural = "Audit trail (who changed what, when)"
    fields = ["created_at", "actor_name", "action", "old_value", "new_value", "detail"]
    readonly_fields = fields
    extra = 0


class NoteInline(PeopleByName, ReadOnlyMixin, admin.TabularInline):
    model = Note
    verbose_name_plural = "Internal notes"
    fields = ["created_at", "author_name", "text"]
    readonly_fields = fields
    extra = 0


@admin.register(AuditEvent)
class AuditEventAdmin(PeopleByName, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "submission", "actor_name", "action", "old_value", "new_value"]
    list_filter = ["action", ("created_at", admin.DateFieldListFilter)]
    search_fields = ["submission__reference"]
    list_select_related = ["submission", "actor"]


@admin.register(ProposalDownload)
class ProposalDownloadAdmin(PeopleByName, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["downloaded_at", "proposal", "user_name", "share_link"]
    search_fields = ["proposal__submission__reference"]
    list_select_related = ["proposal__submission", "user", "share_link"]


@admin.register(ShareLink)
class ShareLinkAdmin(PeopleByName, ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "proposal",
        "sent_to",
        "creator_name",
        "created_at",
        "first_viewed_at",
        "expires_at",
        "revoked_at",
    ]
    search_fields = ["proposal__submission__reference"]
    list_select_related = ["proposal__submission", "created_by"]
    exclude = ["token"]  # the raw token is half of a working link


@admin.register(DeletionRecord)
class DeletionRecordAdmin(PeopleByName, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["reference", "reason", "deleter_name", "files_deleted", "deleted_at"]
    list_filter = ["reason"]
    search_fields = ["reference"]
