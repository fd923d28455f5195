"""The two pages of filling from a file: upload, then check and confirm.

The upload is read in memory and forgotten; only what was found (a few short values and the
names of unused settings) waits in the session until the customer confirms or cancels. Nothing
reaches the draft before "Use these answers".
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from config.ratelimit import RateLimit, hit, too_many_requests
from questionnaire import access
from questionnaire.layouts import LaidOut
from questionnaire.models import Draft
from questionnaire.prefill.changes import prefill_changes
from questionnaire.prefill.formats import FORMAT_NAMES, read_answers
from questionnaire.prefill.found import Found, FoundValue
from questionnaire.prefill.marks import FILE, WORDS
from questionnaire.prefill.reading import MAX_FILE_BYTES, UnreadableFile
from questionnaire.prefill.services import fill_confirmed_answers
from questionnaire.prefill.uploads import InMemoryCappedUpload
from questionnaire.prefill.words import WORDS_PENDING_KEY
from questionnaire.wizard import ALREADY_SUBMITTED_MESSAGE, QUESTION_SLUGS
from sizing.public import (
    count_of,
)

# Reading a YAML file of the largest accepted size takes a noticeable share of a second of CPU;
# an hour's worth for one client address is far more than a customer ever uploads.
FILE_READS_PER_HOUR = 30
# The unused settings listed on the page; a longer list is cut with a count of the rest.
IGNORED_SHOWN = 40
# A setting's name is a few words; a hostile file's may be a whole kilobyte.
NAME_SHOWN = 100
PENDING_KEY = "fill_from_file_{}"
DEFAULT_RETURN = "model"
CANCELLED_MESSAGE = "Nothing was changed: your answers are as they were."
NOTHING_FOUND = (
    "We recognised the file as {format}, but found nothing in it that answers our questions."
)


class FileUploadForm(LaidOut, forms.Form):
    file = forms.FileField(
        label="Your file",
        help_text=f"A .json, .yaml or text file of at most {MAX_FILE_BYTES // 1024} KB.",
        allow_empty_file=True,  # the reader says "The file is empty" in its own words
        error_messages={"required": "Choose a file to read."},
    )


def _open_draft(request: HttpRequest, draft_id: UUID) -> Draft | HttpResponse:
    """The draft, if this browser may open it (the wizard's own check)."""
    draft = get_object_or_404(Draft, pk=draft_id)
    if not access.may_open(request, draft):
        return render(request, "questionnaire/not_open_here.html", status=403)
    if draft.is_submitted:
        messages.info(request, ALREADY_SUBMITTED_MESSAGE)
        return redirect("questionnaire:confirmation", draft_id=draft.pk)
    return draft


def _return_step(request: HttpRequest) -> str:
    step = request.GET.get("from") or request.POST.get("from") or ""
    return step if step in QUESTION_SLUGS else DEFAULT_RETURN


def _step_url(draft: Draft, step: str) -> str:
    return reverse("questionnaire:step", kwargs={"draft_id": draft.pk, "step": step})


@csrf_exempt  # the token is checked below, once the upload handler is in place
@never_cache
@require_http_methods(["GET", "POST"])
def fill_from_file(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    # Django's handlers would spool a large file to disk; set ours before anything reads the
    # body (the CSRF check reads it, so it runs after: Django's documented order for this).
    request.upload_handlers = [InMemoryCappedUpload(request)]
    return _upload_page(request, draft_id)


@csrf_protect
def _upload_page(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    draft = _open_draft(request, draft_id)
    if isinstance(draft, HttpResponse):
        return draft
    back = _return_step(request)
    form = FileUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        decision = hit(RateLimit("fill-from-file", FILE_READS_PER_HOUR, 3600), request)
        if not decision.allowed:
            return too_many_requests(
                request,
                decision,
                context={"what": "files read", "continue_url": _step_url(draft, back)},
            )
        upload = form.cleaned_data["file"]
        try:
            found = _read(upload)
        except UnreadableFile as problem:
            form.add_error("file", str(problem))
        else:
            request.session[PENDING_KEY.format(draft.pk)] = _pending(found, upload.name, back)
            url = reverse("questionnaire:fill_from_file_check", kwargs={"draft_id": draft.pk})
            return redirect(url)
    return render(
        request,
        "questionnaire/fill_from_file.html",
        {
            "form": form,
            "back": back,
            "back_url": _step_url(draft, back),
            "format_names": FORMAT_NAMES,
        },
    )


def _read(upload: Any) -> Found:
    # The upload handler kept one byte more than the limit, enough for "too large".
    found = read_answers(upload.read(MAX_FILE_BYTES + 1))
    if not found.values:
        raise UnreadableFile(NOTHING_FOUND.format(format=found.format_name))
    return found


def _pending(found: Found, filename: str, back: str) -> dict[str, Any]:
    """What waits in the session for the customer's decision (JSON, small)."""
    return {
        "format": found.format_name,
        "file": (filename or "")[:NAME_SHOWN],
        "values": [
            [v.slug, v.field, v.value, v.source[:NAME_SHOWN], v.guessed] for v in found.values
        ],
        "ignored": [name[:NAME_SHOWN] for name in found.ignored[:IGNORED_SHOWN]],
        "ignored_more": max(0, len(found.ignored) - IGNORED_SHOWN),
        "remarks": found.remarks,
        "back": back,
    }


@never_cache
@require_http_methods(["GET", "POST"])
def check_file_answers(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    return _check_answers(request, draft_id, PENDING_KEY, FILE)


@never_cache
@require_http_methods(["GET", "POST"])
def check_sentence_answers(request: HttpRequest, draft_id: UUID) -> HttpResponse:
    """The same check page for the answers the discovery sentence gives."""
    return _check_answers(request, draft_id, WORDS_PENDING_KEY, WORDS)


def _check_answers(
    request: HttpRequest, draft_id: UUID, pending_key: str, source: str
) -> HttpResponse:
    draft = _open_draft(request, draft_id)
    if isinstance(draft, HttpResponse):
        return draft
    key = pending_key.format(draft.pk)
    pending = request.session.get(key)
    if not pending:
        if source == WORDS:
            return redirect(_step_url(draft, draft.current_step or DEFAULT_RETURN))
        return redirect("questionnaire:fill_from_file", draft_id=draft.pk)
    back_url = _step_url(draft, pending["back"])
    if request.method == "POST" and request.POST.get("action") == "cancel":
        del request.session[key]
        messages.info(request, CANCELLED_MESSAGE)
        return redirect(back_url)
    values = [FoundValue(*value) for value in pending["values"]]
    if request.method == "POST" and request.POST.get("choosing"):
        # the page lists each answer with a tick: only the ticked ones are used
        ticked = set(request.POST.getlist("answer"))
        values = [value for value in values if f"{value.slug}-{value.field}" in ticked]
    changes = prefill_changes(values, draft)
    if request.method == "POST" and request.POST.get("action") == "use":
        if request.POST.get("revision") != str(draft.revision):
            messages.warning(
                request,
                "Your answers changed in another tab or window since this page was shown. "
                "Check the list again before you use it.",
            )
        elif not changes.changes_anything:
            del request.session[key]
            messages.info(request, CANCELLED_MESSAGE)
            return redirect(back_url)
        else:
            fill_confirmed_answers(draft=draft, changes=changes, source=source)
            del request.session[key]
            if source == FILE:
                # (the sentence's answers need no message: each is marked on its page)
                filled = sum(len(q.changes) for q in changes.questions)
                messages.success(
                    request,
                    f"We filled {count_of(filled, 'answer')} from {pending['file']}. "
                    "Check them on each question.",
                )
            return redirect(back_url)
    return render(
        request,
        "questionnaire/fill_from_file_check.html",
        {
            "pending": pending,
            "changes": changes,
            "revision": draft.revision,
            "back_url": back_url,
            "from_words": source == WORDS,
        },
    )
