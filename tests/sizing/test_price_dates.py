"""Prices older than a year at the date of the answers are marked as dated (reader finding A10:
a server price of 2024-08 beside cloud prices of 2026-11 in a December 2026 proposal), and each
figure's firmness label fits what kind of figure it is."""

from __future__ import annotations

import datetime

import pytest

from sizing.engine.cost.price_set import dated_note
from sizing.engine.cost.prices import PRICES
from sizing.engine.provenance import ESTIMATE, PUBLISHED_FIGURE

ANSWERED = datetime.date(2026, 12, 3)


@pytest.mark.parametrize(
    ("as_of", "note"),
    [
        ("2024-08", "dated 2024-08, may have moved"),  # the server price the reader saw
        ("2025-02-28", "dated 2025-02, may have moved"),  # the exchange rate
        ("2019-05", "dated 2019-05, may have moved"),  # the staff cost
        ("2024-H1", "dated 2024-H1, may have moved"),
        ("2025-11", "dated 2025-11, may have moved"),  # 13 months
        ("2025-12", ""),  # 12 months: not older than a year
        ("2025", ""),  # may be December 2025: never called older than it surely is
        ("2026-11-09", ""),
        ("undated guide", ""),
    ],
)
def test_a_price_older_than_twelve_months_at_the_answers_is_marked_dated(
    as_of: str, note: str
) -> None:
    assert dated_note(as_of, ANSWERED) == note


@pytest.mark.parametrize("key", ["pue_own_facility", "pue_colocation", "depreciation_years"])
def test_a_figure_that_is_not_a_price_is_not_labelled_a_list_price_or_a_quote(key: str) -> None:
    assert PRICES[key].flag == PUBLISHED_FIGURE


def test_every_figure_without_a_money_unit_is_a_published_figure_or_our_estimate() -> None:
    for key, price in PRICES.items():
        if "USD" not in price.unit:
            assert price.flag in (PUBLISHED_FIGURE, ESTIMATE), key


def test_the_exchange_rate_cites_the_ecb_as_its_publisher_and_says_where_the_copy_came_from() -> (
    None
):
    source = PRICES["usd_per_eur"].source
    assert source.startswith("European Central Bank")
    assert "ecb.europa.eu" in source and "third-party copy" in source
    assert "eurodripusa" not in source
