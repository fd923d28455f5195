"""Model shapes the engine makes up are ones a trainer can build: whole attention heads,
an MLP width in multiples of 256, and the catalog's shape for the default model."""

from __future__ import annotations

import pytest

from sizing.engine import size_dict
from sizing.engine.models import find_model, shape_from_params

LLAMA2_7B = find_model("Llama 2 7B")
SIZES = [1e8, 1.25e8, 3.5e8, 7.6e8, 1e9, 1.3e9, 2.7e9, 7e9, 1.3e10, 3e10, 7e10, 1.75e11, 1e12]


def _shape_answers(result: dict) -> dict[str, object]:
    keys = ("layers", "hidden_size", "attention_heads", "kv_heads", "ffn_hidden_size")
    found = {a["key"]: a["value"] for a in result["assumptions"]}
    return {key: found[f"model.{key}"] for key in keys}


@pytest.mark.parametrize("answers", [{}, {"training": {"method": "finetune"}}], ids=str)
def test_the_default_model_has_the_catalog_shape_of_llama_2_7b(answers: dict) -> None:
    assert LLAMA2_7B is not None
    assert _shape_answers(size_dict(answers)) == {
        "layers": 32,
        "hidden_size": 4096,
        "attention_heads": 32,
        "kv_heads": 32,
        "ffn_hidden_size": 11008,
    }


@pytest.mark.parametrize("params", SIZES)
def test_a_shape_from_a_parameter_count_has_whole_heads_of_a_power_of_two(params: float) -> None:
    shape = shape_from_params(params, 32000)
    head_dim, rest = divmod(shape.hidden_size, shape.attention_heads)
    assert rest == 0
    assert head_dim in (64, 128)
    assert shape.ffn_hidden_size % 256 == 0
    if shape.hidden_size > 2048:  # tensor parallelism up to 8 splits the heads
        assert shape.attention_heads % 8 == 0


@pytest.mark.parametrize("params", SIZES)
def test_a_shape_from_a_parameter_count_keeps_the_count_within_four_percent(
    params: float,
) -> None:
    shape = shape_from_params(params, 32000)
    h = shape.hidden_size
    counted = 12 * shape.layers * h * h + 2 * 32000 * h
    assert counted == pytest.approx(params, rel=0.04)


@pytest.mark.parametrize(
    ("params", "layers", "hidden"),
    [(1.3e10, 40, 5120), (1.75e11, 96, 12288)],  # Llama 2 13B's and GPT-3's shapes
)
def test_a_shape_from_a_parameter_count_lands_on_published_shapes(
    params: float, layers: int, hidden: int
) -> None:
    shape = shape_from_params(params, 32000 if params < 1e11 else 50257)
    assert (shape.layers, shape.hidden_size) == (layers, hidden)
