"""What each accelerator costs to rent and to buy, with sources, dates and firmness.

Every accelerator of the catalog has an entry.  A price nobody publishes is ``None`` and the
entry says so in ``missing``; the engine then leaves that option out instead of borrowing
another accelerator's price.

* ``gpu_cloud``: on-demand price per accelerator-hour at specialist GPU clouds (Lambda,
  CoreWeave, RunPod, ...): the median of the listings found, ``low``/``high`` their spread.
* ``large_cloud``: on-demand price per accelerator-hour at a hyperscaler (AWS, Azure, GCP).
* ``purchase``: price per accelerator.  ``purchase_is_server``: the figure is a whole
  server divided by its accelerators (CPUs, memory, NVMe and network cards included);
  otherwise it buys the accelerators (card or baseboard) and a host platform is added
  (``host_platform_usd_per_server`` in :mod:`sizing.engine.cost.prices`).

References
----------
.. [1] Reference hardware catalog (compiled 2026-12-02), section 5: [LAMBDA-Y] and
       [CW-PRICE] (lambda.ai/instances and coreweave.com/pricing, 2026-09-20), [DR]
       (AWS, Azure and RunPod prices, 2026-11-09), [DSTACK] (AWS p5en, 2026-08-06),
       [EPP] (Epoch AI "Hardware prices.csv" @ 263c40a), [FREAK] (Aug 2024).
.. [2] techbytes.app serverless GPU pricing matrix (vendor prices verified 2026-05-07).
.. [3] deploybase.ai "RunPod GPU Pricing" (2026-03-10) and "GPU cloud cost comparison" (2026).
.. [4] modal.com blog "How much does it cost to run NVIDIA L40S GPUs in 2025?" (2025-08-12).
.. [5] cliffcenter.com research note "AMD inference economics" (2026-05-18).
.. [6] DeepSeek-V3 Technical Report, arXiv 2412.19437 (2024-12), H800 rental assumed at $2/h.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..provenance import ESTIMATE, GLOBAL, LIST_PRICE, PUBLIC_QUOTE, Price

_HOUR = "USD/GPU-h"
_GPU = "USD/GPU"
_CLOUD_WHY = "on-demand price of one accelerator-hour"
_BUY_WHY = "purchase price of one accelerator"
_EPP = "Epoch AI Hardware prices.csv @ 263c40a"


@dataclass(frozen=True)
class AcceleratorPrices:
    gpu_cloud: Price | None
    large_cloud: Price | None
    purchase: Price | None
    purchase_is_server: bool
    missing: str  # why a price is absent, in plain words ("" when all are there)


def _hour(
    value: float, source: str, as_of: str, low: float, high: float, flag: str = LIST_PRICE
) -> Price:
    return Price(value, _HOUR, source, as_of, _CLOUD_WHY, GLOBAL, flag, low, high)


def _buy(
    value: float,
    source: str,
    as_of: str,
    low: float,
    high: float,
    flag: str = PUBLIC_QUOTE,
    *,
    stays: str = "",
) -> Price:
    return Price(value, _GPU, source, as_of, _BUY_WHY, GLOBAL, flag, low, high, stays=stays)


# Why a price older than three years still prices an accelerator of an earlier generation.
_OUT_OF_PRODUCTION = (
    "the only dated public purchase price of this earlier-generation accelerator in our "
    "sources; its date is printed beside it and our quotation replaces it"
)


_TABLE: dict[str, AcceleratorPrices] = {
    "a100-40gb": AcceleratorPrices(
        gpu_cloud=_hour(1.48, "Lambda 1x A100 40GB on demand", "2026-05-07", 1.48, 2.74),
        large_cloud=_hour(
            2.74, "AWS p4d.24xlarge on demand after the 2025 cut", "2026-11-09", 2.74, 4.10
        ),
        purchase=_buy(
            199_000 / 8,
            "DGX A100 (8 GPUs) launch price $199,000, " + _EPP,
            "2020-05",
            199_000 / 8,
            199_000 / 8,
            LIST_PRICE,
            stays=_OUT_OF_PRODUCTION,
        ),
        purchase_is_server=True,
        missing="",
    ),
    "a100-80gb": AcceleratorPrices(
        gpu_cloud=_hour(
            2.70,
            "median of Lambda 2.79 (2026-09-20), CoreWeave 8x A100 2.70 and RunPod 2.45 "
            "(deploybase, 2026-03-10)",
            "2026-09-20",
            2.45,
            2.79,
        ),
        large_cloud=_hour(3.43, "AWS p4de.24xlarge on demand", "2026-11-09", 3.43, 4.10),
        purchase=_buy(17_349, "A100 SXM4 80GB street price, " + _EPP, "2025-03-04", 17_349, 17_349),
        purchase_is_server=False,
        missing="",
    ),
    "h100-sxm": AcceleratorPrices(
        gpu_cloud=_hour(
            3.99,
            "median of Lambda 8x H100 3.99 (2026-09-20), RunPod secure 3.99 and community 2.69 "
            "(2026-11-09), CoreWeave 6.16 (2026-09-20)",
            "2026-11-09",
            2.69,
            6.16,
        ),
        large_cloud=_hour(
            6.88,
            "AWS p5.48xlarge on demand after the June-2025 cut; Azure ND96isr H100 v5 12.29",
            "2026-11-09",
            6.88,
            12.29,
        ),
        purchase=_buy(
            310_000 / 8,
            "HGX H100 server with 8 x 400G network cards, $310,000 (Thinkmate quote $317,000), "
            "H100 Freakonomics; low: HGX H100 server $288,142 (2024-07, " + _EPP + ")",
            "2024-08",
            288_142 / 8,
            317_000 / 8,
        ),
        purchase_is_server=True,
        missing="",
    ),
    "h100-pcie": AcceleratorPrices(
        gpu_cloud=_hour(
            2.86,
            "Lambda 1x H100 PCIe 2.86 (2026-05-07); RunPod 3.51 (2026-03-10)",
            "2026-05-07",
            2.86,
            3.51,
        ),
        large_cloud=None,
        purchase=_buy(24_500, "H100 PCIe reseller price, " + _EPP, "2025-03-03", 24_500, 24_500),
        purchase_is_server=False,
        missing="no large cloud lists the H100 PCIe by the hour",
    ),
    "h800": AcceleratorPrices(
        gpu_cloud=_hour(
            2.00,
            "DeepSeek-V3 Technical Report (arXiv 2412.19437): rental price assumed at $2 per "
            "H800-hour; the H800 is rented in China only",
            "2024-12",
            2.00,
            2.00,
            ESTIMATE,
        ),
        large_cloud=None,
        purchase=None,
        purchase_is_server=False,
        missing="the H800 is sold in China only: no public purchase or large-cloud price",
    ),
    "h200": AcceleratorPrices(
        gpu_cloud=_hour(
            6.31,
            "median of CoreWeave HGX H200 6.31 (2026-09-20), RunPod 6.35 (2026-03-10) and "
            "Spheron 4.22 (2026)",
            "2026-09-20",
            4.22,
            6.35,
        ),
        large_cloud=_hour(7.91, "AWS p5en.48xlarge on demand", "2026-08-06", 7.91, 7.91),
        purchase=_buy(
            312_667 / 8,
            "HGX H200 8-GPU system $312,667, reseller, " + _EPP,
            "2025-01-31",
            270_565 / 8,
            312_667 / 8,
        ),
        purchase_is_server=True,
        missing="",
    ),
    "b200": AcceleratorPrices(
        gpu_cloud=_hour(
            8.60,
            "median of Lambda 8x B200 6.69, CoreWeave HGX B200 8.60 (2026-09-20) and RunPod "
            "10.57 (2026-03-10)",
            "2026-09-20",
            6.69,
            10.57,
        ),
        large_cloud=None,
        purchase=_buy(
            379_272 / 8,
            "DGX B200 about $379,000, reseller price converted from EUR, " + _EPP,
            "2024-12-17",
            379_272 / 8,
            379_272 / 8,
        ),
        purchase_is_server=True,
        missing="no dated large-cloud list price for the B200 was found",
    ),
    "l40s": AcceleratorPrices(
        gpu_cloud=_hour(
            1.48,
            "median of RunPod 0.86, Civo 1.29, Vultr 1.67 and CoreWeave 2.25 (modal.com L40S "
            "price survey)",
            "2025-08-12",
            0.86,
            2.25,
        ),
        large_cloud=_hour(
            1.861,
            "AWS g6e.xlarge on demand, us-east-1 (modal.com survey)",
            "2025-08-12",
            1.861,
            1.861,
        ),
        purchase=None,
        purchase_is_server=False,
        missing="no dated public purchase price for the L40S was found",
    ),
    "rtx-a6000": AcceleratorPrices(
        gpu_cloud=None,
        large_cloud=None,
        purchase=_buy(
            4_649,
            "RTX A6000 list price, " + _EPP,
            "2020-10-05",
            4_649,
            4_649,
            stays=_OUT_OF_PRODUCTION,
        ),
        purchase_is_server=False,
        missing="no dated on-demand cloud price for the RTX A6000 was found",
    ),
    "l4": AcceleratorPrices(
        gpu_cloud=_hour(
            0.78,
            "RunPod L4 on demand (deploybase, 2026-03-10); Modal 0.80",
            "2026-03-10",
            0.78,
            0.80,
        ),
        large_cloud=None,
        purchase=None,
        purchase_is_server=False,
        missing="no dated public purchase or large-cloud price for the L4 was found",
    ),
    "mi300x": AcceleratorPrices(
        gpu_cloud=_hour(
            1.85,
            "Vultr MI300X 1.85, TensorWave 1.50 (cliffcenter.com research note)",
            "2026-05-18",
            1.50,
            1.99,
            PUBLIC_QUOTE,
        ),
        large_cloud=_hour(
            6.00,
            "Azure MI300X about $6 per GPU-hour (cliffcenter.com research note)",
            "2026-05-18",
            6.00,
            6.00,
            PUBLIC_QUOTE,
        ),
        purchase=_buy(
            205_872 / 8,
            "8 x MI300X baseboard about $205,900, reseller, " + _EPP,
            "2025-02-10",
            205_872 / 8,
            205_872 / 8,
        ),
        purchase_is_server=False,
        missing="",
    ),
    "mi325x": AcceleratorPrices(
        gpu_cloud=_hour(
            1.95,
            "TensorWave MI325X (cliffcenter.com research note)",
            "2026-05-18",
            1.95,
            1.95,
            PUBLIC_QUOTE,
        ),
        large_cloud=None,
        # No dated public MI325X price was found (reference catalog, section 2: "not found");
        # estimated from the MI300X's, the same CDNA 3 compute with more HBM3E, by what one
        # provider charges to rent each: TensorWave's MI325X at $1.95 an hour against its
        # MI300X at $1.50 (cliffcenter.com, 2026-05-18).  Low: the MI300X's own price; high:
        # the MI300X's price per GB of memory times the MI325X's 256 GB.
        purchase=_buy(
            205_872 / 8 * 1.95 / 1.50,
            "estimate: 8 x MI300X baseboard about $205,900 (reseller, " + _EPP + ", "
            "2025-02-10) x TensorWave's MI325X / MI300X rent, $1.95 / $1.50 an hour "
            "(cliffcenter.com research note, 2026-05-18)",
            "2026-05-18",
            205_872 / 8,
            205_872 / 8 * 256 / 192,
            ESTIMATE,
        ),
        purchase_is_server=False,
        missing="no public large-cloud price for the MI325X was found",
    ),
    "gaudi3": AcceleratorPrices(
        gpu_cloud=None,
        large_cloud=None,
        purchase=_buy(
            125_000 / 8,
            "Intel Gaudi 3 kit of 8 at $125,000 (Computex 2024), " + _EPP,
            "2024-06",
            125_000 / 8,
            125_000 / 8,
            LIST_PRICE,
        ),
        purchase_is_server=False,
        missing="no public per-hour cloud price for Gaudi 3 was found",
    ),
    "gaudi2": AcceleratorPrices(
        gpu_cloud=None,
        large_cloud=None,
        purchase=_buy(
            65_000 / 8,
            "Intel Gaudi 2 kit of 8 at $65,000, " + _EPP,
            "2024-06-09",
            65_000 / 8,
            65_000 / 8,
            LIST_PRICE,
        ),
        purchase_is_server=False,
        missing="no public per-hour cloud price for Gaudi 2 was found",
    ),
    "mi250x": AcceleratorPrices(
        gpu_cloud=None,
        large_cloud=None,
        purchase=_buy(
            14_500,
            "MI250X estimate, " + _EPP,
            "2021-11-08",
            14_500,
            14_500,
            ESTIMATE,
            stays=_OUT_OF_PRODUCTION,
        ),
        purchase_is_server=False,
        missing="no public per-hour cloud price for the MI250X was found",
    ),
}

ACCELERATOR_PRICES: Mapping[str, AcceleratorPrices] = MappingProxyType(_TABLE)
"""Accelerator id -> its prices (every id of :data:`sizing.engine.hardware.ACCELERATORS`)."""


def gpu_cloud_price(accelerator: str) -> float | None:
    """The GPU-cloud on-demand price of one accelerator-hour [USD/GPU-h], or None."""
    found = ACCELERATOR_PRICES[accelerator].gpu_cloud
    return None if found is None else float(found.value)


_CONFIRMED = (LIST_PRICE, PUBLIC_QUOTE)  # firmness of a cloud price that counts as published


def cloud_price_confirmed(accelerator: str) -> bool:
    """Whether the GPU-cloud price of one accelerator is published: a list price or a public
    quote, not an estimate and not missing.

    Alternatives with an unconfirmed price rank after those with a published one, and say so;
    the recommended accelerator's cost figures carry a warning.
    """
    found = ACCELERATOR_PRICES[accelerator].gpu_cloud
    return found is not None and found.flag in _CONFIRMED
