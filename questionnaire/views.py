"""Pages around the wizard: start, save and resume, confirmation and the glossary."""

from __future__ import annotations

import math

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.ratelimit import RateDecision, RateLimit, hit, too_many_requests
from questionnaire import access
from questionnaire.glossary import GLOSSARY
from questionnaire.layouts import LaidOut
from questionnaire.models import Draft, Submission
from questionnaire.paths import SHORT_PATH_COUNT
from questionnaire.questions import QUESTIONS
from questionnaire.services import (
    email_resume_link,
    find_draft_by_token,
    issue_resume_token,
    spend_resume_token,
    start_draft,
)
from questionnaire.wizard import RESUMED_FLAG, WELCOME


def home(request: HttpRequest) -> HttpResponse:
    ids = access.draft_ids(request)
    candidates = (
        Draft.objects.filter(pk__in=ids, submission__isnull=True).order_by("-updated_at")
        if ids
        else Draft.objects.none()
    )
    unfinished = access.open_drafts(request, candidates)
    return render(
        request,
        "questionnaire/home.html",
        {
            "unfinished": unfinished[:3],
            "question_count": len(QUESTIONS),
            "short_path_count": SHORT_PATH_COUNT,
        },
    )


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Start a new questionnaire. POST only, so a crawler or a prefetch never creates one.

    Limited per client address and hour: each draft is a row kept for DRAFT_RETENTION_DAYS.
    """
    decision = hit(RateLimit("start", settings.DRAFTS_PER_HOUR, window_seconds=3600), request)
    if not decision.allowed:
        return too_many_requests(
            request,
            decision,
            context={"what": "new questionnaires", "continue_url": reverse("questionnaire:home")},
        )
    draft = start_draft()
    response = redirect("questionnaire:step", draft_id=draft.pk, step=WELCOME)
    access.grant(request, response, draft)
    return response


class ResumeLinkForm(LaidOut, forms.Form):
    email = forms.EmailField(
        label="Email address (optional)",
        help_text="We will send the link here. You can also copy it from this page.",
        required=False,
    )


def _draft_for(request: HttpRequest, draft_id) -> Draft | HttpResponse:
    draft = get_object_or_404(Draft, pk=draft_id)
    if not access.may_open(request, draft):
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
    link = emailed_to = ""
    refused = None
    if request.method == "POST" and form.is_valid():
        token = issue_resume_token(draft=draft)
        link = resume_link(token)
        email = form.cleaned_data["email"]
        if email:
            refused = _resume_email_refused(request, draft)
            if refused is None and email_resume_link(draft=draft, email=email, link=link):
                emailed_to = email
    response = render(
        request,
        "questionnaire/save.html",
        {
            "form": form,
            "link": link,
            "emailed_to": emailed_to,
            "email_refused_minutes": refused and math.ceil(refused.retry_after_seconds / 60),
            "continue_url": continue_url,
            "days": settings.RESUME_LINK_DAYS,
        },
        status=429 if refused else 200,
    )
    if refused:
        response["Retry-After"] = str(refused.retry_after_seconds)
    if link:
        # The new link revoked every browser that used an older one; this one keeps access.
        access.grant(request, response, draft)
    return response


def resume_link(token: str) -> str:
    """The emailed link. The token sits after ``#``: browsers never send that part, so it never
    reaches an access log; the resume page posts it once in exchange for access."""
    return f"{settings.SITE_URL}{reverse('questionnaire:resume')}#{token}"


def _resume_email_refused(request: HttpRequest, draft: Draft) -> RateDecision | None:
    """Resume emails are limited per questionnaire and per client address (both counted)."""
    decisions = [
        hit(
            RateLimit("resume-email-draft", settings.RESUME_EMAILS_PER_DRAFT_PER_HOUR, 3600),
            request,
            subject=str(draft.pk),
        ),
        hit(RateLimit("resume-email", settings.RESUME_EMAILS_PER_HOUR, 3600), request),
    ]
    refused = [d for d in decisions if not d.allowed]
    return max(refused, key=lambda d: d.retry_after_seconds) if refused else None


class ResumeForm(LaidOut, forms.Form):
    token = forms.CharField(
        label="Your private code",
        help_text="The part of your link after the # sign.",
        max_length=200,
        strip=True,
    )


@never_cache
@require_http_methods(["GET", "POST"])
def resume(request: HttpRequest) -> HttpResponse:
    """Open a questionnaire from a private link: the page reads the token after ``#`` and posts
    it (without JavaScript, the customer pastes it), so no token is ever in a URL."""
    form = ResumeForm(request.POST or None)
    if not form.is_valid():
        return render(request, "questionnaire/resume.html", {"form": form})
    return _open_with_token(request, form.cleaned_data["token"])


@never_cache
@require_http_methods(["GET"])
def resume_legacy_link(request: HttpRequest, token: str) -> HttpResponse:
    """A link emailed before links put the token after ``#`` opens its questionnaire once
    (nothing is lost): the token, now in an access log, is spent as it is used, and the
    browser that used it keeps access; a new link can be asked for from the questionnaire."""
    return _open_with_token(request, token, spend=True)


def _open_with_token(request: HttpRequest, token: str, *, spend: bool = False) -> HttpResponse:
    draft, expired = find_draft_by_token(token)
    if draft is None:
        return render(request, "questionnaire/resume_unknown.html", status=404)
    if expired:
        return render(request, "questionnaire/resume_expired.html", status=410)
    if spend:  # before the grant, so this browser holds the generation that follows
        spend_resume_token(draft=draft)
    if draft.is_submitted:
        response = redirect("questionnaire:confirmation", draft_id=draft.pk)
    else:
        request.session[RESUMED_FLAG.format(draft.pk)] = True
        response = redirect(
            "questionnaire:step", draft_id=draft.pk, step=draft.current_step or WELCOME
        )
    access.grant(request, response, draft)
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
