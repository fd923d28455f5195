"""Small models on fused stacks (issue 27, defect 8).

llm.c trains GPT-2 with hand-written CUDA kernels: the element-wise work is fused into fewer
passes over memory, and the loss over the 50,257-token vocabulary is one kernel.  For a small
model that work is much of the step (the loss alone moves as many bytes per token as the 12
layers of GPT-2 124M), and the engine, whose memory-bound term is fitted on framework runs,
said llm.c's published step times were 1.4-1.75x slower than they are.  The published figures
are the step times in llm.c's scripts (``tests/sizing/data/published_runs.json``, source
``llm.c``: karpathy/llm.c ``scripts/run_gpt2_124M.sh``, ``run_gpt2_350M.sh``,
``run_gpt2_1558M.sh``) and TinyLlama's 24,000 tokens/s per A100-40GB (its README).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from sizing.engine.cluster import estimate_run
from sizing.engine.compute import training_flops
from sizing.engine.hardware import ACCELERATORS, peak_tflops
from sizing.engine.kernel_fusion import fuses_kernels, memory_bound_scale
from sizing.engine.parallelism import workload
from sizing.engine.resolve.resolved import resolve
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 4)
ROWS = {
    row["id"]: row
    for row in json.loads(
        (Path(__file__).parent / "data" / "published_runs.json").read_text(encoding="utf-8")
    )["rows"]
}
# The engine's efficiency ceilings are fitted end to end on framework runs (matmul ceiling
# 0.6, typical stack 0.94); llm.c's cuBLAS GEMMs reach more of the peak than that, so the
# engine may stay up to a third slower than llm.c's published step.
SLOWER_AT_MOST = 1.35


def _tokens_per_s_per_gpu(data: dict[str, Any], accelerator: str, **software: Any) -> float:
    data = json.loads(json.dumps(data))
    data.setdefault("hardware", {})["accelerator"] = accelerator
    if software:
        data["software"] = software
    r = resolve(parse_input(data), today=TODAY)
    w = workload(r)
    acc = ACCELERATORS[r.accelerator]
    assert r.count is not None
    run = estimate_run(w, r, acc, r.count, training_flops(w.model_flops_per_token, r.tokens, 1))
    return peak_tflops(acc, r.precision) * 1e12 * run.plan.mfu / w.model_flops_per_token


def _gpt2(params: float, layers: int, hidden: int, heads: int, tokens_per_step: int) -> dict:
    """GPT-2 as llm.c's scripts train it: 1,024-token sequences, 8 GPUs, no recomputation."""
    return {
        "model": {
            "total_params": params,
            "layers": layers,
            "hidden_size": hidden,
            "attention_heads": heads,
            "ffn_hidden_size": 4 * hidden,
            "vocab_size": 50257,
        },
        "training": {
            "method": "pretrain",
            "precision": "bf16",
            "optimizer": "adamw",
            "gradient_checkpointing": False,
        },
        "data": {"tokens": 1e10},
        "batch": {"sequence_length": 1024, "global_batch_tokens": tokens_per_step},
        "hardware": {"count": 8},
    }


# karpathy/llm.c scripts (source ``llm.c`` of published_runs.json; commit f1e2ace): each
# header gives the step time of the script's 8 GPUs; published tokens/s per GPU =
# tokens a step / step time / 8.
LLM_C = {
    # run_gpt2_124M.sh: 524,288 tokens a step at ~300 ms on 8 A100 80GB SXM (the row
    # pt-llmc-gpt2-124m: 18,865 steps, 94.3 minutes)
    "124M": (_gpt2(124e6, 12, 768, 12, 524288), "a100-80gb", 524288 / 0.300 / 8),
    # run_gpt2_350M.sh: 524,288 tokens a step at ~820 ms on 8 A100 80GB SXM
    "350M": (_gpt2(350e6, 24, 1024, 16, 524288), "a100-80gb", 524288 / 0.820 / 8),
    # run_gpt2_1558M.sh: 1,048,576 tokens a step at 2.80 s on 8 H100 80GB SXM
    "1558M": (_gpt2(1558e6, 48, 1600, 25, 1048576), "h100-sxm", 1048576 / 2.80 / 8),
}


def test_a_fused_stack_moves_a_third_of_gpt2_small_memory_bound_bytes() -> None:
    # (82 h L + 4 V) / (110 h L + 36 V): per token, the fused layers' and loss's bytes over the
    # unfused ones' (kernel_fusion's module docstring counts them kernel by kernel)
    gpt2 = {"hidden": 768, "layers": 12, "vocab": 50257}
    expected = (82 * 768 * 12 + 4 * 50257) / (110 * 768 * 12 + 36 * 50257)
    assert memory_bound_scale(fused=True, **gpt2) == pytest.approx(expected)
    assert 0.33 < expected < 0.35
    # a large model's vocabulary is small against its layers: fusion saves less
    llama70 = memory_bound_scale(fused=True, hidden=8192, layers=80, vocab=128256)
    assert 0.69 < llama70 < 0.72
    assert memory_bound_scale(fused=False, **gpt2) == 1.0


def test_fused_stacks_are_those_that_write_their_own_kernels() -> None:
    assert fuses_kernels(custom_cuda_kernels=True, frameworks=())
    assert fuses_kernels(custom_cuda_kernels=False, frameworks=("pytorch", "triton"))
    assert fuses_kernels(custom_cuda_kernels=False, frameworks=("cuda",))
    assert not fuses_kernels(custom_cuda_kernels=False, frameworks=("pytorch", "deepspeed"))


@pytest.mark.parametrize("size", sorted(LLM_C))
def test_llm_c_runs_near_its_published_step_time(size: str) -> None:
    # The engine said 1.76x slower than llm.c's 124M on 8 A100, now 1.26x; 350M 1.62x ->
    # 1.31x; 1558M on 8 H100 1.43x -> 1.21x (the team writes its own CUDA kernels)
    data, accelerator, published = LLM_C[size]
    engine = _tokens_per_s_per_gpu(data, accelerator, custom_cuda_kernels=True)
    assert published / SLOWER_AT_MOST < engine < published


def test_the_124m_row_is_the_script_the_test_reads() -> None:
    row = ROWS["pt-llmc-gpt2-124m"]
    data, accelerator, published = LLM_C["124M"]
    assert row["engine_accelerator"] == accelerator
    assert row["engine_input"]["batch"]["global_batch_tokens"] == 524288
    # its 10B tokens are the script's 18,865 steps of 524,288 (9.89B), rounded
    gpu_hours = row["hardware_count"] * row["wall_clock_days"] * 24.0
    assert row["tokens"] / (gpu_hours * 3600.0) == pytest.approx(published, rel=0.02)


def test_tinyllama_answered_as_its_fused_stack_runs_near_its_published_speed() -> None:
    # TinyLlama's README: FSDP with FlashAttention-2's fused layer norm, rotary embedding and
    # cross-entropy and xformers' fused SwiGLU, 24,000 tokens/s per A100-40GB on 16.  Its
    # row answers only "PyTorch" (set aside, unchanged: 1.35x slower); answered as a stack
    # with kernels of its own (Triton) it is 1.21x slower.
    row = ROWS["tp-tinyllama-1.1b-16xa100-40gb"]
    published = float(row["tokens_per_sec_per_gpu"])
    data, accelerator = row["engine_input"], row["engine_accelerator"]
    plain = _tokens_per_s_per_gpu(data, accelerator)
    fused = _tokens_per_s_per_gpu(data, accelerator, frameworks=["pytorch", "triton"])
    assert plain < fused
    assert published / SLOWER_AT_MOST < fused < published


def test_an_unfused_framework_run_is_sized_as_before() -> None:
    # nanoGPT (PyTorch DDP) on the same model: no kernels of its own, no change
    row = ROWS["pt-nanogpt-gpt2-124m"]
    data, accelerator = row["engine_input"], row["engine_accelerator"]
    assert _tokens_per_s_per_gpu(data, accelerator) == pytest.approx(
        _tokens_per_s_per_gpu(data, accelerator, frameworks=["pytorch"], custom_cuda_kernels=False)
    )
