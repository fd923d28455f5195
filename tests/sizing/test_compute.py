"""FLOPs and GPU-hours against worked examples."""

from __future__ import annotations

import pytest

from sizing.engine import size_dict
from sizing.engine.compute import flops_per_token, recompute_flops_per_token


def test_palm_flops_per_token_is_6n_plus_12lhs_when_every_query_sees_every_key() -> None:
    # PaLM appendix B: 6N + 12 L H Q T with H*Q = h; a causal mask halves the attention
    # term (FlashAttention-2, sec. 4.1): 6N + 6 L h s
    full = flops_per_token(7e9, 32, 4096, 4096, "pretrain", causal=False)
    assert full == 6 * 7e9 + 12 * 32 * 4096 * 4096
    assert flops_per_token(7e9, 32, 4096, 4096, "pretrain") == 6 * 7e9 + 6 * 32 * 4096 * 4096


def test_lora_skips_weight_gradients() -> None:
    full = flops_per_token(7e9, 32, 4096, 2048, "full_finetune")
    lora = flops_per_token(7e9, 32, 4096, 2048, "lora", adapter_params=4e7)
    assert lora == pytest.approx(full - 2 * 7e9 + 6 * 4e7)


def test_recomputation_is_hardware_work_not_model_work() -> None:
    # a forward pass again: 2 N and a third of the attention (4 L h s in full, 2 causal)
    assert recompute_flops_per_token(7e9, 32, 4096, 2048, "full") == 2 * 7e9 + 2 * 32 * 4096 * 2048
    full_attention = recompute_flops_per_token(7e9, 32, 4096, 2048, "full", causal=False)
    assert full_attention == 2 * 7e9 + 4 * 32 * 4096 * 2048
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "training": {"gradient_checkpointing": True},
            "data": {"tokens": 1e9, "epochs": 1},
        }
    )
    c = out["compute"]
    assert c["hardware_flops_per_token"] > c["flops_per_token"]
    assert c["training_flops"] == pytest.approx(c["flops_per_token"] * 1e9, rel=1e-5)


def test_moe_compute_uses_active_parameters() -> None:
    out = size_dict(
        {
            "model": {"name": "Mixtral 8x7B"},
            "data": {"tokens": 1e9},
            "batch": {"sequence_length": 4096},
        }
    )
    assert out["compute"]["flops_per_token"] < 6 * 20e9


def _days(tokens: float, gpus: int) -> tuple[float, float]:
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "training": {"method": "full_finetune"},
            "data": {"tokens": tokens},
            "hardware": {"accelerator": "h100-sxm", "count": gpus},
        }
    )
    return out["compute"]["gpu_hours"], out["timeline"]["wall_clock_days"]


def test_mission_example_3000_gpu_hours_is_15_days_on_8_or_4_days_on_32() -> None:
    hours, _ = _days(1e10, 8)
    tokens = 1e10 * 3000 / hours
    hours8, days8 = _days(tokens, 8)
    _, days32 = _days(tokens, 32)
    assert hours8 == pytest.approx(3000, rel=0.01)
    assert days8 == pytest.approx(15, rel=0.1)
    assert days32 == pytest.approx(4, rel=0.15)


def test_rule_of_thumb_is_reported_for_comparison() -> None:
    out = size_dict({"model": {"name": "Llama 2 7B"}, "data": {"tokens": 1e12}})
    assert out["compute"]["rule_of_thumb_gpu_hours"] > 0
