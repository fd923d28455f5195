"""Ranges read the way people say them: two significant digits, the scale word and unit once."""

from __future__ import annotations

import pytest

from sizing.engine.numbers import (
    format_hours,
    format_money,
    format_money_range,
    format_money_short,
    format_quantity,
    format_range,
    format_times,
    round_to_add_up,
)


@pytest.mark.parametrize(
    ("low", "high", "unit", "text"),
    [
        (23.0297, 34.2333, "days", "23–34 days"),
        (0.172564, 1.11331, "days", "0.17–1.1 days"),
        (53060.3, 78873.4, "", "53,000–79,000"),
        (1.23e6, 2.46e6, "", "1.2–2.5 million"),
        (850_000.0, 1.2e6, "", "850,000–1.2 million"),
        (80, 112, "accelerators", "80–112 accelerators"),  # whole counts stay exact
    ],
)
def test_a_range_keeps_two_digits_and_says_its_unit_once(
    low: float, high: float, unit: str, text: str
) -> None:
    assert format_range(low, high, unit) == text


def test_a_money_range_puts_the_dollar_sign_on_each_end() -> None:
    assert format_money_range(365_055.0, 542_649.0) == "$370,000–$540,000"
    assert format_money_range(1.234e6, 2.6e6) == "$1.2–2.6 million"
    assert format_money_range(850_000.0, 1.2e6) == "$850,000–$1.2 million"


@pytest.mark.parametrize("amount", [16_043_512.0, 26_081_234.0, 4_500_000.0, 519_771.0, 6.4])
def test_a_short_money_figure_is_rounded_as_the_sentences_round_it(amount: float) -> None:
    """Reader finding A7: "$26.08 million", "$26.1M" and "$16M" (not $16.04M) for one plan."""
    words = format_money(amount).replace(" million", "M").replace(" billion", "B")
    assert format_money_short(amount) == words


@pytest.mark.parametrize(
    ("amounts", "step", "shown"),
    [
        ((4.4, 4.5), 1.0, (4.0, 5.0)),  # LoRA's storage: "$4 | $4 | $9" did not add up
        ((5.6, 5.6, 10.8), 1.0, (6.0, 5.0, 11.0)),
        ((13_494_000.0, 0.0, 3_958_000.0), 1e4, (13_490_000.0, 0.0, 3_960_000.0)),
    ],
)
def test_rounded_parts_add_up_to_their_rounded_sum(
    amounts: tuple[float, ...], step: float, shown: tuple[float, ...]
) -> None:
    assert round_to_add_up(amounts, step) == pytest.approx(shown)
    assert sum(round_to_add_up(amounts, step)) == pytest.approx(round(sum(amounts) / step) * step)


@pytest.mark.parametrize(
    ("hours", "text"),
    [(0.001, "under a minute"), (1 / 60, "1 minute"), (0.5, "30 minutes"), (12, "12 hours")],
)
def test_a_short_duration_is_never_zero_minutes(hours: float, text: str) -> None:
    # reader finding A13: "Time lost to interruptions per run 0 minutes"
    assert format_hours(hours) == text


def test_a_time_in_days_reads_as_people_say_it():
    # the game studio's "Time you allow for one run: 1 days" failed the proposal's plural check
    assert format_quantity(1, "days") == "24 hours"
    assert format_quantity(21, "days") == "21 days"
    assert format_quantity(0.5, "d") == "12 hours"


def test_a_rate_just_below_one_reads_as_about_one_never_every_1_months() -> None:
    # found by the generated proposals: 0.97 runs a month read "about one run every 1 months"
    assert format_times(0.97, "run", "month") == "about 1 run per month"
    assert format_times(0.9, "run", "month") == "about one run every 1.1 months"
