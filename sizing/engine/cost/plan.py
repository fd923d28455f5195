"""The cost over the planning horizon: every way to pay, the cheapest the customer's rules
allow, what moves it, and when owning pays off.

One module per concern, side by side: :mod:`.usage` (the work from the answers), the options
each priced on its own, :mod:`.cloud` (renting), :mod:`.owned` (buying; :mod:`.running` for
power, space, support and staff) and :mod:`.hybrid` (an owned base with cloud peaks), all in
the shape of :mod:`.option`; :mod:`.options` prices them all with one price set,
:mod:`.choice` applies the rules and chooses, :mod:`.break_even` says when owning pays off,
:mod:`.sensitivity` gives the ranges and :mod:`.explain` the sentences.  Prices:
:mod:`.accelerator_prices`, :mod:`.prices`, :mod:`.price_set`.
Formulas and worked examples: ``docs/cost.md``.

Each option's range combines its price range (:mod:`.sensitivity`) with the range of
the accelerator-hours (the cross-validated error of the compute estimate,
:mod:`~.ranges`): the hours' factors apply to ``scales_with_gpu_hours_usd`` of the option,
the rest of the total (owned capacity, commitments, storage) is held, and the two are
combined as independent errors, like the prices among themselves::

    low  = T - sqrt((T - low_prices)^2 + (S * (1 - f_low))^2)
    high = T + sqrt((high_prices - T)^2 + (S * (f_high - 1))^2)

with ``T`` the option's net figure (:attr:`.option.Priced.net_usd`: what is paid less
what owned hardware is still worth at the end, the one figure options are compared by), ``S`` the part that scales with accelerator-hours and ``f_low``,
``f_high`` the hours' factors.  The cost of one run in the cloud scales with the factors.

References
----------
.. [1] JCGM 100:2008, Evaluation of measurement data - Guide to the expression of uncertainty
       in measurement (GUM), sec. 5.1.2, eq. (10): independent contributions combine as the
       square root of the sum of their squares, as ``low`` and ``high`` above.
.. [2] The prices and their sources: :mod:`.prices` and :mod:`.accelerator_prices`; the
       formulas of each option: ``docs/cost.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from ..frozen_copies import with_changes
from ..hardware import AcceleratorSpec
from ..numbers import Money
from ..ranges import scale_range
from ..resolve.resolved import Resolved
from ..units import HOURS_PER_YEAR, MONTHS_PER_YEAR
from ..vocabulary import CONSTANTS, describe_price
from .break_even import break_even
from .choice import BreakEven, Choice, choose, estate_allowed, excluded_by, over_budget
from .explain import ExplainInput, basis, not_priced, reasons, region_basis, undecided
from .option import CLOUD_LARGE, CLOUD_ON_DEMAND, OWNED_OPTIONS, Priced, Recurring
from .options import CostCase, OptionPricing, PricedOptions, price_options_reading
from .owned import NO_HELP, BomLine, HardwareBought, RentedHelp, hardware_bought
from .places import CurrencyView, currency_view, money_in
from .price_set import PriceSet, UsedPrice
from .region import CloudRegion, cloud_region
from .sensitivity import (
    Swing,
    largest,
    swings,
    total_range,
    usage_swings,
    with_gpu_hours,
)
from .usage import Usage, usage

_SENSITIVITY_SHOWN = 3  # prices the proposal names as moving the total most


@dataclass(frozen=True)
class CostOption:
    """One way to pay over the horizon [USD]."""

    total_usd: float  # everything paid over the horizon, the sum of ``by_year_usd``
    net_usd: float  # the figure compared: total less residual_value_usd (Priced.net_usd)
    by_year_usd: tuple[float, ...]
    low_usd: float  # range of net_usd
    high_usd: float
    basis: str
    capex_usd: float  # hardware bought over the horizon
    running_usd: float  # everything else
    scales_with_gpu_hours_usd: float  # the part proportional to accelerator-hours
    residual_value_usd: float  # book value of owned hardware after the horizon
    # Each year's cost by part [USD] (cost.cloud.COST_PARTS keys; a year's parts add up to
    # its ``by_year_usd``): hardware bought, power, space, support, staff, rented time, storage.
    parts_by_year_usd: Mapping[str, tuple[float, ...]]
    commitment_years: int | None  # [yr] a reservation's term, paid whether used or not
    commitment_used_share: float | None  # [-] of the term's accelerator-hours the work uses
    owned_base_gpus: int | None = None  # [GPUs] a hybrid's owned base, spares not counted


@dataclass(frozen=True)
class UsageOut:
    basis: str  # "roadmap" | "utilisation" | "planned_runs"
    known: bool
    runs_per_month: float | None
    gpus_per_run: int
    gpu_hours_per_run: float  # [GPU-h]
    gpu_hours_by_year: tuple[float, ...]  # [GPU-h]
    owned_gpus_by_year: tuple[int, ...]  # [GPUs] an owned cluster's size, hot spares included
    utilisation_by_year: tuple[float, ...]  # [-] busy share of its working accelerators


@dataclass(frozen=True)
class SensitivityItem:
    price: str  # price key, or the plan's (cost.sensitivity.USAGE_KEYS); labels: CONSTANTS
    unit: str
    low_value: float
    high_value: float
    total_low_usd: float  # the recommended option's net figure with the price at its low end
    total_high_usd: float
    recommended_at_low: str  # the option that would then be cheapest
    recommended_at_high: str


@dataclass(frozen=True)
class Constraints:
    excluded: dict[str, tuple[str, ...]]  # option -> rules excluding it
    binding: tuple[str, ...]  # rules that exclude the cheapest option overall
    cheapest_overall: str | None
    relax_saving_usd: float | None  # [USD] saved by dropping the binding rules
    location: str | None  # the customer's answer behind the "location" rule


@dataclass(frozen=True)
class EuroView:
    usd_per_eur: float
    as_of: str
    source: str
    total_eur: float
    low_eur: float
    high_eur: float


@dataclass(frozen=True)
class CostResult:
    options: dict[str, CostOption | None]
    recommended_option: str | None
    years: int
    region: str  # "north_america" | "eu"
    usage: UsageOut
    utilisation: float | None  # [-] of an owned cluster in year one at the stated usage
    one_run_cloud_usd: float | None
    one_run_cloud_range_usd: tuple[float, float] | None  # with the accelerator-hours' range
    owned_per_month_usd: float | None  # [USD/month] owning the cluster before any run
    break_even_utilisation: float | None
    break_even_months: float | None
    break_even_runs_per_month: float | None
    constraints: Constraints
    sensitivity: tuple[SensitivityItem, ...]
    capex_usd: float | None  # of the recommended option
    running_usd: float | None
    bill_of_materials: tuple[BomLine, ...]  # of the owned option shown
    bill_of_materials_option: str | None
    eur: EuroView | None
    not_priced: tuple[dict[str, str], ...]
    reasons: tuple[str, ...]
    price_sources: tuple[dict[str, str], ...]
    # What the bill buys: accelerators, servers and their fabric (engine 2026.12.11)
    hardware_bought: HardwareBought | None = None
    # Why nothing is recommended, in a sentence ("" when an option is): the rule that leaves
    # no priced option and what relaxing it costs, or the rental price missing to show that
    # owning pays (:func:`.explain.undecided`).
    undecided: str = ""
    held_back: str | None = None  # the owned option not recommended for want of a rental price
    recurring: Recurring | None = None  # per run and per month, for work given in runs a month
    cloud_region: CloudRegion | None = None  # where the cloud options run, from the residency
    cloud_price_basis: str = ""  # the basis of the hourly prices for that region
    # The currency every amount is shown in, from the country the hardware runs in
    currency: CurrencyView | None = None


@dataclass(frozen=True)
class CostInputs:
    """The sized plan the cost is for."""

    cluster_gpus: int
    gpus_per_run: int
    storage_tb: float
    run_gpu_hours: float  # [GPU-h] one run
    all_runs_days: float  # [d] all planned runs on the cluster
    # [x] low and high factors of the accelerator-hours (``ranges.confidence``)
    gpu_hours_factors: tuple[float, float] = (1.0, 1.0)
    fabric_oversubscription: float = 1.0  # [x] the network plan's, for the switches bought
    # whether runs span servers: when each fits in one, no fabric is bought between them
    fabric: bool = True
    # [TB] of storage_tb kept between runs (storage.StorageResult.kept_between_runs_tb)
    storage_kept_tb: float | None = None
    owned_gpus: int = 0  # [GPUs] of this accelerator the customer already owns (cost.owned)
    # [TB] shared storage they own with them (None: what the run needs, cost.owned)
    owned_storage_tb: float | None = None
    owned_only: bool = False  # the owned option holds only what they own (cost.options)
    budget_usd: float | None = None  # [USD] the customer's ceiling (cost.choice.over_budget)
    help: RentedHelp = NO_HELP  # rented beside the owned ones for each run (cost.owned)


def plan_cost(r: Resolved, acc: AcceleratorSpec, plan: CostInputs) -> CostResult:
    """Price the plan every way, choose, explain (see module docstring)."""
    prices = r.prices
    work = usage(
        r,
        run_gpu_hours=plan.run_gpu_hours,
        gpus_per_run=plan.gpus_per_run,
        cluster_gpus=plan.cluster_gpus,
        all_runs_days=plan.all_runs_days,
    )
    case = CostCase(
        acc=acc,
        usage=work,
        cluster_gpus=plan.cluster_gpus,
        gpus_per_node=r.gpus_per_node,
        storage_tb=plan.storage_tb,
        hybrid_in_colocation=r.location != "on_prem",
        spares_wanted=r.spare_nodes_wanted,
        oversubscription=plan.fabric_oversubscription,
        fabric=plan.fabric,
        storage_kept_tb=plan.storage_kept_tb,
        whole_servers_reserved=r.dedicated_hardware,
        owned_gpus=plan.owned_gpus,
        owned_storage_tb=plan.owned_storage_tb,
        owned_only=plan.owned_only,
        help=plan.help,
    )
    priced, reads = price_options_reading(case, prices)
    option_totals = {k: p.net_usd for k, p in priced.options.items() if p is not None}
    excluded = over_budget(
        estate_allowed(excluded_by(r), plan.owned_gpus), option_totals, plan.budget_usd
    )
    # with help rented beside their accelerators the owned options finish sooner than the
    # others, which are priced at the pace of theirs alone: a saving set against a slower run
    # is no saving, so only the owned options are compared for the choice
    same_pace = {
        key: total
        for key, total in option_totals.items()
        if not plan.help.usd_per_run or key in OWNED_OPTIONS
    }
    choice = choose(same_pace, excluded)
    all_swings = swings(case, prices, priced.options, reads)
    options = {
        key: None
        if p is None
        else _option(key, p, all_swings, case, prices, plan, money_in(r.place))
        for key, p in priced.options.items()
    }
    owned_key = _owned_shown(choice, option_totals, excluded)
    rented_key = CLOUD_ON_DEMAND if CLOUD_ON_DEMAND in option_totals else CLOUD_LARGE
    even = (
        break_even(case, prices, owned=owned_key, rented=rented_key, capacity=priced.capacity)
        if owned_key
        else BreakEven(None, None, None)
    )
    best = choice.recommended
    chosen = options.get(best) if best else None
    usage_out = _usage_out(work, priced)
    one_run = _one_run(plan.run_gpu_hours, prices)
    owned_monthly = _owned_per_month(case, prices, owned_key, priced)
    region = cloud_region(r.data_residency)
    region_words = region_basis(region, prices) if region else ""
    explained = ExplainInput(
        r=r,
        choice=choice,
        options=options,
        usage=work,
        even=even,
        owned_key=owned_key,
        rented_key=rented_key,
        utilisation=usage_out.utilisation_by_year[0],
        one_run_usd=one_run,
        owned_per_month_usd=owned_monthly,
        sized_run_gpu_hours=plan.run_gpu_hours,
        accelerator=acc.name,
        cloud_region=region,
        cloud_price_basis=region_words,
        excluded=excluded,
    )
    return CostResult(
        options=options,
        recommended_option=best,
        years=r.years,
        region=r.price_region,
        currency=currency_view(r.place),
        usage=usage_out,
        utilisation=usage_out.utilisation_by_year[0] if work.known else None,
        one_run_cloud_usd=one_run,
        one_run_cloud_range_usd=(
            None if one_run is None else scale_range(one_run, one_run, plan.gpu_hours_factors)
        ),
        owned_per_month_usd=owned_monthly,
        break_even_utilisation=even.utilisation,
        break_even_months=even.months,
        break_even_runs_per_month=even.runs_per_month,
        constraints=Constraints(
            excluded={k: v for k, v in excluded.items() if v},
            binding=choice.binding,
            cheapest_overall=choice.cheapest_overall,
            relax_saving_usd=choice.relax_saving_usd,
            location=r.location,
        ),
        sensitivity=_sensitivity(best, chosen, all_swings + usage_swings(case, prices), excluded),
        capex_usd=chosen.capex_usd if chosen else None,
        running_usd=chosen.running_usd if chosen else None,
        bill_of_materials=priced.owned[owned_key].bought.bill if owned_key else (),
        bill_of_materials_option=owned_key,
        eur=_euro(chosen, prices.usd_per_eur),
        not_priced=not_priced(acc, priced.options, prices),
        reasons=reasons(explained),
        price_sources=_price_sources(prices),
        hardware_bought=hardware_bought(
            priced.owned[owned_key].bought.bill,
            owned_key,
            gpus_per_node=r.gpus_per_node,
            oversubscription=plan.fabric_oversubscription,
            fabric=plan.fabric,
        )
        if owned_key
        else None,
        undecided=undecided(explained),
        held_back=choice.held_back,
        recurring=_recurring(chosen, work, r.years),
        cloud_region=region,
        cloud_price_basis=region_words,
    )


def _recurring(chosen: CostOption | None, work: Usage, years: int) -> Recurring | None:
    """Per run and per month (:class:`Recurring`), for work given in runs a month."""
    if chosen is None or work.runs_per_month is None or work.gpu_hours_per_run <= 0:
        return None
    runs = work.gpu_hours / work.gpu_hours_per_run
    if runs <= 0:
        return None
    return Recurring(
        runs=runs,
        per_run_usd=chosen.net_usd / runs,
        per_month_usd=chosen.net_usd / (years * MONTHS_PER_YEAR),
    )


def _option(
    key: str,
    p: Priced,
    all_swings: tuple[Swing, ...],
    case: CostCase,
    prices: PriceSet,
    plan: CostInputs,
    money: Money,
) -> CostOption:
    price_low, price_high = total_range(key, p.net_usd, all_swings)
    low, high = with_gpu_hours(
        p.net_usd, (price_low, price_high), p.scales_usd, plan.gpu_hours_factors
    )
    return CostOption(
        total_usd=p.total_usd,
        net_usd=p.net_usd,
        by_year_usd=p.by_year_usd,
        low_usd=low,
        high_usd=high,
        basis=basis(key, p, case, prices, money),
        capex_usd=p.capex_usd,
        running_usd=p.running_usd,
        scales_with_gpu_hours_usd=p.scales_usd,
        residual_value_usd=p.residual_usd,
        parts_by_year_usd=p.parts_by_year_usd,
        commitment_years=p.commitment_years,
        commitment_used_share=p.commitment_used_share,
        owned_base_gpus=p.owned_base_gpus,
    )


def _owned_shown(
    choice: Choice, option_totals: dict[str, float], excluded: dict[str, tuple[str, ...]]
) -> str | None:
    """The owned option the bill of materials and the break-even are about: the recommended
    one if it is owned, else the cheapest allowed owned option, else the cheapest owned."""
    if choice.recommended in OWNED_OPTIONS:
        return choice.recommended
    owned = [k for k in OWNED_OPTIONS if k in option_totals]
    allowed = [k for k in owned if not excluded.get(k)]
    pool = allowed or owned
    return min(pool, key=lambda k: option_totals[k]) if pool else None


def _usage_out(work: Usage, priced: PricedOptions) -> UsageOut:
    capacity = priced.capacity
    return UsageOut(
        basis=work.basis,
        known=work.known,
        runs_per_month=work.runs_per_month,
        gpus_per_run=work.gpus_per_run,
        gpu_hours_per_run=work.gpu_hours_per_run,
        gpu_hours_by_year=work.gpu_hours_by_year,
        owned_gpus_by_year=priced.owned_gpus,
        utilisation_by_year=tuple(
            min(1.0, hours / (gpus * HOURS_PER_YEAR))
            for hours, gpus in zip(work.gpu_hours_by_year, capacity, strict=True)
        ),
    )


def _one_run(run_gpu_hours: float, prices: PriceSet) -> float | None:
    """One run in the GPU cloud (else the large cloud), without idle time [USD]."""
    price = prices.gpu_cloud or prices.large_cloud
    return None if price is None else run_gpu_hours * price.value


def _owned_per_month(
    case: CostCase, prices: PriceSet, owned_key: str | None, priced: PricedOptions
) -> float | None:
    """Owning the first year's cluster for the horizon with no work, per month [USD]."""
    if owned_key is None:
        return None
    idle = with_changes(
        case.usage, gpu_hours_by_year=tuple(0.0 for _ in case.usage.gpu_hours_by_year)
    )
    empty = OptionPricing(
        with_changes(case, usage=idle, cluster_gpus=priced.capacity[0], hybrid_in_colocation=True),
        prices,
    ).price(owned_key)
    if empty is None:
        return None
    return empty.total_usd / (len(case.usage.gpu_hours_by_year) * MONTHS_PER_YEAR)


def _sensitivity(
    best: str | None,
    chosen: CostOption | None,
    all_swings: tuple[Swing, ...],
    excluded: dict[str, tuple[str, ...]],
) -> tuple[SensitivityItem, ...]:
    if best is None or chosen is None:
        return ()
    out = []
    for swing in largest(best, chosen.net_usd, all_swings, _SENSITIVITY_SHOWN):
        out.append(
            SensitivityItem(
                price=swing.key,
                unit=swing.unit,
                low_value=swing.low_value,
                high_value=swing.high_value,
                total_low_usd=swing.at_low_usd[best],
                total_high_usd=swing.at_high_usd[best],
                recommended_at_low=choose(swing.at_low_usd, excluded).recommended or best,
                recommended_at_high=choose(swing.at_high_usd, excluded).recommended or best,
            )
        )
    return tuple(out)


def _euro(chosen: CostOption | None, rate: UsedPrice) -> EuroView | None:
    if chosen is None:
        return None
    return EuroView(
        usd_per_eur=rate.value,
        as_of=rate.as_of,
        source=rate.source,
        total_eur=chosen.net_usd / rate.value,
        low_eur=chosen.low_usd / rate.value,
        high_eur=chosen.high_usd / rate.value,
    )


def _price_sources(prices: PriceSet) -> tuple[dict[str, str], ...]:
    """Every price the comparison used, with its source, date, region and firmness."""
    out = []
    for field in fields(prices):
        found = getattr(prices, field.name)
        if not isinstance(found, UsedPrice):
            continue
        out.append(
            {
                "price": field.name,  # the PriceSet field: "purchase", "gpu_cloud" …
                "item": CONSTANTS.get(found.key, found.key),
                "value": describe_price(found.value, found.unit),
                "source": found.source,
                "as_of": found.as_of,
                "flag": found.flag,
                "region": found.region,
            }
        )
    return tuple(out)
