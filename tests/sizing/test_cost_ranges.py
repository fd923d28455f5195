"""The cost options' ranges: the price range combined with the accelerator-hours' range.

See ``docs/cost.md`` (Ranges and sensitivity): the hours' factors move the part of each option
that scales with accelerator-hours, as one more independent error.
"""

from __future__ import annotations

import datetime
import math
from collections import Counter
from typing import Any

import pytest

from sizing.engine import parse_input, size_dict
from sizing.engine.cost import options, sensitivity
from sizing.engine.cost.cloud import STORAGE_PRICES
from sizing.engine.cost.option import Priced
from sizing.engine.cost.options import CostCase, OptionPricing, PricedOptions
from sizing.engine.cost.owned import PURCHASE_PRICES
from sizing.engine.cost.plan import CostInputs, CostResult, plan_cost
from sizing.engine.cost.price_set import PriceSet, UsedPrice
from sizing.engine.cost.sensitivity import PARAMETERS, with_gpu_hours
from sizing.engine.cost.usage import usage, with_growth, with_runs_per_month
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.resolve.resolved import Resolved, resolve

TODAY = datetime.date(2026, 12, 2)
ANSWERS = {
    "model": {"name": "Llama 2 7B"},
    "data": {"tokens": 5e10},
    "roadmap": {"runs_per_month": 2},
}


def test_the_hours_range_adds_to_the_price_range_as_an_independent_error() -> None:
    # Price range 97..106 around 100; the part that scales with hours is 8 and the hours may be
    # half or twice the estimate: 3 and 4 down make 5, 6 and 8 up make 10.
    assert with_gpu_hours(100.0, (97.0, 106.0), 8.0, (0.5, 2.0)) == pytest.approx((95.0, 110.0))
    # Nothing scales with the hours: the price range stays.
    assert with_gpu_hours(100.0, (97.0, 106.0), 0.0, (0.5, 2.0)) == (97.0, 106.0)
    # No hours' range: the price range stays.
    assert with_gpu_hours(100.0, (97.0, 106.0), 8.0, (1.0, 1.0)) == (97.0, 106.0)


def _cost(factors: tuple[float, float]) -> CostResult:
    r = resolve(parse_input(ANSWERS), today=TODAY)
    plan = CostInputs(
        cluster_gpus=64,
        gpus_per_run=64,
        storage_tb=100.0,
        run_gpu_hours=64 * 24 * 10.0,
        all_runs_days=10.0,
        gpu_hours_factors=factors,
    )
    return plan_cost(r, ACCELERATORS[r.accelerator], plan)


def test_each_option_widens_by_the_hours_range_on_the_part_that_scales_with_hours() -> None:
    factors = (0.5, 2.0)
    plain, ranged = _cost((1.0, 1.0)), _cost(factors)
    widened = 0
    for key, option in ranged.options.items():
        before = plain.options[key]
        if option is None or before is None:
            continue
        assert option.net_usd == before.net_usd  # the figure itself does not move
        expected = with_gpu_hours(
            before.net_usd,
            (before.low_usd, before.high_usd),
            before.scales_with_gpu_hours_usd,
            factors,
        )
        assert (option.low_usd, option.high_usd) == pytest.approx(expected), key
        # The range holds the net figure at both ends of the hours' range.
        scales = option.scales_with_gpu_hours_usd
        assert option.low_usd <= option.net_usd - scales * (1 - factors[0]) + 1e-6
        assert option.high_usd >= option.net_usd + scales * (factors[1] - 1) - 1e-6
        widened += scales > 0 and option.high_usd > before.high_usd
    assert widened >= 3  # the cloud options and the owned ones' busy power
    assert ranged.options["cloud_reserved"] == plain.options["cloud_reserved"]  # nothing scales
    run = ranged.one_run_cloud_usd
    assert run is not None
    assert ranged.one_run_cloud_range_usd == pytest.approx((run * 0.5, run * 2.0))


def test_the_recommendation_applies_its_cross_validated_hours_range_to_the_cost() -> None:
    out = size_dict(ANSWERS, today=TODAY)
    cost, sure = out["cost"], out["confidence"]
    f_low, f_high = sure["low_factor"], sure["high_factor"]
    assert f_low < 1 < f_high
    run = cost["one_run_cloud_usd"]
    assert cost["one_run_cloud_range_usd"] == pytest.approx([run * f_low, run * f_high], rel=1e-5)
    best = cost[cost["recommended_option"]]
    low, high = best["range_usd"]
    scales = best["scales_with_gpu_hours_usd"]
    assert scales > 0
    assert low <= best["net_usd"] - scales * (1 - f_low) * (1 - 1e-5)
    assert high >= best["net_usd"] + scales * (f_high - 1) * (1 - 1e-5)
    assert math.isclose(cost["eur"]["low_eur"] * cost["eur"]["usd_per_eur"], low, rel_tol=1e-4)


def test_an_end_of_a_range_at_the_price_given_prices_no_option_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A range from the published price up (or down to it) has one end at the price itself:
    every option costs what it costs at the prices given there, so none is priced again."""
    r = resolve(parse_input(ANSWERS), today=TODAY)
    ends_at_the_price = [
        key
        for key in PARAMETERS
        for price in (getattr(r.prices, key),)
        if isinstance(price, UsedPrice)
        and price.low < price.high
        and price.value in (price.low, price.high)
    ]
    assert ends_at_the_price  # the price book has such ranges (the switch's, cloud storage's)
    priced_at: list[PriceSet] = []

    class Noting(OptionPricing):
        def price(self, option: str) -> Priced | None:
            priced_at.append(self.prices)
            return super().price(option)

    monkeypatch.setattr(sensitivity, "OptionPricing", Noting)
    _cost((1.0, 1.0))
    assert priced_at  # the other ends are priced
    # each pricing of the sensitivity analysis moves one price: none at the prices given
    assert [prices for prices in priced_at if prices == r.prices] == []


def _priced_case() -> tuple[Resolved, CostCase, PricedOptions, dict[str, frozenset[str]]]:
    """The answers' prices, a case of 64 accelerators, its options and the prices each reads."""
    r = resolve(parse_input(ANSWERS), today=TODAY)
    work = usage(r, run_gpu_hours=64 * 240.0, gpus_per_run=64, cluster_gpus=64, all_runs_days=10.0)
    case = CostCase(ACCELERATORS[r.accelerator], work, 64, r.gpus_per_node, 100.0, True)
    priced, reads = options.price_options_reading(case, r.prices)
    return r, case, priced, reads


def test_the_sensitivity_analysis_splits_the_hybrids_work_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No price moves the hybrid's bases or the work each serves (``hybrid.base_splits``):
    the analysis prices the hybrid again at every price it reads, on one split of the work."""
    calls: Counter[str] = Counter()
    split, hybrid = options.base_splits, options.hybrid

    def counted_split(*args: Any) -> Any:
        calls["split"] += 1
        return split(*args)

    def counted_hybrid(*args: Any, **kwargs: Any) -> Any:
        calls["hybrid"] += 1
        return hybrid(*args, **kwargs)

    monkeypatch.setattr(options, "base_splits", counted_split)
    monkeypatch.setattr(options, "hybrid", counted_hybrid)
    r, case, priced, reads = _priced_case()
    calls.clear()
    sensitivity.swings(case, r.prices, priced.options, reads)
    assert calls["hybrid"] > 10  # priced again at both ends of each price it reads
    assert calls["split"] == 1


def test_the_sensitivity_analysis_buys_each_capacity_once_at_the_same_purchase_prices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Most prices the analysis moves move no purchase: what buying a capacity costs is worked
    out once for each set of purchase prices (``owned.PURCHASE_PRICES``)."""
    bought: Counter[tuple[Any, ...]] = Counter()
    purchases = options.purchases

    def counted(capacity: tuple[int, ...], **kwargs: Any) -> Any:
        prices = kwargs["prices"]
        bought[capacity, *(getattr(prices, name) for name in PURCHASE_PRICES)] += 1
        return purchases(capacity, **kwargs)

    monkeypatch.setattr(options, "purchases", counted)
    r, case, priced, reads = _priced_case()
    bought.clear()
    sensitivity.swings(case, r.prices, priced.options, reads)
    assert bought  # the purchase prices' own swings buy again
    assert [key for key, n in bought.items() if n > 1] == []


def test_the_sensitivity_analysis_rents_each_works_storage_once_at_the_same_storage_price(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every cloud option rents the same storage for the same work, and only the storage price
    moves it (``cloud.STORAGE_PRICES``): the analysis works out the storage of the work, and of
    each hybrid base's peaks, once for each storage price."""
    rented: Counter[tuple[Any, ...]] = Counter()
    rented_storage_usd = options.rented_storage_usd

    def counted(work: Any, storage_tb: float, kept_tb: Any, prices: PriceSet) -> Any:
        rented[work, *(getattr(prices, name) for name in STORAGE_PRICES)] += 1
        return rented_storage_usd(work, storage_tb, kept_tb, prices)

    monkeypatch.setattr(options, "rented_storage_usd", counted)
    r, case, priced, reads = _priced_case()
    rented.clear()
    sensitivity.swings(case, r.prices, priced.options, reads)
    assert rented  # the storage price's own swing rents again
    assert [key for key, n in rented.items() if n > 1] == []


def test_the_plans_what_ifs_buy_each_capacity_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runs a month and the growth moved (``sensitivity.usage_swings``) price every option
    with other work at the same prices: what buying a capacity costs does not depend on the
    work, so each capacity is bought once for all of them (``OptionPricing.with_usage``)."""
    bought: Counter[tuple[int, ...]] = Counter()
    purchases = options.purchases

    def counted(capacity: tuple[int, ...], **kwargs: Any) -> Any:
        bought[capacity] += 1
        return purchases(capacity, **kwargs)

    monkeypatch.setattr(options, "purchases", counted)
    r, case, _, _ = _priced_case()
    bought.clear()
    what_ifs = sensitivity.usage_swings(case, r.prices)
    assert what_ifs and bought
    assert [capacity for capacity, n in bought.items() if n > 1] == []
    rebuild = {sensitivity.USAGE_GROWTH: with_growth, sensitivity.USAGE_RUNS: with_runs_per_month}
    for swing in what_ifs:  # the same figures as each work priced on its own
        for answer, at in (
            (swing.low_value, swing.at_low_usd),
            (swing.high_value, swing.at_high_usd),
        ):
            work = rebuild[swing.key](case.usage, answer)
            assert at == options.totals(options.with_usage(case, work), r.prices)
