"""Racks and cooling: one sourced limit for air cooling, and what a rack above it needs."""

import datetime

import pytest

from sizing.engine import size_dict
from sizing.engine.assumptions import value
from sizing.engine.deployment import _racks

AIR_MAX_KW = value("rack_power_air_max_kw")  # NVIDIA DGX SuperPOD H100 RA: 40 kW/rack


@pytest.mark.parametrize("server_kw", [5.0, 7.65, 10.2, 11.9])
def test_an_air_cooled_rack_stays_within_the_one_sourced_limit_and_says_it(server_kw):
    per_rack, rack_kw, cooling = _racks(server_kw)
    assert rack_kw <= AIR_MAX_KW
    assert cooling.startswith("air cooling")
    assert f"up to {AIR_MAX_KW:g} kW per rack" in cooling
    # no second, unsourced threshold below the one the appendix prints
    assert "30 kW" not in cooling


def test_a_server_too_hot_for_air_is_liquid_cooled():
    assert _racks(14.3)[2] == "direct liquid cooling"


def test_a_site_with_no_internet_is_offered_no_cloud_region_and_their_words_are_quoted():
    # customer 1 read "Data must stay in EU only, our own data centre: a site there, or a
    # cloud region in the EU (Frankfurt)": their "our" read as ours, and a cloud offered to an
    # air-gapped site
    out = size_dict(
        {
            "model": {"name": "Llama 3.1 8B"},
            "training": {"method": "lora"},
            "data": {"tokens": 6e8},
            "deployment": {
                "data_residency": "EU only, our own data centre",
                "air_gapped": True,
            },
        },
        today=datetime.date(2026, 12, 2),
    )
    said = " ".join(out["deployment"]["reasons"])
    assert "data must stay where you said (“EU only, our own data centre”): a site there" in said
    assert "cloud region" not in said
