"""Memory formulas against worked examples from their sources."""

from __future__ import annotations

import pytest

from sizing.engine import size_dict
from sizing.engine.memory import (
    activation_bytes_per_layer,
    bytes_per_param,
    zero_model_states_gb,
)


@pytest.mark.parametrize(
    ("stage", "expected_gb"),
    # ZeRO paper (arXiv 1910.02054), Figure 1: Psi = 7.5B, N_d = 64, K = 12
    [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)],
)
def test_zero_paper_model_states_per_gpu(stage: int, expected_gb: float) -> None:
    bpp = bytes_per_param("bf16", "adamw", grad_bytes=2)
    assert bpp.total == 16
    assert sum(zero_model_states_gb(7.5e9, bpp, stage, 64)) == pytest.approx(expected_gb, rel=0.02)


@pytest.mark.parametrize(
    ("precision", "total"),
    # 16: fp32 (4+4+8); 18: bf16 with FP32 gradient accumulation; 20: fp16 with fp16 + fp32 grads
    # (Megatron-LM distributed optimizer table)
    [("fp32", 16), ("bf16", 18), ("fp16", 20)],
)
def test_bytes_per_param_16_18_20(precision: str, total: float) -> None:
    assert bytes_per_param(precision, "adamw").total == total


def test_eight_bit_adam_saves_six_bytes_per_param() -> None:
    assert bytes_per_param("bf16", "adamw").total - bytes_per_param("bf16", "adamw_8bit").total == 6


def test_korthikanti_activation_formula_without_flash_attention() -> None:
    # sbh(34 + 5as/h) bytes per layer, GPT-3 175B shape: s=2048, b=1, h=12288, a=96
    s, b, h, a = 2048, 1, 12288, 96
    expected = s * b * h * (34 + 5 * a * s / h)
    got = activation_bytes_per_layer(s, b, h, a, 1, "none", flash_attention=False)
    assert got == pytest.approx(expected)


def test_tensor_and_sequence_parallel_divide_activations_by_t() -> None:
    full = activation_bytes_per_layer(2048, 1, 12288, 96, 1, "none")
    assert activation_bytes_per_layer(2048, 1, 12288, 96, 8, "none") == pytest.approx(full / 8)


def test_full_recomputation_keeps_2sbh_per_layer() -> None:
    assert activation_bytes_per_layer(2048, 1, 4096, 32, 1, "full") == pytest.approx(
        2 * 2048 * 4096
    )


def test_qlora_70b_fits_on_one_80gb_gpu() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 70B"},
            "training": {"method": "qlora", "gradient_checkpointing": True},
            "data": {"tokens": 1e7},
            "batch": {"sequence_length": 2048},
            "hardware": {"accelerator": "a100-80gb", "count": 1},
        }
    )
    assert out["memory"]["fits"] is True
    assert out["memory"]["per_gpu_gb"] < 80


def test_full_finetune_70b_does_not_fit_on_one_gpu() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 70B"},
            "training": {"method": "full_finetune"},
            "data": {"tokens": 1e7},
            "hardware": {"accelerator": "h100-sxm", "count": 1},
        }
    )
    assert out["memory"]["fits"] is False
    assert any("does not fit" in w for w in out["warnings"])


def test_lora_needs_less_memory_than_full_finetuning() -> None:
    base = {"model": {"name": "Llama 3.1 8B"}, "data": {"tokens": 1e8}}
    lora = size_dict({**base, "training": {"method": "lora"}})
    full = size_dict({**base, "training": {"method": "full_finetune"}})
    assert lora["memory"]["min_gpus"] <= full["memory"]["min_gpus"]
    assert lora["memory"]["bytes_per_param"]["total"] < full["memory"]["bytes_per_param"]["total"]
