"""The recommended network card fits the server (no faster than its PCIe slot carries), and
the fabric is described and counted as it is laid out."""

from __future__ import annotations

import datetime
import math

import pytest

from sizing.engine import size_dict
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.network import fabric_layout, fabric_words

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


def test_a_plan_capped_by_the_pcie_slot_says_what_it_uses_and_what_that_costs():
    # Llama 3.1 70B on 400B tokens in 21 days (the demo): the plan would use more than the
    # 400 Gb/s a PCIe Gen5 slot carries
    out = size_dict(
        {
            "model": {"name": "Llama 3.1 70B"},
            "training": {"method": "continued_pretrain", "gradient_checkpointing": True},
            "data": {"tokens": 400e9},
            "schedule": {"deadline_days": 21.0},
            "batch": {"sequence_length": 4096, "global_batch_tokens": 4e6, "micro_batch_size": 1},
            "hardware": {"vendors": ["nvidia"]},
            "network": {
                "inter_node": "infiniband",
                "oversubscription": 1.0,
                "nic_gbps_per_gpu": 400,
            },
        },
        today=TODAY,
    )
    network = out["network"]
    wanted = network["scale_out_gbps_per_node_needed"] / out["cluster"]["gpus_per_node"]
    assert wanted > network["nic_gbps"] == 400
    (note,) = [n for n in network["notes"] if "PCIe Gen" in n]
    share = network["max_comm_share"] * round(wanted) / 400
    assert (
        f"so the plan uses 400 Gb/s and communication takes about {share:.0%}".replace("%", " %")
        in note
    )
    assert note.endswith("of each step instead")


# --- the fabric's layout: tiers, switches and links ----------------------------------------


@pytest.mark.parametrize(
    ("gpus", "tiers", "switches"),
    [
        # H100 Freakonomics (Aug 2024): 8 switches for 512 GPUs on one layer (one per rail),
        # 48 for 1,024 on two (non-blocking leaf-spine).
        (512, 1, 8),
        (1024, 2, 48),
    ],
)
def test_switch_counts_match_the_published_examples(gpus, tiers, switches):
    layout = fabric_layout(gpus, 8)
    assert (layout.tiers, layout.switches) == (tiers, switches)


def test_a_single_tier_has_one_switch_per_rail_and_no_switch_to_switch_links():
    layout = fabric_layout(320, 8)  # 40 servers of 8: more cards than one switch has ports
    assert layout.tiers == 1 and layout.rails == 8 and layout.switches == 8
    assert layout.server_links == 320 and layout.switch_links == 0
    assert fabric_words(layout).startswith("single-tier rail-optimised")
    assert "fat tree" not in fabric_words(layout)


def test_a_few_servers_share_one_switch():
    layout = fabric_layout(16, 8)
    assert (layout.tiers, layout.rails, layout.switches, layout.switch_links) == (1, 0, 1, 0)
    assert fabric_words(layout) == "one non-blocking switch"


def test_two_tiers_link_every_leaf_to_the_spines_and_oversubscription_thins_the_uplinks():
    full = fabric_layout(800, 8)  # 100 servers: a leaf-spine fat tree
    assert full.tiers == 2 and full.server_links == 800 and full.switch_links == 800
    assert full.switches == math.ceil(800 * 3 / 64)  # 2 t - 1 = 3 switch ports per card
    thin = fabric_layout(800, 8, oversubscription=2.0)
    assert thin.switch_links == 400 and thin.switches < full.switches
    assert fabric_words(full) == "two-tier leaf-spine fat tree, non-blocking (1:1)"
    assert fabric_words(thin) == "two-tier leaf-spine fat tree, oversubscribed 2:1"


def test_one_tier_is_non_blocking_whatever_oversubscription_is_tolerated():
    assert fabric_layout(320, 8, oversubscription=4.0).oversubscription == 1.0


@pytest.mark.parametrize("run", RUNS)
def test_the_network_plan_describes_the_layout_of_its_own_servers(run):
    out = size_dict(run, today=TODAY)
    network, gpus = out["network"], out["cluster"]["gpus_per_job"]
    layout = fabric_layout(gpus, out["cluster"]["gpus_per_node"], network["oversubscription"])
    assert network["switch_tiers"] == layout.tiers
    assert network["fabric"] == fabric_words(layout)


def _network(acc_id: str, *, inter_node: str = "infiniband", link_gbps: float = 100) -> dict:
    """A 70B pre-train on 64 accelerators whose plan needs only ``link_gbps`` per accelerator."""
    return size_dict(
        {
            "model": {"name": "Llama 3.1 70B"},
            "training": {"method": "pretrain"},
            "data": {"tokens": 1e11},
            "hardware": {"accelerator": acc_id, "count": 64},
            "network": {"inter_node": inter_node, "nic_gbps_per_gpu": link_gbps},
        },
        today=TODAY,
    )["network"]


@pytest.mark.parametrize("acc_id", ["h100-sxm", "h200", "b200", "mi300x", "mi325x"])
@pytest.mark.parametrize("link_gbps", [25, 100, 200])
def test_a_low_need_on_a_current_server_runs_on_the_400g_card_it_ships_with(acc_id, link_gbps):
    # issue 26: 100 Gb/s needs became end-of-life "InfiniBand EDR", B200 servers got HDR 200G
    network = _network(acc_id, link_gbps=link_gbps)
    assert network["nic_gbps"] == 400
    assert network["technology"] == "InfiniBand NDR (NVIDIA ConnectX-7)"
    for end_of_life in ("EDR", "HDR"):
        assert end_of_life not in network["technology"]


@pytest.mark.parametrize("inter_node", ["infiniband", "ethernet", "roce"])
def test_gaudi_3_scales_out_over_its_own_ethernet_ports_and_buys_no_infiniband(inter_node):
    # Intel Gaudi network configuration: 3 of the 24 x 200 GbE ports of each card go out of
    # the server (600 Gb/s a card)
    network = _network("gaudi3", inter_node=inter_node)
    assert network["ports_on_accelerator"] is True
    assert network["nic_gbps"] == 600
    assert "InfiniBand" not in network["technology"]
    assert network["technology"].startswith("Ethernet (RoCE v2) on the accelerators")
    assert any("no InfiniBand cards" in note for note in network["notes"]) is (
        inter_node == "infiniband"
    )


def test_an_a100_server_keeps_the_hdr_cards_of_its_generation() -> None:
    # DGX A100: 8 x ConnectX-6 HDR 200 Gb/s, the cards the A100 generation shipped with
    network = _network("a100-80gb")
    assert (network["nic_gbps"], network["technology"]) == (
        200,
        "InfiniBand HDR (NVIDIA ConnectX-6)",
    )


def test_an_amd_server_on_ethernet_names_the_400g_cards_it_takes() -> None:
    network = _network("mi325x", inter_node="ethernet")
    assert network["nic_gbps"] == 400
    assert "Pensando Pollara 400" in network["technology"]


def test_a_connectx_7_run_at_200_gbps_is_ndr200_not_hdr() -> None:
    # an H100 PCIe server's ConnectX-7 at 200 Gb/s speaks two lanes of NDR
    assert _network("h100-pcie")["technology"] == "InfiniBand NDR200 (NVIDIA ConnectX-7)"
