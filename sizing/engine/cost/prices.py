"""Prices that do not depend on the accelerator: running costs by region, network, storage,
staff, cloud terms and the exchange rate.  Every one is a :class:`~.provenance.Price` with its
source, the date it was read or published, its region and how firm it is; the customer can
override the main ones through the ``prices`` input section.

Accelerator prices (cloud per hour, purchase) are in :mod:`sizing.engine.cost.accelerator_prices`.
EU figures published in euros are converted at :data:`USD_PER_EUR`.

References
----------
.. [1] EIA via Statista (US industrial average 2025); EIA electricity annual 2023 (by state).
.. [2] Eurostat, Electricity price statistics (non-household, H1 2024; H2 2023 EU average
       €0.20/kWh as transcribed by qery.no).
.. [3] CBRE North America Data Center Trends H2 2024 (2025-02-26) and H1 2024.
.. [4] datacentres.com, "European Data Centre Markets" (Frankfurt colocation EUR 130-180 per
       kW-month; undated guide, read 2026-12-02).
.. [5] Uptime Institute Global Data Center Survey 2024; Equinix sustainability report 2023;
       Epoch AI cost model (Cottier et al., arXiv 2405.21015) PUE 1.25.
.. [6] "H100 Freakonomics" (substack.tech-talk-cto.com) and its spreadsheet, Aug 2024.
.. [7] US BLS OES May 2019, 15-1244 wages; BLS ECEC December 2021 (wages 70.5 % of
       private-industry compensation).
.. [8] Roskies & Zacharia, "Designing and Supporting High-end Computational Facilities",
       CTWatch Quarterly 2(2), May 2006 (one FTE per ~250 processors).
.. [9] European Central Bank, euro foreign exchange reference rates of 2026-02-06
       (1 EUR = 1.1794 USD): the one exchange-rate table, :mod:`sizing.engine.cost.places`.
.. [10] Eurostat news release of 29 October 2025 on electricity prices in the first half of
        2025 (dataset nrg_pc_205): non-household consumers, EU average EUR 19.02 per 100 kWh
        (EUR 0.1902/kWh; EUR 19.41 in H2 2024), excluding VAT and recoverable taxes,
        https://ec.europa.eu/eurostat/statistics-explained/index.php?title=Electricity_price_statistics
        (data extracted October 2025).

Every figure is dated; one older than :data:`STALE_AFTER_MONTHS` on :data:`PRICE_BOOK_AS_OF`
carries the reason it stays (``stays``): ``tests/sizing/test_price_book.py`` fails otherwise.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from types import MappingProxyType

from ..provenance import (
    ESTIMATE,
    EU,
    GLOBAL,
    LIST_PRICE,
    NORTH_AMERICA,
    PUBLIC_QUOTE,
    PUBLISHED_FIGURE,
    Price,
)
from .places import FX_AS_OF, FX_SOURCE, PER_EUR

# The day this price book was last reviewed: every figure's age is counted to it, and a figure
# older than STALE_AFTER_MONTHS then carries the reason it stays (``Price.stays``).
PRICE_BOOK_AS_OF = datetime.date(2026, 12, 4)
STALE_AFTER_MONTHS = 36  # [months] three years

USD_PER_EUR = PER_EUR["USD"]  # [USD/EUR] ECB reference rate of 2026-02-06 [9]_
_FREAK = "H100 Freakonomics spreadsheet (substack.tech-talk-cto.com), prices of Aug 2024"
_EUROSTAT = "Eurostat Electricity price statistics, non-household consumers"
_CBRE = "CBRE North America Data Center Trends H2 2024 (250-500 kW, primary markets)"
_BLS = "US BLS OES May 2019, 15-1244 network and computer systems administrators"
_ECEC = "BLS ECEC Dec 2021: wages are 70.5 % of private-industry compensation"
_WAGE_SHARE = 0.705  # [-] wages / total compensation, private industry [7]_


def _eur(amount: float) -> float:
    """EUR -> USD at the dated reference rate [USD]."""
    return round(amount * USD_PER_EUR, 4)


def _loaded(wage_usd: float) -> float:
    """Loaded cost of a wage: wage / wage share of compensation [USD/yr]."""
    return round(wage_usd / _WAGE_SHARE, -1)


P: dict[str, Price] = {
    # --- exchange rate ---------------------------------------------------------------------
    "usd_per_eur": Price(
        USD_PER_EUR,
        "USD/EUR",
        FX_SOURCE,
        FX_AS_OF,
        "converts EU prices to USD and gives the optional euro view of the totals",
        GLOBAL,
        PUBLIC_QUOTE,
        USD_PER_EUR,
        USD_PER_EUR,
    ),
    # --- electricity ----------------------------------------------------------------------
    "electricity_usd_per_kwh_north_america": Price(
        0.0826,
        "USD/kWh",
        "EIA via Statista, US industrial average 2025; range: EIA 2023 by state "
        "(WA 0.0635 to CA 0.1864)",
        "2025",
        "power price for sites in North America",
        NORTH_AMERICA,
        LIST_PRICE,
        0.0635,
        0.1864,
    ),
    "electricity_usd_per_kwh_eu": Price(
        _eur(0.1902),
        "USD/kWh",
        _EUROSTAT + ": EU average EUR 0.1902 in H1 2025 (Eurostat news release of "
        "2025-10-29); range: lowest and highest country in H1 2024, Finland EUR 0.0939 to "
        "Ireland EUR 0.256 (Statistics Explained, data extracted October 2024)",
        "2025-H1",
        "power price for sites in the EU, EEA, UK and Switzerland",
        EU,
        ESTIMATE,
        _eur(0.0939),
        _eur(0.256),
    ),
    # --- facility ------------------------------------------------------------------------
    "pue_own_facility": Price(
        1.56,
        "-",
        "Uptime Institute global survey 2024 average (1.58 in 2023); low: 1.25 in the Epoch AI "
        "cost model for non-hyperscale sites",
        "2024",
        "facility power over IT power in a typical enterprise data centre",
        GLOBAL,
        PUBLISHED_FIGURE,
        1.25,
        1.58,
    ),
    "pue_colocation": Price(
        1.42,
        "-",
        "Equinix fleet PUE 2023; range 1.25 (Epoch AI) to 1.56 (Uptime 2024 average)",
        "2023",
        "facility power over IT power at a large colocation provider",
        GLOBAL,
        PUBLISHED_FIGURE,
        1.25,
        1.56,
    ),
    "colocation_usd_per_kw_month_north_america": Price(
        184.06,
        "USD/kW-month",
        _CBRE + "; low: H1 2024 rate 174.06; high: one more year of the +12.6 % trend",
        "2024-H2",
        "rented space, power and cooling capacity per contracted kW",
        NORTH_AMERICA,
        PUBLIC_QUOTE,
        174.06,
        round(184.06 * 1.126, 2),
    ),
    "colocation_usd_per_kw_month_eu": Price(
        _eur(155.0),
        "USD/kW-month",
        "datacentres.com European Data Centre Markets: Frankfurt EUR 130-180 per kW-month "
        "(undated guide, read 2026-12-02); midpoint EUR 155",
        "2026-12-02",
        "rented space, power and cooling capacity per contracted kW",
        EU,
        PUBLIC_QUOTE,
        _eur(130.0),
        _eur(180.0),
    ),
    "own_space_share_of_colocation": Price(
        0.5,
        "x colocation rate",
        "our choice: no public cost of space in an own data centre; midpoint between a "
        "site with spare room (0) and building capacity at colocation rates (1)",
        "2026-12-02",
        "cost of floor space, power distribution and cooling in your own data centre",
        GLOBAL,
        ESTIMATE,
        0.0,
        1.0,
    ),
    # --- cloud terms -----------------------------------------------------------------------
    "cloud_storage_usd_per_gb_month": Price(
        0.07,
        "USD/GB-month",
        "CoreWeave distributed file storage list price; low: CoreWeave object storage 0.03",
        "2026-09-20",
        "shared file system capacity rented with cloud accelerators",
        GLOBAL,
        LIST_PRICE,
        0.03,
        0.07,
    ),
    "cloud_idle_share": Price(
        0.10,
        "x compute",
        "our estimate: no public figure for instance time paid outside runs",
        "2026-12-02",
        "cloud time paid around runs (set-up, debugging, instances left running)",
        GLOBAL,
        ESTIMATE,
        0.0,
        0.20,
    ),
    "reserved_1yr_ratio": Price(
        0.6935,
        "x on-demand",
        "median of published 1-year/on-demand pairs: GCP a3-highgpu 7.67/11.06, Azure NC40ads "
        "5.81/6.98, AWS p4d 2.40/4.10, Azure ND96amsr 3.53/4.10, AWS g6e 1.17/1.861",
        "2025-08-12",
        "one-year reservation price relative to on demand",
        GLOBAL,
        ESTIMATE,
        0.5854,
        0.8610,
    ),
    "reserved_3yr_ratio": Price(
        0.4394,
        "x on-demand",
        "median of published 3-year/on-demand pairs: GCP a3-highgpu 4.86/11.06, Azure NC40ads "
        "4.31/6.98, AWS p4d 1.45/4.10, Azure ND96amsr 2.13/4.10, AWS g6e 0.80/1.861",
        "2025-08-12",
        "three-year reservation price relative to on demand",
        GLOBAL,
        ESTIMATE,
        0.3537,
        0.6175,
    ),
    # --- owned hardware around the accelerators --------------------------------------------
    "host_platform_usd_per_server": Price(
        79_000,
        "USD/8-GPU server",
        "derived: DGX A100 launch price $199,000 (2020-05) less 8 x $15,000 A100 list price "
        "(Epoch AI hardware prices data, version 263c40a)",
        "2020-07",
        "CPUs, memory, NVMe, chassis and network cards around an 8-accelerator board "
        "bought without them",
        GLOBAL,
        ESTIMATE,
        60_000,
        100_000,
        stays="no newer public price of a GPU server without its accelerators; it only prices "
        "accelerators with no public server price, and its range (60,000 to 100,000) is wide",
    ),
    "network_switch_usd": Price(
        36_000,
        "USD/switch",
        _FREAK + ": 64-port 400 Gb/s InfiniBand switch (FS.com variant); NVIDIA about 50,000",
        "2024-08",
        "one 64-port switch of the compute fabric",
        GLOBAL,
        PUBLIC_QUOTE,
        36_000,
        50_000,
    ),
    "network_link_usd": Price(
        1_280,
        "USD/link",
        _FREAK + ": connectors and cables $2,621,440 for 1,024 GPUs on two switch tiers "
        "(range over its 1-, 2- and 3-tier rows: 1,266 to 1,320)",
        "2024-08",
        "cables and transceivers of one accelerator's link to one switch tier",
        GLOBAL,
        ESTIMATE,
        1_266,
        1_320,
    ),
    "storage_usd_per_tb_owned": Price(
        440,
        "USD/TB",
        "derived: 122.88 TB QLC SSD about $27,000 (aijourn.com, 2026) = $220/TB raw, x2 for "
        "servers, data protection and metadata (our estimate); low: UCSF Wynton BeeGFS "
        "$160/TB (2020)",
        "2026-12-02",
        "usable capacity of a shared parallel file system, bought",
        GLOBAL,
        ESTIMATE,
        160,
        880,
    ),
    "installation_share": Price(
        0.03,
        "x hardware",
        "our estimate: no public figure for racking, cabling and acceptance testing",
        "2026-12-02",
        "one-time installation as a share of the hardware bought",
        GLOBAL,
        ESTIMATE,
        0.01,
        0.05,
    ),
    "support_share_per_year": Price(
        0.10,
        "1/yr",
        "our estimate between 0 (support included in a quoted 3-year warranty) and 20 % "
        "(supercluster.blog DGX support quote, unverified)",
        "2026-12-02",
        "hardware support contracts per year as a share of the hardware bought",
        GLOBAL,
        ESTIMATE,
        0.0,
        0.20,
    ),
    "depreciation_years": Price(
        5,
        "yr",
        "Epoch AI training-cost-trends data, version 263c40a (servers from 2023 on)",
        "2024",
        "straight-line life of owned hardware; the book value left after the horizon",
        GLOBAL,
        PUBLISHED_FIGURE,
        5,
        5,
    ),
    # --- people ---------------------------------------------------------------------------
    "staff_usd_per_year": Price(
        _loaded(106_310),
        "USD/FTE-yr",
        f"{_BLS}: 75th percentile wage $106,310 (median $83,510, 90th $132,520), loaded: {_ECEC}",
        "2019-05",
        "loaded cost of one engineer who operates the cluster",
        NORTH_AMERICA,
        ESTIMATE,
        _loaded(83_510),
        _loaded(132_520),
        stays="no newer percentile wages for this occupation in the sources we could read "
        "(BLS publishes them each May); the 90th-percentile high end of the range covers the "
        "wage growth since 2019, and your own figure replaces it",
    ),
    "staff_accelerators_per_fte": Price(
        250,
        "GPUs/FTE",
        "Roskies & Zacharia, CTWatch Quarterly May 2006: sites add one FTE per ~250 processors "
        "(applied to accelerators); range 125 to 500 is our choice",
        "2006-05",
        "accelerators one operations engineer looks after",
        GLOBAL,
        ESTIMATE,
        125,
        500,
        stays="no newer public ratio of operations staff to accelerators found; the range, "
        "half to twice the ratio, is what the cost's sensitivity varies",
    ),
}

PRICES: Mapping[str, Price] = MappingProxyType(P)


def price(key: str) -> float:
    """The numeric value of price ``key``."""
    return float(PRICES[key].value)
