"""Memory formulas against worked examples from their sources."""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest

from sizing.engine import parse_input, size_dict
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.memory import (
    activation_bytes_per_layer,
    bytes_per_param,
    usable_gb,
    zero_model_states_gb,
)
from sizing.engine.parallelism import Workload, plan_memory, workload
from sizing.engine.resolve.resolved import resolve

# Published MoE shapes.  Mixtral 8x7B: 46.7B parameters, 12.9B per token, 32 layers, 8 experts,
# top-2 (Jiang et al., arXiv 2401.04088; Mistral AI, "Mixtral of experts", 2023-12-11).
# DeepSeek-V3: 671B parameters, 37B per token, 61 layers, 256 routed experts + 1 shared, top-8
# (DeepSeek-AI, arXiv 2412.19437, sec. 4.2).  Both are in the engine's model catalog.
MIXTRAL_PARAMS = 46.7e9
DEEPSEEK_V3_PARAMS = 671e9
BF16_ADAMW_BYTES = 18  # 2 weights + 4 FP32 gradients + 12 master and moments (docs/engine.md)


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
    # sbh(34 + 5as/h) bytes per layer, GPT-3 175B shape: s=2048, b=1, h=12288, a=96, less
    # the two 1-byte dropout masks a pre-training run without dropout does not keep
    s, b, h, a = 2048, 1, 12288, 96
    expected = s * b * h * (34 - 2 + 5 * a * s / h)
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


def _pretrain(model: str, accelerator: str, count: int | None = None) -> dict[str, Any]:
    hardware: dict[str, Any] = {"accelerator": accelerator}
    if count is not None:
        hardware["count"] = count
    return {
        "model": {"name": model},
        "training": {"method": "pretrain"},
        "data": {"tokens": 1e11},
        "hardware": hardware,
    }


def _workload(model: str) -> Workload:
    inputs = parse_input(_pretrain(model, "h100-sxm"))
    return workload(resolve(inputs, today=datetime.date(2026, 1, 1)))


def _states_gb(w: Workload, *, tp: int, pp: int, dp: int, ep: int, zero: int) -> float:
    m = plan_memory(
        w,
        ACCELERATORS["h100-sxm"],
        tp=tp,
        pp=pp,
        dp=dp,
        ep=ep,
        zero=zero,
        micro_batch=1,
        recompute="full",
    )
    return m.weights_gb + m.gradients_gb + m.optimizer_gb


@pytest.mark.parametrize(
    ("tp", "pp", "dp", "ep"),
    [(1, 1, 4, 4), (1, 1, 16, 8), (2, 2, 8, 2), (8, 4, 32, 8), (1, 1, 8, 1)],
)
def test_zero3_moe_states_summed_over_all_gpus_are_the_whole_model(
    tp: int, pp: int, dp: int, ep: int
) -> None:
    # ZeRO-3 keeps exactly one copy of every state: 46.7B x 18 B = 841 GB over the cluster.
    w = _workload("Mixtral 8x7B")
    per_gpu = _states_gb(w, tp=tp, pp=pp, dp=dp, ep=ep, zero=3)
    assert per_gpu * tp * pp * dp == pytest.approx(MIXTRAL_PARAMS * BF16_ADAMW_BYTES / 1e9)


def test_zero_shards_expert_states_only_over_the_expert_data_parallel_group() -> None:
    # DeepSpeed-MoE (deepspeed/utils/groups.py, _create_expert_and_data_parallel) and
    # Megatron-Core (MoE parallel folding, arXiv 2504.14960): with EP = 8 inside DP = 16,
    # expert gradients are reduced and their optimizer state sharded over DP / EP = 2 ranks,
    # the dense ones over all 16.  ZeRO-1: weights and gradients whole, optimizer sharded.
    w = _workload("Mixtral 8x7B")
    bpp = w.bpp
    dense, expert = w.dense_params, w.expert_params / 8
    expected = (
        dense * (bpp.weights + bpp.gradients + bpp.optimizer / 16)
        + expert * (bpp.weights + bpp.gradients + bpp.optimizer / 2)
    ) / 1e9
    assert _states_gb(w, tp=1, pp=1, dp=16, ep=8, zero=1) == pytest.approx(expected)


def test_mixtral_8x7b_full_pretraining_does_not_fit_on_4_h100() -> None:
    # 841 GB of model states alone exceed 4 x 76 GB usable.
    out = size_dict(_pretrain("Mixtral 8x7B", "h100-sxm", count=4))
    assert out["memory"]["fits"] is False
    usable = usable_gb(ACCELERATORS["h100-sxm"].memory_gb)
    assert out["memory"]["min_gpus"] >= math.ceil(MIXTRAL_PARAMS * BF16_ADAMW_BYTES / 1e9 / usable)


def test_deepseek_v3_pretraining_does_not_fit_on_32_h800() -> None:
    # 671B x 18 B = 12.1 TB of model states: at least 159 H800 (76 GB usable) before activations.
    out = size_dict(_pretrain("DeepSeek-V3", "h800", count=32))
    assert out["memory"]["fits"] is False
    usable = usable_gb(ACCELERATORS["h800"].memory_gb)
    need = math.ceil(DEEPSEEK_V3_PARAMS * BF16_ADAMW_BYTES / 1e9 / usable)
    assert out["memory"]["min_gpus"] >= need


def _finetune_65b(count: int | None) -> dict[str, Any]:
    hardware: dict[str, Any] = {"accelerator": "a100-80gb"}
    if count is not None:
        hardware["count"] = count
    return {
        "model": {"total_params": 65e9},
        "training": {"method": "full_finetune"},
        "data": {"tokens": 1e9},
        "hardware": hardware,
    }


def test_65b_full_finetune_on_8_a100_reports_the_memory_minimum_and_warns() -> None:
    # 65B x 18 B = 1,170 GB of states: 8 x 76 GB cannot hold them, 16 can (ZeRO-3).
    alone = size_dict(_finetune_65b(None))
    out = size_dict(_finetune_65b(8))
    assert out["memory"]["fits"] is False
    assert out["memory"]["min_gpus"] == alone["memory"]["min_gpus"] == 16
    assert any("at least 16" in w for w in out["warnings"])


@pytest.mark.parametrize("count", [8, 16, 64])
def test_min_gpus_does_not_depend_on_the_given_count(count: int) -> None:
    alone = size_dict(_finetune_65b(None))
    assert size_dict(_finetune_65b(count))["memory"]["min_gpus"] == alone["memory"]["min_gpus"]


def test_a_given_count_that_fits_bounds_min_gpus_under_forced_degrees() -> None:
    # Korthikanti et al. (arXiv 2205.05198, table 3): 530B on 280 A100 as tensor 8 x pipeline 35.
    # No power of two or doubling of nodes is a multiple of 280, so the search alone finds none.
    out = size_dict(
        {
            "model": {
                "total_params": 530e9,
                "layers": 105,
                "hidden_size": 20480,
                "attention_heads": 128,
                "vocab_size": 51200,
            },
            "training": {"method": "pretrain", "gradient_checkpointing": True},
            "data": {"tokens": 1e12},
            "batch": {"sequence_length": 2048, "global_batch_tokens": 573440},
            "hardware": {"accelerator": "a100-80gb", "count": 280},
            "parallelism": {"tensor": 8, "pipeline": 35},
        }
    )
    assert out["memory"]["fits"] is True
    assert out["memory"]["min_gpus"] == 280
