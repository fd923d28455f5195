"""Three-year total cost of ownership: cloud on-demand, reserved, buy, hybrid.

Per year ``k`` (demand grows by ``(1 + g)^(k-1)``)::

    on_demand_k = gpus * 8760 * u * (1 + idle) * price_od * growth_k + storage
    reserved_k  = gpus * 8760 * price_res * growth_k + storage
    buy_1       = gpus * price_gpu * server_mult / (1 - net_share) + opex
    opex_k      = support * capex + power + space + staff + storage
    power       = nodes * server_kW * draw * 8760 * PUE * USD/kWh
    hybrid_k    = f * buy_k + (1 - f) * on_demand_k          (f: hybrid_owned_share)

The break-even utilisation solves ``on_demand(u) = buy``.

References
----------
.. [1] Epoch AI training-cost-trends @ 263c40a (server multiplier 1.64,
       interconnect 19 % of cluster cost, 75 % power draw, 5-year life).
.. [2] CBRE H2 2024 colocation rate; Uptime 2024 PUE; EIA 2025 power price.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .assumptions import value
from .hardware import REFERENCE_SERVER_GPUS, AcceleratorSpec
from .prices import price
from .ranges import scale_range
from .resolve import Resolved

_HOURS_PER_YEAR = 8760.0
_MONTHS_PER_YEAR = 12.0
_GB_PER_TB = 1000.0


@dataclass(frozen=True)
class CostOption:
    total_usd: float
    by_year_usd: tuple[float, ...]
    low_usd: float
    high_usd: float
    basis: str


@dataclass(frozen=True)
class CostResult:
    cloud_on_demand: CostOption
    cloud_reserved: CostOption
    buy: CostOption
    hybrid: CostOption
    break_even_utilisation: float | None
    recommended_option: str
    utilisation: float
    years: int
    one_run_cloud_usd: float
    one_run_cloud_range_usd: tuple[float, float]  # with the accelerator-hours' range
    price_sources: tuple[dict[str, str], ...]


def _option(by_year: list[float], low: float, high: float, basis: str) -> CostOption:
    total = sum(by_year)
    return CostOption(
        total_usd=total,
        by_year_usd=tuple(by_year),
        low_usd=total * low,
        high_usd=total * high,
        basis=basis,
    )


def _ranged(option: CostOption, factors: tuple[float, float]) -> CostOption:
    """The option with its range widened by the range of the accelerators needed."""
    low, high = scale_range(option.low_usd, option.high_usd, factors)
    return replace(option, low_usd=low, high_usd=high)


def _midpoint(a: float, b: float) -> float:
    return (a + b) / 2.0


def plan_cost(
    r: Resolved,
    acc: AcceleratorSpec,
    *,
    gpus: int,
    nodes: int,
    storage_tb: float,
    run_gpu_hours: float,
    allowed: tuple[str, ...],
    hours_range: tuple[float, float] = (1.0, 1.0),
    cluster_range: tuple[float, float] = (1.0, 1.0),
) -> CostResult:
    """TCO of the recommended cluster (see module docstring).

    ``hours_range`` and ``cluster_range``: low and high factors of the accelerator-hours and of
    the accelerators needed (``sizing.engine.ranges``); the cost of one run scales with the
    first, each option's range with the second.
    """
    u, years = r.utilisation, r.years
    growth = [(1.0 + r.roadmap_growth) ** k for k in range(years)]
    storage_year = storage_tb * _GB_PER_TB * price("storage_usd_per_gb_month") * _MONTHS_PER_YEAR
    idle = price("cloud_idle_share")
    od = [
        gpus * _HOURS_PER_YEAR * u * (1.0 + idle) * r.cloud_usd_per_gpu_hour * g + storage_year * g
        for g in growth
    ]
    res = [
        gpus * _HOURS_PER_YEAR * r.cloud_reserved_usd_per_gpu_hour * g + storage_year * g
        for g in growth
    ]
    capex, buy = _buy_by_year(
        r, acc, gpus=gpus, nodes=nodes, growth=growth, storage_year=storage_year
    )
    owned = value("hybrid_owned_share")
    hybrid = [owned * b + (1.0 - owned) * o for b, o in zip(buy, od, strict=True)]
    residual = 1.0 - years / price("depreciation_years")
    buy_low = 1.0 - max(0.0, residual) * capex / max(sum(buy), 1.0)
    buy_high = value("buy_high_factor")
    lo, hi = price("cloud_low_factor"), price("cloud_high_factor")
    options = {
        "cloud_on_demand": _option(
            od,
            lo,
            hi,
            f"{gpus} GPUs x {u:.0%} of the year at "
            f"${r.cloud_usd_per_gpu_hour:.2f}/GPU-h (+{idle:.0%} idle)",
        ),
        "cloud_reserved": _option(
            res,
            lo,
            hi,
            f"{gpus} GPUs reserved all year at ${r.cloud_reserved_usd_per_gpu_hour:.2f}/GPU-h",
        ),
        "buy": _option(
            buy,
            buy_low,
            buy_high,
            "hardware, network, support, power with PUE, space, "
            "staff, storage; low = minus residual value after the horizon",
        ),
        "hybrid": _option(
            hybrid,
            _midpoint(buy_low, lo),
            _midpoint(buy_high, hi),
            "half the capacity owned, peaks on cloud on-demand",  # hybrid_owned_share 0.5
        ),
    }
    options = {key: _ranged(option, cluster_range) for key, option in options.items()}
    per_u = sum(
        (gpus * _HOURS_PER_YEAR * (1.0 + idle) * r.cloud_usd_per_gpu_hour * g) for g in growth
    )
    fixed_od = storage_year * sum(growth)
    breakeven = (sum(buy) - fixed_od) / per_u if per_u > 0 else None
    candidates = [k for k in options if k in allowed] or list(options)
    best = min(candidates, key=lambda k: options[k].total_usd)
    run_cost = run_gpu_hours * r.cloud_usd_per_gpu_hour
    return CostResult(
        cloud_on_demand=options["cloud_on_demand"],
        cloud_reserved=options["cloud_reserved"],
        buy=options["buy"],
        hybrid=options["hybrid"],
        break_even_utilisation=breakeven,
        recommended_option=best,
        utilisation=u,
        years=years,
        one_run_cloud_usd=run_cost,
        one_run_cloud_range_usd=scale_range(run_cost, run_cost, hours_range),
        price_sources=_price_sources(r, acc),
    )


def _buy_by_year(
    r: Resolved,
    acc: AcceleratorSpec,
    *,
    gpus: int,
    nodes: int,
    growth: list[float],
    storage_year: float,
) -> tuple[float, list[float]]:
    """Capital cost and the cost of owning the cluster each year [USD] [1]_ [2]_.

    Year one buys the cluster; later years buy the growth.  Every year pays
    support, power with PUE, space, staff and storage.
    """
    server_kw = acc.server_power_kw * r.gpus_per_node / REFERENCE_SERVER_GPUS
    hw_capex = gpus * r.purchase_usd_per_gpu * price("server_cost_multiplier")
    capex = hw_capex / (1.0 - price("interconnect_share"))
    staff_fte = max(value("staff_fte_minimum"), gpus * price("staff_fte_per_gpu"))
    buy: list[float] = []
    prev = 1.0
    for k, g in enumerate(growth):
        extra = capex * (g - prev) if k else capex
        prev = g
        power = (
            nodes
            * g
            * server_kw
            * value("server_power_draw_share")
            * _HOURS_PER_YEAR
            * r.pue
            * r.electricity_usd_per_kwh
        )
        space = nodes * g * server_kw * r.colocation_usd_per_kw_month * _MONTHS_PER_YEAR
        opex = (
            price("support_share_per_year") * capex * g
            + power
            + space
            + staff_fte * r.staff_usd_per_year * g
            + storage_year * g
        )
        buy.append(extra + opex)
    return capex, buy


def _price_sources(r: Resolved, acc: AcceleratorSpec) -> tuple[dict[str, str], ...]:
    """The prices behind the comparison, with where and when they were read."""
    return (
        {
            "item": f"{acc.name} cloud price",
            "value": f"${r.cloud_usd_per_gpu_hour:.2f}/GPU-h",
            "source": acc.price_source,
            "as_of": acc.cloud_price_date,
        },
        {
            "item": f"{acc.name} purchase price",
            "value": f"${r.purchase_usd_per_gpu:,.0f}/GPU",
            "source": acc.price_source,
            "as_of": acc.purchase_date,
        },
        {
            "item": "electricity",
            "value": f"${r.electricity_usd_per_kwh:.3f}/kWh",
            "source": "EIA 2025 / Eurostat H1 2024",
            "as_of": "2025",
        },
        {
            "item": "space and power capacity",
            "value": f"${r.colocation_usd_per_kw_month:.2f}/kW-month",
            "source": "CBRE North America Data Center Trends H2 2024",
            "as_of": "2024-H2",
        },
        {
            "item": "storage",
            "value": f"${price('storage_usd_per_gb_month'):.2f}/GB-month",
            "source": "CoreWeave list price",
            "as_of": "2026-09-20",
        },
    )
