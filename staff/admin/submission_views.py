"""The staff views on one submission: each workflow step is a POST with its own permission.

Approve (engineers), send (account managers and engineers), record the outcome (account
managers), revoke a link, retry a failed email; the engineer's override form, notes and pipeline
operations. Every view is wrapped in ``admin_view`` (staff login, CSRF) and refuses GET where it
changes state; every change goes through ``staff.workflow``, ``staff.sending`` or
``staff.pipeline_actions``, which audit it.
"""

from functools import update_wrapper

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from pipeline.models import OutgoingEmail, Recommendation
from pipeline.outbox import retry_email
from questionnaire.models import Submission
from staff import pipeline_actions, sending, sharing, workflow
from staff.approval_preview import approval_preview
from staff.forms import NoteForm, OverrideForm, SendForm
from staff.models import AuditEvent, ShareLink

EMAIL_RETRY_PERMISSION = "staff.send_proposal"


class SubmissionViews:
    """Mixed into the submission admin: its extra URLs and their views."""

    def get_urls(self):
        def wrap(view, post_only=True):
            # admin_view: staff login and CSRF; require_POST: no state change on GET (405).
            checked = require_POST(view) if post_only else view

            def wrapper(*args, **kwargs):
                return self.admin_site.admin_view(checked)(*args, **kwargs)

            return update_wrapper(wrapper, view)

        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        views = [
            ("override/", self.override_view, "override", False),
            ("note/", self.note_view, "note", True),
            ("pipeline/<str:operation>/", self.pipeline_view, "pipeline", True),
            # GET: what the customer will see, and a confirm button; POST confirmed: approve
            ("approve/<int:version>/", self.approve_view, "approve", False),
            ("send/<int:version>/", self.send_view, "send", True),
            ("outcome/<str:outcome>/", self.outcome_view, "outcome", True),
            ("share-links/<int:link_id>/revoke/", self.revoke_view, "revoke", True),
            ("emails/<int:email_id>/retry/", self.retry_email_view, "retry_email", True),
        ]
        return [
            *[
                path(f"<path:object_id>/{route}", wrap(view, post_only), name=f"{prefix}_{name}")
                for route, view, name, post_only in views
            ],
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

    def _refused(self, request, exc: ValidationError) -> None:
        self.message_user(request, " ".join(exc.messages), messages.ERROR)

    # --- the workflow's steps --------------------------------------------------------------------

    def approve_view(self, request, object_id: str, version: int):
        """Approving changes what the customer sees at once, so it takes two steps: the page
        saying what they will see (and who is emailed), then a confirmed POST."""
        if not request.user.has_perm(workflow.APPROVE_PERMISSION):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        recommendation = get_object_or_404(Recommendation, submission=obj, version=version)
        if request.method == "POST" and request.POST.get("confirmed") == "yes":
            return self._approve(request, obj, recommendation)
        if request.method not in ("GET", "HEAD", "POST"):
            return HttpResponseNotAllowed(["GET", "POST"])
        context = {
            **self.admin_site.each_context(request),
            "title": f"Approve version {version} of {obj.reference}?",
            "opts": self.opts,
            "original": obj,
            "preview": approval_preview(
                submission=obj, recommendation=recommendation, user=request.user
            ),
        }
        return TemplateResponse(request, "admin/questionnaire/submission/approve.html", context)

    def _approve(self, request, obj: Submission, recommendation: Recommendation):
        version = recommendation.version
        try:
            workflow.approve_version(
                submission=obj, recommendation=recommendation, user=request.user
            )
        except ValidationError as exc:
            self._refused(request, exc)
        else:
            self.message_user(
                request,
                f"Version {version} approved: the customer's page shows it now, and it can be "
                "sent.",
                messages.SUCCESS,
            )
        return self._back(obj)

    def send_view(self, request, object_id: str, version: int):
        if not request.user.has_perm(workflow.SEND_PERMISSION):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        recommendation = get_object_or_404(Recommendation, submission=obj, version=version)
        form = SendForm(request.POST)
        if not form.is_valid():
            self.message_user(request, "The note is too long.", messages.ERROR)
            return self._back(obj)
        try:
            link = sending.send_proposal(
                submission=obj,
                recommendation=recommendation,
                user=request.user,
                note=form.cleaned_data["note"],
            )
        except ValidationError as exc:
            self._refused(request, exc)
        else:
            self.message_user(
                request,
                f"Version {version} is being emailed to {link.sent_to}; its link works until "
                f"{timezone.localtime(link.expires_at):%d %b %Y %H:%M} unless revoked.",
                messages.SUCCESS,
            )
        return self._back(obj)

    def outcome_view(self, request, object_id: str, outcome: str):
        if outcome not in workflow.OUTCOMES:
            raise Http404
        if not request.user.has_perm(workflow.OUTCOME_PERMISSION):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        try:
            workflow.record_outcome(submission=obj, outcome=outcome, user=request.user)
        except ValidationError as exc:
            self._refused(request, exc)
        else:
            self.message_user(request, f"Now “{obj.get_status_display()}”.", messages.SUCCESS)
        return self._back(obj)

    def revoke_view(self, request, object_id: str, link_id: int):
        if not request.user.has_perm("staff.share_proposal"):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        link = get_object_or_404(ShareLink, pk=link_id, proposal__submission=obj)
        if sharing.revoke_share_link(link=link, user=request.user):
            self.message_user(request, "Link revoked: it stops working now.", messages.SUCCESS)
        return self._back(obj)

    def retry_email_view(self, request, object_id: str, email_id: int):
        if not request.user.has_perm(EMAIL_RETRY_PERMISSION):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        email = get_object_or_404(OutgoingEmail, pk=email_id, submission=obj)
        if retry_email(email=email):
            workflow.record(
                submission=obj,
                actor=request.user,
                action=AuditEvent.Action.RETRY,
                new=f"email: {email.get_kind_display()}",
            )
            self.message_user(request, "Sending the email again.", messages.SUCCESS)
        else:
            self.message_user(request, "That email has not failed.", messages.WARNING)
        return self._back(obj)

    # --- engineers' tools ------------------------------------------------------------------------

    def override_view(self, request, object_id: str):
        if not self.has_rerun_permission(request):
            raise PermissionDenied
        obj = self._submission(request, object_id)
        latest = pipeline_actions.latest_recommendation(obj)
        kwargs = {
            "current_input": (latest.engine_input if latest else None) or {},
            "current_overrides": (latest.overrides if latest else None) or {},
            "current_result": (latest.result if latest else None) or {},
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
                    f"Sizing again as version {recommendation.version}; its proposal follows. "
                    "It stays internal until an engineer approves it.",
                    messages.SUCCESS,
                )
                return self._back(obj)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Adjust and re-run: {obj.reference}",
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
                self._refused(request, exc)
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
