"""The cost in sentences: why the recommended option wins, what a rule costs, the usage it
assumes, when owning pays off, and what is not priced.  Plain words; every figure through
:mod:`sizing.engine.numbers`, every name through :mod:`sizing.engine.vocabulary`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ..assumptions import value
from ..hardware import AcceleratorSpec
from ..numbers import (
    Money,
    format_count,
    format_hours,
    format_percent,
    format_small_percent,
    format_times,
    noun_for_count,
)
from ..resolve.resolved import Resolved
from ..units import MONTHS_PER_YEAR
from ..vocabulary import COST_OPTIONS, LOCATION_RULES, RULES, in_sentence, net_words
from .choice import ESTATE, LOCATION, BreakEven, Choice
from .option import (
    BUY,
    CLOUD_LARGE,
    CLOUD_ON_DEMAND,
    CLOUD_OPTIONS,
    COLOCATION,
    HYBRID,
    OWNED_OPTIONS,
    RENTED,
    RESERVED_1YR,
    RESERVED_3YR,
    Priced,
)
from .options import CostCase
from .places import money_in
from .price_set import PriceSet
from .region import CloudRegion
from .usage import UTILISATION, Usage


class _Total(Protocol):
    @property
    def net_usd(self) -> float: ...

    @property
    def low_usd(self) -> float: ...

    @property
    def high_usd(self) -> float: ...

    @property
    def capex_usd(self) -> float: ...

    @property
    def running_usd(self) -> float: ...

    @property
    def residual_value_usd(self) -> float: ...

    @property
    def commitment_used_share(self) -> float | None: ...


@dataclass(frozen=True)
class ExplainInput:
    r: Resolved
    choice: Choice
    options: Mapping[str, _Total | None]
    usage: Usage
    even: BreakEven
    owned_key: str | None
    rented_key: str  # the rental the break-even is measured against
    utilisation: float  # [-] of the owned cluster in year one
    one_run_usd: float | None
    owned_per_month_usd: float | None
    sized_run_gpu_hours: float | None = None  # [GPU-h] one sized run, beside the customer's
    accelerator: str = ""  # its name, for what is missing
    cloud_region: CloudRegion | None = None  # where the cloud options run
    cloud_price_basis: str = ""  # their prices' basis there (:func:`region_basis`)
    # the rules that rule out each option (``choice.excluded_by``); none: every option allowed
    excluded: Mapping[str, tuple[str, ...]] | None = None


def _name(option: str) -> str:
    """An option's name inside a sentence, quoted so its comma reads as part of the name:
    “buy, in your own data centre”."""
    return f"“{in_sentence(COST_OPTIONS[option])}”"


_FEW_HOURS = 10.0  # [GPU-h] below this, accelerator-hours are given to a tenth


def _shown_hours(value: float) -> float:
    """Accelerator-hours as the sentences print them: to a tenth below ten, else whole, so a
    monthly figure worked out from a printed one matches it ("2.6 … (5.2 a month)")."""
    return round(value, 1) if abs(value) < _FEW_HOURS else float(round(value))


def _hours(value: float) -> str:
    if 0 < value < 1:  # never "0.3 accelerator-hours" (a fraction of a unit) nor "0"
        return "under one accelerator-hour"
    return f"{format_count(_shown_hours(value))} accelerator-hours"


def basis(key: str, p: Priced, case: CostCase, prices: PriceSet, money: Money) -> str:
    """What one option's figure is made of, in a phrase (amounts in ``money``'s currency)."""
    work = case.usage
    idle = format_percent(prices.cloud_idle_share.value)
    if key in (CLOUD_ON_DEMAND, CLOUD_LARGE):
        found = prices.gpu_cloud if key == CLOUD_ON_DEMAND else prices.large_cloud
        rate = money.rate(found.value if found else 0.0)
        return (
            f"{_hours(work.gpu_hours)} at {rate} an accelerator-hour, plus {idle} paid outside "
            "runs and storage"
        )
    if key in (RESERVED_1YR, RESERVED_3YR):
        held = max(p.capacity) if p.capacity else 0
        return f"{format_count(held)} accelerators held all year, used or not, plus storage"
    if key == HYBRID:
        base = p.owned_base_gpus or (p.capacity[0] if p.capacity else 0)
        if base >= case.cluster_gpus:
            return (
                f"one run needs all {format_count(base)} accelerators, so the owned base is the "
                "whole cluster; only work beyond what it can run is rented in the GPU cloud"
                + _peaks_beyond_short_rent(p, case)
            )
        return (
            f"{format_count(base)} accelerators owned for the steady load; the peaks beyond "
            f"them rented in the GPU cloud{_peaks_beyond_short_rent(p, case)}"
        )
    most = max(p.capacity) if p.capacity else 0
    helped = (
        f"; and the accelerators rented beside them, {money(case.help.usd_per_run)} a run"
        if case.help.usd_per_run
        else ""
    )
    return (
        f"{format_count(most)} accelerators with servers, network, storage and installation; "
        f"power, space, support and operations staff{helped}"
    )


def _peaks_beyond_short_rent(p: Priced, case: CostCase) -> str:
    """When the runs rented at the hybrid's peaks are each larger than the largest cluster
    rented for days or weeks without a negotiated contract (assumption
    ``short_rent_max_gpus``): the rent holds only under a negotiated reservation."""
    most = int(value("short_rent_max_gpus"))
    rented = sum(p.parts_by_year_usd.get(RENTED, ()))
    if case.usage.gpus_per_run <= most or rented <= 0:
        return ""
    return (
        f" (each of those runs needs {format_count(case.usage.gpus_per_run)} accelerators as "
        f"one cluster, more than the {format_count(most)} rented at short notice: that rent "
        "holds only under a negotiated reservation; we will ask)"
    )


def not_priced(
    acc: AcceleratorSpec, options: Mapping[str, Priced | None], prices: PriceSet
) -> tuple[dict[str, str], ...]:
    """The options left out, and why: a price nobody publishes, or a hybrid that would be
    the same as buying."""
    name = acc.name
    hourly = f"no public price per hour for the {name} to base a reservation on"
    purchase = f"no public purchase price for the {name}"
    why = {
        CLOUD_ON_DEMAND: f"no public GPU-cloud price per hour for the {name}",
        CLOUD_LARGE: f"no public large-cloud price per hour for the {name}",
        RESERVED_1YR: hourly,
        RESERVED_3YR: hourly,
        BUY: purchase,
        COLOCATION: purchase,
    }
    if prices.purchase is None:
        why[HYBRID] = purchase
    else:
        why[HYBRID] = f"no public cloud price per hour for the {name}"
    return tuple(
        {"option": key, "reason": why[key]} for key, priced in options.items() if priced is None
    )


def _rules(r: Resolved, rules: tuple[str, ...]) -> str:
    """The rules in words: "no internet connection, only on premises"."""
    words = []
    for rule in rules:
        if rule == LOCATION and r.location in LOCATION_RULES:
            words.append(LOCATION_RULES[r.location])
        else:
            words.append(RULES[rule])
    return ", ".join(words)


def _plural(count: float, word: str) -> str:
    return f"{format_count(count)} {noun_for_count(count, word)}"


def _runs_a_month(runs: float) -> str:
    """ "1 run a month", "3 runs a month"; a rate below one as "about one run every 2 months"."""
    if runs >= 1 and float(runs).is_integer():
        return f"{_plural(runs, 'run')} a month"
    return format_times(runs, "run", "month")


def _overlap(a: _Total, b: _Total) -> bool:
    """Whether two options' likely ranges of the net figure overlap: then neither is surely
    the cheaper, and the sentences say so instead of declaring a winner."""
    return a.low_usd <= b.high_usd and b.low_usd <= a.high_usd


def _same(a: _Total, b: _Total) -> bool:
    """Whether two options come to the same net figure, to the dollar (a hybrid whose base is
    the whole cluster costs what buying it does)."""
    return abs(a.net_usd - b.net_usd) < 1.0


def _range_words(a: _Total, money: Money) -> str:
    return f"{money(a.low_usd)} to {money(a.high_usd)}"


def reasons(x: ExplainInput) -> tuple[str, ...]:
    """Why the recommended option wins, in the order a reader needs them.  Every figure that
    compares options is the net one (:attr:`cost.option.Priced.net_usd`), the one the
    recommendation ranks by."""
    out: list[str] = []
    best, years = x.choice.recommended, x.r.years
    money = money_in(x.r.place)
    if best is None:
        return (undecided(x),)
    chosen = x.options[best]
    assert chosen is not None  # the recommended option is priced
    line = (
        f"The cheapest option your rules allow is {_name(best)}: "
        f"{money(chosen.net_usd)} over {_plural(years, 'year')}"
    )
    if chosen.residual_value_usd > 0:
        line += f" {net_words(years)}"
    runner = x.choice.runner_up
    runner_priced = x.options.get(runner) if runner else None
    if runner and runner_priced is not None and _same(runner_priced, chosen):
        line += f", the same as {_name(runner)}"
        if runner == HYBRID:
            line += ", whose owned base is the whole cluster here"
    elif runner and runner_priced is not None:
        line += f", {money(runner_priced.net_usd - chosen.net_usd)} less than {_name(runner)}"
        if runner_priced.residual_value_usd > 0 and not chosen.residual_value_usd > 0:
            line += f" {net_words(years)}"
        if _overlap(chosen, runner_priced):
            line += (
                f"; but their likely ranges overlap ({_range_words(chosen, money)} against "
                f"{_range_words(runner_priced, money)}), so either could turn out cheaper"
            )
    out.append(line + ".")
    overall = x.choice.cheapest_overall
    if overall and overall != best and x.choice.relax_saving_usd is not None:
        overall_priced = x.options[overall]
        assert overall_priced is not None
        many = len(x.choice.binding) > 1
        line = (
            f"Your {'rules' if many else 'rule'} ({_rules(x.r, x.choice.binding)}) "
            f"{'rule' if many else 'rules'} out {_name(overall)}, which would cost "
            f"{money(overall_priced.net_usd)}: keeping {'them' if many else 'it'} "
            f"costs {money(x.choice.relax_saving_usd)} more over {_plural(years, 'year')}"
        )
        if _overlap(chosen, overall_priced):
            line += (
                f", though the two likely ranges overlap ({_range_words(chosen, money)} against "
                f"{_range_words(overall_priced, money)}), so keeping "
                f"{'them' if many else 'it'} may cost nothing"
            )
        out.append(line + ".")
    elif overall and overall != best and ESTATE in x.choice.binding:
        overall_priced = x.options[overall]
        assert overall_priced is not None
        out.append(
            f"Running it all on {_name(overall)} instead ({money(overall_priced.net_usd)}) would "
            "not save the running cost of what you own (space, support and staff): it is paid "
            "whether or not they train."
        )
    out.extend(_dedicated_sentence(x))
    out.extend(_region_sentence(x))
    out.append(_usage_sentence(x))
    out.extend(_commitment_sentence(x))
    out.extend(_break_even_sentences(x))
    if chosen.capex_usd > 0:
        line = (
            f"{money(chosen.capex_usd)} is spent on hardware and "
            f"{money(chosen.running_usd)} on running it over {_plural(years, 'year')}"
        )
        if chosen.residual_value_usd > 0:
            line += (
                f"; at the end of year {format_count(years)} the hardware is still worth about "
                f"{money(chosen.residual_value_usd)}, which the figure above subtracts"
            )
        out.append(line + ".")
    elif best in CLOUD_OPTIONS:
        out.append("No hardware is bought: the whole amount is a running cost.")
    return tuple(out)


def _usage_sentence(x: ExplainInput) -> str:
    work, r = x.usage, x.r
    money = money_in(r.place)
    growth = f", growing {format_percent(r.roadmap_growth)} a year" if r.roadmap_growth > 0 else ""
    if work.basis == UTILISATION and r.utilisation is not None:
        return f"Priced for the cluster busy {format_percent(r.utilisation)} of the year{growth}."
    if work.known and work.runs_per_month is not None:
        monthly = work.gpu_hours_by_year[0] / MONTHS_PER_YEAR
        if r.hours_per_run is not None:  # the customer's own hours, not the engine's estimate
            sized = (
                f"; the run we sized needs {_hours(x.sized_run_gpu_hours)}"
                if x.sized_run_gpu_hours
                and not math.isclose(x.sized_run_gpu_hours, work.gpu_hours_per_run, rel_tol=0.01)
                else ""
            )
            each = (
                f"{format_hours(r.hours_per_run)} (the run length you gave us{sized}) on "
                f"{_plural(work.gpus_per_run, 'accelerator')}"
            )
        else:
            each = _hours(work.gpu_hours_per_run)
            if work.gpu_hours_per_run >= 1:  # the month from the figure printed
                monthly = work.runs_per_month * _shown_hours(work.gpu_hours_per_run)
        sentence = (
            f"Priced for {_runs_a_month(work.runs_per_month)}, each of {each} "
            f"({_hours(monthly)} a month){growth}; an owned cluster would be busy "
            f"{format_small_percent(x.utilisation)} of the time."
        )
        if x.one_run_usd is not None:  # the project's own runs, beside the years of use priced
            runs = "one run" if r.experiments == 1 else f"{format_count(r.experiments)} runs"
            sentence += (
                f" This project alone ({runs}) would cost about "
                f"{money(x.one_run_usd * r.experiments)} in the GPU cloud."
            )
        return sentence
    line = (
        "You did not tell us how often you will train, so this prices only the "
        f"{_plural(r.experiments, 'planned run')}"
    )
    extras = []
    if x.one_run_usd is not None:
        extras.append(_one_run_words(x))
    if x.owned_per_month_usd is not None:
        owned = x.options.get(x.owned_key) if x.owned_key else None
        # accelerators they already own are not bought: only running them costs each month
        keeping = (
            "running the accelerators you own"
            if owned and owned.capex_usd == 0
            else ("owning the cluster")
        )
        extras.append(f"{keeping} costs {money(x.owned_per_month_usd)} a month before any run")
    return line + (": " + "; ".join(extras) if extras else "") + "."


def _one_run_words(x: ExplainInput) -> str:
    """One run's accelerator-hours at the GPU cloud's price [1]_; when pay as you go is the
    option recommended, also its figure, which adds the cloud time paid around the runs
    (``cloud_idle_share``) and storage (:func:`cost.cloud.on_demand`): customer 8 read "one
    run costs $17 in the cloud" beside "$18 over 3 years" with nothing to tell them apart.

    .. [1] ``cost.plan._one_run``: one run in the GPU cloud without idle time, hours x price.
    """
    money = money_in(x.r.place)
    one_run = x.one_run_usd or 0.0
    text = f"one run costs {money(one_run)} in the cloud"
    on_demand = x.options.get(CLOUD_ON_DEMAND)
    if x.choice.recommended != CLOUD_ON_DEMAND or on_demand is None:
        return text
    runs = one_run * x.r.experiments
    if money(on_demand.net_usd) == money(runs):
        return text
    around = "it" if x.r.experiments == 1 else "them"
    paid = format_percent(x.r.prices.cloud_idle_share.value)
    them = "" if x.r.experiments == 1 else f" ({money(runs)} for the {x.r.experiments} runs)"
    return (
        f"one run's accelerator-hours cost {money(one_run)} in the cloud{them}, and "
        f"{money(on_demand.net_usd)} with the cloud time paid around {around} ({paid} more) and "
        "storage"
    )


def _commitment_sentence(x: ExplainInput) -> list[str]:
    """With no runs planned after the project's (usage unknown), what the reservations'
    work uses of the term they are paid for: they pay off only if the capacity is used after
    the planned runs (:mod:`cost.cloud`, used share)."""
    if x.usage.known:
        return []
    used = []
    for key in (RESERVED_1YR, RESERVED_3YR):
        option = x.options.get(key)
        share = option.commitment_used_share if option is not None else None
        if share is not None and share < 1:
            small = format_small_percent(share)
            # "about less than 1 %" is no way to say it: "about" only before a figure
            used.append(f"{'' if small.startswith('less') else 'about '}{small} of {_name(key)}")
    if not used:
        return []
    runs = noun_for_count(x.r.experiments, "planned run")
    return [
        "A reservation is paid for its whole term, used or not: your "
        f"{runs} would use {' and '.join(used)}, so a reservation is worth it only if "
        f"you use the capacity after the {runs}."
    ]


def _break_even_sentences(x: ExplainInput) -> list[str]:
    even = x.even
    if x.owned_key is None or x.owned_key not in OWNED_OPTIONS:
        return []
    owned = x.options.get(x.owned_key)
    if owned is not None and owned.capex_usd == 0:
        return []  # what they already own: nothing is bought, so there is nothing to pay back
    if x.options.get(x.rented_key) is None:  # nothing to measure owning against
        return [
            f"There is no public cloud price for the {x.accelerator or 'accelerator'} to "
            "compare owning with, so when owning pays for itself cannot be said: we will quote one."
        ]
    if even.utilisation is None:
        return [
            "At these prices owning does not pay for itself within "
            f"{_plural(x.r.years, 'year')}, even with the cluster always busy."
        ]
    line = (
        f"Owning beats renting as {_name(x.rented_key)} when the cluster is busy more than "
        f"{format_percent(even.utilisation)} of the time"
    )
    if even.runs_per_month is not None:
        line += f" ({_runs_a_month(even.runs_per_month)})"
    out = [line + "."]
    if even.months is not None and x.usage.known:
        out.append(
            f"At your usage, owned hardware pays for itself against renting as "
            f"{_name(x.rented_key)} after about {format_count(round(even.months))} months."
        )
    return out


def undecided(x: ExplainInput) -> str:
    """Why no option is recommended ("" when one is): the rules that leave no priced option and
    what relaxing them would cost (the cheapest option they rule out), or the rental price that
    is missing to show that owning pays, or that nothing has a public price."""
    if x.choice.recommended is not None:
        return ""
    years = _plural(x.r.years, "year")
    money = money_in(x.r.place)
    held = x.choice.held_back
    held_priced = x.options.get(held) if held else None
    if held and held_priced is not None:
        busy = (
            f"; your work would keep it busy {format_small_percent(x.utilisation)} of the time"
            if x.usage.gpu_hours > 0
            else ""
        )
        return (
            f"Only {_name(held)} has a public price ({money(held_priced.net_usd)} over "
            f"{years}{busy}), and there is no public cloud price for the "
            f"{x.accelerator or 'accelerator'} to compare it with, so nothing shows that buying "
            "pays: we will quote a cloud price for it (or a comparable accelerator that has one) "
            "before recommending either."
        )
    overall = x.choice.cheapest_overall
    overall_priced = x.options.get(overall) if overall else None
    if overall and overall_priced is not None and x.choice.binding:
        many = len(x.choice.binding) > 1
        return (
            f"Your {'rules' if many else 'rule'} ({_rules(x.r, x.choice.binding)}) "
            f"{'leave' if many else 'leaves'} no option with a public price: relaxing "
            f"{'them' if many else 'it'}, the cheapest option would be {_name(overall)} at "
            f"{money(overall_priced.net_usd)} over {years}; otherwise we will quote."
        )
    return (
        f"No option has a public price for the {x.accelerator or 'accelerator'} yet: "
        "we will quote one."
    )


def _dedicated_sentence(x: ExplainInput) -> list[str]:
    """A reservation recommended to a customer who needs hardware of their own: it is a
    dedicated, single-tenant cluster (:mod:`.choice`, its reference [2])."""
    if not x.r.dedicated_hardware:
        return []
    best = x.choice.recommended
    if best in (BUY, COLOCATION):
        return _dedicated_cloud_dearer(x, best)
    if best not in (RESERVED_1YR, RESERVED_3YR):
        return []
    return [
        "As the hardware must be yours alone, the reservation is for a dedicated, single-tenant "
        "cluster of whole servers (bare metal), which GPU clouds sell reserved; it is priced at "
        "the published reserved rate, and our quote confirms the single-tenant terms."
    ]


def _dedicated_cloud_dearer(x: ExplainInput, best: str) -> list[str]:
    """Hardware bought by a customer who needs it to be theirs alone: the cloud's dedicated
    capacity it beat, named as such, in the region their data must stay in (customer 6, a bank
    in Frankfurt, read "buy" beside "shared public cloud is excluded" and no word of the
    single-tenant capacity clouds sell)."""
    reserved = [
        (total.net_usd, key)
        for key in (RESERVED_3YR, RESERVED_1YR)
        if (total := x.options.get(key)) is not None and not (x.excluded or {}).get(key)
    ]
    chosen = x.options.get(best)
    if not reserved or chosen is None:
        return []
    net, key = min(reserved)
    money = money_in(x.r.place)
    where = f" in {x.cloud_region.city}" if x.cloud_region else ""
    return [
        f"The cloud's capacity that is yours alone, a dedicated, single-tenant cluster of whole "
        f"servers reserved{where}, costs at least {money(net)} over "
        f"{_plural(x.r.years, 'year')} ({_name(key)}): {money(net - chosen.net_usd)} more than "
        f"{_name(best)}."
    ]


def _region_sentence(x: ExplainInput) -> list[str]:
    """Where the recommended cloud option runs, from the residency answer, and the basis of
    its price there."""
    region = x.cloud_region
    if region is None or x.choice.recommended not in (*CLOUD_OPTIONS, HYBRID):
        return []
    return [
        f"Your data must stay in {region.place}, so the cloud runs in a region there "
        f"({region.city}); {x.cloud_price_basis}."
    ]


def region_basis(region: CloudRegion, prices: PriceSet) -> str:
    """The basis of the hourly cloud prices for ``region``: the catalog's are the worldwide
    median of public list prices, not the region's (:mod:`.region`)."""
    if prices.gpu_cloud is None and prices.large_cloud is None:
        return f"no public cloud price; we will quote for {region.city}"
    return (
        "priced at the worldwide median of public list prices (the catalog has no prices by "
        f"region); we will quote for {region.city}"
    )
