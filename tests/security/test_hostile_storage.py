"""Hostile text that the forms accept is stored byte for byte and only ever shown escaped.

A whole questionnaire is answered with the registry's examples, except that every free-text
box (each question's text fields and its "anything else" notes, and the contact details) holds
the hostile text, cut to the box's length limit. After sending, ``Submission.answers`` must hold
exactly what was typed, and the review page and the staff admin must show it as text.
"""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import escape

from questionnaire.fields import QuantityField
from questionnaire.forms.steps import ContactForm
from questionnaire.models import Draft, Submission
from questionnaire.questions import QUESTIONS
from tests.security.conftest import as_received, count, html, post_step, start, step_url
from tests.security.hostile import DANGEROUS_MARKUP
from tests.staff.factories import sign_in

pytestmark = pytest.mark.django_db

PAYLOADS = {
    "markup": '<script>alert(1)</script> <img src=x onerror=alert(1)> "><svg onload=alert(1)>',
    "template": "{{ 7*7 }} {% debug %} {{ request.META }} {% load static %}",
    "controls": "\x1b[31mred\x1b[0m \u202eexe.gnp \ufeff\u200b \x7f\x08 𝟘🙂",
    "formula-and-sql": '=HYPERLINK("http://x") \'; DROP TABLE questionnaire_submission; -- <b>y</b>',
    "lone-surrogates": "before \ud800 after \udfff end",
    "at-the-length-limit": "Ω<" * 1000,
}


def _text_fields(form_class: type[forms.Form]) -> dict[str, int]:
    """Free-text fields (not numbers, not e-mail, not text read as something: what the
    customer owns refuses words it cannot read) with their length limits."""
    return {
        name: field.max_length or 10_000
        for name, field in form_class.base_fields.items()
        if isinstance(field, forms.CharField)
        and not isinstance(field, QuantityField | forms.EmailField)
        and not getattr(field, "reads", "")
    }


def _fit(payload: str, limit: int) -> str:
    return payload[:limit].strip() or payload[:limit]


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("sec-admin", "sec@example.com", "x" * 20)
    admin = type(client)()
    sign_in(admin, user)
    return admin


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_hostile_text_is_stored_exactly_and_shown_escaped(client, staff_client, payload):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    typed: dict[str, dict[str, str]] = {}
    for question in QUESTIONS:
        texts = {
            name: _fit(payload, limit) for name, limit in _text_fields(question.form_class).items()
        }
        typed[question.slug] = texts
        count("free-text field x hostile text, sent and stored", len(texts))
        response = post_step(client, draft_id, question.slug, {**question.example.data, **texts})
        assert response.status_code == 302, response.context["form"].errors
    contact = {name: _fit(payload, limit) for name, limit in _text_fields(ContactForm).items()}
    count("free-text field x hostile text, sent and stored", len(contact))
    response = post_step(
        client, draft_id, "contact", {**contact, "email": "sec@example.com", "consent": "on"}
    )
    assert response.status_code == 302, response.context["form"].errors

    review = html(client.get(step_url(draft_id, "review")))
    shown = {as_received(text) for texts in typed.values() for text in texts.values()}
    for text in shown | {as_received(value) for value in contact.values()}:
        assert escape(text) in review
    for markup in DANGEROUS_MARKUP:
        assert markup not in review

    response = post_step(client, draft_id, "review", {})
    assert response["Location"] == reverse("questionnaire:confirmation", args=[draft_id])
    submission = Submission.objects.get(draft_id=draft_id)
    for slug, texts in typed.items():
        for name, text in texts.items():
            assert submission.answers[slug][name] == as_received(text), (slug, name)
    assert submission.contact_name == as_received(contact["name"])
    assert submission.company == as_received(contact["company"])
    assert submission.contact_role == as_received(contact["role"])
    assert submission.country == as_received(contact["country"])

    for url in (
        reverse("admin:questionnaire_submission_change", args=[submission.pk]),
        reverse("admin:questionnaire_submission_changelist") + "?q=" + "%3Cscript%3E",
    ):
        page = staff_client.get(url)
        assert page.status_code == 200, url
        for markup in DANGEROUS_MARKUP:
            assert markup not in html(page), url
    change_page = html(
        staff_client.get(reverse("admin:questionnaire_submission_change", args=[submission.pk]))
    )
    assert escape(as_received(typed["model"]["notes"])) in change_page


def test_a_refused_step_keeps_every_earlier_answer_and_the_typed_text(client):
    """After an error, Back and the review still show all earlier answers as typed."""
    draft_id = start(client)
    for question in QUESTIONS[:5]:
        post_step(client, draft_id, question.slug, question.example.data)
    before = Draft.objects.get(pk=draft_id).step_data
    count("free-text field x hostile text, sent and stored")
    response = post_step(client, draft_id, "batch", {"sequence_length": "1e400", "notes": "<i>"})
    assert response.status_code == 200 and "sequence_length" in response.context["form"].errors
    after = Draft.objects.get(pk=draft_id).step_data
    assert {slug: after[slug] for slug in before} == before
    assert after["batch"]["batch-sequence_length"] == ["1e400"]
    again = html(client.get(step_url(draft_id, "batch")))
    assert 'value="1e400"' in again and "&lt;i&gt;" in again
