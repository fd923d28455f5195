"""The recommended network card fits the server: no faster than its PCIe slot carries."""

from __future__ import annotations

import datetime

import pytest

from sizing.engine import size_dict
from sizing.engine.hardware import ACCELERATORS

TODAY = datetime.date(2026, 12, 2)
RUNS = [
    {
        "model": {"name": "Llama 3.1 70B"},
        "data": {"tokens": 1.5e13},
        "schedule": {"deadline_days": 21},
    },
    {
        "model": {"name": "Mixtral 8x22B"},
        "data": {"tokens": 2e12},
        "schedule": {"deadline_days": 30},
    },
    {
        "model": {"name": "Llama 3.1 405B"},
        "data": {"tokens": 2e12},
        "schedule": {"deadline_days": 30},
    },
]
# the fastest card an x16 slot carries (PCI-SIG: Gen4 about 256 Gb/s, Gen5 about 512 Gb/s)
FASTEST = {4: 200, 5: 400, 6: 800}


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("acc_id", ["h100-sxm", "a100-80gb", "b200", "mi300x"])
def test_the_card_is_never_faster_than_the_pcie_slot(run, acc_id):
    out = size_dict({**run, "hardware": {"accelerator": acc_id}}, today=TODAY)
    network = out["network"]
    fastest = FASTEST[ACCELERATORS[acc_id].pcie_gen]
    assert network["nic_gbps"] <= fastest
    wanted = network["scale_out_gbps_per_node_needed"] / out["cluster"]["gpus_per_node"]
    if wanted > fastest:  # the plan would use more: said, not hidden
        assert any("PCIe Gen" in note for note in network["notes"])
