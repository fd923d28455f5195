"""What the customer already owns, and the ceilings they set: the owned estate first, then
what to add, within their budget and their power.

The owned estate is sized as a cluster of its own (the accelerators they own, as many as
they own): one run takes ``T_o`` days on it.  When ``T_o`` is within the deadline ``D`` the
estate meets the need and nothing is bought.  Otherwise the owned cards work the ``D`` days
and the rest of the work goes to added accelerators (the engine's recommended accelerator,
sized for the whole run at ``H_r`` accelerator-hours), rented when the rules allow renting,
else bought::

    share added  = 1 - D / T_o                 (of the work: the owned cards do D / T_o)
    hours added  = share x H_r                 [GPU-h]
    added        = hours added / (D x 24), up to whole servers  [accelerators]
    rented cost  = hours added x p_cloud       [USD]
    bought cost  = added x P_purchase          [USD, capital]

so renting to finish sooner costs ``(1 - D / T_o) x H_r x p_cloud``, linear in the days:
a budget ``B`` (less the owned estate's running cost) reaches at the soonest::

    D_budget = T_o x (1 - B / (H_r x p_cloud))                    (running cost aside)
    D_budget = T_o x (H_r p_cloud - B) / (H_r p_cloud - r T_o)      (running r a day)

no sooner than the rented help's cluster allows: at most ``N`` accelerators are rented for
days or weeks as one cluster without a negotiated contract (assumption
``short_rent_max_gpus``, an AWS Capacity Block), so one run ends no sooner than::

    D_rent = H_r / (24 N + H_r / T_o)

and the days against the dollars are the points ``(T, r T + (1 - T / T_o) x H_r x p_cloud)``
from that soonest date to the owned estate alone.

The owned estate costs its running cost only (power, space, support and staff while it
works, :func:`cost.running.running_year` for a busy year, pro rata), capital $0.  The network
and storage they own with it count too: their fabric serves the plan on their accelerators when
its speed per accelerator is at least what the plan needs (the plan is sized at that speed),
and their shared storage ``TB_E`` holds the run's working set ``TB`` or only the shortfall
``max(0, TB - TB_E)`` is bought (:mod:`cost.owned`).

A power ceiling ``W`` [kW, IT and cooling] bounds what sits in the customer's hall: at
``w`` kW per accelerator with its share of server, network and cooling (the deployment's
facility power with PUE over the accelerators in service), at most ``W / w`` accelerators,
in whole servers.  A cluster above that is sized again on the most the power holds.

References
----------
.. [1] Running cost of owned hardware: :mod:`sizing.engine.cost.running` and its references.
.. [2] Facility power with PUE: :mod:`sizing.engine.deployment`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .cost.running import running_year
from .hardware import AcceleratorSpec
from .resolve.resolved import Resolved
from .units import HOURS_PER_DAY, HOURS_PER_YEAR

RENT = "rent"
BUY = "buy"


@dataclass(frozen=True)
class TradeOff:
    """One point of days against dollars: one run in ``days`` on the owned accelerators with
    ``add_count`` rented beside them, at ``cost_usd`` (running theirs and the rented hours)."""

    days: float  # [d]
    cost_usd: float  # [USD]
    add_count: int  # [accelerators] rented beside theirs


@dataclass(frozen=True)
class EstateResult:
    """The owned estate, what to add, and the ceilings (``None``: not given or not known)."""

    owned_accelerator: str | None  # catalog id of the accelerators owned
    owned_accelerator_name: str | None
    owned_count: int  # [accelerators] owned (0: none)
    owned_fits: bool | None  # the run fits in the owned accelerators' memory
    owned_days: float | None  # [d] one run on the owned accelerators alone
    deadline_days: float  # [d]
    meets_deadline: bool | None  # the owned estate alone meets the deadline
    owned_days_used: float | None  # [d] the owned estate works on the run
    owned_running_usd: float | None  # [USD] its power, space, support and staff meanwhile
    owned_capex_usd: float  # [USD] always 0: already theirs
    add: str | None  # RENT | BUY | None (nothing to add, or nothing priced)
    add_accelerator: str | None
    add_accelerator_name: str | None
    add_count: int  # [accelerators] added alongside the owned ones
    add_days: float  # [d] they work
    add_gpu_hours: float  # [GPU-h]
    add_cost_usd: float | None  # [USD] rented time, or the capital to buy them
    budget_usd: float | None  # [USD] the customer's ceiling
    cost_usd: float | None  # [USD] the figure held against it
    over_budget_usd: float | None  # [USD] cost above the ceiling (<= 0: within)
    budget_soonest_days: float | None  # [d] the soonest the budget reaches with rented help
    power_kw: float | None  # [kW] the customer's ceiling, IT and cooling
    cluster_power_kw: float | None  # [kW] what the recommended cluster draws, cooling included
    power_max_gpus: int | None  # [accelerators] the most the power holds
    power_capped: bool  # the cluster was sized again on what the power holds
    # the network and storage that come with the owned accelerators (None: not said)
    owned_fabric: str | None = None  # "infiniband" | "roce" | "ethernet"
    owned_fabric_gbps: float | None = None  # [Gb/s] per accelerator
    owned_fabric_serves: bool | None = None  # it carries what the plan on them needs
    fabric_needed_gbps: float | None = None  # [Gb/s] per accelerator, the plan on them
    owned_storage_tb: float | None = None  # [TB] shared storage they own
    storage_needed_tb: float | None = None  # [TB] what the plan on them needs
    storage_added_tb: float | None = None  # [TB] bought beyond theirs (0: theirs holds it)
    # the budget is held against one run's cost (their running cost while they work and the
    # rented help), for "as fast as the budget allows"; else the option's over the horizon
    cost_is_one_run: bool = False
    trade_off: tuple[TradeOff, ...] = ()  # days against dollars, soonest first
    # "as fast as the budget allows": True when the budget sets the soonest date, False when
    # no size of the rented help is faster (the budget pays for more); None otherwise
    budget_sets_soonest: bool | None = None
    # the rented help is held to the largest cluster rented short-term without a negotiated
    # contract (assumption short_rent_max_gpus): more is possible only under a reservation
    rent_capped: bool = False
    rent_cap_gpus: int | None = None  # [accelerators] that largest short-term cluster
    # the help runs longer than a short-term rental lasts (assumption short_rent_max_days)
    rent_beyond_short_term: bool = False


def most_within_power(power_kw: float, kw_per_gpu: float, gpus_per_node: int) -> int:
    """The most accelerators ``power_kw`` holds at ``kw_per_gpu`` each, in whole servers
    (or 1, 2 or 4 within one) [accelerators]."""
    most = math.floor(power_kw / kw_per_gpu + 1e-9)
    if most >= gpus_per_node:
        return most // gpus_per_node * gpus_per_node
    return 0 if most < 1 else 1 << (most.bit_length() - 1)


def owned_running_usd(
    gpus: int, days: float, *, acc: AcceleratorSpec, r: Resolved, colocation: bool
) -> float:
    """Running ``gpus`` owned accelerators busy for ``days``: a busy year pro rata, support on
    their catalog purchase price where one is listed [USD]."""
    purchase = r.prices.purchase
    year = running_year(
        gpus,
        gpus * HOURS_PER_YEAR,
        hardware_usd=gpus * purchase.value if purchase else 0.0,
        acc=acc,
        prices=r.prices,
        colocation=colocation,
    )
    return year.total_usd * days * HOURS_PER_DAY / HOURS_PER_YEAR


def network_served(needed_gbps: float, owned_gbps: float | None) -> bool | None:
    """Whether the fabric they own, at ``owned_gbps`` per accelerator, carries the
    ``needed_gbps`` the plan on their accelerators needs (None: its speed not said)."""
    if owned_gbps is None:
        return None
    return needed_gbps <= owned_gbps * (1.0 + 1e-9)


def storage_shortfall_tb(needed_tb: float, owned_tb: float) -> float:
    """Shared storage to buy beside the ``owned_tb`` they have: what the run needs beyond
    it [TB] (module docstring)."""
    return max(0.0, needed_tb - owned_tb)


@dataclass(frozen=True)
class Added:
    """What to add alongside the owned estate to meet the deadline."""

    how: str | None  # RENT | BUY | None
    gpus: int
    days: float  # [d]
    gpu_hours: float  # [GPU-h]
    cost_usd: float | None


def added(
    owned_days: float,
    deadline_days: float,
    *,
    run_gpu_hours: float,
    gpus_per_node: int,
    cloud_usd_per_gpu_hour: float | None,
    purchase_usd_per_gpu: float | None,
    renting: bool,
) -> Added:
    """Accelerators to add so the owned estate and they meet the deadline (module
    docstring); ``run_gpu_hours``: the whole run on the added kind [GPU-h]."""
    share = max(0.0, 1.0 - deadline_days / owned_days) if owned_days > 0 else 1.0
    hours = share * run_gpu_hours
    if hours <= 0:
        return Added(None, 0, 0.0, 0.0, 0.0)
    need = hours / (deadline_days * HOURS_PER_DAY)
    gpus = (
        math.ceil(need / gpus_per_node - 1e-9) * gpus_per_node
        if need > gpus_per_node
        else min(gpus_per_node, 1 << (math.ceil(need - 1e-9) - 1).bit_length())
    )
    days = hours / (gpus * HOURS_PER_DAY)
    if renting and cloud_usd_per_gpu_hour is not None:
        return Added(RENT, gpus, days, hours, hours * cloud_usd_per_gpu_hour)
    if purchase_usd_per_gpu is not None:
        return Added(BUY, gpus, days, hours, gpus * purchase_usd_per_gpu)
    return Added(None, gpus, days, hours, None)


def soonest_with_rented_at_most(
    owned_days: float, run_gpu_hours: float, most_rented_gpus: int
) -> float:
    """The soonest one run ends with at most ``most_rented_gpus`` rented beside the owned
    estate [d]: the rented share ``(1 - T / T_o) H`` worked by ``N`` accelerators in ``T``
    days, ``(1 - T / T_o) H = 24 N T``, so::

        T = H / (24 N + H / T_o)

    (module docstring; ``N``: the largest cluster rented short-term, assumption
    ``short_rent_max_gpus``)."""
    if owned_days <= 0 or run_gpu_hours <= 0:
        return owned_days
    return run_gpu_hours / (HOURS_PER_DAY * most_rented_gpus + run_gpu_hours / owned_days)


def budget_soonest_days(
    owned_days: float,
    budget_usd: float,
    *,
    run_gpu_hours: float,
    cloud_usd_per_gpu_hour: float,
    running_usd_per_day: float = 0.0,
) -> float:
    """The soonest one run ends when ``budget_usd`` pays for rented help beside the owned
    estate and, at ``running_usd_per_day``, for running the estate meanwhile [d]::

        B = r T + H p (1 - T / T_o)   =>   T = T_o (H p - B) / (H p - r T_o)

    (module docstring); the owned estate alone when the budget buys no hours."""
    whole = run_gpu_hours * cloud_usd_per_gpu_hour
    if whole <= 0:
        return owned_days
    slope = whole - running_usd_per_day * owned_days
    if slope <= 0:  # running the estate costs more than renting the whole run
        return owned_days
    return min(owned_days, max(0.0, owned_days * (whole - budget_usd) / slope))
