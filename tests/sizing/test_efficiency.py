"""Efficiency model: FP8, MoE expert GEMMs and dense MFU against published measurements."""

from __future__ import annotations

from typing import Any

import pytest

from sizing.engine import size_dict


def _run(
    model: dict[str, Any],
    *,
    accelerator: str,
    gpus: int,
    precision: str = "bf16",
    parallelism: dict[str, int] | None = None,
    seq: int = 4096,
    batch_sequences: int = 256,
) -> dict[str, Any]:
    data = {
        "model": model,
        "training": {"method": "pretrain", "precision": precision, "optimizer": "adamw"},
        "data": {"tokens": 1e12},
        "batch": {"sequence_length": seq, "global_batch_tokens": batch_sequences * seq},
        "hardware": {"accelerator": accelerator, "count": gpus},
        "parallelism": parallelism or {},
    }
    return size_dict(data)["compute"]


def test_fp8_runs_from_the_fp8_peak_beyond_the_old_1_3x_cap() -> None:
    # Megatron-Bridge 25.11 DGX-H100: Llama 3 70B FP8 on 64 GPUs at 1,602 tokens/s/GPU
    # (719 model TFLOP/s, 0.73 of the BF16 peak), well above 1.3x a BF16 run.
    kw: dict[str, Any] = {
        "accelerator": "h100-sxm",
        "gpus": 64,
        "parallelism": {"tensor": 4, "pipeline": 8},
        "seq": 8192,
        "batch_sequences": 128,
    }
    bf16 = _run({"name": "Llama 3 70B"}, precision="bf16", **kw)
    fp8 = _run({"name": "Llama 3 70B"}, precision="fp8", **kw)
    speedup = fp8["tokens_per_s"] / bf16["tokens_per_s"]
    assert 1.35 < speedup < 2.0


def _moe(experts: int, top_k: int) -> dict[str, Any]:
    return {
        "total_params": 30e9,
        "active_params": 3.3e9,
        "layers": 48,
        "hidden_size": 2048,
        "attention_heads": 32,
        "kv_heads": 4,
        "vocab_size": 151936,
        "experts": experts,
        "experts_per_token": top_k,
        "architecture": "moe",
    }


def test_finer_experts_run_smaller_gemms_at_lower_utilisation() -> None:
    # Same total and active parameters; 128 experts of width 768 (Qwen3-30B-A3B) against
    # 16 experts eight times wider (no expert parallelism, so no all-to-all differs): each
    # expert GEMM of the fine model gets an eighth of the tokens.
    kw: dict[str, Any] = {"accelerator": "h100-sxm", "gpus": 8, "parallelism": {"expert": 1}}
    fine = _run(_moe(128, 8), **kw)
    coarse = _run(_moe(16, 1), **kw)
    assert fine["assumed_mfu"] < 0.92 * coarse["assumed_mfu"]


def test_dense_7b_on_8_h100_is_within_public_measurements() -> None:
    # MPT-7B on 8 x H100 (llm-foundry benchmarks): 0.46 MFU; public 7-8B H100 runs 0.33-0.46.
    mpt7b = {
        "total_params": 6.66e9,
        "layers": 32,
        "hidden_size": 4096,
        "attention_heads": 32,
        "vocab_size": 50432,
    }
    c = _run(
        mpt7b,
        accelerator="h100-sxm",
        gpus=8,
        parallelism={"tensor": 1, "pipeline": 1, "zero_stage": 3},
        seq=2048,
        batch_sequences=512,
    )
    assert 0.33 <= c["assumed_mfu"] <= 0.48


@pytest.mark.parametrize(
    ("model", "accelerator", "gpus", "low", "high"),
    [
        # MosaicML llm-foundry throughput table: MPT-7B on 8 H100 0.46 MFU; public 7-8B runs
        # on one H100 node measure 0.33-0.46 (issue 10, defect 6).
        ("Llama 2 7B", "h100-sxm", 8, 0.33, 0.50),
        # MPT-65B on 64 A100-80GB: 0.53 MFU; the engine said 0.57 before, 0.60-0.67 earlier.
        ("Llama 2 70B", "a100-80gb", 64, 0.40, 0.56),
    ],
)
def test_dense_utilisation_where_customers_live_stays_within_public_measurements(
    model: str, accelerator: str, gpus: int, low: float, high: float
) -> None:
    out = size_dict(
        {
            "model": {"name": model},
            "training": {"method": "pretrain"},
            "data": {"tokens": 1e11},
            "hardware": {"accelerator": accelerator, "count": gpus},
        }
    )
    assert low <= out["compute"]["assumed_mfu"] <= high
