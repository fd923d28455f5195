"""Racks and cooling: one sourced limit for air cooling, and what a rack above it needs."""

import pytest

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
