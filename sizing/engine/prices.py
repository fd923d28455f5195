"""Cost constants (USD) with source and date; every one can be overridden
through the ``prices`` input section.

References
----------
.. [1] Epoch AI training-cost-trends @ 263c40a, cost_analysis_standalone.py
       (Cottier et al., arXiv 2405.21015).
.. [2] CBRE North America Data Center Trends H2 2024 (2025-02-26).
.. [3] Uptime Institute global survey 2024; Equinix 2023 sustainability report.
.. [4] EIA via Statista (US industrial electricity 2025); Eurostat H1 2024.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .provenance import Assumption

_EPOCH = "Epoch AI training-cost-trends @ 263c40a (Cottier et al., arXiv 2405.21015)"

P: dict[str, Assumption] = {
    "server_cost_multiplier": Assumption(
        1.64,
        "x GPU price",
        _EPOCH,
        "2024",
        "server (CPU, RAM, NVMe, chassis) cost relative to its GPUs",
    ),
    "interconnect_share": Assumption(
        0.19, "-", _EPOCH, "2024", "cluster network share of total cluster hardware cost"
    ),
    "support_share_per_year": Assumption(
        0.20,
        "1/yr",
        "supercluster.blog DGX H100 support quote (U, secondary)",
        "2024",
        "annual hardware support as a share of purchase price",
    ),
    "electricity_usd_per_kwh_us": Assumption(
        0.0826,
        "USD/kWh",
        "EIA via Epoch/Statista, US industrial average",
        "2025",
        "power price for US sites",
    ),
    "electricity_usd_per_kwh_eu": Assumption(
        0.175,
        "USD/kWh",
        "Eurostat non-household H1 2024: EUR 0.094 (Finland) to 0.256 (Ireland); midpoint, U",
        "2024",
        "power price for EU/UK sites (midpoint of the published range)",
    ),
    "pue_on_prem": Assumption(
        1.56, "-", "Uptime Institute 2024 survey average", "2024", "typical enterprise data centre"
    ),
    "pue_colocation": Assumption(
        1.42, "-", "Equinix fleet PUE 2023", "2023", "large colocation provider"
    ),
    "colocation_usd_per_kw_month": Assumption(
        184.06,
        "USD/kW-month",
        "CBRE H2 2024, N. America primary markets",
        "2024-H2",
        "wholesale colocation (space, power and cooling capacity) per contracted kW",
    ),
    "facility_usd_per_kw_month": Assumption(
        184.06,
        "USD/kW-month",
        "proxy: CBRE colocation rate (own-facility cost not published, U)",
        "2024-H2",
        "space, power distribution and cooling capacity of an own data centre",
    ),
    "storage_usd_per_gb_month": Assumption(
        0.07,
        "USD/GB-month",
        "CoreWeave distributed file storage list price",
        "2026-09-20",
        "shared parallel file system capacity",
    ),
    "object_storage_usd_per_gb_month": Assumption(
        0.03,
        "USD/GB-month",
        "CoreWeave object storage (warm)",
        "2026-09-20",
        "object storage capacity",
    ),
    "staff_usd_per_year": Assumption(
        200_000,
        "USD/FTE-yr",
        "no public TCO with staffing found (reference gap); engine placeholder, U",
        "2026-12-02",
        "loaded cost of one infrastructure engineer",
    ),
    "staff_fte_per_gpu": Assumption(
        1 / 256,
        "FTE/GPU",
        "engine placeholder, U",
        "2026-12-02",
        "operations staff per accelerator (minimum 0.25 FTE)",
    ),
    "reserved_discount": Assumption(
        0.44,
        "x on-demand",
        "GCP a3-highgpu-8g 3-yr 4.86 vs 11.06 on-demand (2025-03-17)",
        "2025-03-17",
        "3-year commitment price relative to on-demand where no reserved price is published",
    ),
    "cloud_low_factor": Assumption(
        0.58,
        "x",
        "Lambda/RunPod H100 $3.99 vs AWS p5 $6.88 (2026-09/11)",
        "2026-11-09",
        "cheapest observed price relative to the reference price",
    ),
    "cloud_high_factor": Assumption(
        1.79,
        "x",
        "Azure ND96isr H100 v5 $12.29 vs AWS p5 $6.88 (2026-11-09)",
        "2026-11-09",
        "dearest observed price relative to the reference price",
    ),
    "depreciation_years": Assumption(
        5, "yr", _EPOCH, "2024", "server depreciation life from 2023 on"
    ),
    "cloud_idle_share": Assumption(
        0.10,
        "-",
        "engine estimate, U",
        "2026-12-02",
        "cloud instances kept running around runs (setup, debugging, forgotten instances)",
    ),
}

PRICES: Mapping[str, Assumption] = MappingProxyType(P)


def price(key: str) -> float:
    """The numeric value of price ``key``."""
    return float(PRICES[key].value)
