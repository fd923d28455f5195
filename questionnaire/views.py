"""Pages around the wizard: start, save and resume, confirmation and the glossary."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from questionnaire import access
from questionnaire.glossary import GLOSSARY
from questionnaire.models import Draft, Submission
from questionnaire.questions import QUESTIONS
from questionnaire.services import (
    email_resume_link,
    find_draft_by_token,
    issue_resume_token,
    start_draft,
)
from questionnaire.wizard import RESUMED_FLAG, WELCOME


def home(request: HttpRequest) -> HttpResponse:
    ids = access.draft_ids(request)
    unfinished = (
        Draft.objects.filter(pk__in=ids, submission__isnull=True).order_by("-updated_at")
        if ids
        else Draft.objects.none()
    )
    return render(
        request,
        "questionnaire/home.html",
        {"unfinished": list(unfinished[:3]), "question_count": len(QUESTIONS)},
    )


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Start a new questionnaire. POST only, so a crawler or a prefetch never creates one."""
    draft = start_draft()
    response = redirect("questionnaire:step", draft_id=draft.pk, step=WELCOME)
    access.grant(request, response, draft.pk)
    return response


class ResumeLinkForm(forms.Form):
    email = forms.EmailField(
        label="Email address (optional)",
        help_text="We will send the link here. You can also copy it from this page.",
        required=False,
    )


def _draft_for(request: HttpRequest, draft_id) -> Draft | HttpResponse:
    draft = get_object_or_404(Draft, pk=draft_id)
    if not access.may_open(request, draft.pk):
        return render(request, "questionnaire/not_open_here.html", status=403)
    return draft


@never_cache
@require_http_methods(["GET", "POST"])
def save_for_later(request: HttpRequest, draft_id) -> HttpResponse:
    draft = _draft_for(request, draft_id)
    if isinstance(draft, HttpResponse):
        return draft
    continue_url = reverse(
        "questionnaire:step", kwargs={"draft_id": draft.pk, "step": draft.current_step or WELCOME}
    )
    contact = draft.step_data.get("contact", {})
    known_email = draft.email or (contact.get("contact-email") or [""])[0]
    form = ResumeLinkForm(request.POST or None, initial={"email": known_email})
    link = ""
    if request.method == "POST" and form.is_valid():
        token = issue_resume_token(draft=draft)
        link = settings.SITE_URL + reverse("questionnaire:resume", kwargs={"token": token})
        if form.cleaned_data["email"]:
            email_resume_link(draft=draft, email=form.cleaned_data["email"], link=link)
    return render(
        request,
        "questionnaire/save.html",
        {
            "form": form,
            "link": link,
            "emailed_to": form.cleaned_data.get("email") if link else "",
            "continue_url": continue_url,
            "days": settings.RESUME_LINK_DAYS,
        },
    )


@never_cache
def resume(request: HttpRequest, token: str) -> HttpResponse:
    draft, expired = find_draft_by_token(token)
    if draft is None:
        return render(request, "questionnaire/resume_unknown.html", status=404)
    if expired:
        return render(request, "questionnaire/resume_expired.html", status=410)
    if draft.is_submitted:
        response = redirect("questionnaire:confirmation", draft_id=draft.pk)
    else:
        request.session[RESUMED_FLAG.format(draft.pk)] = True
        response = redirect(
            "questionnaire:step", draft_id=draft.pk, step=draft.current_step or WELCOME
        )
    access.grant(request, response, draft.pk)
    return response


@never_cache
def confirmation(request: HttpRequest, draft_id) -> HttpResponse:
    draft = _draft_for(request, draft_id)
    if isinstance(draft, HttpResponse):
        return draft
    submission = Submission.objects.filter(draft=draft).first()
    if submission is None:
        return redirect("questionnaire:step", draft_id=draft.pk, step=draft.current_step or WELCOME)
    return render(request, "questionnaire/confirmation.html", {"submission": submission})


def glossary(request: HttpRequest) -> HttpResponse:
    terms = sorted(GLOSSARY.values(), key=lambda term: term.name.lower())
    return render(request, "questionnaire/glossary.html", {"terms": terms})
