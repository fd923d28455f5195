"""Sizing with what the customer already owns and the ceilings they set, in that order: the
owned estate first (how long one run takes on it, whether the deadline holds), then what to
add, then the power and the budget.  The formulas are :mod:`sizing.engine.estate`'s.

1. The answers are sized as if nothing were owned (the *base*: the recommended accelerator,
   sized to the deadline), with the budget excluding the options above it.
2. With an owned estate they are sized again on it (the owned accelerators, as many as are
   owned, nothing bought: :mod:`cost.owned`).  When the run fits in its memory, that is the
   recommendation: a customer whose estate meets the need is never told to buy, and one whose
   estate falls short is told what to add beside it (rented when the rules allow renting,
   else bought), sized from the base run.
3. With a power ceiling, a cluster in the customer's hall that draws more is sized again on
   the most accelerators (with their hot spares) the power holds.

Answers with none of these are sized by :func:`sizing.engine.core.size` alone, unchanged.

References
----------
.. [1] The formulas and their sources: :mod:`sizing.engine.estate`, :mod:`sizing.engine.cost.owned`
       and :mod:`sizing.engine.cost.choice`.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .assumptions import value
from .cost.choice import excluded_by, renting_allowed
from .cost.option import BUY as BUY_OPTION
from .cost.option import CLOUD_OPTIONS, HYBRID
from .cost.owned import NO_HELP, SERVERS, RentedHelp
from .estate import (
    BUY,
    RENT,
    Added,
    EstateResult,
    TradeOff,
    added,
    budget_soonest_days,
    most_within_power,
    network_served,
    owned_running_usd,
    soonest_with_rented_at_most,
    storage_shortfall_tb,
)
from .hardware import ACCELERATORS
from .inputs import EstateInput, NetworkInput, SizingInput
from .numbers import format_days
from .output import SizingResult
from .platforms import vendor_of
from .resilience import spare_nodes
from .resolve.resolved import Resolved
from .vocabulary import COST_OPTIONS, OWN_ESTATE_OPTION, in_sentence

SizePlain = Callable[..., tuple[SizingResult, Resolved]]  # core.size_plain


def size_with_estate(
    inputs: SizingInput, today: datetime.date, size_plain: SizePlain
) -> SizingResult:
    """Size ``inputs`` with their estate and ceilings (module docstring); ``size_plain``
    sizes answers without them (:func:`sizing.engine.core.size_plain`)."""
    e = inputs.estate
    plain = replace(inputs, estate=EstateInput())
    base, rb = size_plain(plain, today, budget_usd=e.budget_usd)
    main, rm = base, rb
    owned, ro = None, None
    if e.owned and e.accelerator is not None:
        on_owned = replace(
            plain,
            hardware=replace(
                plain.hardware,
                accelerator=e.accelerator,
                count=e.count,
                vendors=_with_owned_maker(plain.hardware.vendors, e.accelerator),
            ),
            network=_on_owned_fabric(plain.network, e),
        )

        def on_theirs(
            help: RentedHelp = NO_HELP, budget: float | None = e.budget_usd
        ) -> tuple[SizingResult, Resolved]:
            return size_plain(
                on_owned,
                today,
                owned_gpus=e.count,
                budget_usd=budget,
                owned_storage_tb=e.storage_tb,
                owned_only=_bursting(rb),  # rented help beside them, never more bought for it
                help=help,
            )

        owned, ro = on_theirs()
        if owned.memory.fits:
            main, rm = owned, ro
    capped, most, cluster_kw = False, None, None
    if e.power_kw is not None and main.cost.recommended_option not in CLOUD_OPTIONS:
        cluster_kw = main.deployment.facility_power_with_pue_kw
        per_node = main.cluster.gpus_per_node
        most = most_within_power(
            e.power_kw, cluster_kw / max(1, main.cluster.gpus_in_service), per_node
        )
        if cluster_kw > e.power_kw and main is base and most >= 1:
            count = _working_within(most, per_node, rm.spare_nodes_wanted)
            if count >= 1:
                capped_in = replace(
                    plain,
                    hardware=replace(
                        plain.hardware, accelerator=main.cluster.accelerator, count=count
                    ),
                )
                main, rm = size_plain(capped_in, today, budget_usd=e.budget_usd)
                capped = True
                cluster_kw = main.deployment.facility_power_with_pue_kw
    runs_on_owned = main is owned
    if runs_on_owned:
        main = _named_as_owned(main)

    def sooner(days: float) -> SizingResult:  # the base run sized to finish in ``days``
        faster = replace(plain, schedule=replace(plain.schedule, deadline_days=days))
        return size_plain(faster, today, budget_usd=e.budget_usd)[0]

    estate = _estate(e, base, rb, owned, ro, main, rm, most, cluster_kw, capped, sooner)
    if runs_on_owned and estate.add == RENT and estate.add_cost_usd and estate.owned_days:
        # every run of the horizon needs the help: the owned option's total holds its rent
        # (one run's alone is what "as fast as the budget allows" holds against the budget)
        help = RentedHelp((estate.owned_days_used or 0.0) / estate.owned_days, estate.add_cost_usd)
        helped, _ = on_theirs(help, None if estate.cost_is_one_run else e.budget_usd)
        main = _named_as_owned(helped)
        estate = _with_help_in_total(estate, main)
    theirs = _owned_network_and_storage(e, owned if runs_on_owned else None)
    if runs_on_owned:
        main = _said_as_theirs(main, estate)
    return replace(main, estate=replace(estate, **theirs))


def _with_help_in_total(estate: EstateResult, main: SizingResult) -> EstateResult:
    """The figure held against the budget once the owned option holds every run's help: the
    option's total over the horizon (it held one run's help added to it), or one run's cost
    when that is what the budget is held against."""
    if estate.cost_is_one_run or main.cost.recommended_option is None:
        return estate
    option = main.cost.options.get(main.cost.recommended_option)
    if option is None:
        return estate
    over = None if estate.budget_usd is None else option.net_usd - estate.budget_usd
    return replace(estate, cost_usd=option.net_usd, over_budget_usd=over)


def _said_as_theirs(result: SizingResult, estate: EstateResult) -> SizingResult:
    """A plan on the owned estate speaks of the accelerators they own, not of a count they
    gave; and a deadline their accelerators miss alone is said beside the help added to meet
    it, so "cannot be met" never sits beside "add 4 rented to finish in time"."""
    drivers = tuple(d.replace(" you gave,", " you own,") for d in result.drivers)
    if estate.cost_is_one_run and estate.owned_days_used:  # no deadline of theirs to miss
        allows = (
            "as soon as what can be rented at short notice allows"
            if estate.rent_capped
            else "as soon as any size of it can"
            if estate.budget_sets_soonest is False
            else "as soon as your budget allows"
        )
        sooner = (
            f"; with rented help beside them, {allows}, about {format_days(estate.owned_days_used)}"
        )
        drivers = tuple(
            re.sub(r", past the [^,;]* deadline we assumed$", sooner, d) for d in drivers
        )
    warnings = result.warnings
    if estate.add_count and estate.add in (BUY, RENT):
        how = "rented" if estate.add == RENT else "bought"
        helped = (
            f"; with {estate.add_count:,} {estate.add_accelerator_name} {how} beside them it "
            "is met (what you own, above)"
        )
        # met with the help: "cannot be met" beside "it is met" reads as a contradiction
        warnings = tuple(
            re.sub(
                r" on the recommended ([\d,]+) accelerators",
                r" on the \1 accelerators you own alone",
                w.replace("deadline cannot be met:", "deadline is not met on yours alone:", 1),
                count=1,
            )
            + helped
            if "deadline cannot be met" in w
            else ("or, on yours alone, " + w if w.startswith("to finish in ") else w)
            for w in warnings
        )
    return replace(result, drivers=drivers, warnings=warnings)


def _with_owned_maker(vendors: tuple[str, ...] | None, accelerator: str) -> tuple[str, ...] | None:
    """The makers the customer allows, with the maker of what they own: their rule is kept
    (and shown as theirs), and never rules out the accelerators they already have."""
    if vendors is None:
        return None
    return tuple(dict.fromkeys((*vendors, vendor_of(ACCELERATORS[accelerator]))))


def _on_owned_fabric(network: NetworkInput, e: EstateInput) -> NetworkInput:
    """The network of a plan on the owned accelerators: the fabric they own, at its speed,
    where the customer did not answer otherwise."""
    return replace(
        network,
        inter_node=network.inter_node or e.fabric,
        nic_gbps_per_gpu=network.nic_gbps_per_gpu or e.fabric_gbps,
    )


def _named_as_owned(result: SizingResult) -> SizingResult:
    """The cost reasons of a plan on the owned estate name its "buy" option for what it is: the
    accelerators they own, bought by no one (``vocabulary.OWN_ESTATE_OPTION``)."""
    if any(line.item == SERVERS for line in result.cost.bill_of_materials):
        return result  # servers bought: a purchase (shared storage alone is no purchase)
    bought, owned = (
        f"“{in_sentence(name)}”" for name in (COST_OPTIONS[BUY_OPTION], OWN_ESTATE_OPTION)
    )
    reasons = tuple(reason.replace(bought, owned) for reason in result.cost.reasons)
    # the place's reasons name the option unquoted ("the cheapest mix ... is buy, in ...")
    bought, owned = (in_sentence(name) for name in (COST_OPTIONS[BUY_OPTION], OWN_ESTATE_OPTION))
    placed = tuple(reason.replace(bought, owned) for reason in result.deployment.reasons)
    return replace(
        result,
        cost=replace(result.cost, reasons=reasons),
        deployment=replace(result.deployment, reasons=placed),
    )


def _bursting(r: Resolved) -> bool:
    """Whether the rules let rented capacity help the owned estate: a cloud option, or the
    hybrid (owned base, rented peaks) is allowed."""
    return renting_allowed(r) or not excluded_by(r)[HYBRID]


def _working_within(most: int, per_node: int, wanted: bool | None) -> int:
    """The most working accelerators whose cluster, hot spares included, is ``most`` or
    fewer [accelerators]."""
    count = most
    while (
        count > per_node
        and count + spare_nodes(math.ceil(count / per_node), wanted) * per_node > most
    ):
        count -= per_node
    return count


def _estate(
    e: EstateInput,
    base: SizingResult,
    rb: Resolved,
    owned: SizingResult | None,
    ro: Resolved | None,
    main: SizingResult,
    rm: Resolved,
    most: int | None,
    cluster_kw: float | None,
    capped: bool,
    sooner: Callable[[float], SizingResult],
) -> EstateResult:
    deadline = rm.deadline_days
    cloud = rb.prices.gpu_cloud or rb.prices.large_cloud
    cloud_price = cloud.value if cloud else None
    add = Added(None, 0, 0.0, 0.0, None)
    fits = days = meets = used = running = None
    one_run = False  # the budget holds one run's cost: "as fast as the budget allows"
    budget_sets: bool | None = None
    rent_capped = False  # the help held to the largest cluster rented short-term
    trade: tuple[TradeOff, ...] = ()
    if owned is not None and ro is not None and e.accelerator is not None and e.count:
        fits = owned.memory.fits
        days = owned.timeline.wall_clock_days if fits else None
        meets = bool(fits and days is not None and days <= deadline)
        used = (days if meets else deadline) if fits else 0.0
        per_day = owned_running_usd(
            e.count,
            1.0,
            acc=ACCELERATORS[e.accelerator],
            r=ro,
            colocation=ro.location == "colocation",
        )
        purchase = rb.prices.purchase

        def beside(target: float, run_gpu_hours: float | None = None) -> Added:
            return added(
                days or 0.0,
                target,
                run_gpu_hours=run_gpu_hours or base.compute.gpu_hours,
                gpus_per_node=base.cluster.gpus_per_node,
                cloud_usd_per_gpu_hour=cloud_price,
                purchase_usd_per_gpu=purchase.value if purchase else None,
                renting=_bursting(rb),
            )

        if not meets and days is not None:
            target = deadline
            most_rented = int(value("short_rent_max_gpus"))
            if (
                e.budget_usd is not None
                and not rb.deadline_given
                and cloud_price is not None
                and _bursting(rb)
            ):  # "as fast as the budget allows": the soonest it reaches, not our assumption
                base, target, budget_sets = _soonest_within_budget(
                    base, days, e.budget_usd, cloud_price, per_day, sooner
                )
                if _bursting(rb) and beside(target).gpus > most_rented:
                    base, target = _soonest_short_rent(base, days, most_rented, sooner)
                    rent_capped, budget_sets = True, False
                used, one_run = target, True
                # each point's help priced from the run sized to finish then: a run spread
                # over more accelerators needs more accelerator-hours
                points = dict.fromkeys((target, math.sqrt(target * days), days))
                helped = {
                    t: beside(t, None if t in (target, days) else sooner(t).compute.gpu_hours)
                    for t in points
                }
                trade = tuple(
                    TradeOff(t, per_day * t + (help.cost_usd or 0.0), help.gpus)
                    for t, help in helped.items()
                )
            elif _bursting(rb) and beside(target).gpus > most_rented:
                # the deadline needs more than is rented short-term: the most that is, later
                target = soonest_with_rented_at_most(days, base.compute.gpu_hours, most_rented)
                used, rent_capped = target, True
            add = beside(target)
        running = per_day * (used or 0.0)
    chosen = main.cost.recommended_option
    option = main.cost.options.get(chosen) if chosen else None
    cost = None if option is None else option.net_usd + (add.cost_usd or 0.0)
    soonest = None
    if one_run:  # one run's cost: their accelerators running while they work, and the help
        cost = (running or 0.0) + (add.cost_usd or 0.0)
        soonest = used
    elif (
        e.budget_usd is not None
        and add.how == RENT
        and days is not None
        and cloud_price is not None
        and option is not None
    ):
        soonest = max(  # no sooner than the base run, the most the engine sizes for
            base.timeline.wall_clock_days,
            budget_soonest_days(
                days,
                e.budget_usd - option.net_usd,
                run_gpu_hours=base.compute.gpu_hours,
                cloud_usd_per_gpu_hour=cloud_price,
            ),
        )
    return EstateResult(
        owned_accelerator=e.accelerator,
        owned_accelerator_name=ACCELERATORS[e.accelerator].name if e.accelerator else None,
        owned_count=e.count or 0,
        owned_fits=fits,
        owned_days=days,
        deadline_days=deadline,
        meets_deadline=meets,
        owned_days_used=used,
        owned_running_usd=running,
        owned_capex_usd=0.0,
        add=add.how,
        add_accelerator=base.cluster.accelerator if add.gpus else None,
        add_accelerator_name=base.cluster.accelerator_name if add.gpus else None,
        add_count=add.gpus,
        add_days=add.days,
        add_gpu_hours=add.gpu_hours,
        add_cost_usd=add.cost_usd,
        budget_usd=e.budget_usd,
        cost_usd=cost,
        over_budget_usd=None if e.budget_usd is None or cost is None else cost - e.budget_usd,
        budget_soonest_days=soonest,
        power_kw=e.power_kw,
        cluster_power_kw=cluster_kw,
        power_max_gpus=most,
        power_capped=capped,
        cost_is_one_run=one_run,
        trade_off=trade,
        budget_sets_soonest=budget_sets,
        rent_capped=rent_capped,
        rent_cap_gpus=int(value("short_rent_max_gpus")) if add.how == RENT else None,
        rent_beyond_short_term=add.how == RENT and add.days > value("short_rent_max_days"),
    )


def _soonest_short_rent(
    base: SizingResult,
    owned_days: float,
    most_rented: int,
    sooner: Callable[[float], SizingResult],
) -> tuple[SizingResult, float]:
    """The run the rented help is sized from and the soonest it ends [d] with no more rented
    than the largest cluster rented short-term (:func:`estate.soonest_with_rented_at_most`):
    the date from ``base``'s accelerator-hours, then again from the run sized to end then
    (a run on fewer accelerators needs fewer accelerator-hours, so the date moves sooner,
    never needing more rented)."""
    first = soonest_with_rented_at_most(owned_days, base.compute.gpu_hours, most_rented)
    run = sooner(first)
    return run, soonest_with_rented_at_most(owned_days, run.compute.gpu_hours, most_rented)


_SOONEST_TOLERANCE = 1.02  # [x] the soonest date is found to within 2 %
_SOONEST_ROUNDS = 10  # halvings of the search at most


def _soonest_within_budget(
    base: SizingResult,
    owned_days: float,
    budget_usd: float,
    cloud_usd_per_gpu_hour: float,
    running_usd_per_day: float,
    sooner: Callable[[float], SizingResult],
) -> tuple[SizingResult, float, bool]:
    """The run the rented help is sized from, the soonest date the budget pays for [d], and
    whether the budget sets that date (else no size is faster).

    "As fast as the budget allows" sets no deadline, so the date is searched: one run ending
    at ``T`` costs their estate's running ``r T`` and the rented share of the run sized to end
    then, ``H(T) p (1 - T / T_o)`` (:func:`estate.added`), whose accelerator-hours ``H(T)``
    grow as it spreads over more accelerators.  The soonest ``T`` within the budget is found
    by halving (geometrically) between the fastest any size reaches (the time curve's end,
    :mod:`.cluster`) and the estate alone, ``T_o``; when the fastest is within the budget,
    the budget does not set the date, the run's scale does."""

    def within(run: SizingResult, days: float) -> bool:
        rented = max(0.0, 1.0 - days / owned_days) * run.compute.gpu_hours
        return running_usd_per_day * days + rented * cloud_usd_per_gpu_hour <= budget_usd

    fastest = sooner(base.timeline.wall_clock_days / 1000)  # no size is faster than this
    if fastest.timeline.wall_clock_days >= owned_days:
        return base, owned_days, False
    if within(fastest, fastest.timeline.wall_clock_days):
        return fastest, fastest.timeline.wall_clock_days, False
    early, late, run = fastest.timeline.wall_clock_days, owned_days, base
    for _ in range(_SOONEST_ROUNDS):
        if late / early < _SOONEST_TOLERANCE:
            break
        middle = math.sqrt(early * late)
        sized = sooner(middle)
        if within(sized, middle):
            late, run = middle, sized
        else:
            early = middle
    return run, late, True


def _owned_network_and_storage(e: EstateInput, on_owned: SizingResult | None) -> dict[str, Any]:
    """The network and storage they own beside the plan that runs on them (estate.py):
    whether their fabric carries what the plan needs, and the storage bought beyond theirs."""
    out: dict[str, Any] = {
        "owned_fabric": e.fabric,
        "owned_fabric_gbps": e.fabric_gbps,
        "owned_storage_tb": e.storage_tb,
    }
    if on_owned is None:
        return out
    network, storage = on_owned.network, on_owned.storage
    if e.fabric is not None or e.fabric_gbps is not None:
        need = network.scale_out_gbps_per_node_needed / max(1, on_owned.cluster.gpus_per_node)
        out["owned_fabric_serves"] = network_served(need, e.fabric_gbps)
        out["fabric_needed_gbps"] = need
    if e.storage_tb is not None:
        out["storage_needed_tb"] = storage.total_capacity_tb
        out["storage_added_tb"] = storage_shortfall_tb(storage.total_capacity_tb, e.storage_tb)
    return out


__all__ = ["BUY", "RENT", "size_with_estate"]
