"""The questionnaire wizard: welcome, discovery, fifteen questions, contact details, review.

django-formtools' NamedUrlSessionWizardView with its known traps fixed:

* each questionnaire has its own id in the URL and in the storage prefix, so two tabs with two
  questionnaires never share state (formtools #15, #126);
* every step's raw data is saved to the Draft row *before* anything else happens, including
  Back, so Back never drops what was typed (#284), and the session is only a cache: an expired
  session or another device picks up from the draft, with a message saying so;
* opening a step URL never resets anything; a step changed meanwhile in another tab is named;
* submitting is idempotent (one Submission per draft) and only happens on POST;
* the expert questions are skipped on the short path (``condition_dict``, computed from the
  draft's raw discovery answer: ``questionnaire/paths.py``); their saved answers stay in the
  draft, so switching paths from the review page loses nothing.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.datastructures import MultiValueDict
from formtools.wizard.views import NamedUrlSessionWizardView

from config.ratelimit import RateLimit, hit, too_many_requests
from questionnaire import access
from questionnaire.checked_pages import remember_valid_page
from questionnaire.draft_rows import draft_and_whether_sent
from questionnaire.draft_storage import DraftSessionStorage
from questionnaire.forms.steps import ContactForm, ReviewForm, WelcomeForm
from questionnaire.layouts import CLEAR_ANSWER
from questionnaire.models import Draft
from questionnaire.paths import SHORT_PATH_COUNT, key_fields, question_numbers, shows_step
from questionnaire.prefill.marks import MARK_WORDS, prefilled_fields
from questionnaire.prefill.words import offer_sentence_answers
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, QUESTIONS, get_question
from questionnaire.review import review_rows
from questionnaire.services import (
    Contact,
    IncompleteAnswers,
    collect_answers,
    posted_field_names,
    posted_step_data,
    save_step,
    set_current_step,
    submit_answers,
    write_step,
)
from questionnaire.widget_html import WIDGET_RENDERER

WELCOME, CONTACT, REVIEW, SUBMIT = "welcome", "contact", "review", "submit"
FORM_LIST = [
    (WELCOME, WelcomeForm),
    (DISCOVERY.slug, DISCOVERY.form_class),
    *[(question.slug, question.form_class) for question in QUESTIONS],
    (CONTACT, ContactForm),
    (REVIEW, ReviewForm),
]
STEP_NAMES = {name for name, _ in FORM_LIST}
QUESTION_SLUGS = {question.slug for question in QUESTIONS}
CHECKED_STEPS = QUESTION_SLUGS | {DISCOVERY.slug}  # the pages the review page checks
RESUMED_FLAG = "questionnaire_resumed_{}"
_STEP = "__step__"  # a slug no step has, where a step's own stands in its URL
FILL_FROM_FILE = "fill_from_file"  # the button that saves the page, then opens the upload

SESSION_ENDED_MESSAGE = (
    "Your session had ended, so we reopened your questionnaire from the copy we save after "
    "every page. Your answers are all here."
)
RESUMED_MESSAGE = "Welcome back. Your saved answers are all here."
OTHER_TAB_MESSAGE = (
    "This page was also changed in another tab or window. We kept what you sent just now; "
    "check that it is what you want."
)
ALREADY_SUBMITTED_MESSAGE = "You have already sent this questionnaire. Here is your reference."
SKIPPED_MESSAGE = (
    "You asked us to recommend the training set-up, so we skip that question. To answer it "
    "yourself, choose “Yes” for the set-up question below."
)


def _asked_when(step: str) -> Any:
    """formtools condition: ask ``step`` unless the customer took the short path."""
    return lambda wizard: shows_step(step, wizard.draft.step_data)


CONDITIONS = {slug: _asked_when(slug) for slug in EXPERT_SLUGS}


def fingerprint(raw: dict[str, list[str]] | None) -> str:
    """A short hash of a step's stored data, to notice a change made in another tab."""
    return hashlib.sha256(json.dumps(raw or {}, sort_keys=True).encode()).hexdigest()[:16]


class QuestionnaireWizard(NamedUrlSessionWizardView):
    # Each step's data comes from the draft; the session only says which step is current.
    storage_name = "questionnaire.draft_storage.DraftSessionStorage"
    storage: DraftSessionStorage
    draft: Draft
    _step_url: tuple[str, str] | None = None  # a step's URL before and after its slug

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Whether it was sent comes with the draft in one query (a LEFT JOIN).
        self.draft, sent = draft_and_whether_sent(kwargs["draft_id"])
        if not access.may_open(request, self.draft):
            return render(request, "questionnaire/not_open_here.html", status=403)
        if sent:
            messages.info(request, ALREADY_SUBMITTED_MESSAGE)
            return redirect("questionnaire:confirmation", draft_id=self.draft.pk)
        prefix = self.get_prefix(request, *args, **kwargs)
        self.session_had_wizard = f"wizard_{prefix}" in request.session
        response = super().dispatch(request, *args, **kwargs)
        add_never_cache_headers(response)  # Back re-fetches the page as it was left
        return response

    def get_prefix(self, request: HttpRequest, *args: Any, **kwargs: Any) -> str:
        return f"questionnaire_{kwargs['draft_id'].hex}"

    def get_step_url(self, step: str) -> str:
        # Reversed once per request: the review page links each of its twenty rows to its
        # page, and a step is a slug, so it stands in the URL as it is written.
        if self._step_url is None:
            template = reverse(self.url_name, kwargs={"draft_id": self.draft.pk, "step": _STEP})
            before, _, after = template.partition(_STEP)
            self._step_url = (before, after)
        before, after = self._step_url
        return f"{before}{step}{after}"

    def get_template_names(self) -> list[str]:
        step = self.steps.current
        if step in (WELCOME, DISCOVERY.slug, CONTACT, REVIEW):
            return [f"questionnaire/{step}.html"]
        return ["questionnaire/question.html"]

    # --- the draft is the source of truth ---------------------------------------------------

    def _load_draft(self) -> None:
        """Serve the draft's steps through the storage, and say so if the session was new."""
        self.storage.use_draft(self.draft.step_data)
        current = self.storage.current_step
        if current is None:
            current = self.draft.current_step or WELCOME
        if current not in self.get_form_list():
            # A set-up question saved as current before the customer took the short path.
            current = DISCOVERY.slug
        if current != self.storage.current_step:
            self.storage.current_step = current
        if not self.session_had_wizard and self.draft.step_data:
            resumed = self.request.session.pop(RESUMED_FLAG.format(self.draft.pk), False)
            messages.info(self.request, RESUMED_MESSAGE if resumed else SESSION_ENDED_MESSAGE)
            self.session_had_wizard = True

    def get(self, *args: Any, **kwargs: Any) -> HttpResponse:
        self._load_draft()
        step = kwargs.get("step")
        if step == SUBMIT:
            # Submitting only ever happens on POST from the review page.
            return redirect(self.get_step_url(REVIEW))
        if step in STEP_NAMES and step not in self.get_form_list():
            # A skipped set-up question (an old link): say why, and where to switch paths.
            messages.info(self.request, SKIPPED_MESSAGE)
            return redirect(f"{self.get_step_url(DISCOVERY.slug)}?change=1")
        if step in self.get_form_list() and step != self.draft.current_step:
            set_current_step(draft=self.draft, step=step)
        return super().get(*args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> HttpResponse:
        step = self.request.POST.get(f"{self.prefix}-current_step", "")
        if step != kwargs.get("step") or step not in STEP_NAMES:
            # Our pages always post their own step to their own URL. Anything else is forged
            # or stale management data: formtools would crash on an unknown step, and saving
            # it under another step's name would overwrite that step's answers.
            return render(
                self.request,
                "questionnaire/unexpected_post.html",
                {"continue_url": self.get_step_url(self.draft.current_step or WELCOME)},
                status=400,
            )
        self._load_draft()
        cleared = self._radio_to_clear(step)
        if cleared:
            # "Clear this answer" without JavaScript: save the page as posted, minus that choice
            self.request.POST = self.request.POST.copy()
            self.request.POST.pop(cleared, None)
        plain = (
            step in QUESTION_SLUGS
            and not cleared
            and "save_for_later" not in self.request.POST
            and FILL_FROM_FILE not in self.request.POST
            and step in self.get_form_list()
        )
        if plain:
            # A question's page posted to go on (or back): its data is written once, with the
            # step it moves to, after formtools has validated it (one write, not two).
            self._moving_to = step
            self._unwritten = self._keep_posted_step(step, write=False)
            try:
                return super().post(*args, **kwargs)
            finally:
                if self._unwritten is not None:
                    self.draft = write_step(
                        draft=self.draft,
                        step=step,
                        raw=self._unwritten,
                        current_step=self._moving_to,
                    )
        # Sending from the review page keeps nothing first: the page has no fields, and
        # ``submit_answers`` stores the answers under the draft's lock; a send that fails takes
        # the customer to the step to fix, whose page records where they are (issue 29: one
        # transaction and commit fewer per send). "Save for later" still records the step.
        sending = step == REVIEW and "save_for_later" not in self.request.POST
        self._keep_posted_step(step, write=not sending)
        if cleared:
            changing = "?change=1" if self.request.POST.get("return_to") == REVIEW else ""
            return redirect(f"{self.get_step_url(step)}{changing}#id_{cleared}_0")
        if "save_for_later" in self.request.POST:
            return redirect("questionnaire:save", draft_id=self.draft.pk)
        if FILL_FROM_FILE in self.request.POST and step in QUESTION_SLUGS:
            # "Fill from a file you already have": what was typed is saved above, so the
            # check page compares the file with it and coming back shows it again.
            url = reverse("questionnaire:fill_from_file", kwargs={"draft_id": self.draft.pk})
            return redirect(f"{url}?from={step}")
        if step not in self.get_form_list():
            # Posted from a tab opened before the short path was chosen: kept in the draft.
            return redirect(self.get_step_url(self._next_asked_after(step)))
        return super().post(*args, **kwargs)

    def _radio_to_clear(self, step: str) -> str:
        """The posted name of the optional radio question whose "Clear this answer" was
        pressed on this page, or "" (any other name is ignored)."""
        name = self.request.POST.get(CLEAR_ANSWER, "")
        form_class = self.form_list[step]
        field = form_class.base_fields.get(name.removeprefix(f"{step}-"))
        radio = getattr(field, "render_as", "") == "radios" and not field.required
        return name if radio and name.startswith(f"{step}-") else ""

    def _next_asked_after(self, step: str) -> str:
        names = [name for name, _ in FORM_LIST]
        asked = self.get_form_list()
        return next(name for name in names[names.index(step) :] if name in asked)

    def get_form(self, step: str | None = None, data: Any = None, files: Any = None) -> Any:
        if (step or self.steps.current) == DISCOVERY.slug and data is None:
            # The discovery page is optional: never visited reads as every part left empty,
            # so sending the questionnaire does not stop at it.
            data = MultiValueDict()
        form = super().get_form(step=step, data=data, files=files)
        if (step or self.steps.current) == "roadmap":
            self._say_runs_now(form)
        return form

    def process_step(self, form: Any) -> Any:
        step = self.steps.current
        raw = self.draft.step_data.get(step)
        if raw is not None and step in CHECKED_STEPS:
            # just validated, as it is stored: the review page and the send read this check
            # instead of validating the page again (issue 29)
            remember_valid_page(step, raw, form)
        return super().process_step(form)

    def _say_runs_now(self, form: Any) -> None:
        """Question 15 asks for the runs a month later only if they differ from those already
        given on "Time and deadlines": say what was given there."""
        raw = (self.draft.step_data.get("timeline") or {}).get("timeline-runs_per_month") or []
        now = raw[-1].strip() if raw else ""
        if not now:
            return
        number = question_numbers(self.draft.step_data).get("timeline")
        hint = f"Leave empty if still {now}, as on question {number}."
        form.fields["future_runs_per_month"].help_text = hint

    # A question's posted data kept in memory until the request has worked out where the
    # customer goes next, then written once with that step (``post``); None: nothing to write.
    _unwritten: Any = None
    _moving_to = ""

    def _keep_posted_step(self, step: str, write: bool = True) -> Any:
        """Save what was posted for this step, valid or not, before Back or validation.

        ``write=False``: the draft in memory is as saved, and the data to write is returned
        (None if nothing is to be written) for ``post`` to write once it knows where the
        customer goes next."""
        stored = self.draft.step_data.get(step)
        posted_fingerprint = self.request.POST.get("step_fingerprint")
        if posted_fingerprint and posted_fingerprint != fingerprint(stored):
            messages.warning(self.request, OTHER_TAB_MESSAGE)
        form_class = self.form_list[step]  # every step, asked on this path or not
        fields = posted_field_names(form_class, step)
        has_content = any(
            value.strip()
            for key, values in self.request.POST.lists()
            if key in fields
            for value in values
        )
        if not has_content and stored is None and step in QUESTION_SLUGS:
            return None  # an untouched page stays "not visited", so it shows no errors later
        if not write:
            raw = posted_step_data(
                draft=self.draft, step=step, data=self.request.POST, form_class=form_class
            )
            self.draft.step_data = {**self.draft.step_data, step: raw}
            self._load_draft()
            return raw
        self.draft = save_step(
            draft=self.draft,
            step=step,
            data=self.request.POST,
            current_step=step,
            form_class=form_class,
        )
        self._load_draft()

    # --- moving between steps ---------------------------------------------------------------

    def render_next_step(self, form: Any, **kwargs: Any) -> HttpResponse:
        back_to_review = self.request.POST.get("return_to") == REVIEW
        posted = self.steps.current
        target = REVIEW if back_to_review else self.get_next_step()
        self.storage.current_step = target
        self._move_to(target)
        if posted == DISCOVERY.slug:
            # their sentence may answer questions: they check those answers first
            check_url = offer_sentence_answers(self.request, self.draft, next_step=target)
            if check_url:
                return redirect(check_url)
        # the URL as it is: redirect() would first try it as the name of a view
        return HttpResponseRedirect(self.get_step_url(target))

    def _move_to(self, step: str) -> None:
        """Store the customer's current step: with the posted data if that is still to be
        written (``post``), else on its own."""
        if self._unwritten is not None:
            self._moving_to = step
        else:
            set_current_step(draft=self.draft, step=step)

    def render_goto_step(self, goto_step: str, **kwargs: Any) -> HttpResponse:
        self._move_to(goto_step)
        return super().render_goto_step(goto_step, **kwargs)

    def render_revalidation_failure(self, failed_step: str, form: Any, **kwargs: Any):
        if failed_step == DISCOVERY.slug:
            messages.error(self.request, "Check your answers about your project.")
        elif failed_step in QUESTION_SLUGS:
            number = question_numbers(self.draft.step_data).get(failed_step)
            title = get_question(failed_step).title
            messages.error(
                self.request,
                f"Question {number}, {title}, needs an answer before you send the questionnaire."
                if number
                else f"“{title}” needs an answer before you send the questionnaire.",
            )
        else:
            messages.error(self.request, "Check these details before you send the questionnaire.")
        return super().render_revalidation_failure(failed_step, form, **kwargs)

    def render_done(self, form: Any, **kwargs: Any) -> HttpResponse:
        """Send the questionnaire (POST only: NamedUrlWizardView's redirect to a "done" URL
        would submit on a GET).

        formtools re-validates every step here, and ``submit_answers`` validated every question
        again under the draft's lock: each of the sixteen forms twice per send. The questions
        are validated once, by ``submit_answers`` (its ``IncompleteAnswers`` names the first to
        fix, in page order); only the contact details are validated here. The welcome page has
        no fields and the review page is ``form``, validated by formtools' ``post``.
        """
        contact = self.get_form(step=CONTACT, data=self.storage.get_step_data(CONTACT))
        if not contact.is_valid():
            # A question before it that needs attention is named first, as formtools would.
            _, attention = collect_answers(self.draft)
            return self.render_revalidation_failure(
                attention[0] if attention else CONTACT, contact, **kwargs
            )
        forms = {CONTACT: contact, REVIEW: form}
        response = self.done(list(forms.values()), form_dict=forms, **kwargs)
        self.storage.reset()
        return response

    def done(self, form_list: Any, form_dict: dict[str, Any], **kwargs: Any) -> HttpResponse:
        # Counted only when answers are really sent; the draft is already saved, so a refused
        # submission loses nothing and can be sent again after Retry-After.
        limit = RateLimit("submit", settings.SUBMISSIONS_PER_HOUR, window_seconds=3600)
        decision = hit(limit, self.request)
        if not decision.allowed:
            return too_many_requests(self.request, decision)
        contact = form_dict[CONTACT].cleaned_data
        try:
            submit_answers(
                draft=self.draft,
                contact=Contact(
                    name=contact["name"],
                    email=contact["email"],
                    company=contact["company"],
                    role=contact.get("role", ""),
                    country=contact.get("country", ""),
                ),
            )
        except IncompleteAnswers as problem:
            return self.render_revalidation_failure(problem.slugs[0], None)
        return redirect("questionnaire:confirmation", draft_id=self.draft.pk)

    # --- page context -----------------------------------------------------------------------

    def get_context_data(self, form: Any, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(form=form, **kwargs)
        # formtools' management form, the current step in one hidden field: the page writes
        # that field alone (wizard_base.html), through the text boxes' renderer, without the
        # form's and the widget's four templates (issue 29)
        context["wizard"]["management_form"].renderer = WIDGET_RENDERER
        step = self.steps.current
        question = get_question(step) if step in QUESTION_SLUGS | {DISCOVERY.slug} else None
        numbers = question_numbers(self.draft.step_data)
        position = numbers.get(question.slug) if question else None
        changing = (
            self.request.GET.get("change") == "1" or self.request.POST.get("return_to") == REVIEW
        )
        context.update(
            draft=self.draft,
            question=question,
            # "Question 4 of 9" on the short path: the skipped questions are not counted.
            question_position=position,
            total_questions=len(numbers),
            question_count=len(QUESTIONS),
            short_path_count=SHORT_PATH_COUNT,
            progress_percent=round(100 * position / len(numbers)) if position else None,
            step_fingerprint=fingerprint(self.draft.step_data.get(step)),
            changing=changing,
            prev_step=self.steps.prev,
            save_url=reverse("questionnaire:save", kwargs={"draft_id": self.draft.pk}),
            review_url=self.get_step_url(REVIEW),
            # answers filled from their file or sentence and not changed since: marked
            prefilled={
                name: MARK_WORDS[source]
                for name, source in prefilled_fields(self.draft, step).items()
            },
        )
        if step in QUESTION_SLUGS:
            # the short path unfolds the main parts only (the form's layout folds the rest)
            form.key_fields = key_fields(step, self.draft.step_data)
        if step == REVIEW:
            context.update(review_rows(self.draft, step_url=self.get_step_url))
        return context


wizard_view = QuestionnaireWizard.as_view(
    FORM_LIST, url_name="questionnaire:step", done_step_name=SUBMIT, condition_dict=CONDITIONS
)
