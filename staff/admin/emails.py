"""The email outbox in the admin: every email with its outcome, and a retry for failed ones."""

from django.contrib import admin, messages

from pipeline.models import OutgoingEmail
from pipeline.outbox import retry_email
from sizing.public import (
    count_of,
)
from staff.admin.read_only import ReadOnlyMixin
from staff.admin.submission_views import EMAIL_RETRY_PERMISSION


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "submission", "kind", "version", "status", "attempts", "sent_at"]
    # "Bounced" and "Marked as spam" come from the email service's webhooks, the reason in error.
    list_filter = ["status", "kind"]
    search_fields = ["submission__reference", "subject"]
    list_select_related = ["submission"]
    # The body of a customer's proposal email holds their link: it is not shown here.
    fields = [
        "submission",
        "kind",
        "version",
        "to",
        "reply_to",
        "subject",
        "status",
        "attempts",
        "error",
        "created_at",
        "sent_at",
        "message_id",
    ]
    readonly_fields = fields
    actions = ["retry_failed_emails"]

    def has_retry_permission(self, request) -> bool:
        return request.user.has_perm(EMAIL_RETRY_PERMISSION)

    @admin.action(description="Send failed emails again", permissions=["retry"])
    def retry_failed_emails(self, request, queryset):
        retried = sum(retry_email(email=email) for email in queryset)
        self.message_user(request, f"Sending {count_of(retried, 'email')} again.", messages.SUCCESS)
