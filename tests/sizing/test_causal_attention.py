"""Attention FLOPs of a causal decoder are half of every query against every key (issue 27,
defect 6).

A causal mask leaves each query ``(i + 1)`` of the ``s`` keys, ``(s + 1) / 2`` on average, and
the kernels skip the masked blocks: Dao, FlashAttention-2 (arXiv 2307.08691), sec. 4.1,
"with causal mask, we divide this number by 2".  PaLM's ``6 N + 12 L h s`` (arXiv 2204.02311,
app. B) counts the full square, which at long context doubles the attention the engine timed.
Encoders of images, video and audio (ViT, DiT, Whisper's encoder) attend both ways.
"""

from __future__ import annotations

import datetime

import pytest

from sizing.engine.compute import (
    attends_causally,
    attention_flops_per_token,
    flops_per_token,
)
from sizing.engine.core import size
from sizing.engine.parallelism import workload
from sizing.engine.resolve.resolved import resolve
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 4)


@pytest.mark.parametrize(
    ("layers", "hidden", "seq", "causal", "expected"),
    [
        # Llama 3.1 8B (32 layers, h 4,096) at 131,072 tokens: 6 L h s causal
        (32, 4096, 131072, True, 6 * 32 * 4096 * 131072),  # 1.03e11
        (32, 4096, 131072, False, 12 * 32 * 4096 * 131072),  # 2.06e11
        # Llama 3.1 405B (126 layers, h 16,384) at 8,192: 1.01e11 against 6 N = 2.43e12
        (126, 16384, 8192, True, 6 * 126 * 16384 * 8192),
    ],
)
def test_attention_flops_count_the_keys_a_query_attends_to(
    layers: int, hidden: int, seq: int, causal: bool, expected: float
) -> None:
    assert attention_flops_per_token(layers, hidden, seq, causal) == pytest.approx(expected)


def test_exact_causal_count_is_half_the_square_at_long_context() -> None:
    # sum over queries i = 0 .. s-1 of (i + 1) keys = s (s + 1) / 2: per token (s + 1) / 2 keys
    seq = 131072
    exact_keys = (seq + 1) / 2
    engine_keys = attention_flops_per_token(1, 1, seq) / 12.0
    assert engine_keys == pytest.approx(exact_keys, rel=1e-4)


@pytest.mark.parametrize(
    ("modality", "causal"),
    [("text", True), ("multimodal", True), (None, True), ("image", False), ("video", False)],
)
def test_decoders_attend_causally_and_media_encoders_both_ways(
    modality: str | None, causal: bool
) -> None:
    assert attends_causally(modality) is causal


def test_a_long_context_8b_run_counts_the_causal_flops() -> None:
    # Llama 3.1 8B on 10B tokens at 131,072 tokens a sequence: 6 N = 4.8e10 FLOP a token;
    # attention 1.03e11 causal, where the engine counted 2.06e11 (1.7x the work in total).
    data = {
        "model": {"name": "Llama 3.1 8B"},
        "training": {"method": "continued_pretrain"},
        "data": {"tokens": 1e10, "modality": "text"},
        "hardware": {"accelerator": "h100-sxm", "count": 64},
        "batch": {"sequence_length": 131072, "global_batch_tokens": 8 * 131072},
    }
    r = resolve(parse_input(data), today=TODAY)
    w = workload(r)
    assert w.causal
    causal = flops_per_token(r.active_params, 32, 4096, 131072, "continued_pretrain")
    assert w.model_flops_per_token == pytest.approx(causal)
    assert w.model_flops_per_token == pytest.approx(6 * r.active_params + 6 * 32 * 4096 * 131072)
    rec = size(parse_input(data), today=TODAY)
    assert rec.compute.flops_per_token == pytest.approx(causal, rel=1e-5)
    # the full count (the old engine's) would be 1.7x the causal work here
    full = flops_per_token(r.active_params, 32, 4096, 131072, "continued_pretrain", causal=False)
    assert full / causal == pytest.approx((6 * r.active_params + 12 * 32 * 4096 * 131072) / causal)
    assert full / causal > 1.6


def test_a_video_diffusion_transformer_keeps_the_full_attention_count() -> None:
    # DiT attends every patch to every patch (Peebles and Xie, arXiv 2212.09748): 12 L h s
    data = {
        "model": {"total_params": 3e9, "layers": 28, "hidden_size": 3072, "attention_heads": 24},
        "training": {"method": "pretrain"},
        "data": {"tokens": 1e10, "modality": "video"},
        "batch": {"sequence_length": 4096},
    }
    w = workload(resolve(parse_input(data), today=TODAY))
    assert not w.causal
    expected = flops_per_token(w.active_params, 28, 3072, 4096, "pretrain", causal=False)
    assert w.model_flops_per_token == pytest.approx(expected)
    assert expected - 6 * w.active_params == pytest.approx(12 * 28 * 3072 * 4096)
