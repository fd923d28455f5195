"""The default model has the catalog's shape of the model it is said to be."""

from __future__ import annotations

from dataclasses import fields

import pytest

from sizing.engine import size_dict
from sizing.engine.inputs import ModelInput
from sizing.engine.models import ModelSpec, find_model
from sizing.engine.parameter_count import DecoderShape, ModelShape
from sizing.engine.resolve.model import ResolvedModel
from sizing.engine.resolve.resolved import Resolved

LLAMA2_7B = find_model("Llama 2 7B")


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


def test_every_shape_names_its_figures_from_the_one_definition():
    """The six figures of a model's shape are defined once (``ModelShape``): the catalog's
    models, a configuration file's decoder, the resolved model and the resolved answers inherit
    them, and the
    customer's answer names the same fields (each optional there)."""
    shape = [f.name for f in fields(ModelShape)]
    assert len(shape) == 6
    for kind in (ModelSpec, DecoderShape, ResolvedModel, Resolved):
        assert issubclass(kind, ModelShape)
    assert set(shape) <= {f.name for f in fields(ModelInput)}
