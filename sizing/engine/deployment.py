"""Deployment model (on-prem, colocation, cloud, hybrid), security, facility.

References
----------
.. [1] NVIDIA DGX SuperPOD H100 RA: racks above 40 kW; 1, 2 or 4 DGX per rack.
.. [2] Epoch AI cost model: training draws ~75 % of server TDP.
.. [3] GDPR art. 44-49 (transfers outside the EU need a legal basis).
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value, whole
from .cost.region import cloud_region
from .hardware import REFERENCE_SERVER_GPUS, AcceleratorSpec
from .numbers import noun_for_count
from .resolve.resolved import Resolved
from .vocabulary import COST_OPTIONS, VALUES, in_sentence

# The cheapest cost option decides the deployment model when the customer has no preference.
_DEPLOYMENT_FOR_COST_OPTION = {
    "cloud_on_demand": "cloud",
    "cloud_hyperscaler": "cloud",
    "cloud_reserved_1yr": "cloud",
    "cloud_reserved": "cloud",
    "buy": "on_prem",
    "colocation": "colocation",
    "hybrid": "hybrid",
}

# Reservations a customer who needs hardware of their own can take (cost.choice: dedicated,
# single-tenant reserved clusters are sold).
_DEDICATED_RESERVATIONS = ("cloud_reserved_1yr", "cloud_reserved")

# Who runs the cluster day to day (``deployment.operations``), and what that adds to the plan.
_OPERATED_BY = {
    "in_house": "run by your own team: we hand over a tested cluster with its scheduler, "
    "monitoring and health checks",
    "some": "run by your own team with our help: onboarding, runbooks and a support contract "
    "for drivers, the scheduler and failures",
    "none": "run for you: a managed service looks after drivers, the scheduler and failures",
}


@dataclass(frozen=True)
class DeploymentResult:
    recommended_model: str  # "on_prem" | "colocation" | "cloud" | "hybrid" | "" (to agree)
    reasons: tuple[str, ...]
    security_measures: tuple[str, ...]
    servers: int  # on the site: the most the plan runs or owns, spares included
    facility_power_kw: float  # IT load at nameplate [kW]
    facility_power_with_pue_kw: float
    rack_power_kw: float
    nodes_per_rack: int
    racks: int
    cooling: str


def plan_deployment(
    r: Resolved, acc: AcceleratorSpec, nodes: int, cost_option: str | None
) -> DeploymentResult:
    """Pick a deployment model from the constraints, then the facility it needs.

    ``cost_option`` is the cheapest option the rules allow (None: none is priced);
    ``nodes`` the servers the site holds at most, spares included.
    """
    reasons: list[str] = []
    security: list[str] = []
    choice = r.location
    dedicated_cloud = (
        r.dedicated_hardware and not r.air_gapped and cost_option in _DEDICATED_RESERVATIONS
    )
    if r.air_gapped or r.dedicated_hardware:
        # say the rule the customer gave, not both: one may need dedicated hardware and still
        # let data leave the building
        rule = (
            "no internet connection: the hardware must be in your own data centre"
            if r.air_gapped
            else "dedicated hardware: shared public cloud is excluded"
            + ("; a dedicated, single-tenant reserved cluster is not" if dedicated_cloud else "")
        )
        reasons.append(rule)
        if dedicated_cloud and choice in (None, "cloud", "hybrid"):
            choice = "cloud"
        elif choice in (None, "cloud", "hybrid"):
            choice = "on_prem"
    if choice == "hybrid" and cost_option is not None:
        # a mix allows several ways to pay (cost.choice): the place follows the one chosen, so
        # the plan and the cost page name the same option
        choice = _DEPLOYMENT_FOR_COST_OPTION[cost_option]
        reasons.append(
            f"your preference, a mix of hardware of your own and the cloud: the cheapest mix "
            f"over {r.years} years is {in_sentence(COST_OPTIONS[cost_option])}"
        )
    if r.data_residency:
        # their words quoted, so "EU only, our own data centre" is never read as ours; no
        # cloud region offered to a site with no internet connection (customer 1)
        region = None if r.air_gapped else cloud_region(r.data_residency)
        said = f"data must stay where you said (“{r.data_residency}”)"
        reasons.append(
            f"{said}: a site there, or a cloud region in {region.place} ({region.city})"
            if region
            else f"{said}: a site there"
            if r.air_gapped
            else f"{said}: choose a site or cloud region there"
        )
        security.append(
            f"contractual and technical data-residency controls (“{r.data_residency}”); "
            "no replication outside the region"
        )
    if r.export_controlled:
        reasons.append(
            "export-controlled work: dedicated hardware with access control by nationality"
        )
        security.append("export-control screening of staff and vendors")
    if choice is None and cost_option is not None:
        choice = _DEPLOYMENT_FOR_COST_OPTION[cost_option]
        reasons.append(
            f"the cheapest way to pay over {r.years} {noun_for_count(r.years, 'year')}: "
            f"{in_sentence(COST_OPTIONS[cost_option])}"
        )
    elif choice is None:
        choice = ""
        reasons.append("no option has a public price yet: where it runs is to be agreed")
    elif r.location is not None and not (r.location == "hybrid" and cost_option is not None):
        place = VALUES["deployment.location"].get(r.location, r.location)
        reasons.append(f"your preference: {in_sentence(place)}")
    if r.operations in _OPERATED_BY:
        reasons.append(_OPERATED_BY[r.operations])
    if r.air_gapped:
        security += [
            "no internet access from training nodes; packages and models through a "
            "scanned, mirrored artefact repository",
            "one-way data import with malware scanning",
        ]
    if choice in ("cloud", "hybrid"):
        security += [
            "private networking (no public IPs), customer-managed encryption keys",
            "dedicated or single-tenant instances where policy requires",
        ]
    else:
        security += ["physical access control to the racks", "encrypted storage at rest"]
    security.append("role-based access to data and checkpoints; audit logging")
    pue = r.prices.pue_colocation if choice == "colocation" else r.prices.pue_own
    server_kw = acc.server_power_kw * r.gpus_per_node / REFERENCE_SERVER_GPUS
    it_kw = server_kw * nodes
    per_rack, rack_kw, cooling = _racks(server_kw)
    if nodes < per_rack:  # one part-filled rack: it draws what its servers draw
        per_rack, rack_kw = max(1, nodes), max(1, nodes) * server_kw
    return DeploymentResult(
        recommended_model=choice,
        servers=nodes,
        reasons=tuple(reasons),
        security_measures=tuple(dict.fromkeys(security)),
        facility_power_kw=it_kw,
        facility_power_with_pue_kw=it_kw * pue.value,
        rack_power_kw=rack_kw,
        nodes_per_rack=per_rack,
        racks=-(-nodes // per_rack),
        cooling=cooling,
    )


def _racks(server_kw: float) -> tuple[int, float, str]:
    """Nodes per rack, rack power [kW] and cooling for servers of ``server_kw`` [1]_.

    As many servers as fit under the air-cooled rack limit, at most the
    densest rack of the reference architecture; liquid cooling above the
    limit or for servers that draw too much to cool by air.
    """
    air_max = value("rack_power_air_max_kw")
    per_rack = max(1, int(air_max // server_kw)) if server_kw <= air_max else 1
    per_rack = min(per_rack, whole("max_nodes_per_rack"))
    rack_kw = per_rack * server_kw
    if rack_kw <= air_max and server_kw < value("liquid_cooling_server_kw"):
        cooling = (
            f"air cooling (air removes up to {air_max:g} kW per rack; above that, rear-door "
            "heat exchangers or liquid cooling are needed)"
        )
    else:
        cooling = "direct liquid cooling"
    return per_rack, rack_kw, cooling
