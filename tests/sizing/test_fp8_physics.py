"""FP8 speed and checkpoints (issue 27, defect 5).

FP8 doubles the tensor-core peak of the linear layers, but the run is not twice as fast: the
attention, the memory-bound kernels and the communication stay as they were, and every linear
layer's input and output gradient must first be cast to FP8, a memory-bound pass a BF16 run
does not make (Transformer Engine user guide; DeepSeek-V3, arXiv 2412.19437, sec. 3.3.4).
Nor does an FP8 GEMM run twice a BF16 one: NVIDIA measures 1.75x on large matrices on
Hopper (cuBLAS 12.9).  Public end-to-end speed-ups for 70B-class models on H100 are about
1.3-1.45x; the engine said 1.50-1.65x, now 1.40x.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from sizing.engine.assumptions import value
from sizing.engine.cluster import estimate_run
from sizing.engine.compute import training_flops
from sizing.engine.efficiency import base_hfu
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.parallelism import workload
from sizing.engine.quantisation import CAST_BYTES_PER_VALUE, cast_bytes_per_flop
from sizing.engine.resolve.resolved import resolve
from sizing.engine.storage import checkpoint_bytes_per_param
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 4)


def _answers(precision: str, gpus: int = 1024) -> dict[str, Any]:
    return {
        "model": {"name": "Llama 3 70B"},
        "training": {"method": "pretrain", "precision": precision},
        "data": {"tokens": 1e12},
        "batch": {"sequence_length": 8192, "global_batch_tokens": 2**22},
        "hardware": {"accelerator": "h100-sxm", "count": gpus},
    }


def _gpu_hours(data: dict[str, Any]) -> float:
    r = resolve(parse_input(data), today=TODAY)
    w = workload(r)
    assert r.count is not None
    flops = training_flops(w.model_flops_per_token, r.tokens, r.epochs)
    return estimate_run(w, r, ACCELERATORS[r.accelerator], r.count, flops).gpu_hours


def test_fp8_pays_for_casting_each_linear_input_and_output_gradient() -> None:
    h100 = ACCELERATORS["h100-sxm"]
    # a GPT layer casts 16 h values (7 h forward inputs, 9 h backward gradients) per 72 h^2
    # FLOPs, 4 bytes each (16-bit read, FP8 and transposed FP8 written)
    assert cast_bytes_per_flop("fp8", 8192) == pytest.approx(4 * 16 / (72 * 8192))
    assert CAST_BYTES_PER_VALUE == 4
    assert cast_bytes_per_flop("bf16", 8192) == 0.0
    with_casts = base_hfu(h100, "fp8", 8192, keys=4096)
    # the same roofline without the cast pass, worked out by hand
    eta, c = value("eff_matmul_ceiling"), value("eff_memory_bound_coefficient")
    p, bw = 1979.0, h100.memory_bw_tbps
    no_casts = 1 / (p * (1 / (eta * p) + c / (bw * (8192 + 4096 / 6))))
    assert with_casts < no_casts * value("eff_software_cuda")


def test_a_dense_fp8_gemm_runs_1_75x_a_bf16_one_not_the_2x_of_the_peaks() -> None:
    # NVIDIA, "Boosting Matrix Multiplication Speed and Flexibility with NVIDIA cuBLAS 12.9"
    # (2025-05): FP8 matmuls on Hopper run 1.75x the BF16 baseline on large matrices.  With
    # only GEMMs (no attention, no memory-bound work: an infinitely wide layer) the FP8 run's
    # utilisation of its own (doubled) peak is 1.75 / 2 of the BF16 run's.
    h100 = ACCELERATORS["h100-sxm"]
    assert value("fp8_gemm_speedup_over_bf16") == 1.75
    wide = 10**9
    bf16 = base_hfu(h100, "bf16", wide) * 989.0
    fp8 = base_hfu(h100, "fp8", wide) * 1979.0
    assert fp8 / bf16 == pytest.approx(1.75, rel=0.01)


def test_fp8_is_faster_than_bf16_by_what_published_runs_see() -> None:
    speedup = _gpu_hours(_answers("bf16")) / _gpu_hours(_answers("fp8"))
    # public 1.3-1.45x for 70B on H100.  1.56x before the casts were charged; 1.51x with the
    # constants refitted on the 101 published rows (engine 2026.12.15); 1.40x once a dense FP8
    # GEMM runs 1.75x, not 2x, a BF16 one (cuBLAS 12.9 on Hopper).
    assert 1.30 <= speedup <= 1.45


def test_an_fp8_checkpoint_stores_what_a_bf16_one_does() -> None:
    # The FP8 copies are re-made from the 16-bit weights every step (Transformer Engine keeps
    # only their scaling factors as extra state); the checkpoint holds the 16-bit weights,
    # the FP32 master copy and Adam's two FP32 moments: 2 + 4 + 8 = 14 B (BLOOM-176B's
    # 2.3 TB), as for BF16.
    bf16 = resolve(parse_input(_answers("bf16")), today=TODAY)
    fp8 = resolve(parse_input(_answers("fp8")), today=TODAY)
    assert checkpoint_bytes_per_param(fp8) == checkpoint_bytes_per_param(bf16) == 14
