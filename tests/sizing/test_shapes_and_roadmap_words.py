"""A shape has whole heads and keeps the customer's figures; a roadmap's larger models are growth.

The media company's 3B diffusion transformer came out with a hidden size of 3,118 and 24 heads
(no model has heads of 129.9 units), and the start-up that wrote "32 layers, hidden 4096, 32
heads, vocabulary 32k" got a hidden size of 4,187. The same start-up wrote "30B next year, maybe
70B in year three" and was shown growth 0 %, "our usual assumption".
"""

from __future__ import annotations

from datetime import date

import pytest

from questionnaire.demo import MEDIA, STARTUP
from reports.demo import DEMO_FORM_DATA, answers_from, demo_data
from reports.document import build_context
from sizing.adapters import size_answers
from sizing.engine import size_dict
from sizing.notes import growth_from_roadmap, shape_from_notes

TODAY = date(2026, 12, 4)


def _assumed(result: dict, key: str):
    return next(a["value"] for a in result["assumptions"] if a["key"] == key)


@pytest.mark.parametrize("params", [1e9, 3e9, 3.3e9, 7e9, 13e9, 34e9, 70e9, 180e9, 405e9])
def test_a_generated_shape_splits_its_width_into_whole_heads(params):
    result = size_dict({"model": {"total_params": params}})
    hidden = _assumed(result, "model.hidden_size")
    heads = _assumed(result, "model.attention_heads")
    assert hidden % heads == 0, (hidden, heads)


def test_a_customers_width_gets_heads_that_divide_it():
    result = size_dict({"model": {"total_params": 7e9, "hidden_size": 4100}})
    assert _assumed(result, "model.hidden_size") == 4100
    assert 4100 % _assumed(result, "model.attention_heads") == 0


def test_the_media_companys_model_has_a_possible_shape():
    result = size_answers(answers=answers_from(MEDIA.answers), today=TODAY).result
    assert _assumed(result, "model.hidden_size") % _assumed(result, "model.attention_heads") == 0


def test_a_shape_written_in_the_notes_is_kept():
    assert shape_from_notes("32 layers, hidden 4096, 32 heads, vocabulary 32k.") == {
        "layers": 32,
        "hidden_size": 4096,
        "attention_heads": 32,
        "vocab_size": 32000,
    }
    assert shape_from_notes("hidden size: 8,192; 64 attention heads, 8 key-value heads") == {
        "hidden_size": 8192,
        "attention_heads": 64,
        "kv_heads": 8,
    }
    assert shape_from_notes("Standard Hugging Face code.") == {}
    sized = size_answers(answers=answers_from(STARTUP.answers), today=TODAY)
    for key, figure in (
        ("model.layers", 32),
        ("model.hidden_size", 4096),
        ("model.attention_heads", 32),
        ("model.vocab_size", 32000),
    ):
        assert _assumed(sized.result, key) == figure
        assert sized.sources[key] == "customer"


def test_larger_models_on_the_roadmap_are_read_as_growth():
    # 7B today, 70B in year three: ten times the compute a run needs in two years
    assert growth_from_roadmap("30B next year, maybe 70B in year three", 7e9) == pytest.approx(
        10**0.5 - 1
    )
    assert growth_from_roadmap("Similar models next year", 70e9) is None
    assert growth_from_roadmap("This use case plus two similar ones next year", 8e9) is None
    sized = size_answers(answers=answers_from(STARTUP.answers), today=TODAY)
    growth = _assumed(sized.result, "roadmap.annual_growth")
    assert growth == pytest.approx(2.16)
    assert sized.sources["roadmap.annual_growth"] == "derived"


def test_a_roadmap_without_a_readable_growth_says_it_was_read_not_a_bare_assumption():
    form = {**DEMO_FORM_DATA, "roadmap": {**DEMO_FORM_DATA["roadmap"], "annual_growth_pct": ""}}
    data = demo_data(answers=answers_from(form), today=TODAY)
    assert data.input_sources["roadmap.annual_growth"] == "unread"
    row = next(r for r in build_context(data)["assumptions"] if r["key"] == "roadmap.annual_growth")
    assert row["source"].startswith("we read your words but could not take a figure from them")
