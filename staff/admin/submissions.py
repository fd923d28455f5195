"""The staff workflow on submissions: review, assign, annotate, override, re-run, export.

Thin: every change goes through ``staff.workflow`` or ``staff.pipeline_actions`` (which audit
it), every read of the answers through ``staff.answers``/``staff.summary``. Submissions are
created only by the questionnaire, and deleted only with their files (``staff.retention``).
"""

from functools import update_wrapper

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from pipeline.models import Proposal, Recommendation
from questionnaire.models import Submission
from questionnaire.questions import answered_questions
from staff import pipeline_actions, sharing, workflow
from staff.admin.proposals import ProposalInline
from staff.admin.recommendations import RecommendationInline
from staff.admin.records import AuditEventInline, NoteInline
from staff.export import export_csv
from staff.filters import (
    ARCHITECTURES,
    DEPLOYMENTS,
    METHODS,
    ArchitectureFilter,
    DeploymentFilter,
    MethodFilter,
    SizeBandFilter,
    facts,
    label,
)
from staff.forms import NoteForm, OverrideForm, SubmissionWorkflowForm
from staff.models import AuditEvent, DeletionRecord, ShareLink
from staff.retention import delete_submission
from staff.summary import model_and_size, recommended_cluster

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
class SubmissionAdmin(admin.ModelAdmin):
    form = SubmissionWorkflowForm
    change_form_template = "admin/questionnaire/submission/change_form.html"
    list_display = [
        "reference",
        "company",
        "contact",
        "model_size",
        "method",
        "deployment",
        "recommended",
        "pipeline",
        "workflow",
        "assignee",
        "submitted",
    ]
    list_filter = [
        ("status", WorkflowStatusFilter),
        "pipeline_status",
        MethodFilter,
        ArchitectureFilter,
        SizeBandFilter,
        DeploymentFilter,
        ("assignee", admin.RelatedOnlyFieldListFilter),
        ("submitted_at", admin.DateFieldListFilter),
    ]
    search_fields = ["reference", "company", "contact_name", "contact_email"]
    search_help_text = "Reference, company, contact name or email, or model name."
    list_select_related = ["assignee"]
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
            by_model = [
                s.pk
                for s in queryset.select_related(None).prefetch_related(None).only("pk", "answers")
                if term in (facts(s).model_name or "").lower()
            ]
            found = found | queryset.filter(pk__in=by_model)
        return found, may_have_duplicates

    def _facts(self, obj: Submission):
        if not hasattr(obj, "_staff_facts"):
            obj._staff_facts = facts(obj)
        return obj._staff_facts

    @admin.display(description="Contact")
    def contact(self, obj: Submission) -> str:
        return format_html("{}<br><small>{}</small>", obj.contact_name, obj.contact_email)

    @admin.display(description="Model and size")
    def model_size(self, obj: Submission) -> str:
        return model_and_size(self._facts(obj)) or "not sure"

    @admin.display(description="Method")
    def method(self, obj: Submission) -> str:
        return label(METHODS, self._facts(obj).method) or "not sure"

    @admin.display(description="Deployment")
    def deployment(self, obj: Submission) -> str:
        return label(DEPLOYMENTS, self._facts(obj).deployment) or "not sure"

    @admin.display(description="Recommended")
    def recommended(self, obj: Submission) -> str:
        versions = getattr(obj, "versions", None)
        if versions is None:
            versions = list(obj.recommendations.order_by("-version"))
        done = [r for r in versions if r.status == Recommendation.Status.DONE]
        return recommended_cluster(done[0], short=True) if done else "—"

    @admin.display(description="Pipeline", ordering="pipeline_status")
    def pipeline(self, obj: Submission) -> str:
        return obj.get_pipeline_status_display()

    @admin.display(description="Workflow", ordering="status")
    def workflow(self, obj: Submission) -> str:
        return obj.get_status_display()

    @admin.display(description="Submitted", ordering="submitted_at")
    def submitted(self, obj: Submission) -> str:
        return f"{timezone.localtime(obj.submitted_at):%d %b %Y}"

    # --- change form ------------------------------------------------------------------------

    def save_model(self, request, obj, form, change) -> None:
        # Only status and assignee are editable; both go through the audited workflow.
        if "status" in form.changed_data:
            workflow.change_status(
                submission=obj, status=form.cleaned_data["status"], user=request.user
            )
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
        f = self._facts(obj)
        proposals = Proposal.objects.filter(submission=obj, status=Proposal.Status.DONE)
        links = ShareLink.objects.filter(proposal__submission=obj).select_related(
            "proposal", "created_by"
        )
        return {
            "answered_questions": answered_questions(obj.answers),
            "facts_line": " · ".join(
                p
                for p in (
                    model_and_size(f),
                    label(ARCHITECTURES, f.architecture),
                    label(METHODS, f.method),
                    label(DEPLOYMENTS, f.deployment),
                )
                if p
            ),
            "note_form": NoteForm() if user.has_perm("staff.add_note") else None,
            "can_rerun": self.has_rerun_permission(request),
            "can_regenerate": self.has_regenerate_permission(request),
            "can_retry": self.has_retry_permission(request),
            "can_share": user.has_perm("staff.share_proposal"),
            "shareable": proposals.order_by("-version")[:1],
            "share_links": [(link, link.is_active()) for link in links],
            "new_share_url": request.session.pop("staff_new_share_url", None),
            "pipeline_failed": obj.pipeline_status == Submission.PipelineStatus.FAILED,
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

    # --- staff views on one submission --------------------------------------------------------

    def get_urls(self):
        def wrap(view, post_only=True):
            # admin_view: staff login and CSRF; require_POST: no state change on GET (405).
            checked = require_POST(view) if post_only else view

            def wrapper(*args, **kwargs):
                return self.admin_site.admin_view(checked)(*args, **kwargs)

            return update_wrapper(wrapper, view)

        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<path:object_id>/override/",
                wrap(self.override_view, post_only=False),
                name=f"{prefix}_override",
            ),
            path("<path:object_id>/note/", wrap(self.note_view), name=f"{prefix}_note"),
            path(
                "<path:object_id>/pipeline/<str:operation>/",
                wrap(self.pipeline_view),
                name=f"{prefix}_pipeline",
            ),
            path(
                "<path:object_id>/share/<int:version>/",
                wrap(self.share_view),
                name=f"{prefix}_share",
            ),
            path(
                "<path:object_id>/share-links/<int:link_id>/revoke/",
                wrap(self.revoke_view),
                name=f"{prefix}_revoke",
            ),
            *super().get_urls(),
        ]

    def _submission(self, request, object_id: str) -> Submission:
        """The submission if the user may see it; 404 otherwise (no existence oracle)."""
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_permission(request, obj):
            raise Http404("No such submission.")
        return obj

    def _back(self, obj: Submission) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:questionnaire_submission_change", args=[obj.pk]))

    def override_view(self, request, object_id: str):
        if not self.has_rerun_permission(request):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        latest = pipeline_actions.latest_recommendation(obj)
        kwargs = {
            "current_input": (latest.engine_input if latest else None) or {},
            "current_overrides": (latest.overrides if latest else None) or {},
        }
        form = OverrideForm(request.POST or None, **kwargs)
        if request.method == "POST" and form.is_valid():
            try:
                recommendation = pipeline_actions.rerun_with_overrides(
                    submission=obj,
                    overrides=form.overrides(),
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except pipeline_actions.InvalidOverrides as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(
                    request,
                    f"Sizing again as version {recommendation.version}; "
                    "its proposal follows. Earlier versions are kept.",
                    messages.SUCCESS,
                )
                return self._back(obj)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Override assumptions and re-run: {obj.reference}",
            "opts": self.opts,
            "original": obj,
            "form": form,
            "latest": latest,
        }
        return TemplateResponse(request, "admin/questionnaire/submission/override.html", context)

    def note_view(self, request, object_id: str):
        if not request.user.has_perm("staff.add_note"):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        form = NoteForm(request.POST)
        if form.is_valid():
            try:
                workflow.add_note(submission=obj, text=form.cleaned_data["text"], user=request.user)
            except ValidationError as exc:
                self.message_user(request, " ".join(exc.messages), messages.ERROR)
            else:
                self.message_user(request, "Note added.", messages.SUCCESS)
        else:
            self.message_user(request, "The note was empty or too long.", messages.ERROR)
        return self._back(obj)

    def pipeline_view(self, request, object_id: str, operation: str):
        checks = {
            "rerun": self.has_rerun_permission,
            "regenerate": self.has_regenerate_permission,
            "retry": self.has_retry_permission,
        }
        if operation not in checks:
            raise Http404
        if not checks[operation](request):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        self._run(request, operation, [obj])
        return self._back(obj)

    def share_view(self, request, object_id: str, version: int):
        if not request.user.has_perm("staff.share_proposal"):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        proposal = get_object_or_404(
            Proposal, submission=obj, version=version, status=Proposal.Status.DONE
        )
        link = sharing.create_share_link(proposal=proposal, user=request.user)
        # Shown once on the next page; only a signature over the token is ever displayed.
        request.session["staff_new_share_url"] = sharing.share_url(link)
        self.message_user(
            request,
            f"Share link created for proposal v{version}; it works until "
            f"{timezone.localtime(link.expires_at):%Y-%m-%d %H:%M} unless revoked.",
            messages.SUCCESS,
        )
        return self._back(obj)

    def revoke_view(self, request, object_id: str, link_id: int):
        if not request.user.has_perm("staff.share_proposal"):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        link = get_object_or_404(ShareLink, pk=link_id, proposal__submission=obj)
        if sharing.revoke_share_link(link=link, user=request.user):
            self.message_user(request, "Share link revoked.", messages.SUCCESS)
        return self._back(obj)

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
