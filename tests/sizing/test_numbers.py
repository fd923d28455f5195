"""Ranges read the way people say them: two significant digits, the scale word and unit once."""

from __future__ import annotations

import pytest

from sizing.engine.numbers import format_money_range, format_range


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
