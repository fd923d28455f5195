"""The prices one sizing uses: picked for its accelerator and region, with the customer's own
figures where given.  Pure data; :func:`sizing.engine.resolve.site.resolve_prices` records them
as answers, the cost model reads them and the sensitivity analysis moves them one at a time.

References
----------
.. [1] The prices and their dates: :mod:`sizing.engine.cost.prices` and
       :mod:`sizing.engine.cost.accelerator_prices`, each with its public source; how old a price
       may be before the proposal says it may have moved is the assumption
       ``price_stale_months`` (:mod:`sizing.engine.assumptions`).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, replace

from ..assumptions import value
from ..frozen_copies import with_changes
from ..hardware import REFERENCE_SERVER_GPUS
from ..provenance import ESTIMATE, Price
from .accelerator_prices import ACCELERATOR_PRICES
from .prices import PRICES

YOUR_FIGURE = "your figure"  # the flag of a price the customer gave

# The last month an ``as_of`` can stand for: "2024" → December, "2024-H1" → June, "2024-Q3" →
# September, "2024-08" and "2024-08-15" → August (a figure is never called older than it is).
_AS_OF = re.compile(r"^(\d{4})(?:-(?:(\d{2})|H([12])|Q([1-4])))?")
_MONTHS_PER_YEAR = 12
_MONTHS_PER_HALF = 6
_MONTHS_PER_QUARTER = 3


def age_in_months(as_of: str, on: datetime.date) -> int | None:
    """Whole months from the last month ``as_of`` can stand for to the date ``on`` [months]:
    ``12 x (year_on - year) + month_on - month``, with ``month`` the last month of ``as_of``
    (``_AS_OF``), so a figure is never called older than it is; ``None`` when ``as_of`` is not
    a date."""
    found = _AS_OF.match(as_of.strip())
    if found is None:
        return None
    year, month, half, quarter = found.groups()
    if month:
        last = int(month)
    elif half:
        last = int(half) * _MONTHS_PER_HALF
    elif quarter:
        last = int(quarter) * _MONTHS_PER_QUARTER
    else:
        last = _MONTHS_PER_YEAR
    return _MONTHS_PER_YEAR * (on.year - int(year)) + on.month - last


def dated_note(as_of: str, on: datetime.date) -> str:
    """ "dated 2024-08, may have moved" for a figure older than ``price_stale_months`` on the
    date ``on`` of the answers (:func:`age_in_months`), "" otherwise (or when ``as_of`` is not
    a date)."""
    age = age_in_months(as_of, on)
    if age is None or age <= value("price_stale_months"):
        return ""
    return f"dated {as_of[:7]}, may have moved"


@dataclass(frozen=True)
class UsedPrice:
    """One price as used: its value, plausible range, unit and provenance."""

    key: str
    value: float
    low: float
    high: float
    unit: str
    source: str
    as_of: str
    flag: str
    region: str

    def at(self, value: float) -> UsedPrice:
        """The same price at another value (for the sensitivity analysis)."""
        return with_changes(self, value=value)


@dataclass(frozen=True)
class PriceSet:
    """Every price the cost model reads [USD and the units in each ``UsedPrice``]."""

    gpu_cloud: UsedPrice | None  # [USD/GPU-h] GPU cloud on demand
    large_cloud: UsedPrice | None  # [USD/GPU-h] large public cloud on demand
    reserved_override: UsedPrice | None  # [USD/GPU-h] the customer's reserved price
    reserved_1yr_ratio: UsedPrice
    reserved_3yr_ratio: UsedPrice
    cloud_idle_share: UsedPrice
    cloud_storage: UsedPrice  # [USD/GB-month]
    purchase: UsedPrice | None  # [USD/GPU] accelerator with its share of the server
    switch: UsedPrice  # [USD/switch]
    link: UsedPrice  # [USD/link]
    storage_owned: UsedPrice  # [USD/TB]
    installation_share: UsedPrice
    support_share: UsedPrice  # [1/yr]
    depreciation_years: UsedPrice  # [yr]
    electricity: UsedPrice  # [USD/kWh]
    pue_own: UsedPrice
    pue_colocation: UsedPrice
    colocation: UsedPrice  # [USD/kW-month]
    own_space_share: UsedPrice
    staff_cost: UsedPrice  # [USD/FTE-yr]
    staff_gpus_per_fte: UsedPrice  # [GPUs/FTE]
    usd_per_eur: UsedPrice

    def reserved(self, ratio: UsedPrice) -> float | None:
        """A reservation's price [USD/GPU-h]: the customer's, else on demand x ``ratio``."""
        if self.reserved_override is not None:
            return self.reserved_override.value
        base = self.gpu_cloud or self.large_cloud
        return None if base is None else base.value * ratio.value


@dataclass(frozen=True)
class PriceOverrides:
    """The customer's own prices (``prices`` input section); ``None`` where not given."""

    cloud_on_demand: float | None = None
    cloud_reserved: float | None = None
    purchase: float | None = None
    electricity: float | None = None
    pue: float | None = None
    colocation: float | None = None
    staff: float | None = None


def _used(key: str, price: Price) -> UsedPrice:
    return UsedPrice(
        key=key,
        value=float(price.value),
        low=float(price.low),
        high=float(price.high),
        unit=price.unit,
        source=price.source,
        as_of=price.as_of,
        flag=price.flag,
        region=price.region,
    )


def _table(key: str) -> UsedPrice:
    return _used(key, PRICES[key])


def _theirs(given: float, *, key: str, unit: str, region: str) -> UsedPrice:
    """The customer's own figure: no range (it is theirs), no date."""
    return UsedPrice(key, given, given, given, unit, YOUR_FIGURE, "", YOUR_FIGURE, region)


def _either(found: UsedPrice, given: float | None) -> UsedPrice:
    """The customer's figure where given, else the table's."""
    if given is None:
        return found
    return _theirs(given, key=found.key, unit=found.unit, region=found.region)


def _maybe(
    found: UsedPrice | None, given: float | None, *, key: str, unit: str
) -> UsedPrice | None:
    """Like :func:`_either` for a price the tables may not have."""
    if given is None:
        return found
    return _theirs(given, key=key, unit=unit, region=found.region if found else "")


def purchase_per_gpu(accelerator: str) -> UsedPrice | None:
    """Price per accelerator with its share of the server: a server price divided by its
    accelerators, or the accelerator plus its share of a host platform [USD/GPU]."""
    entry = ACCELERATOR_PRICES[accelerator]
    if entry.purchase is None:
        return None
    used = _used("purchase", entry.purchase)
    if entry.purchase_is_server:
        return used
    host = PRICES["host_platform_usd_per_server"]
    share = 1.0 / REFERENCE_SERVER_GPUS
    return replace(
        used,
        value=used.value + float(host.value) * share,
        low=used.low + float(host.low) * share,
        high=used.high + float(host.high) * share,
        source=f"{used.source}; plus a host platform: {host.source}",
        flag=ESTIMATE,
    )


def price_set(accelerator: str, region: str, overrides: PriceOverrides) -> PriceSet:
    """The prices for ``accelerator`` at a site in ``region``, the customer's where given."""
    entry = ACCELERATOR_PRICES[accelerator]
    gpu_cloud = None if entry.gpu_cloud is None else _used("gpu_cloud", entry.gpu_cloud)
    large = None if entry.large_cloud is None else _used("large_cloud", entry.large_cloud)
    hour = "USD/GPU-h"
    return PriceSet(
        gpu_cloud=_maybe(gpu_cloud, overrides.cloud_on_demand, key="gpu_cloud", unit=hour),
        large_cloud=large,
        reserved_override=_maybe(None, overrides.cloud_reserved, key="reserved", unit=hour),
        reserved_1yr_ratio=_table("reserved_1yr_ratio"),
        reserved_3yr_ratio=_table("reserved_3yr_ratio"),
        cloud_idle_share=_table("cloud_idle_share"),
        cloud_storage=_table("cloud_storage_usd_per_gb_month"),
        purchase=_maybe(
            purchase_per_gpu(accelerator), overrides.purchase, key="purchase", unit="USD/GPU"
        ),
        switch=_table("network_switch_usd"),
        link=_table("network_link_usd"),
        storage_owned=_table("storage_usd_per_tb_owned"),
        installation_share=_table("installation_share"),
        support_share=_table("support_share_per_year"),
        depreciation_years=_table("depreciation_years"),
        electricity=_either(_table(f"electricity_usd_per_kwh_{region}"), overrides.electricity),
        pue_own=_either(_table("pue_own_facility"), overrides.pue),
        pue_colocation=_either(_table("pue_colocation"), overrides.pue),
        colocation=_either(_table(f"colocation_usd_per_kw_month_{region}"), overrides.colocation),
        own_space_share=_table("own_space_share_of_colocation"),
        staff_cost=_either(_table("staff_usd_per_year"), overrides.staff),
        staff_gpus_per_fte=_table("staff_accelerators_per_fte"),
        usd_per_eur=_table("usd_per_eur"),
    )
