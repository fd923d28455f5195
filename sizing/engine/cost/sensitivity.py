"""Which prices move the totals most: each price at the low and high end of its published
range, the others held, every option re-priced.

An option's range combines the swings as independent errors::

    low  = T - sqrt(sum_i (T - min(T, T_i,low, T_i,high))^2)
    high = T + sqrt(sum_i (max(T, T_i,low, T_i,high) - T)^2)

The accelerators rented beside the owned ones for each run (``RentedHelp``, customer 9's
owned 512 H100 with rented help) are priced at the cloud's on-demand price, so where that
price swings their rent swings with it, in proportion (``usd_per_run x p / p_central``), and
the owned options that hold the rent are priced again.  The customer's own prices have no
range and do not swing.  The customer's own plan does: the
yearly growth and the runs a month (question 15) are moved to ``1 -/+ s`` times the answer
(``s`` = ``usage_swing_share``, a half), every option re-priced with that work
(:func:`usage_swings`).  Those swings are what-ifs about the plan, not errors of the estimate,
so they are listed among what moves the total most but left out of the range.  A swing that
moves the total by less than ``sensitivity_min_share`` (1 %) is not listed (:func:`largest`).

References
----------
.. [1] JCGM 100:2008, Evaluation of measurement data - Guide to the expression of uncertainty
       in measurement (GUM), sec. 5.1.2, eq. (10): independent contributions combine as the
       square root of the sum of their squares, as the low and high ends above do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from ..assumptions import value
from ..frozen_copies import with_changes
from .option import BUY, COLOCATION, OPTIONS, Priced
from .options import CostCase, OptionPricing
from .price_set import PriceSet, UsedPrice
from .usage import ROADMAP, Usage, with_growth, with_runs_per_month

# PriceSet fields with a published range, in the order the tables list them.
PARAMETERS = (
    "gpu_cloud",
    "large_cloud",
    "reserved_1yr_ratio",
    "reserved_3yr_ratio",
    "cloud_idle_share",
    "cloud_storage",
    "purchase",
    "switch",
    "link",
    "storage_owned",
    "installation_share",
    "support_share",
    "electricity",
    "pue_own",
    "pue_colocation",
    "colocation",
    "own_space_share",
    "staff_cost",
    "staff_gpus_per_fte",
)


# The options that hold the rent of the accelerators rented beside the owned ones
# (cost.options: owned sites are priced with the help, the hybrid rents its own peaks).
HELPED = frozenset({BUY, COLOCATION})

# The customer's own plan, swung like a price (labels: vocabulary.CONSTANTS).
USAGE_GROWTH = "roadmap_growth"
USAGE_RUNS = "runs_per_month"
USAGE_KEYS = (USAGE_GROWTH, USAGE_RUNS)


@dataclass(frozen=True)
class Swing:
    """One price at both ends of its range and every option's total there."""

    key: str  # the price's key (its registry key, or "gpu_cloud", "purchase" ...), or USAGE_*
    unit: str
    low_value: float
    high_value: float
    at_low_usd: Mapping[str, float]  # option -> total [USD]
    at_high_usd: Mapping[str, float]

    def spread_usd(self, option: str) -> float:
        """How far apart the option's totals are at the two ends [USD]; 0 when the option is
        not priced at one of them (a hybrid needs demand beyond one run's accelerators)."""
        if option not in self.at_low_usd or option not in self.at_high_usd:
            return 0.0
        return abs(self.at_high_usd[option] - self.at_low_usd[option])


def swings(
    case: CostCase,
    prices: PriceSet,
    base: Mapping[str, Priced | None],
    reads: Mapping[str, frozenset[str]],
) -> tuple[Swing, ...]:
    """Every price with a range, moved to each end (module docstring).

    Only the options that read the price (``reads``, :func:`options.prices_read`) are priced
    again at each end: the others cost what they cost at the prices given (``base``, each
    option priced with ``case`` and ``prices``: :func:`options.price_options_reading`), and so
    does every option at an end that is the price given (a range from the published price up).
    """
    help_key = _help_price(case, prices)
    given = OptionPricing(case, prices)  # what the prices do not move, worked out once
    # each option's total at the prices given, summed once: most ends move few options
    base_usd = {option: priced.net_usd for option, priced in base.items() if priced is not None}

    def at(key: str, moved: UsedPrice) -> dict[str, float]:
        unmoved = moved == getattr(prices, key) and key != help_key  # the help's rent is rescaled
        moved_prices = with_changes(prices, **{key: moved})
        pricing = given.at_prices(moved_prices)
        if key == help_key:
            central = getattr(prices, key).value
            rent = case.help.usd_per_run * moved.value / central
            moved_case = replace(case, help=replace(case.help, usd_per_run=rent))
            pricing = OptionPricing(moved_case, moved_prices)
        out = {}
        for option in OPTIONS:
            moves = not unmoved and (key in reads[option] or (key == help_key and option in HELPED))
            if not moves:
                if option in base_usd:
                    out[option] = base_usd[option]
                continue
            priced = pricing.price(option)
            if priced is not None:
                out[option] = priced.net_usd
        return out

    out = []
    for key in PARAMETERS:
        found = getattr(prices, key)
        if not isinstance(found, UsedPrice) or not found.low < found.high:
            continue
        out.append(
            Swing(
                key=found.key,
                unit=found.unit,
                low_value=found.low,
                high_value=found.high,
                at_low_usd=at(key, found.at(found.low)),
                at_high_usd=at(key, found.at(found.high)),
            )
        )
    return tuple(out)


def _help_price(case: CostCase, prices: PriceSet) -> str | None:
    """The price the accelerators rented beside the owned ones are priced at
    (``owned_first``: the GPU cloud's on-demand price, else the large cloud's), or None when
    nothing is rented beside them (module docstring)."""
    if not case.help.usd_per_run:
        return None
    for key in ("gpu_cloud", "large_cloud"):
        if isinstance(getattr(prices, key), UsedPrice):
            return key
    return None


def usage_swings(case: CostCase, prices: PriceSet) -> tuple[Swing, ...]:
    """The yearly growth and the runs a month at ``1 -/+ s`` times the answer, every option
    re-priced (module docstring); none when the plan has no growth or no runs a month."""
    work, share = case.usage, value("usage_swing_share")
    plans: list[tuple[str, str, float, Callable[[Usage, float], Usage]]] = []
    if work.known and work.growth > 0 and len(work.gpu_hours_by_year) > 1:
        plans.append((USAGE_GROWTH, "1/yr", work.growth, with_growth))
    if work.basis == ROADMAP and work.runs_per_month:
        plans.append((USAGE_RUNS, "runs/month", work.runs_per_month, with_runs_per_month))
    given = OptionPricing(case, prices)  # each capacity bought once for every plan
    out = []
    for key, unit, answer, rebuild in plans:
        low, high = answer * (1.0 - share), answer * (1.0 + share)
        out.append(
            Swing(
                key=key,
                unit=unit,
                low_value=low,
                high_value=high,
                at_low_usd=given.with_usage(rebuild(work, low)).totals(),
                at_high_usd=given.with_usage(rebuild(work, high)).totals(),
            )
        )
    return tuple(out)


def total_range(
    option: str, total_usd: float, all_swings: tuple[Swing, ...]
) -> tuple[float, float]:
    """The option's low and high total from all swings combined (module docstring) [USD]."""
    down = up = 0.0
    for swing in all_swings:
        ends = (swing.at_low_usd.get(option, total_usd), swing.at_high_usd.get(option, total_usd))
        down += (total_usd - min(total_usd, *ends)) ** 2
        up += (max(total_usd, *ends) - total_usd) ** 2
    return total_usd - math.sqrt(down), total_usd + math.sqrt(up)


def largest(
    option: str, total_usd: float, all_swings: tuple[Swing, ...], count: int
) -> tuple[Swing, ...]:
    """The ``count`` swings that move the option's total most, leaving out those that move
    it by less than ``sensitivity_min_share`` of ``total_usd`` [USD] (module docstring)."""
    least = value("sensitivity_min_share") * abs(total_usd)
    moving = [s for s in all_swings if s.spread_usd(option) > 0 and s.spread_usd(option) >= least]
    moving.sort(key=lambda s: -s.spread_usd(option))
    return tuple(moving[:count])


def with_gpu_hours(
    total_usd: float,
    price_range_usd: tuple[float, float],
    scales_usd: float,
    factors: tuple[float, float],
) -> tuple[float, float]:
    """An option's price range combined with a range of its accelerator-hours [USD].

    ``scales_usd`` is the part of the total proportional to accelerator-hours and
    ``factors`` the low and high factors of the hours [x]; that part moves by
    ``scales_usd * (factor - 1)``, an error independent of the prices', so the two add in
    quadrature like the price swings (module docstring).
    """
    low, high = price_range_usd
    down = scales_usd * max(0.0, 1.0 - factors[0])
    up = scales_usd * max(0.0, factors[1] - 1.0)
    return (
        total_usd - math.hypot(total_usd - low, down),
        total_usd + math.hypot(high - total_usd, up),
    )
