"""Shared storage: the total is the sum of the parts the proposal lists."""

from __future__ import annotations

import datetime

import pytest

from sizing.engine import size_dict

TODAY = datetime.date(2026, 12, 2)


@pytest.mark.parametrize(
    "data",
    [
        {"model": {"name": "Llama 3.1 70B"}, "data": {"tokens": 1e12, "annual_growth": 0.3}},
        {"model": {"name": "Llama 3.1 8B"}, "training": {"method": "lora"}},
        {"model": {"name": "Mixtral 8x22B"}, "data": {"dataset_size_tb": 40.0}},
    ],
)
def test_the_storage_total_is_the_dataset_its_scratch_space_and_the_checkpoints(data):
    storage = size_dict(data, today=TODAY)["storage"]
    parts = (
        storage["dataset_capacity_tb"]
        + storage["scratch_capacity_tb"]
        + storage["checkpoint_capacity_tb"]
    )
    assert storage["total_capacity_tb"] == pytest.approx(parts)
    assert storage["scratch_capacity_tb"] == pytest.approx(0.2 * storage["dataset_capacity_tb"])
