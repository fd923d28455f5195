"""The plan search: interleaved pipelines, selective recomputation, micro-batch, expert parallelism.

Each test failed on the engine before these were modelled (issue 10, defects 4 and 5).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from sizing.engine.efficiency import (
    StepCost,
    StepCostModel,
    balanced_chunks,
    data_parallel_units,
)
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.memory import activation_bytes_per_layer, interleaving_memory_factor
from sizing.engine.parallelism import Plan, search_plan, workload
from sizing.engine.resolve.resolved import resolve
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 2)


def _plan(data: dict[str, Any], gpus: int) -> Plan:
    r = resolve(parse_input(data), today=TODAY)
    return search_plan(workload(r), r, ACCELERATORS[r.accelerator], gpus)


# Llama 3 405B as Meta trained it (Llama 3 paper, Table 4): 16M-token batches of 8,192.
LLAMA_405B = {
    "model": {"name": "Llama 3.1 405B"},
    "training": {"method": "pretrain"},
    "data": {"tokens": 1e12},
    "hardware": {"accelerator": "h100-sxm"},
    "batch": {"sequence_length": 8192, "global_batch_tokens": 16e6},
}
MIXTRAL = {
    "model": {"name": "Mixtral 8x7B"},
    "training": {"method": "pretrain"},
    "data": {"tokens": 1e12},
    "hardware": {"accelerator": "h100-sxm"},
}
DEEPSEEK_V3 = {
    "model": {"name": "DeepSeek-V3"},
    "training": {"method": "pretrain", "precision": "fp8"},
    "data": {"tokens": 14.8e12},
    "hardware": {"accelerator": "h800"},
    "batch": {"sequence_length": 4096, "global_batch_tokens": 62914560},
}


def test_a_deep_pipeline_interleaves_its_stages_to_shrink_the_bubble() -> None:
    forced = {**LLAMA_405B, "parallelism": {"tensor": 8, "pipeline": 16}}
    plan = _plan(forced, 8192)
    assert plan.virtual_stages > 1
    micro_batches = 16e6 / plan.data / (plan.micro_batch_size * 8192)
    plain = (plan.pipeline - 1) / (micro_batches + plan.pipeline - 1)
    # 126 layers on 16 stages: 7 layers a stage, whose largest chunk sets the bubble
    chunks = balanced_chunks(126 // plan.pipeline, plan.virtual_stages)
    assert chunks <= plan.virtual_stages
    assert plan.cost.pp_bubble == pytest.approx(
        (plan.pipeline - 1) / (chunks * micro_batches + plan.pipeline - 1)
    )
    assert plan.cost.pp_bubble < plain / 2


@pytest.mark.parametrize(
    ("layers", "chunks", "expected"),
    [(20, 4, 4.0), (20, 8, 20 / 3), (7, 4, 3.5), (7, 1, 1.0), (16, 8, 8.0)],
)
def test_interleaved_chunks_hold_whole_layers_and_the_largest_sets_the_bubble(
    layers: int, chunks: int, expected: float
) -> None:
    assert balanced_chunks(layers, chunks) == pytest.approx(expected)


def test_interleaving_costs_the_activation_memory_korthikanti_gives() -> None:
    assert interleaving_memory_factor(16, 1) == 1.0
    assert interleaving_memory_factor(16, 4) == pytest.approx(1 + 15 / 64)
    assert interleaving_memory_factor(1, 8) == 1.0


def test_selective_recomputation_is_chosen_where_it_avoids_sharding_the_weights() -> None:
    # Without recomputation this layout fits only with ZeRO-3, whose weight gathers repeat
    # for every micro-batch; rebuilding the cheap activations lets ZeRO-1 fit instead.
    layout = {"tensor": 8, "pipeline": 16, "context": 1}  # splitting sequences is another way
    plan = _plan({**LLAMA_405B, "parallelism": layout}, 16384)
    assert plan.recompute == "selective"
    assert plan.zero_stage <= 2
    assert plan.fits


def test_selective_recomputation_keeps_20_of_the_32_bytes() -> None:
    none = activation_bytes_per_layer(4096, 1, 8192, 64, 1, "none")
    selective = activation_bytes_per_layer(4096, 1, 8192, 64, 1, "selective")
    full = activation_bytes_per_layer(4096, 1, 8192, 64, 1, "full")
    # Korthikanti's 34 without the two dropout masks; selective drops the norms (4) and the
    # activation-function output (8)
    assert selective / none == pytest.approx(20 / 32)
    assert full < selective < none


def test_fine_grained_experts_store_activations_for_their_own_width() -> None:
    # Qwen3-30B-A3B: 8 routed experts of width 768 on a hidden size of 2,048.
    sbh = 4096 * 2048.0
    moe = activation_bytes_per_layer(4096, 1, 2048, 32, 1, "none", top_k=8, expert_width=0.375)
    assert moe / sbh == pytest.approx(14 + 8 * (2 + 4 * 0.375))
    assert moe / sbh < 32 + 18 * 7  # what every routed expert used to cost


def test_zero_traffic_repeats_for_every_micro_batch_where_states_are_sharded() -> None:
    assert data_parallel_units(1, 16) == 2
    assert data_parallel_units(2, 16) == 17
    assert data_parallel_units(3, 16) == 48
    assert data_parallel_units(3, 1) == 3  # the ZeRO paper's 1.5 x all-reduce


def _moe_step(micro_batch: int, ep: int = 8) -> float:
    model = StepCostModel(
        acc=ACCELERATORS["h100-sxm"],
        precision="bf16",
        hidden=2048,
        layers=48,
        seq=4096,
        model_flops_per_token=2.2e10,
        tokens_per_step=2**21,
        top_k=8,
        moe=True,
        method="pretrain",
        gpus_per_node=8,
        nic_gbps_per_gpu=400,
        oversubscription=1,
        experts=128,
        expert_params=2.7e10,
    )
    ratios = model.ratios(
        gpus=16,
        tp=1,
        pp=1,
        ep=ep,
        micro_batch=micro_batch,
        zero_stage=1,
        recompute="none",
        hardware_flops_per_token=2.2e10,
        params_per_gpu=4e9,
        virtual_stages=1,
    )
    return StepCost(*ratios).mfu


def test_a_larger_micro_batch_feeds_small_experts_more_tokens() -> None:
    assert _moe_step(4, ep=1) > _moe_step(1, ep=1)


@pytest.mark.parametrize(("data", "gpus"), [(MIXTRAL, 256), (DEEPSEEK_V3, 2048)])
def test_the_search_spreads_experts_when_that_is_faster(data: dict[str, Any], gpus: int) -> None:
    plan = _plan(data, gpus)
    assert plan.fits
    assert plan.expert > 1


def test_the_search_tries_larger_micro_batches_where_they_help() -> None:
    # BloombergGPT-like: ZeRO-3 over 512 A100-40GB, 4 sequences per replica per step
    forced = {
        "model": {"total_params": 50e9},
        "training": {"method": "pretrain", "gradient_checkpointing": True},
        "data": {"tokens": 569e9},
        "hardware": {"accelerator": "a100-40gb"},
        "batch": {"sequence_length": 2048, "global_batch_tokens": 2048 * 2048},
        "parallelism": {"zero_stage": 3, "tensor": 1, "pipeline": 1},
    }
    plan = _plan(forced, 512)
    assert plan.micro_batch_size > 1


# A 70B full fine-tune on 32,768-token sequences: one sequence's activations fill an H100.
LONG_CONTEXT_70B = {
    "model": {"name": "Llama 3.1 70B"},
    "training": {"method": "full_finetune"},
    "data": {"tokens": 1e10},
    "hardware": {"accelerator": "h100-sxm"},
    "batch": {"sequence_length": 32768, "global_batch_tokens": 2**22},
}


def test_long_sequences_are_split_over_context_ranks_instead_of_recomputing_every_layer() -> None:
    whole = _plan({**LONG_CONTEXT_70B, "parallelism": {"context": 1}}, 64)
    split = _plan(LONG_CONTEXT_70B, 64)
    assert whole.recompute == "full"
    assert split.context > 1 and split.recompute != "full"
    assert split.fits and split.mfu > whole.mfu * 1.1


def test_context_ranks_keep_at_least_4096_tokens_and_short_sequences_stay_whole() -> None:
    assert _plan(LLAMA_405B, 16384).context <= 2  # 8,192 tokens: at most two ranks
    short = {**LONG_CONTEXT_70B, "batch": {"sequence_length": 4096, "global_batch_tokens": 2**22}}
    assert _plan(short, 64).context == 1


def test_the_published_nemo_405b_fp8_layout_fits_once_sequences_are_split() -> None:
    """Megatron-Bridge 25.11, DGX-H100: TP8 PP8 CP2 on 1,024 GPUs, 8,192-token sequences."""
    data = {
        "model": {"name": "Llama 3.1 405B"},
        "training": {"method": "pretrain", "precision": "fp8", "gradient_checkpointing": False},
        "data": {"tokens": 1e12},
        "hardware": {"accelerator": "h100-sxm"},
        "batch": {"sequence_length": 8192, "global_batch_tokens": 4194304},
    }
    # without splitting sequences it fits only by sharding the weights (ZeRO-3)
    unsplit = _plan({**data, "parallelism": {"tensor": 8, "pipeline": 8, "context": 1}}, 1024)
    assert not unsplit.fits or unsplit.zero_stage == 3
    published = _plan({**data, "parallelism": {"tensor": 8, "pipeline": 8, "context": 2}}, 1024)
    assert published.fits and published.context == 2


def test_context_parallel_states_are_sharded_over_data_and_context_ranks() -> None:
    """ZeRO-3 states summed over every accelerator are the whole model, split sequences or not."""
    r = resolve(parse_input(LONG_CONTEXT_70B), today=TODAY)
    w = workload(r)
    whole_model_gb = w.dense_params * w.bpp.total / 1e9
    for context in (1, 2, 4):
        forced = {"tensor": 8, "pipeline": 2, "context": context, "zero_stage": 3}
        plan = _plan({**LONG_CONTEXT_70B, "parallelism": forced}, 64)
        states = plan.memory.weights_gb + plan.memory.gradients_gb + plan.memory.optimizer_gb
        assert states * 64 == pytest.approx(whole_model_gb)
