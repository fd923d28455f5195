"""Deployment model (on-prem, colocation, cloud, hybrid), security, facility.

References
----------
.. [1] NVIDIA DGX SuperPOD H100 RA: racks above 40 kW; 1, 2 or 4 DGX per rack.
.. [2] Epoch AI cost model: training draws ~75 % of server TDP.
.. [3] GDPR art. 44-49 (transfers outside the EU need a legal basis).
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value
from .hardware import AcceleratorSpec
from .resolve import Resolved


@dataclass(frozen=True)
class DeploymentResult:
    recommended_model: str  # "on_prem" | "colocation" | "cloud" | "hybrid"
    reasons: tuple[str, ...]
    security_measures: tuple[str, ...]
    facility_power_kw: float  # IT load at nameplate [kW]
    facility_power_with_pue_kw: float
    rack_power_kw: float
    nodes_per_rack: int
    racks: int
    cooling: str


def plan_deployment(
    r: Resolved, acc: AcceleratorSpec, nodes: int, cost_preference: str
) -> DeploymentResult:
    """Pick a deployment model from the constraints, then the facility it needs."""
    reasons: list[str] = []
    security: list[str] = []
    choice = r.location
    if r.air_gapped or r.dedicated_hardware:
        reasons.append(
            "data may not leave your own data centre / needs dedicated hardware: "
            "shared public cloud is excluded"
        )
        if choice in (None, "cloud", "hybrid"):
            choice = "on_prem"
    if r.data_residency:
        reasons.append(f"data must stay in {r.data_residency}: choose a site or cloud region there")
        security.append(
            f"contractual and technical data-residency controls ({r.data_residency}); "
            "no replication outside the region"
        )
    if r.export_controlled:
        reasons.append(
            "export-controlled work: dedicated hardware with access control by nationality"
        )
        security.append("export-control screening of staff and vendors")
    if choice is None:
        choice = cost_preference
        reasons.append(f"lowest three-year cost at the expected utilisation: {cost_preference}")
    elif r.location is not None:
        reasons.append(f"customer preference: {r.location}")
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
    server_kw = acc.server_power_kw * r.gpus_per_node / 8.0
    it_kw = server_kw * nodes
    air_max = value("rack_power_air_max_kw")
    per_rack = max(1, int(air_max // server_kw)) if server_kw <= air_max else 1
    per_rack = min(per_rack, 4)
    racks = -(-nodes // per_rack)
    rack_kw = per_rack * server_kw
    cooling = (
        "air cooling (rear-door heat exchangers advisable above 30 kW/rack)"
        if rack_kw <= air_max and server_kw < 12.0
        else "direct liquid cooling"
    )
    return DeploymentResult(
        choice,
        tuple(reasons),
        tuple(dict.fromkeys(security)),
        it_kw,
        it_kw * r.pue,
        rack_kw,
        per_rack,
        racks,
        cooling,
    )
