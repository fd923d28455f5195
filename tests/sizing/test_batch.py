"""A step's batch is whole sequences, dealt out as whole micro-batches per replica; odd data
degrees stay allowed."""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.parallelism import splits_evenly, whole_micro_batches, workload
from sizing.engine.resolve.resolved import resolve
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 3)


def _assumed(result: dict[str, Any], key: str) -> Any:
    (item,) = [a for a in result["assumptions"] if a["key"] == key]
    return item["value"]


@pytest.mark.parametrize(
    ("answers", "sequences", "length"),
    [
        # DeepSeek LLM's 0.292 C^0.3271 tokens (arXiv 2401.02954), in whole sequences:
        ({}, 941, 4096),  # 7B on the default tokens: 3.85M, near Llama 2's "4M tokens"
        ({"model": {"name": "GPT-2"}, "training": {"method": "pretrain"}}, 269, 1024),
        ({"training": {"method": "pretrain"}, "batch": {"sequence_length": 3000}}, 1285, 3000),
        ({"training": {"method": "lora"}}, 64, 4096),
    ],
    ids=["7B", "GPT-2", "3,000 tokens", "LoRA"],
)
def test_a_default_global_batch_is_whole_sequences(
    answers: dict[str, Any], sequences: int, length: int
) -> None:
    result = size_dict(answers, today=TODAY)
    assert _assumed(result, "batch.sequence_length") == length
    assert _assumed(result, "batch.global_batch_tokens") == sequences * length


def _plan(answers: dict[str, Any]) -> tuple[dict[str, Any], float]:
    result = size_dict(answers, today=TODAY)
    sequences = _assumed(result, "batch.global_batch_tokens") / _assumed(
        result, "batch.sequence_length"
    )
    return result["parallelism"], sequences


@pytest.mark.parametrize("gpus", [8, 24, 40, 56])  # 3, 5 and 7 nodes stay allowed
def test_micro_batches_per_replica_are_whole_even_when_the_replicas_do_not_divide_the_batch(
    gpus: int,
) -> None:
    answers = {"model": {"name": "Llama 2 7B"}, "training": {"method": "pretrain"}}
    answers["hardware"] = {"accelerator": "h100-sxm", "count": gpus}
    p, sequences = _plan(answers)
    assert p["tensor"] * p["pipeline"] * p["context"] * p["data"] == gpus
    assert isinstance(p["micro_batches"], int)
    busiest = math.ceil(sequences / p["data"])
    assert p["micro_batches"] == math.ceil(busiest / p["micro_batch_size"])


def test_a_step_splits_evenly_only_when_replicas_and_micro_batches_divide_the_sequences() -> None:
    answers = {"training": {"method": "pretrain"}, "batch": {"global_batch_tokens": 4_194_304}}
    w = workload(resolve(parse_input(answers), today=TODAY))
    assert w.tokens_per_step / w.seq == 1024
    assert splits_evenly(w, 256, 2) and splits_evenly(w, 1024, 1)
    assert not splits_evenly(w, 448, 1) and not splits_evenly(w, 512, 4)
    assert whole_micro_batches(w, 448, 1) == 3  # 2.29 sequences a replica: some run 3
    assert whole_micro_batches(w, 448, 2) == 2
    assert whole_micro_batches(w, 256, 2) == 2
