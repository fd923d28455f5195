"""Every field of every step against garbage numbers, control characters, markup and size.

Each hostile value goes into every field of a page at once (one POST per page and value). For
every field the outcome must be a clear error next to that field, or the value kept exactly;
never a 500; the page echoes what was typed, escaped; what was typed is saved raw in the draft
(so Back and "resume later" bring it back); the other pages' answers are untouched.
"""

from __future__ import annotations

import pytest
from django import forms
from django.utils.html import escape

from questionnaire.fields import QuantityField
from questionnaire.models import Draft
from tests.security.conftest import (
    as_received,
    as_saved,
    count,
    html,
    post_raw,
    prefill,
    start,
    step_pairs,
    step_url,
)
from tests.security.hostile import (
    DANGEROUS_MARKUP,
    FIELD_STEPS,
    HOSTILE,
    field_must_refuse,
    form_data_with,
    quantity_is_sane,
)

pytestmark = pytest.mark.django_db

ENORMOUS = "A" * 100_000  # 100 kB: far past every max_length, inside the 256 kB body limit
BEYOND_UPLOAD_LIMIT = "B" * 300_000


def _raw_saved(draft_id, step: str) -> dict[str, list[str]] | None:
    return Draft.objects.get(pk=draft_id).step_data.get(step)


def _assert_others_intact(draft_id, before: dict, step: str) -> None:
    after = Draft.objects.get(pk=draft_id).step_data
    for other, data in before.items():
        if other != step:
            assert after.get(other) == data, f"answers to {other} changed"


@pytest.mark.parametrize("value", list(HOSTILE.values()), ids=list(HOSTILE))
@pytest.mark.parametrize("step,form_class", FIELD_STEPS, ids=[step for step, _ in FIELD_STEPS])
def test_every_field_refuses_clearly_or_keeps_a_hostile_value(client, step, form_class, value):
    draft_id = start(client)
    before = prefill(draft_id, except_step=step)
    data = form_data_with(form_class, value)
    count("wizard field x hostile value (garbage number, control, markup)", len(data))

    response = post_raw(client, step_url(draft_id, step), step_pairs(draft_id, step, data))

    assert response.status_code in (200, 302), response.status_code
    received = as_received(value)
    assert _raw_saved(draft_id, step) == {f"{step}-{name}": [as_saved(value)] for name in data}, (
        "what was typed is not saved exactly"
    )
    _assert_others_intact(draft_id, before, step)
    if response.status_code == 302:
        return
    page = html(response)
    form = response.context["form"]
    for name, field in form.fields.items():
        must_refuse = field_must_refuse(field, value)
        if must_refuse is not None:
            assert (name in form.errors) is must_refuse, (name, form.errors.get(name))
        if name in form.errors:
            # The message sits next to the field and is referenced by it.
            assert f'id="id_{step}-{name}-error"' in page, name
        elif isinstance(field, QuantityField):
            assert quantity_is_sane(field, field.clean(received).value), name
        if isinstance(field, forms.CharField) and not isinstance(field, forms.EmailField):
            # What was typed comes back in the box, escaped.
            assert escape(received.strip()) in page or "\x00" in received, name
    for markup in DANGEROUS_MARKUP:
        assert markup not in page


@pytest.mark.parametrize("step,form_class", FIELD_STEPS, ids=[step for step, _ in FIELD_STEPS])
def test_a_100_kb_answer_in_any_field_is_a_field_error_not_a_crash(client, step, form_class):
    draft_id = start(client)
    before = prefill(draft_id, except_step=step)
    for name, field in form_class.base_fields.items():
        if isinstance(field, forms.BooleanField):
            continue  # a tick box has no length
        count("wizard field x 100 kB string")
        pairs = step_pairs(draft_id, step, {name: ENORMOUS})
        response = post_raw(client, step_url(draft_id, step), pairs)
        assert response.status_code == 200, (name, response.status_code)
        assert name in response.context["form"].errors, name
        assert f'id="id_{step}-{name}-error"' in html(response)
        _assert_others_intact(draft_id, before, step)


@pytest.mark.parametrize("step,form_class", FIELD_STEPS, ids=[step for step, _ in FIELD_STEPS])
def test_a_body_beyond_the_upload_limit_is_a_400_and_loses_nothing(client, step, form_class):
    draft_id = start(client)
    before = prefill(draft_id)
    name = next(iter(form_class.base_fields))
    count("wizard page x 300 kB body (beyond DATA_UPLOAD_MAX_MEMORY_SIZE)")
    response = post_raw(
        client, step_url(draft_id, step), step_pairs(draft_id, step, {name: BEYOND_UPLOAD_LIMIT})
    )
    assert response.status_code == 400
    assert Draft.objects.get(pk=draft_id).step_data == before


def test_too_many_fields_is_a_400_and_loses_nothing(client, settings):
    draft_id = start(client)
    before = prefill(draft_id)
    count("wizard page x too many fields")
    pairs = step_pairs(draft_id, "model", {"notes": "x"})
    pairs += [(f"model-extra{i}", "1") for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)]
    response = post_raw(client, step_url(draft_id, "model"), pairs)
    assert response.status_code == 400
    assert Draft.objects.get(pk=draft_id).step_data == before
