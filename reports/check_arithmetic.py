"""The proposal checker's arithmetic: what a CFO re-does with a pencil, on the figures as printed.

The template tags what it prints with data attributes, and the checker
(``reports.proposal_check``) collects them from the HTML; this module reads the printed
numbers back ("$1.82 million", "$696,781", "39–130 days", "12.4 TB") and finds:

``figure`` (amounts)
    One thing printed at two precisions that disagree: every element tagged
    ``data-amount="KEY"`` (or ``data-figure="KEY"``) must name the same number within the
    coarser of the two printings ("$1,815,234" agrees with "$1.82 million", not with
    "$1.81 million").
``range``
    A likely range that does not contain its headline: ``data-range-of="KEY"`` beside the
    figure tagged ``KEY`` ("likely $2.1 million to $2.9 million" beside "$1.82 million").
``sum``
    Parts that do not add up, as printed, to their printed total: the cells tagged
    ``data-addend="GROUP"`` against the one tagged ``data-sum="GROUP"`` (a year table's rows and
    columns, a bill of materials' lines: $696,782 against a total of $696,781).
``network``
    A network bought (an element tagged ``data-bought="network"``: network cards, switches,
    cables) while the text says no network between servers is needed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# A number as the proposal prints it: a sign, a currency, digits with thousands separators and
# decimals, then a multiplier word or letter, then a unit.
_AMOUNT = re.compile(
    r"(?P<sign>[−-])?\s*(?P<currency>[$€£]|SEK\s?|kr\s?)?\s*"
    r"(?<![\w.,])(?P<digits>\d[\d,\u202f]*(?:\.\d+)?)"
    r"(?:\s?(?P<mult>billion|million|thousand|[BMk])(?![\w]))?"
    r"(?:\s?(?P<unit>[A-Za-z/]+))?"
)
_MULTIPLIERS = {"billion": 1e9, "B": 1e9, "million": 1e6, "M": 1e6, "thousand": 1e3, "k": 1e3}
# Units one figure may be printed in, as (dimension, factor to the dimension's base).
_UNITS: dict[str, tuple[str, float]] = {
    "PB": ("bytes", 1e15),
    "TB": ("bytes", 1e12),
    "GB": ("bytes", 1e9),
    "MB": ("bytes", 1e6),
    "kB": ("bytes", 1e3),
    "minute": ("time", 60.0),
    "minutes": ("time", 60.0),
    "hour": ("time", 3600.0),
    "hours": ("time", 3600.0),
    "h": ("time", 3600.0),
    "day": ("time", 86400.0),
    "days": ("time", 86400.0),
    "week": ("time", 604800.0),
    "weeks": ("time", 604800.0),
}
# Text that means "nothing": a part the option does not have.
_NOTHING = {"", "—", "–", "-", "none", "nothing"}
# A number may also be a count of something ("312 accelerators"): the noun is no unit to
# convert, and is ignored.


@dataclass(frozen=True)
class Printed:
    """A number as printed: its value in the unit's base, how finely it is printed (half of
    it is the most the printing can be off by), and the dimension of its unit ("" for money and
    counts)."""

    value: float
    step: float
    dimension: str = ""

    def agrees_with(self, other: Printed) -> bool:
        """Whether two printings can be of one number: within half the coarser step."""
        if self.dimension != other.dimension:
            return True  # not comparable: different measures are no contradiction of ours
        slack = max(self.step, other.step) / 2
        return abs(self.value - other.value) <= slack * (1 + 1e-9) + 1e-9


def read_number(text: str) -> Printed | None:
    """The first number in ``text`` as printed ("$1.82 million" → 1,820,000 to the nearest
    10,000), or None when it holds none; "—" reads as nothing printed, i.e. 0."""
    stripped = " ".join(text.split())
    if stripped.lower().strip(".") in _NOTHING:
        return Printed(0.0, 1.0)
    match = _AMOUNT.search(stripped)
    if match is None:
        return None
    digits = match["digits"].replace(",", "").replace("\u202f", "")
    decimals = len(digits.partition(".")[2])
    multiplier = _MULTIPLIERS.get(match["mult"] or "", 1.0)
    dimension, factor = _UNITS.get(match["unit"] or "", ("", 1.0))
    sign = -1.0 if match["sign"] else 1.0
    scale = multiplier * factor
    return Printed(sign * float(digits) * scale, 10.0**-decimals * scale, dimension)


def read_range(text: str) -> tuple[Printed, Printed] | None:
    """Both ends of a range as printed ("$1.2 million to $2.3 million", "39–130 days",
    "$1.20M – $2.30M"); a low end without a unit or scale word takes the high end's ("39–130
    days", "1.2–2.3 million", but not "$600,000 to $2.90 million")."""
    stripped = " ".join(text.split())
    parts = re.split(r"\s+to\s+|\s*[–—]\s*|(?<=\d)-(?=\d)", stripped, maxsplit=1)
    if len(parts) != 2:
        return None
    low_text, high_text = parts
    low_match, high_match = _AMOUNT.search(low_text), _AMOUNT.search(high_text)
    if low_match is None or high_match is None:
        return None
    carried = []
    low_digits = float(low_match["digits"].replace(",", "").replace("\u202f", ""))
    high_digits = float(high_match["digits"].replace(",", "").replace("\u202f", ""))
    if high_match["mult"] and not low_match["mult"] and low_digits <= high_digits:
        carried.append(high_match["mult"])
    if high_match["unit"] and not low_match["unit"]:
        carried.append(high_match["unit"])
    low = read_number(" ".join([low_text, *carried]))
    high = read_number(high_text)
    if low is None or high is None:
        return None
    return low, high


# What a rule reports: (rule, where, text), which the checker turns into its ``Finding``.
Found = tuple[str, str, str]


@dataclass(frozen=True)
class Tagged:
    """What the HTML tags for the arithmetic rules, each with the text shown: amounts (and
    figures) by key, ranges by the key of their headline, addends and sums by group, and the
    lines that buy a network."""

    amounts: Mapping[str, Sequence[str]]
    ranges: Mapping[str, Sequence[str]]
    addends: Mapping[str, Sequence[str]]
    sums: Mapping[str, Sequence[str]]
    bought_network: Sequence[str]


def amount_findings(tagged: Tagged) -> list[Found]:
    """One thing printed at several precisions that disagree ("$1.81M" beside "$1.82 million")."""
    out = []
    for key, texts in tagged.amounts.items():
        numbers = [(t, n) for t in texts if (n := read_number(t)) is not None]
        clash = next(
            (
                (a_text, b_text)
                for i, (a_text, a) in enumerate(numbers)
                for b_text, b in numbers[i + 1 :]
                if not a.agrees_with(b)
            ),
            None,
        )
        if clash:
            out.append(("figure", key, " vs ".join(clash)))
    return out


def range_findings(tagged: Tagged) -> list[Found]:
    """A likely range that does not contain the headline figure it is the range of."""
    out = []
    for key, texts in tagged.ranges.items():
        headlines = [n for t in tagged.amounts.get(key, ()) if (n := read_number(t)) is not None]
        if not headlines:
            continue
        headline = headlines[0]
        for text in texts:
            ends = read_range(text)
            if ends is None:
                continue
            low, high = ends
            slack = max(low.step, high.step, headline.step) / 2 * (1 + 1e-9)
            if low.dimension != headline.dimension:
                continue
            if not low.value - slack <= headline.value <= high.value + slack:
                shown = tagged.amounts[key][0]
                out.append(("range", key, f"{shown} is outside its likely range {text}"))
    return out


def sum_findings(tagged: Tagged) -> list[Found]:
    """Parts that do not add up to their total as printed."""
    out = []
    for group, totals in tagged.sums.items():
        parts = [read_number(t) for t in tagged.addends.get(group, ())]
        if not parts or any(p is None for p in parts):
            continue
        for text in totals:
            total = read_number(text)
            if total is None:
                continue
            added = math.fsum(p.value for p in parts if p is not None)
            steps = [total.step, *(p.step for p in parts if p is not None)]
            if abs(added - total.value) > max(steps) / 2 * (1 + 1e-9) + 1e-6:
                shown = ", ".join(tagged.addends[group])
                out.append(("sum", group, f"{shown} add up to {added:,.2f}, not {text}"))
    return out


# Words that say the servers need no network between them.
NO_NETWORK = re.compile(
    r"\bno (?:fast )?network(?: between servers)? (?:is )?needed\b|\bNo fast network\b"
    r"|\bneeds no (?:network|links) between servers\b|\bno network between servers\b",
    re.IGNORECASE,
)


def network_findings(tagged: Tagged, texts: Iterable[tuple[str, str]]) -> list[Found]:
    """A network bought while the text (``(where, text)`` pairs) says none is needed."""
    if not tagged.bought_network:
        return []
    out = []
    bought = "; ".join(tagged.bought_network)
    for where, text in texts:
        for match in NO_NETWORK.finditer(text):
            out.append(("network", where, f"“{match.group(0)}” but the bill buys {bought[:120]}"))
    return out


def arithmetic_findings(tagged: Tagged, texts: Iterable[tuple[str, str]]) -> list[Found]:
    """Every arithmetic finding of one proposal (module docstring)."""
    return [
        *amount_findings(tagged),
        *range_findings(tagged),
        *sum_findings(tagged),
        *network_findings(tagged, texts),
    ]
