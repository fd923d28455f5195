"""How the customer's forms are laid out: django-crispy-forms layouts with the Bootstrap 5 pack.

Every field goes through one of our field templates, ``templates/bootstrap5/answer/<kind>.html``:
the pack's own field templates have no "not sure yet" control, glossary terms, "From your
words" marks or hints linked by ``aria-describedby``. A question page's layout is built from its
form (the form of the question registry, ``questions.py``), never listed in a template.

The Bootstrap 5 pack, not the GOV.UK one (crispy-forms-gds): the pages already use the vendored
Bootstrap 5 styles, and the GOV.UK pack's markup needs the GOV.UK Frontend styles and scripts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import HTML, Div, Field, Layout, LayoutObject
from crispy_forms.utils import render_crispy_form
from django import forms
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from questionnaire.widget_html import WIDGET_RENDERER

FIELD_TEMPLATE = "bootstrap5/answer/{kind}.html"
# A long text is a text field whose widget is a textarea: one template shows both.
_TEMPLATE_KIND = {"radios": "radios", "checkboxes": "checkboxes", "checkbox": "checkbox"}
# What sets a choice aside from the answers above it (a "divider" between options).
DIVIDER = HTML('<div class="choice-divider" aria-hidden="true">or</div>')
# The name a "Clear this answer" button posts: the radio question to empty (the wizard's).
CLEAR_ANSWER = "clear_answer"
# The page's marks of answers filled from a file or sentence, which a field's hint shows
# (``prefill_tags.prefill_note``); the wizard puts them in the page's context.
PREFILLED = "prefilled"


def field_kind(field: forms.Field) -> str:
    """Which of our field templates shows ``field``: the answer field's own ``render_as``."""
    kind = getattr(field, "render_as", None)
    if kind is None and isinstance(field.widget, forms.CheckboxInput):
        kind = "checkbox"
    return _TEMPLATE_KIND.get(kind or "", "text")


class AnswerField(Field):
    """One field through our template for its kind, with what the page says about it
    (``whole_question_unsure``, ``no_hint``, ``clearable``) as template context.

    Rendered straight from its template with only what the field templates read (the bound
    field, the page's words about it, and the page's ``prefilled`` marks), not through crispy's
    ``render_field``: that flattens the whole page's context into a new dict for every field and
    copies the widget's attributes, about a third of the CPU of a question page's fields
    (issue 29, docs/load-results.md). Our fields set no ``attrs``, ``css_class`` or
    ``wrapper_class``, which are all ``render_field`` would add.
    """

    def __init__(self, name: str, *, kind: str, **page_context: Any):
        super().__init__(name, template=FIELD_TEMPLATE.format(kind=kind))
        self.page_context = page_context

    def render(self, form, context, template_pack=None, extra_context=None, **kwargs) -> SafeString:
        (name,) = self.fields
        return get_template(self.template).render(
            {
                "field": form[name],
                PREFILLED: context.get(PREFILLED),
                **self.page_context,
                **(extra_context or {}),
            }
        )


class Fold(LayoutObject):
    """Fields folded in a ``<details>`` (open when one of them holds an answer or an error)."""

    template = "bootstrap5/layout/fold.html"

    def __init__(
        self,
        summary: str,
        *fields: LayoutObject,
        css_class: str,
        is_open: bool,
        template: str | None = None,
    ):
        self.fields = list(fields)
        self.summary, self.css_class, self.is_open = summary, css_class, is_open
        self.template = template or self.template

    def render(self, form, context, template_pack=None, **kwargs) -> SafeString:
        fields = self.get_rendered_fields(form, context, template_pack, **kwargs)
        return render_to_string(self.template, {"fold": self, "fields": fields})


def answer_fields(form: forms.BaseForm, names: Iterable[str], **page_context: Any) -> list:
    """Each named field of ``form`` through its template, in the order given."""
    fields = form.fields
    return [AnswerField(name, kind=field_kind(fields[name]), **page_context) for name in names]


class LaidOut:
    """A form shown with ``{% crispy form %}``: ``helper`` lays its fields out.

    The page's template holds the ``<form>`` tag, the CSRF token and the buttons (a wizard page
    adds its management form), and the error summary above the page's heading lists every error;
    the layout holds only the fields.
    """

    fields: dict[str, forms.Field]
    # Django's renderer, with the text boxes written in Python (questionnaire/widget_html.py).
    default_renderer = WIDGET_RENDERER

    @property
    def helper(self) -> FormHelper:
        helper = FormHelper()
        helper.form_tag = False
        helper.disable_csrf = True
        helper.form_show_errors = False  # the error summary lists them, linked to each field
        helper.layout = Layout(*self.layout_items())
        return helper

    def layout_items(self) -> list:
        """Every field in the form's order; a form with more on its page says so here."""
        return answer_fields(self, self.fields)  # type: ignore[arg-type]


def question_layout(
    form: forms.BaseForm, answer_names: list[str], key_fields: tuple[str, ...]
) -> list:
    """A question page: its parts, the question's one "not sure" box, and the note.

    With ``key_fields`` (``questionnaire/paths.py``: on the short path the parts that change the
    answer most, on the detailed path all but a few) the main parts come first and the rest fold
    under "More detail"; a skip link leads past the parts to the box. A part's own
    "Not sure yet" choice is hidden (``whole_question_unsure``): the box covers every part left
    empty. A radio question is optional, so its choice can be cleared.
    """
    parts = {"whole_question_unsure": True, "clearable": True}
    if key_fields:
        folded = [name for name in form.fields if name not in (*key_fields, "not_sure")]
        bound = [form[name] for name in folded]
        return [
            HTML('{% include "questionnaire/_unsure_shortcut.html" %}'),
            *answer_fields(form, [n for n in answer_names if n in key_fields], **parts),
            DIVIDER,
            Div(
                answer_fields(form, ["not_sure"], no_hint=True)[0],
                css_class="whole-question-unsure",
            ),
            Fold(
                "More detail",
                *answer_fields(form, folded, **parts),
                css_class="more-fields",
                is_open=any(f.errors or f.value() not in (None, "", []) for f in bound),
            ),
        ]
    return [
        HTML('{% include "questionnaire/_unsure_shortcut.html" %}'),
        *answer_fields(form, answer_names, **parts),
        DIVIDER,
        Div(answer_fields(form, ["not_sure"])[0], css_class="whole-question-unsure"),
        *answer_fields(form, ["notes"]),
    ]


# The fields of forms that hold no answer yet, laid out (``laid_out_fields``); a bounded number,
# as a key may hold a customer's words (the roadmap's hint quotes their runs a month).
LAID_OUT_BLANK_FORMS: dict[tuple, SafeString] = {}
LAID_OUT_BLANK_FORMS_KEPT = 256


def laid_out_fields(form: forms.BaseForm, prefilled: dict[str, str] | None) -> SafeString:
    """``{% crispy form %}`` of a ``LaidOut`` form, with the page's ``prefilled`` marks.

    Laid out from the form and the marks alone (the fields read nothing else of the page), so
    the HTML of a form that holds no answer yet (``_blank_key``) is laid out once per process
    and the same for every customer: a customer's first visit of a question page, most of them,
    lays out none (issue 29: the fields were half the template work of a question page). The
    CSRF token and the wizard's management form are the page's, never part of this HTML.
    """
    context = {PREFILLED: prefilled}
    key = _blank_key(form, prefilled)
    if key is None:
        return render_crispy_form(form, context=context)
    html = LAID_OUT_BLANK_FORMS.get(key)
    if html is None:
        html = render_crispy_form(form, context=context)
        if len(LAID_OUT_BLANK_FORMS) >= LAID_OUT_BLANK_FORMS_KEPT:
            LAID_OUT_BLANK_FORMS.clear()
        LAID_OUT_BLANK_FORMS[key] = html
    return html


def _blank_key(form: forms.BaseForm, prefilled: dict[str, str] | None) -> tuple | None:
    """Everything the laid-out HTML of ``form`` depends on when it holds no answer, or None
    when it may hold one (its data, a form or field initial value) or a field's choices differ
    from its class's.

    A form bound to no data (the discovery page before its first save) is blank too; its
    errors, if its validation finds any, are part of the key. Of the fields, what a request may
    change (the roadmap's hint says the runs a month given on "Time and deadlines") and what
    ``__init__`` sets: each field's label, hint, whether required or disabled, and its widget's
    attributes; of the page, which parts come first (``key_fields``) and the answers marked as
    filled.
    """
    if (form.is_bound and (form.data or form.files)) or form.initial:
        return None
    fields = []
    for name, field in form.fields.items():
        declared = form.base_fields.get(name)
        if field.initial is not None or declared is None:
            return None
        if getattr(field, "choices", None) != getattr(declared, "choices", None):
            return None
        attrs = tuple(field.widget.attrs.items())
        fields.append((name, field.label, field.help_text, field.required, field.disabled, attrs))
    errors = tuple((name, tuple(errors)) for name, errors in form.errors.items())
    return (
        type(form),
        form.prefix,
        form.auto_id,
        form.is_bound,
        form.use_required_attribute,
        getattr(form, "key_fields", ()),
        tuple(fields),
        errors,
        tuple(sorted((prefilled or {}).items())),
        get_language(),
    )
