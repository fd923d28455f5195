"""Running owned hardware for a year: power, space, support contracts and staff.

For ``O`` accelerators busy ``B`` of their ``O x 8760`` hours::

    kW per accelerator = server kW / accelerators per reference server
    power   = kW x (d_busy x B + d_idle x (O x 8760 - B)) x PUE x USD/kWh
    space   = O x kW x rate x 12           rate: colocation per kW-month, or in your own
                                           data centre that times ``own_space_share``
    support = share x hardware bought so far
    staff   = O / accelerators per FTE x cost of an FTE

Every term is per accelerator, so a single accelerator is charged one accelerator's power,
space and staff, never a whole server's.

References
----------
.. [1] Epoch AI cost model (Cottier et al., arXiv 2405.21015): training draws ~75 % of
       server power.
.. [2] Roskies & Zacharia, CTWatch Quarterly, May 2006 (one FTE per ~250 processors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..assumptions import value
from ..hardware import REFERENCE_SERVER_GPUS, AcceleratorSpec
from ..units import HOURS_PER_YEAR, MONTHS_PER_YEAR
from .price_set import PriceSet


@dataclass(frozen=True)
class RunningYear:
    """One year of running owned hardware [USD]."""

    power_usd: float
    space_usd: float
    support_usd: float
    staff_usd: float

    @property
    def total_usd(self) -> float:
        return self.power_usd + self.space_usd + self.support_usd + self.staff_usd


@dataclass(frozen=True)
class RunningYears:
    """Running owned hardware over a horizon, each part year by year [USD]: the parts of
    :class:`RunningYear` as columns, which the owned option's cost is made of."""

    power_usd: tuple[float, ...]
    space_usd: tuple[float, ...]
    support_usd: tuple[float, ...]
    staff_usd: tuple[float, ...]

    def year(self, k: int) -> RunningYear:
        """Year ``k``'s parts."""
        return RunningYear(
            self.power_usd[k], self.space_usd[k], self.support_usd[k], self.staff_usd[k]
        )

    def totals_usd(self) -> tuple[float, ...]:
        """Each year's :attr:`RunningYear.total_usd`, the parts added in the same order [USD]."""
        return tuple(
            [
                power + space + support + staff
                for power, space, support, staff in zip(
                    self.power_usd, self.space_usd, self.support_usd, self.staff_usd, strict=True
                )
            ]
        )


def running_year(
    gpus: int,
    busy_gpu_hours: float,
    *,
    hardware_usd: float,
    acc: AcceleratorSpec,
    prices: PriceSet,
    colocation: bool,
) -> RunningYear:
    """The running cost of ``gpus`` owned accelerators for one year (module docstring).

    Parameters
    ----------
    busy_gpu_hours : float
        Accelerator-hours of work in the year [GPU-h]; capped at the hours owned.
    hardware_usd : float
        Hardware bought so far, for the support contracts [USD].
    colocation : bool
        In a rented data centre (else in the customer's own).
    """
    years = running_years(
        (gpus,), (busy_gpu_hours,), (hardware_usd,), acc=acc, prices=prices, colocation=colocation
    )
    return years.year(0)


def running_years(
    gpus_by_year: Sequence[int],
    busy_by_year: Sequence[float],
    hardware_by_year: Sequence[float],
    *,
    acc: AcceleratorSpec,
    prices: PriceSet,
    colocation: bool,
) -> RunningYears:
    """:func:`running_year` for each year of a horizon (the same formula, module docstring),
    the prices and assumptions read once and the parts kept as columns: an owned option is
    priced some 90 times a sizing, its sensitivity analysis moving one price at a time."""
    kw = acc.server_power_kw / REFERENCE_SERVER_GPUS
    busy_draw, idle_draw = value("server_power_draw_share"), value("server_idle_draw_share")
    pue = (prices.pue_colocation if colocation else prices.pue_own).value
    electricity = prices.electricity.value
    rate = prices.colocation.value * (1.0 if colocation else prices.own_space_share.value)
    support = prices.support_share.value
    per_fte, fte_usd = prices.staff_gpus_per_fte.value, prices.staff_cost.value
    power, space = [], []
    for gpus, busy_gpu_hours in zip(gpus_by_year, busy_by_year, strict=True):
        owned_hours = gpus * HOURS_PER_YEAR
        busy = min(busy_gpu_hours, owned_hours)
        kwh = kw * (busy_draw * busy + idle_draw * (owned_hours - busy))
        power.append(kwh * pue * electricity)
        space.append(gpus * kw * rate * MONTHS_PER_YEAR)
    return RunningYears(
        power_usd=tuple(power),
        space_usd=tuple(space),
        support_usd=tuple([support * hardware_usd for hardware_usd in hardware_by_year]),
        staff_usd=tuple([gpus / per_fte * fte_usd for gpus in gpus_by_year]),
    )


def busy_power_usd_per_gpu_hour(
    acc: AcceleratorSpec, prices: PriceSet, *, colocation: bool
) -> float:
    """Extra power cost of one busy accelerator-hour over an idle one [USD/GPU-h]."""
    kw = acc.server_power_kw / REFERENCE_SERVER_GPUS
    pue = prices.pue_colocation if colocation else prices.pue_own
    extra = value("server_power_draw_share") - value("server_idle_draw_share")
    return kw * extra * pue.value * prices.electricity.value
