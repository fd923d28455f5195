"""Counting parameters from a configuration's figures gives the totals the model cards publish."""

from __future__ import annotations

import math

import pytest

from sizing.engine.models import find_model
from sizing.engine.parameter_count import DecoderShape, count_parameters

# Published totals are rounded to three figures; the count leaves biases out (Qwen has some).
TOLERANCE = 0.01


def _from_catalog(name: str, **extra: object) -> DecoderShape:
    spec = find_model(name)
    assert spec is not None
    return DecoderShape(
        layers=spec.layers,
        hidden_size=spec.hidden_size,
        attention_heads=spec.attention_heads,
        kv_heads=spec.kv_heads,
        ffn_hidden_size=spec.ffn_hidden_size,
        vocab_size=spec.vocab_size,
        experts=spec.experts or 1,
        experts_per_token=spec.experts_per_token or 1,
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("Llama 2 7B", {}),
        ("Llama 2 70B", {}),
        ("Llama 3.1 8B", {}),
        ("Llama 3.1 70B", {}),
        ("Llama 3.1 405B", {}),
        ("Llama 3.2 1B", {"tied_embeddings": True, "head_dim": 64}),
        ("Mistral 7B", {}),
        ("Qwen2.5 7B", {}),
        ("Qwen2.5 0.5B", {"tied_embeddings": True}),
        ("Mixtral 8x7B", {}),
        ("Mixtral 8x22B", {}),
    ],
)
def test_count_matches_the_published_total_and_active_parameters(name, extra) -> None:
    spec = find_model(name)
    assert spec is not None
    counted = count_parameters(_from_catalog(name, **extra))
    assert counted.total_params == pytest.approx(spec.total_params, rel=TOLERANCE)
    assert counted.active_params == pytest.approx(spec.active_params, rel=TOLERANCE)


def test_gpt2_has_a_plain_mlp_and_shared_embeddings() -> None:
    # GPT-2 small: 124M with learned positions (1024 x 768 = 0.8M) not counted here.
    counted = count_parameters(
        DecoderShape(12, 768, 12, 12, 3072, 50257, gated_mlp=False, tied_embeddings=True)
    )
    assert counted.total_params == pytest.approx(124e6, rel=0.02)


def test_shared_experts_and_leading_dense_layers_count_once() -> None:
    # Qwen1.5-MoE-A2.7B: 14.3B total, 2.7B active (Qwen blog, 2024), 60 experts top-4 of width
    # 1408 and a shared expert of 5632, 24 layers of 2048, vocabulary 151,936.
    counted = count_parameters(
        DecoderShape(
            24,
            2048,
            16,
            16,
            5632,
            151936,
            experts=60,
            experts_per_token=4,
            expert_ffn_hidden_size=1408,
            shared_expert_ffn_hidden_size=5632,
        )
    )
    assert counted.total_params == pytest.approx(14.3e9, rel=0.02)
    assert counted.active_params == pytest.approx(2.7e9, rel=0.03)


@pytest.mark.parametrize(
    "figures",
    [
        {"layers": 10**400, "hidden_size": 10**400},
        {"layers": 10**300, "hidden_size": 10**300, "experts": 10**300},
        {"layers": 1e300, "hidden_size": 1e300},  # floats where whole numbers belong
        {"vocab_size": 10**5000},
    ],
    ids=[
        "400-digit-layers-and-width",
        "300-digit-experts",
        "float-figures",
        "5000-digit-vocabulary",
    ],
)
def test_a_count_too_large_for_a_float_is_infinite_not_an_error(figures) -> None:
    shape = {"layers": 32, "hidden_size": 4096, "vocab_size": 32000, **figures}
    counted = count_parameters(
        DecoderShape(
            layers=shape["layers"],
            hidden_size=shape["hidden_size"],
            attention_heads=32,
            kv_heads=8,
            ffn_hidden_size=14336,
            vocab_size=shape["vocab_size"],
            experts=figures.get("experts", 1),
        )
    )
    assert counted.total_params == math.inf
