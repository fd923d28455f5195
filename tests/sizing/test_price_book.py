"""The price book's dates: no source older than three years without the reason it stays, and
the exchange rates and power prices a proposal dated December 2026 rests on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sizing.engine import size_dict
from sizing.engine.assumptions import ASSUMPTIONS
from sizing.engine.cost.accelerator_prices import ACCELERATOR_PRICES
from sizing.engine.cost.places import per_usd, place_of
from sizing.engine.cost.price_set import age_in_months
from sizing.engine.cost.prices import PRICE_BOOK_AS_OF, PRICES, STALE_AFTER_MONTHS
from sizing.engine.numbers import Money
from sizing.engine.provenance import Assumption

# The engine constants the cost model and the proposal's purchase terms read (besides PRICES).
COST_ASSUMPTIONS = (
    "server_power_draw_share",
    "server_idle_draw_share",
    "owned_max_utilisation",
    "gpu_server_lead_weeks_low",
    "gpu_server_lead_weeks_high",
)


def _dated_sources() -> list[tuple[str, Assumption]]:
    found: list[tuple[str, Assumption]] = [(f"prices.{k}", p) for k, p in PRICES.items()]
    for accelerator, entry in ACCELERATOR_PRICES.items():
        for name in ("gpu_cloud", "large_cloud", "purchase"):
            price = getattr(entry, name)
            if price is not None:
                found.append((f"{accelerator}.{name}", price))
    found += [(f"assumptions.{k}", ASSUMPTIONS[k]) for k in COST_ASSUMPTIONS]
    return found


@pytest.mark.parametrize(("key", "source"), _dated_sources(), ids=lambda v: str(v)[:40])
def test_every_price_source_is_dated(key: str, source: Assumption) -> None:
    assert age_in_months(source.as_of, PRICE_BOOK_AS_OF) is not None, key


def test_no_source_older_than_three_years_without_the_reason_it_stays() -> None:
    stale = [
        f"{key} ({source.as_of})"
        for key, source in _dated_sources()
        if (age_in_months(source.as_of, PRICE_BOOK_AS_OF) or 0) > STALE_AFTER_MONTHS
        and not source.stays.strip()
    ]
    assert stale == []


def test_a_current_source_carries_no_reason_to_stay() -> None:
    """A reason to stay belongs to an old figure only: a refreshed one drops it."""
    kept = [
        key
        for key, source in _dated_sources()
        if source.stays
        and (age_in_months(source.as_of, PRICE_BOOK_AS_OF) or 0) <= STALE_AFTER_MONTHS
    ]
    assert kept == []


def test_the_exchange_rate_is_of_2026() -> None:
    """The issue's proposal of December 2026 showed an exchange rate of February 2025."""
    assert PRICES["usd_per_eur"].as_of == "2026-02-06"
    assert PRICES["usd_per_eur"].value == pytest.approx(1.1794)


def test_eu_power_is_eurostat_first_half_of_2025() -> None:
    assert PRICES["electricity_usd_per_kwh_eu"].as_of == "2025-H1"
    assert PRICES["electricity_usd_per_kwh_eu"].value == pytest.approx(0.1902 * 1.1794, rel=1e-3)


@pytest.mark.parametrize(
    ("as_of", "months"),
    [("2023-12", 36), ("2023-11", 37), ("2023", 36), ("2023-H1", 42), ("2006-05", 247)],
)
def test_age_counts_from_the_last_month_a_date_stands_for(as_of: str, months: int) -> None:
    assert age_in_months(as_of, PRICE_BOOK_AS_OF) == months


@pytest.mark.parametrize(
    ("currency", "usd", "text", "short"),
    [
        ("USD", 1_234_567, "$1.23 million", "$1.23M"),
        ("EUR", 1_234_567, "€1.05 million", "€1.05M"),
        ("GBP", 1_000, "£736", "£736"),
        ("SEK", 1_000_000, "SEK\u00a09.05 million", "SEK\u00a09.05M"),
    ],
)
def test_one_formatter_writes_dollars_in_the_customers_currency(
    currency: str, usd: float, text: str, short: str
) -> None:
    money = Money(currency, per_usd(currency))
    assert money(usd) == text and money.short(usd) == short


@pytest.mark.parametrize(
    ("answer", "currency", "region"),
    [
        ("Sweden", "SEK", "eu"),
        ("UK and EU only", "GBP", "eu"),
        ("EU only", "EUR", "eu"),
        ("Germany", "EUR", "eu"),
        ("United States", "USD", "north_america"),
        ("data stays with us", "USD", "north_america"),  # "us" is not the United States
        ("Japan", "USD", "north_america"),  # the stated default
    ],
)
def test_the_place_named_sets_the_currency_and_the_price_region(
    answer: str, currency: str, region: str
) -> None:
    place = place_of(answer)
    assert (place.currency, place.region) == (currency, region)


def test_the_stored_exchange_rate_keeps_its_digits():
    # rounding money to the cent rounded the rate too (0.8479 -> 0.85): the PDF's figures then
    # differed from the engine's own sentences (EUR 15.57 million beside 15.53 million)
    example = (
        Path(__file__).resolve().parents[2] / "sizing/engine/examples/insurance_lora_finetune.json"
    )
    result = size_dict(json.loads(example.read_text()))
    assert result["cost"]["currency"]["code"] == "EUR"
    rate = result["cost"]["currency"]["per_usd"]
    assert rate != round(rate, 2)
    assert abs(rate - 1 / 1.1794) < 1e-6
