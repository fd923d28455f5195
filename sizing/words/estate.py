"""What the customer owns and the ceilings they set, in sentences: how long one run takes on
the owned accelerators and whether their deadline holds, what to add (rented or bought, for
how long, at what cost), what the owned estate costs to run, and the budget and the power
beside the cost and the cluster (the result's ``estate``, ``sizing/engine/estate.py``).

The review page, the first estimate and the proposal place these sentences; none of them
phrases the estate again.
"""

from __future__ import annotations

from collections.abc import Mapping

from sizing.engine.assumptions import value
from sizing.engine.numbers import format_count, format_money, format_quantity
from sizing.stored_result import Estate, StoredResult
from sizing.words.durations import run_time
from sizing.words.plural import count_of
from sizing.words.provenance import deadline_by, deadline_words


def on_owned_estate(result: StoredResult) -> bool:
    """Whether the plan runs on the accelerators the customer owns (the option that runs them
    is then named ``vocabulary.OWN_ESTATE_OPTION``, never "buy")."""
    return result.on_owned_estate


def estate_lines(result: StoredResult, sources: Mapping[str, str] | None = None) -> list[str]:
    """The sentences about the estate and the ceilings, in the order a reader needs them
    (empty when the customer gave neither)."""
    estate = result.estate
    if estate is None:
        return []
    lines = []
    if estate.owned_count:
        lines.extend(_owned_lines(result, estate, sources or {}))
        lines.extend(
            (
                owned_network_sentence(result),
                rented_apart_sentence(result),
                owned_storage_sentence(result),
            )
        )
    if estate.budget_usd is not None:
        lines.append(_budget_line(result, estate))
        lines.append(trade_off_sentence(result))
    if estate.power_kw is not None:
        lines.append(_power_line(result, estate, sources or {}))
    return [line for line in lines if line]


def _deadline(result: StoredResult, estate: Estate, sources: Mapping[str, str]) -> str:
    return deadline_words(estate.deadline_days or 0.0, deadline_by(result, sources))


def _owned_lines(result: StoredResult, estate: Estate, sources: Mapping[str, str]) -> list[str]:
    owned = f"{format_count(estate.owned_count)} × {estate.owned_name}"
    if not estate.owned_fits or estate.owned_days is None:
        first = (
            f"You own {owned}: the model does not fit in their memory, so the work needs "
            "other accelerators."
        )
    else:
        days = estate.owned_days
        deadline = _deadline(result, estate, sources)
        if estate.cost_is_one_run:  # "as fast as we can": no deadline of theirs to miss
            first = f"You own {owned}: one run takes about {run_time(days)} on them alone."
        elif estate.meets_deadline:
            first = (
                f"You own {owned}: one run takes about {run_time(days)} on them, within {deadline}."
            )
        else:
            late = days - (estate.deadline_days or 0.0)
            first = (
                f"You own {owned}: one run takes about {run_time(days)} on them, "
                f"{run_time(late)} past {deadline}."
            )
    lines = [first]
    if estate.owned_running_usd is not None and estate.owned_fits:
        lines.append(
            f"They cost only their running cost (power, space, support and staff), about "
            f"{result.money(estate.owned_running_usd)} while they work on it: no capital."
        )
    if estate.add_count:
        added = f"{format_count(estate.add_count)} {estate.add_name}"
        time = f"for about {run_time(estate.add_days)}"
        if estate.add == "rent" and estate.rent_capped:
            lines.append(
                f"To finish as soon as what can be rented at short notice allows, add {added} "
                f"rented {time} to share the work, about {result.money(estate.add_cost_usd)}."
            )
        elif estate.add == "rent" and estate.cost_is_one_run:
            soonest = (
                "as soon as any size of rented help can (your budget would pay for more; "
                "beyond this size each added accelerator does less than half its share)"
                if estate.budget_sets_soonest is False
                else "as soon as your budget allows"
            )
            lines.append(
                f"To finish {soonest}, add {added} rented {time} to share the work, about "
                f"{result.money(estate.add_cost_usd)}."
            )
        elif estate.add == "rent":
            lines.append(
                f"To finish in time, add {added} rented {time} to share the work, about "
                f"{result.money(estate.add_cost_usd)}."
            )
        elif estate.add == "buy":
            lines.append(
                f"To finish in time, buy {added} beside them, about "
                f"{result.money(estate.add_cost_usd)} (your rules allow no renting)."
            )
        else:
            lines.append(
                f"To finish in time, add {added} {time}; it has no public price, so we will quote."
            )
    elif estate.meets_deadline:
        lines.append("Nothing needs buying.")
    lines.append(short_rent_sentence(result))
    return [line for line in lines if line]


def short_rent_sentence(result: StoredResult) -> str:
    """Why the help rented beside their accelerators is no larger, or no longer, than it is:
    the largest cluster rented for days or weeks without a negotiated contract (assumption
    ``short_rent_max_gpus``), and the longest ("" when neither binds)."""
    estate = result.estate
    if not (estate and estate.add == "rent" and estate.add_count):
        return ""
    most = format_count(estate.rent_cap_gpus or estate.add_count)
    said = []
    if estate.rent_capped:
        sooner = (
            ": your budget would pay for more"
            if estate.cost_is_one_run
            and estate.budget_usd is not None
            and (estate.cost_usd or 0.0) < estate.budget_usd
            else ": your deadline needs more"
            if not estate.cost_is_one_run
            else ""
        )
        said.append(
            f"{most} accelerators is the largest cluster rented for days or weeks without a "
            f"negotiated contract (an AWS Capacity Block holds at most 64 servers of 8){sooner}."
        )
    if estate.rent_beyond_short_term:
        said.append(
            f"The rented help runs about {run_time(estate.add_days)}, longer than the "
            f"{run_time(value('short_rent_max_days'))} a short-term rental lasts."
        )
    if not said:
        return ""
    # one statement of what follows, however many limits bind (customer 9 once read "we will
    # ask" twice in two sentences)
    needs = (
        "Renting more, or for that long,"
        if len(said) > 1
        else "Renting more"
        if estate.rent_capped
        else "Renting for that long"
    )
    said.append(
        f"{needs} needs a negotiated reservation with a provider: we will ask for one and quote it."
    )
    return " ".join(said)


# InfiniBand generation by port speed [Gb/s] (reference catalog, section 3a, 2026-12-02)
_INFINIBAND = {100: "EDR", 200: "HDR", 400: "NDR", 800: "XDR"}
_FABRIC = {"infiniband": "InfiniBand", "roce": "Ethernet (RoCE)", "ethernet": "Ethernet"}


def _their_fabric(estate: Estate) -> str:
    """Their fabric as they would name it: "HDR InfiniBand, 200 Gb/s per accelerator"."""
    kind = estate.owned_fabric or ""
    gbps = estate.owned_fabric_gbps
    name = _FABRIC.get(kind, "network")
    if kind == "infiniband" and gbps and int(gbps) in _INFINIBAND:
        name = f"{_INFINIBAND[int(gbps)]} {name}"
    return f"{name}, {format_count(round(gbps))} Gb/s per accelerator" if gbps else name


def owned_network_sentence(result: StoredResult) -> str:
    """Whether the network they own carries the plan on their accelerators ("" when the plan
    runs elsewhere, or they did not say which network they own)."""
    estate = result.estate
    if not (
        estate and result.on_owned_estate and (estate.owned_fabric or estate.owned_fabric_gbps)
    ):
        return ""
    theirs = _their_fabric(estate)
    need = estate.fabric_needed_gbps
    needed = f"about {format_count(round(need))} Gb/s per accelerator" if need else "little"
    if (result.nodes or 0) <= 1 or not need:
        return f"Your network ({theirs}) is enough: one run stays inside one server."
    if estate.owned_fabric_serves is False:
        return (
            f"Your network ({theirs}) is slower than the {needed} the plan would use: we sized "
            "the run at your network's speed, so the times above already allow for it; faster "
            "network cards and switches would shorten it, and we would quote them."
        )
    if estate.owned_fabric_serves is None:
        return (
            f"Your network ({theirs}) links the servers; the plan needs {needed}: tell us its "
            "speed and we check it. None is bought."
        )
    return f"Your network ({theirs}) carries what the plan needs ({needed}): none is bought."


def rented_apart_sentence(result: StoredResult) -> str:
    """Where the help rented beside their accelerators works: in the cloud, as a job of its
    own, not on their network.  The engine gives the rented help a share of each run's work
    (``sizing/engine/estate.py``: the owned cards do ``D / T_o`` of it), not a place on their
    fabric; a reader asked how rented H100 would join their InfiniBand (customer 5)
    ("" when nothing is rented beside them)."""
    estate = result.estate
    if not (estate and result.on_owned_estate and estate.add == "rent" and estate.add_count):
        return ""
    theirs = (
        f"your network ({_their_fabric(estate)})"
        if estate.owned_fabric or estate.owned_fabric_gbps
        else "your network"
    )
    return (
        f"The {format_count(estate.add_count)} {estate.add_name} rented beside yours run in "
        f"the cloud as a separate job on their share of the work: they do not join {theirs}, "
        "and no single training job spans your servers and the cloud. Our engineer plans with "
        "you how the work is divided between the two jobs."
    )


def owned_storage_sentence(result: StoredResult) -> str:
    """Whether the shared storage they own holds what the plan on their accelerators needs,
    and what is bought beyond it ("" when not said, or the plan runs elsewhere)."""
    estate = result.estate
    if not (estate and result.on_owned_estate and estate.owned_storage_tb is not None):
        return ""
    theirs = format_quantity(estate.owned_storage_tb, "TB")
    need = format_quantity(estate.storage_needed_tb or 0.0, "TB")
    read = result.section("storage").get("read_gb_per_s")
    speed = (
        f"; it must read about {format_quantity(read, 'GB/s')} while training, which we check "
        "with you"
        if read
        else ""
    )
    added = estate.storage_added_tb or 0.0
    if added > 0:
        return (
            f"Your {theirs} of shared storage holds part of the {need} the work needs: the "
            f"{format_quantity(added, 'TB')} beyond it is bought{speed}."
        )
    return (
        f"Your {theirs} of shared storage holds the {need} the work needs: none is bought{speed}."
    )


def helped_time(result: StoredResult) -> str:
    """One run's time with the accelerators added beside theirs, for the line that gives the
    time on theirs alone: "about 21 days with 4 NVIDIA H100 SXM5 80GB rented beside them"
    ("" when nothing is added, or the plan does not run on what they own)."""
    estate = result.estate
    if not (
        estate
        and result.on_owned_estate
        and estate.add_count
        and estate.add in ("rent", "buy")
        and estate.owned_days_used
    ):
        return ""
    how = "rented" if estate.add == "rent" else "bought"
    return (
        f"about {run_time(estate.owned_days_used)} with {format_count(estate.add_count)} "
        f"{estate.add_name} {how} beside them"
    )


def help_beside(result: StoredResult) -> str:
    """The accelerators one run uses beyond theirs, for the line that counts theirs: "with 512
    NVIDIA H100 SXM5 80GB rented beside them, 1,024 in all" ("" when nothing is added)."""
    estate = result.estate
    if not (helped_time(result) and estate):
        return ""
    how = "rented" if estate.add == "rent" else "bought"
    together = format_count(estate.owned_count + estate.add_count)
    return (
        f"with {format_count(estate.add_count)} {estate.add_name} {how} beside them, "
        f"{together} in all"
    )


def help_cost(result: StoredResult) -> str:
    """What the help added beside their accelerators costs, for the line of the plan's cost:
    rented help is inside that cost (every run's rent, :class:`cost.owned.RentedHelp`), so
    "including about $7,248 a run for the 4 NVIDIA H100 SXM5 80GB rented beside them"; bought
    help is not, so "plus about ... bought beside them" ("" when nothing is added)."""
    estate = result.estate
    if not (helped_time(result) and estate and estate.add_cost_usd):
        return ""
    added = f"{format_count(estate.add_count)} {estate.add_name}"
    if estate.add == "rent":
        return (
            f"including about {result.money(estate.add_cost_usd)} a run for the {added} "
            "rented beside them"
        )
    return f"plus about {result.money(estate.add_cost_usd)} for the {added} bought beside them"


def _budget_line(result: StoredResult, estate: Estate) -> str:
    # in the proposal's currency, the ceiling as they gave it (US dollars) beside it
    money = result.money
    budget = money(estate.budget_usd)
    if money.currency != "USD":
        budget += f" ({format_money(estate.budget_usd)} as you gave it)"
    if estate.cost_usd is None:
        return f"Your budget ceiling is {budget}; no option has a public price to hold against it."
    years = result.section("cost").get("years")
    over = f" over {count_of(years, 'year')}" if isinstance(years, int) else ""
    if estate.cost_is_one_run:
        over = " for one run (your accelerators' running cost while they work and the rented help)"
    cost = f"about {money(estate.cost_usd)}{over}"
    over_by = estate.over_budget_usd or 0.0
    if over_by > 0:
        line = (
            f"Your budget ceiling is {budget}; this plan costs {cost}, {money(over_by)} "
            "over it: no option your rules allow fits within it."
        )
    else:
        line = f"Your budget ceiling is {budget}; this plan costs {cost}, within it."
    horizon = _horizon_total(result)
    if estate.cost_is_one_run and horizon is not None and isinstance(years, int):
        line += (
            f" Over {count_of(years, 'year')}, with your accelerators' running cost all the "
            f"time and the help every run needs, it comes to about {money(horizon)}."
        )
    if estate.budget_soonest_days is not None and not estate.cost_is_one_run:
        line += (
            f" With rented help, the budget can finish one run in about "
            f"{run_time(estate.budget_soonest_days)} at the soonest."
        )
    return line


def _horizon_total(result: StoredResult) -> float | None:
    """The recommended option's total over the horizon [USD], the figure of the cost page."""
    cost = result.section("cost")
    option = cost.get(cost.get("recommended_option") or "")
    total = option.get("net_usd") if isinstance(option, Mapping) else None
    return float(total) if isinstance(total, int | float) else None


def trade_off_sentence(result: StoredResult) -> str:
    """Days against dollars for one run on what they own with rented help beside it, soonest
    first: "about 38.1 days for $27.64 million (7,472 rented beside yours), ..." ("" when there
    is no trade-off to show)."""
    estate = result.estate
    if not estate or len(estate.trade_off) < 2:
        return ""
    points = []
    for days, cost, rented in estate.trade_off:
        beside = f"{format_count(rented)} rented beside yours" if rented else "on yours alone"
        points.append(f"about {run_time(days)} for {result.money(cost)} ({beside})")
    return (
        "Days against dollars, for one run: "
        + "; ".join(points)
        + ". Each extra day on your own accelerators saves renting."
    )


def _power_line(result: StoredResult, estate: Estate, sources: Mapping[str, str]) -> str:
    power = format_power(estate.power_kw or 0.0)
    if estate.cluster_power_kw is None:
        return f"Your power available is {power}; the recommended option runs outside your site."
    draws = f"the cluster draws about {format_power(estate.cluster_power_kw)} with cooling"
    over = estate.cluster_power_kw - (estate.power_kw or 0.0)
    if over > 0:
        return (
            f"Your power available is {power}; {draws}, {format_power(over)} more than you have: "
            "it cannot fit, so more power or another site is needed."
        )
    if estate.power_capped:
        days = result.wall_clock_days or 0.0
        deadline_days = estate.deadline_days or 0.0
        late = (
            f", {run_time(days - deadline_days)} past {_deadline(result, estate, sources)}"
            if days > deadline_days
            else ""
        )
        return (
            f"Your {power} holds at most {format_count(estate.power_max_gpus or 0)} "
            f"accelerators with their spares, so we sized {format_count(result.gpus or 0)}: "
            f"{draws}, and one run takes about {run_time(days)}{late}."
        )
    return f"Your power available is {power}; {draws}, within it."


def format_power(kw: float) -> str:
    """A power draw or ceiling: "365 kW", "2 MW"."""
    if kw >= 1000:
        return f"{kw / 1000:,.3g} MW"
    return f"{format_count(round(kw))} kW"
