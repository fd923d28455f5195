"""LoRA on a mixture-of-experts model: PEFT's "all-linear" adapts every expert, so the
adapters, their memory and their checkpoint count all experts; their compute only the
experts a token uses."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.compute import lora_params
from sizing.engine.models import find_model
from sizing.engine.parallelism import workload
from sizing.engine.resolve.resolved import resolve
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 3)
MIXTRAL = {"model": {"name": "Mixtral 8x7B"}, "training": {"method": "lora", "lora_rank": 16}}


def _workload(answers: dict[str, Any]) -> Any:
    return workload(resolve(parse_input(answers), today=TODAY))


def test_mixtral_adapters_cover_all_eight_experts_and_the_router() -> None:
    # Mixtral 8x7B, rank 16: per layer q, k, v, o (4096 -> 4096, kv 1024), each expert's
    # w1, w3 (4096 -> 14336) and w2 (14336 -> 4096), the router (4096 -> 8); 32 layers
    per_layer = 2 * (4096 + 4096) + 2 * (4096 + 1024) + 8 * 3 * (4096 + 14336) + (4096 + 8)
    assert _workload(MIXTRAL).adapter_params == pytest.approx(32 * per_layer * 16)


def test_mixtral_adapter_compute_counts_only_the_two_experts_a_token_uses() -> None:
    spec = find_model("Mixtral 8x7B")
    assert spec is not None
    w = _workload(MIXTRAL)
    shape = (spec.layers, spec.hidden_size, spec.attention_heads, spec.kv_heads)
    active = lora_params(*shape, spec.ffn_hidden_size, 16, experts=2, router_experts=8)
    # causal attention: 6 L h s (half of PaLM's 12 L h s)
    per_token = 4 * w.active_params + 6 * active + 6 * spec.layers * spec.hidden_size * w.seq
    assert w.model_flops_per_token == pytest.approx(per_token)


def test_the_adapter_checkpoint_of_an_moe_reflects_every_expert() -> None:
    mixtral = size_dict(MIXTRAL, today=TODAY)
    dense = size_dict(
        {"model": {"name": "Llama 3.1 8B"}, "training": {"method": "lora", "lora_rank": 16}},
        today=TODAY,
    )
    # the same attention width; eight 14,336-wide MLPs instead of one
    ratio = mixtral["storage"]["checkpoint_size_gb"] / dense["storage"]["checkpoint_size_gb"]
    assert 5.0 < ratio < 6.5
    (targets,) = [a for a in mixtral["assumptions"] if a["key"] == "training.lora_targets"]
    assert "all 8 experts" in targets["value"] and targets["provided_by"] == "assumed"
