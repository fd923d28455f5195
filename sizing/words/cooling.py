"""How the racks are cooled, with the rule that chose it: the engine plans air cooling up to a
rack power (``rack_power_air_max_kw``, 40 kW) for servers that draw less than a server power
(``liquid_cooling_server_kw``, 12 kW), and direct liquid cooling otherwise
(``sizing/engine/deployment.py``, ``_racks``).

A reader of customer 7's proposal found direct liquid cooling at 39 kW a rack beside the
appendix's 40 kW that air removes: the servers' own draw chose it, and the sentence now says
so.
"""

from __future__ import annotations

from sizing.engine.assumptions import value
from sizing.engine.numbers import format_quantity
from sizing.stored_result import StoredResult

# the engine's words for the cooling it plans (deployment._racks)
_LIQUID = "direct liquid cooling"


def cooling_words(result: StoredResult) -> str:
    """The cooling of the plan's racks, and when it is liquid, why: each server draws at least
    what we plan to cool by air, or a rack draws more than air removes ("" when the plan
    names no cooling)."""
    deployment = result.section("deployment")
    cooling = str(deployment.get("cooling") or "")
    servers = deployment.get("servers")
    it_kw = deployment.get("facility_power_kw")
    if not cooling.startswith(_LIQUID) or not servers or not it_kw:
        return cooling
    server_kw = float(it_kw) / int(servers)
    rack_kw = float(deployment.get("rack_power_kw") or 0.0)
    air_max, liquid_from = value("rack_power_air_max_kw"), value("liquid_cooling_server_kw")
    if server_kw >= liquid_from:  # the server's draw, not the rack's, chose it
        return (
            f"{cooling}: each server draws {format_quantity(server_kw, 'kW')}, and we plan "
            f"liquid for servers of {format_quantity(liquid_from, 'kW')} or more"
        )
    return (
        f"{cooling}: each rack draws {format_quantity(rack_kw, 'kW')}, more than the "
        f"{format_quantity(air_max, 'kW')} that air removes from a rack"
    )
