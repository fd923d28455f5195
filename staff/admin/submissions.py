"""The staff workflow on submissions: the list, and one submission's page with its summary.

Thin: every change goes through ``staff.workflow``, ``staff.sending`` or
``staff.pipeline_actions`` (which audit it; the views are in ``submission_views``), every read
of the answers through ``pipeline.facts``/``staff.summary``. Submissions are created only by
the questionnaire, and deleted only with their files (``staff.retention``).
"""

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import Prefetch, Q
from django.http import HttpResponse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator

from pipeline.facts import model_and_size, stored_facts
from pipeline.measured import estimate_actual_figure
from pipeline.models import (
    ActualRun,
    HardwareMeasurement,
    OutgoingEmail,
    Proposal,
    Recommendation,
)
from pipeline.versions import latest_approved
from questionnaire.models import Submission
from staff import pipeline_actions, workflow
from staff.admin.proposals import ProposalInline
from staff.admin.recommendations import RecommendationInline
from staff.admin.records import AuditEventInline, NoteInline
from staff.admin.submission_views import EMAIL_RETRY_PERMISSION, SubmissionViews
from staff.export import export_csv
from staff.filters import (
    ArchitectureFilter,
    AssignedToMeFilter,
    AssigneeFilter,
    DeploymentFilter,
    MethodFilter,
    NeedsAHandFilter,
    SizeBandFilter,
    WaitingForMyReviewFilter,
)
from staff.forms import NoteForm, SendForm, SubmissionWorkflowForm
from staff.models import AuditEvent, DeletionRecord, ShareLink
from staff.retention import delete_submission
from staff.summary import age, recommended_cluster, recommended_cost, staff_questions, summarise

admin.site.site_header = "Training sizing — staff"
admin.site.site_title = "Training sizing staff"
admin.site.index_title = "Submissions and proposals"
# The submission list has many columns; the index page already lists every model.
admin.site.enable_nav_sidebar = False


class WorkflowStatusFilter(admin.ChoicesFieldListFilter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.title = "workflow status"


CUSTOMER_FIELDS = ["reference", "company", "contact_name", "contact_email", "contact_role"]


@admin.register(Submission)
class SubmissionAdmin(SubmissionViews, admin.ModelAdmin):
    form = SubmissionWorkflowForm
    change_form_template = "admin/questionnaire/submission/change_form.html"
    list_display = [
        "reference",
        "company",
        "model_size",
        "recommended",
        "cost",
        "status_shown",
        "assignee_name",
        "age_shown",
    ]
    list_filter = [
        AssignedToMeFilter,
        WaitingForMyReviewFilter,
        NeedsAHandFilter,
        ("status", WorkflowStatusFilter),
        AssigneeFilter,
        "pipeline_status",
        MethodFilter,
        ArchitectureFilter,
        SizeBandFilter,
        DeploymentFilter,
        ("submitted_at", admin.DateFieldListFilter),
    ]
    search_fields = ["reference", "company", "contact_name", "contact_email"]
    search_help_text = "Company, reference, contact, model (Llama) or accelerator (H100)."
    list_select_related = ["assignee", "facts"]
    list_per_page = 50
    date_hierarchy = "submitted_at"
    fieldsets = [
        ("Customer", {"fields": [*CUSTOMER_FIELDS, "country", "privacy_consent_at"]}),
        ("Workflow", {"fields": ["status", "assignee", "closed_at"]}),
        ("Pipeline", {"fields": ["pipeline_status", "pipeline_error", "pipeline_updated_at"]}),
        (
            "Record",
            {
                "fields": ["public_id", "schema_version", "submitted_at", "updated_at"],
                "classes": ["collapse"],
            },
        ),
    ]
    readonly_fields = [
        "status",
        *CUSTOMER_FIELDS,
        "country",
        "privacy_consent_at",
        "closed_at",
        "pipeline_status",
        "pipeline_error",
        "pipeline_updated_at",
        "public_id",
        "schema_version",
        "submitted_at",
        "updated_at",
    ]
    inlines = [RecommendationInline, ProposalInline, NoteInline, AuditEventInline]
    actions = [
        "rerun_sizing",
        "regenerate_proposal",
        "retry_failed",
        "export_as_csv",
        "delete_selected",
    ]

    class Media:
        css = {"all": ["staff/staff.css"]}

    # --- permissions ------------------------------------------------------------------------

    def has_add_permission(self, request) -> bool:
        return False  # only customers create submissions, through the questionnaire

    def has_rerun_permission(self, request) -> bool:
        return request.user.has_perm("staff.rerun_sizing")

    def has_regenerate_permission(self, request) -> bool:
        return request.user.has_perm("staff.regenerate_proposal")

    def has_retry_permission(self, request) -> bool:
        return request.user.has_perm("staff.retry_pipeline")

    def has_export_permission(self, request) -> bool:
        return request.user.has_perm("staff.export_submissions")

    # --- list -------------------------------------------------------------------------------

    def get_queryset(self, request):
        versions = Recommendation.objects.order_by("-version")
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("recommendations", versions, to_attr="versions"))
        )

    def get_search_results(self, request, queryset, search_term):
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lower()
        if term:
            by_model = queryset.filter(facts__model_name__icontains=term).values("pk")
            done = Recommendation.objects.filter(status=Recommendation.Status.DONE)
            by_accelerator = done.filter(
                Q(result__cluster__accelerator_name__icontains=term)
                | Q(result__cluster__accelerator__icontains=term)
            ).values("submission_id")
            found = found | queryset.filter(Q(pk__in=by_model) | Q(pk__in=by_accelerator))
        return found, may_have_duplicates

    def _facts(self, obj: Submission):
        if not hasattr(obj, "_staff_facts"):
            obj._staff_facts = stored_facts(obj)
        return obj._staff_facts

    @admin.display(description="Model")
    def model_size(self, obj: Submission) -> str:
        return model_and_size(self._facts(obj)) or "not sure"

    def _shown_version(self, obj: Submission) -> Recommendation | None:
        """The approved version, else the newest finished one (marked unreviewed)."""
        versions = getattr(obj, "versions", None)
        if versions is None:
            versions = list(obj.recommendations.order_by("-version"))
        done = [r for r in versions if r.status == Recommendation.Status.DONE]
        approved = sorted((r for r in done if r.is_approved), key=lambda r: r.approved_at)
        return approved[-1] if approved else (done[0] if done else None)

    @admin.display(description="Recommended")
    def recommended(self, obj: Submission) -> str:
        shown = self._shown_version(obj)
        if shown is None:
            return "—"
        state = "approved" if shown.is_approved else "not reviewed"
        return format_html(
            "{}<br><small>v{} {}</small>", recommended_cluster(shown), shown.version, state
        )

    @admin.display(description="Cost")
    def cost(self, obj: Submission) -> str:
        return recommended_cost(self._shown_version(obj), short=True) or "—"

    @admin.display(description="Status", ordering="status")
    def status_shown(self, obj: Submission) -> str:
        if obj.pipeline_status == Submission.PipelineStatus.READY:
            return obj.get_status_display()
        if obj.pipeline_status == Submission.PipelineStatus.FAILED:
            reason = " ".join(obj.pipeline_error.split()) or "no error recorded"
            return format_html(
                '{}<br><small class="needs-a-hand">Needs a hand: {}</small>',
                obj.get_status_display(),
                Truncator(reason).chars(160),
            )
        return format_html(
            "{}<br><small>{}</small>", obj.get_status_display(), obj.get_pipeline_status_display()
        )

    @admin.display(description="Assignee", ordering="assignee__last_name")
    def assignee_name(self, obj: Submission) -> str:
        return workflow.full_name(obj.assignee) if obj.assignee else "—"

    @admin.display(description="Age", ordering="submitted_at")
    def age_shown(self, obj: Submission) -> str:
        return age(obj)

    # --- change form ------------------------------------------------------------------------

    def save_model(self, request, obj, form, change) -> None:
        # Only the assignee is editable; it goes through the audited workflow.
        if "assignee" in form.changed_data:
            workflow.assign(
                submission=obj, assignee=form.cleaned_data["assignee"], user=request.user
            )

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context.update(self._staff_context(request, obj))
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _staff_context(self, request, obj: Submission) -> dict:
        user = request.user
        approved = latest_approved(obj)
        newest_done = (
            Recommendation.objects.filter(submission=obj, status=Recommendation.Status.DONE)
            .filter(proposal__status=Proposal.Status.DONE)
            .order_by("-version")
            .first()
        )
        approvable = (
            newest_done
            if newest_done is not None
            and (approved is None or approved.pk != newest_done.pk)
            and obj.status not in workflow.FINISHED
            and user.has_perm(workflow.APPROVE_PERMISSION)
            else None
        )
        sendable = (
            approved
            if approved is not None
            and obj.status not in workflow.FINISHED
            and user.has_perm(workflow.SEND_PERMISSION)
            else None
        )
        links = ShareLink.objects.filter(proposal__submission=obj).select_related(
            "proposal", "created_by"
        )
        return {
            "summary": summarise(obj),
            "answered_questions": staff_questions(obj.answers or {}),
            "note_form": NoteForm() if user.has_perm("staff.add_note") else None,
            "can_rerun": self.has_rerun_permission(request),
            "can_regenerate": self.has_regenerate_permission(request),
            "can_retry": self.has_retry_permission(request),
            "approvable": approvable,
            "sendable": sendable,
            "send_form": SendForm() if sendable else None,
            "outcome_steps": workflow.outcome_steps(obj, user),
            "can_revoke": user.has_perm("staff.share_proposal"),
            "share_links": [
                (link, link.is_active(), workflow.full_name(link.created_by)) for link in links
            ],
            "emails": OutgoingEmail.objects.filter(submission=obj).order_by("-created_at")[:20],
            "can_retry_email": user.has_perm(EMAIL_RETRY_PERMISSION),
            "pipeline_failed": obj.pipeline_status == Submission.PipelineStatus.FAILED,
            "share_link_days": settings.SHARE_LINK_DAYS,
            "estimate_actual": estimate_actual_figure(
                ActualRun.objects.filter(submission=obj).select_related(
                    "submission", "recommendation"
                ),
                title=f"{obj.reference}: actual against estimated accelerator-hours",
            ),
            "measurements": HardwareMeasurement.objects.filter(submission=obj)[:5],
        }

    def get_deleted_objects(self, objs, request):
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        # Versions, notes, audit rows and links cannot be deleted one by one (they are a record)
        # but go with their submission: deleting the submission is the permission that counts.
        return deleted, counts, set(), protected

    def delete_model(self, request, obj) -> None:
        delete_submission(submission=obj, user=request.user, reason=DeletionRecord.Reason.STAFF)

    def delete_queryset(self, request, queryset) -> None:
        for submission in queryset:
            self.delete_model(request, submission)

    # --- actions on selected submissions -------------------------------------------------------

    def _run(self, request, operation: str, submissions) -> None:
        done, skipped, refused = [], [], []
        for submission in submissions:
            try:
                if operation == "rerun":
                    outcome = pipeline_actions.rerun(submission=submission, user=request.user)
                elif operation == "regenerate":
                    outcome = pipeline_actions.regenerate_proposal(
                        submission=submission, user=request.user
                    )
                else:
                    outcome = pipeline_actions.retry_failed(
                        submission=submission, user=request.user
                    )
            except pipeline_actions.InvalidOverrides as exc:
                refused.append(f"{submission.reference} ({exc})")
                continue
            (done if outcome else skipped).append(submission.reference)
        verbs = {"rerun": "Re-running sizing", "regenerate": "Regenerating", "retry": "Retrying"}
        if done:
            self.message_user(request, f"{verbs[operation]}: {', '.join(done)}.", messages.SUCCESS)
        if skipped:
            self.message_user(
                request, f"Nothing to do for: {', '.join(skipped)}.", messages.WARNING
            )
        if refused:
            self.message_user(request, f"Refused: {'; '.join(refused)}.", messages.ERROR)

    @admin.action(description="Re-run sizing (new version, same overrides)", permissions=["rerun"])
    def rerun_sizing(self, request, queryset):
        self._run(request, "rerun", queryset)

    @admin.action(description="Regenerate proposal", permissions=["regenerate"])
    def regenerate_proposal(self, request, queryset):
        self._run(request, "regenerate", queryset)

    @admin.action(description="Retry failed sizing or proposal", permissions=["retry"])
    def retry_failed(self, request, queryset):
        self._run(request, "retry", queryset)

    @admin.action(description="Export selected as CSV", permissions=["export"])
    def export_as_csv(self, request, queryset):
        submissions = list(queryset.select_related("assignee").order_by("submitted_at"))
        for submission in submissions:
            workflow.record(
                submission=submission, actor=request.user, action=AuditEvent.Action.EXPORTED
            )
        stamp = timezone.now().strftime("%Y%m%d-%H%M")
        response = HttpResponse(export_csv(submissions), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="submissions-{stamp}.csv"'
        response["Cache-Control"] = "no-store, private"
        return response
