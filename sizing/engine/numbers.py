"""The one number formatter: counts, money, quantities and shares, the way people read them.

The engine's own sentences (drivers, the text summary), the questionnaire's review page, the
proposal, its charts and the staff pages all format numbers here, so "70B", "70 billion" and
"$1.20 million" are spelled the same wherever they appear.

References
----------
.. [1] BIPM, The International System of Units (SI Brochure), 9th edition (2019), sec. 5.4.7:
       a space between a number and the percent sign ("46 %").
.. [2] M. L. Balinski and H. P. Young, Fair Representation, Yale University Press (1982):
       Hamilton's method of largest remainders, which :func:`round_to_add_up` applies to money
       so that rounded parts add up to their rounded total.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# (threshold, short suffix, word): 7.5e9 → "7.5B" or "7.5 billion".
_SCALES = ((1e12, "T", "trillion"), (1e9, "B", "billion"), (1e6, "M", "million"))
# From here on a plain number is written in powers of ten (FLOPs run to 10²⁵).
_SCIENTIFIC_FROM = 1e15
_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# Below this a throughput reads better in MB/s than in GB/s (0.653 GB/s → 653 MB/s).
_SLOW_GB_PER_S = 1.0
NO_VALUE = "—"


def format_count(value: float, *, short: bool = False, digits: int = 3) -> str:
    """A count as people say it: ``7.5e9`` → "7.5 billion" (``short``: "7.5B"); ``4096`` →
    "4,096"; ``0.457`` → "0.457". ``digits`` is the number of significant digits kept."""
    magnitude = abs(value)
    for scale, suffix, word in _SCALES:
        if magnitude >= scale:
            scaled = f"{value / scale:,.{digits}g}"
            return f"{scaled}{suffix}" if short else f"{scaled} {word}"
    if float(value).is_integer():
        return f"{int(value):,}"
    if magnitude >= 100:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def _two_digits(value: float) -> float:
    """``value`` to two significant digits: the ends of a range are no more precise than that."""
    return float(f"{value:.2g}")


def format_range(low: float, high: float, unit: str = "", *, prefix: str = "") -> str:
    """A range to two significant digits, its scale word and unit said once: "9.1–16 days",
    "53,000–79,000", "1.2–2.5 million"; whole counts below 10,000 exactly ("80–112
    accelerators"). ``prefix`` goes before each number ("$850,000–$1.2 million")."""
    if not (float(low).is_integer() and float(high).is_integer() and high < 1e4):
        low, high = _two_digits(low), _two_digits(high)
    start, end = format_count(low, digits=2), format_count(high, digits=2)
    _number, space, word = end.partition(" ")
    if space and start.endswith(f" {word}"):
        return f"{prefix}{start.removesuffix(f' {word}')}–{end} {unit}".strip()
    return f"{prefix}{start}–{prefix}{end} {unit}".strip()


def format_money_range(low: float, high: float, *, currency: str = "USD") -> str:
    """Money from ``low`` to ``high``: "$370,000–$540,000", "$1.2–2.6 million"."""
    return format_range(low, high, prefix=currency_sign(currency))


def format_decimal(value: float, *, places: int = 2) -> str:
    """A measured value with at most ``places`` decimals and no trailing zeros: ``512.50`` →
    "512.5", ``2.0`` → "2", ``1234.567`` → "1,234.57"."""
    return f"{value:,.{places}f}".rstrip("0").rstrip(".")


def format_number(value: object) -> str:
    """Any figure of a result: counts in words, very large numbers in powers of ten, yes/no for
    booleans, "—" for a missing value, text as it is (``2.5e21`` → "2.5 × 10²¹")."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return NO_VALUE
    if not isinstance(value, int | float):
        return str(value)
    if abs(value) >= _SCIENTIFIC_FROM:
        mantissa, exponent = f"{value:.3e}".split("e")
        return f"{float(mantissa):.3g} × 10{str(int(exponent)).translate(_SUPERSCRIPTS)}"
    return format_count(value)


# The currencies whose sign people read before the figure; any other is written with its ISO
# code and a space ("SEK 12.40 million", as Swedish business English writes it).
_CURRENCY_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}


def currency_sign(currency: str) -> str:
    """What stands before an amount: "$", "€", "£", or the code and a no-break space ("SEK "),
    so a line never breaks between the code and its figure."""
    return _CURRENCY_SIGNS.get(currency, f"{currency}\u00a0")


def format_money(value: float | None, *, currency: str = "USD") -> str:
    """Money for a sentence or a total, ``value`` already in ``currency``: "$850,000",
    "$14.70 million", "€13.90 million", "SEK 128.40 million"."""
    if value is None:
        return NO_VALUE
    sign = currency_sign(currency)
    amount = float(value)
    if abs(amount) >= 1e9:
        return f"{sign}{amount / 1e9:,.2f} billion"
    if abs(amount) >= 1e6:
        return f"{sign}{amount / 1e6:,.2f} million"
    return f"{sign}{amount:,.0f}"


def format_money_short(value: float | None, *, currency: str = "USD") -> str:
    """Money for a narrow table cell or a chart, rounded as :func:`format_money` rounds
    (one rule per document): "$14.70M", "$850,000", "SEK 7.70M"."""
    if value is None:
        return NO_VALUE
    sign = currency_sign(currency)
    amount = float(value)
    for limit, suffix in ((1e9, "B"), (1e6, "M")):
        if abs(amount) >= limit:
            return f"{sign}{amount / limit:,.2f}{suffix}"
    return f"{sign}{amount:,.0f}"


@dataclass(frozen=True)
class Money:
    """Amounts the engine works out in US dollars, written in the customer's currency: every
    amount of one proposal goes through one of these, so a figure can never appear in two
    currencies.  ``per_usd`` [currency/USD] is the dated rate of
    :mod:`sizing.engine.cost.places`."""

    currency: str = "USD"
    per_usd: float = 1.0

    def local(self, usd: float) -> float:
        """``usd`` in this currency [currency]."""
        return float(usd) * self.per_usd

    def __call__(self, usd: float | None) -> str:
        """ "$14.70 million", "SEK 133.03 million"; "—" when missing."""
        return NO_VALUE if usd is None else format_money(self.local(usd), currency=self.currency)

    def short(self, usd: float | None) -> str:
        """ "$14.70M", "SEK 133.03M"; "—" when missing."""
        return (
            NO_VALUE if usd is None else format_money_short(self.local(usd), currency=self.currency)
        )

    def range(self, low_usd: float, high_usd: float) -> str:
        """ "$1.2–2.6 million", "SEK 11–24 million"."""
        return format_money_range(self.local(low_usd), self.local(high_usd), currency=self.currency)

    def rate(self, usd: float) -> str:
        """A price per hour or per unit with cents: "$3.99", "SEK 36.11"."""
        return f"{currency_sign(self.currency)}{self.local(usd):,.2f}"


USD = Money()


def money_step(value: float) -> float:
    """The step :func:`format_money` rounds ``value`` to [USD]: $10 million from a billion,
    $10,000 from a million, a dollar below."""
    amount = abs(value)
    if amount >= 1e9:
        return 1e7
    if amount >= 1e6:
        return 1e4
    return 1.0


def round_to_add_up(
    amounts: Sequence[float], step: float, *, total: float | None = None
) -> tuple[float, ...]:
    """``amounts`` rounded to multiples of ``step`` so that they add up to their sum rounded
    the same way, or to ``total`` rounded so when given and within reach (no amount moves by a
    step or more: a total stored apart from its parts may differ from their sum by its own
    rounding) (largest remainder: each is rounded down, and the steps left over go to those
    that lost most) [USD]."""
    units = [a / step for a in amounts]
    floors = [math.floor(u) for u in units]
    target = round(math.fsum(amounts) / step)
    if total is not None and sum(floors) <= round(total / step) <= sum(floors) + len(units):
        target = round(total / step)
    left = target - sum(floors)
    # most lost first; of equal losses, an amount with no equal beside it first, so a flat
    # cost stays flat where it can ($1,310,118 twice, not $1,310,119 then $1,310,118)
    twins = [sum(1 for b in amounts if math.isclose(a, b)) for a in amounts]
    order = sorted(range(len(units)), key=lambda i: (round(floors[i] - units[i], 9), twins[i], i))
    for i in order[: max(0, left)]:
        floors[i] += 1
    return tuple(f * step for f in floors)


def table_money_step(total: float) -> float:
    """The step a table whose figures must add up as printed rounds to [USD]: the dollar, or
    $10 million from a billion, where a figure to the dollar no longer fits its column."""
    return 1.0 if abs(total) < 1e9 else 1e7


def format_table_money(value: float, step: float, *, currency: str = "USD") -> str:
    """A figure of such a table, ``value`` already in ``currency``, rounded to ``step``
    (:func:`table_money_step`): "$1,815,234", "€1,815,234", "$223.94B"."""
    if step <= 1:
        return format_dollars(value, currency=currency)
    # to the step's own precision (0.01 billion for $10 million), so "$0.88B" never claims the
    # precision of "$880.00M" beside a headline of $875.51 million
    digits = max(0, round(-math.log10(step / 1e9)))
    sign = currency_sign(currency)
    billions = float(value) / 1e9
    text = f"{sign}{abs(billions):,.{digits}f}B"
    return f"−{text}" if billions < 0 else text


def format_dollars(value: float, *, currency: str = "USD") -> str:
    """Money to the unit whatever the size, for a table whose figures must add up as printed
    (a year table, a bill of materials): "$1,815,234", "−$450,000", "SEK 1,815,234"."""
    amount = round(float(value))
    sign = currency_sign(currency)
    return f"−{sign}{-amount:,}" if amount < 0 else f"{sign}{amount:,}"


def format_percent(fraction: float, *, digits: int = 0) -> str:
    """A share given as a fraction: ``0.457`` → "46 %"."""
    return f"{fraction * 100:.{digits}f} %"


def format_small_percent(fraction: float) -> str:
    """A share that may be tiny: ``0.057`` → "6 %", ``0.001`` → "less than 1 %" (never "0 %"
    for something that is not nothing)."""
    return format_percent(fraction) if fraction >= 0.005 or fraction == 0 else "less than 1 %"


# A quantity in one unit → the next smaller unit and its factor, for values below one
# ("0.012 TB" → "12 GB"), and the next larger one, for ten thousand or more ("12,400 GB").
_SMALLER = {
    "TB": ("GB", 1000.0),
    "GB": ("MB", 1000.0),
    "MB": ("kB", 1000.0),
    "MB/s": ("kB/s", 1000.0),
}
_LARGER = {
    "GB": ("TB", 1000.0),
    "MB/s": ("GB/s", 1000.0),
    "GB/s": ("TB/s", 1000.0),
    "MB": ("GB", 1000.0),
}


def format_quantity(value: object, unit: str) -> str:
    """A figure with its unit, in the unit that keeps it readable: "1,200 GB", "2.09 MB/s"
    (not "0.00209 GB/s"), "12 GB" (not "0.012 TB"), "12.4 TB" (not "12,400 GB"), "57 minutes"
    (not "0.948 h"), "$1.20 million"; "—" when missing."""
    if value is None:
        return NO_VALUE
    if not isinstance(value, int | float) or isinstance(value, bool):
        return f"{format_number(value)} {unit}".strip()
    if unit == "USD":
        return format_money(value)  # an engine figure in dollars; proposals use ``Money``
    if unit in ("h", "hours"):
        return format_hours(value)
    if unit in ("d", "days"):
        return format_days(value)  # "24 hours", never "1 days"
    if unit == "GB/s" and 0 < value < _SLOW_GB_PER_S:
        unit, value = "MB/s", value * 1000
    while unit in _SMALLER and 0 < abs(value) < 1:
        unit, factor = _SMALLER[unit]
        value *= factor
    if unit in _LARGER and abs(value) >= 1e4:
        unit, factor = _LARGER[unit]
        value /= factor
    return f"{format_number(value)} {unit}".strip()


def format_hours(hours: float) -> str:
    """A duration given in hours, in the unit people use: "57 minutes", "12 hours", "2.5 days"
    (from 48 hours)."""
    if 0 < hours < 1:
        minutes = round(hours * 60)
        if minutes == 0:
            return "under a minute"  # never "0 minutes" for something that is not nothing
        return "1 minute" if minutes == 1 else f"{format_count(minutes)} minutes"
    if hours >= 48:
        return f"{format_count(round(hours / 24, 1))} days"
    rounded = round(hours, 1)
    return "1 hour" if rounded == 1 else f"{format_count(rounded)} hours"


def format_days(days: float) -> str:
    """A duration given in days: "20.5 days", "10 hours" (below a day)."""
    return format_hours(days * 24) if days < 2 else f"{format_count(days)} days"


def format_days_range(low: float, high: float) -> str:
    """A range of days, in hours when it starts below a day and in minutes when it ends below
    two hours: "15–24 days", "3.8–26 hours", "16–62 minutes"."""
    if high * 24 < 2:
        return format_range(low * 24 * 60, high * 24 * 60, "minutes")
    if low < 1:
        return format_range(low * 24, high * 24, "hours")
    return format_range(low, high, "days")


def noun_for_count(count: float, singular: str, plural: str | None = None) -> str:
    """The noun that agrees with ``count``, for the engine's own sentences: 1 → "run", any
    other count (0, fractions, 2 …) → "runs" (``plural``, else the singular with "s").

    The engine imports no Django, so it cannot ask ``ngettext``; every other surface says a
    count and its noun through ``sizing.words.plural.count_of``, which does. One rule here, so
    no engine sentence adds an "s" by hand (``tests/sizing/words/test_no_hand_plurals.py``).
    """
    return singular if count == 1 else (plural or f"{singular}s")


def format_times(count: float, noun: str, per: str) -> str:
    """How often something happens, readable at any rate: (3.03, "interruption", "run") →
    "about 3 interruptions per run"; (0.00785, …) → "about one interruption every 127 runs";
    (0.9, "run", "month") → "about one run every 1.1 months"."""
    if count >= 1:
        whole = round(count) if count >= 1.5 else 1
        return f"about {format_count(whole)} {noun_for_count(whole, noun)} per {per}"
    if count <= 0:
        return f"no {noun}s expected per {per}"
    every = 1 / count
    if every >= 1e6:  # also guards against an infinite quotient of a denormal count
        return f"fewer than one {noun} in a million {per}s"
    if round(every, 1) == 1:  # 0.96 a month reads "about 1 run per month", never "every 1 months"
        return f"about 1 {noun} per {per}"
    every_text = format_count(round(every)) if every >= 10 else format_count(round(every, 1))
    return f"about one {noun} every {every_text} {per}s"
