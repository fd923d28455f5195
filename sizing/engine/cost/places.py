"""Where the hardware runs: the customer's country, the price region of its power and space,
and the currency the proposal is written in, with the one dated exchange-rate table.

The engine prices in US dollars (most sources publish in them; euro figures are converted at
the table's rate).  The country comes from the answer to question 14 (the country the hardware
runs in, else the first country or region the data-residency answer names); its currency is
what the customer reads every amount in: SEK for Sweden, GBP for the UK, EUR for a euro
country, USD for the US.  A country the table does not know is priced at the stated default:
North American power and space, in US dollars.

References
----------
.. [1] European Central Bank, euro foreign exchange reference rates of 6 February 2026
       (``eurofxref.csv`` of that day, https://www.ecb.europa.eu/stats/eurofxref/eurofxref.zip):
       USD 1.1794, GBP 0.86790, SEK 10.6735, CHF 0.9175, NOK 11.4695, DKK 7.4672, PLN 4.2185,
       CZK 24.240, HUF 377.95, RON 5.0920, CAD 1.6118 per euro.  Read from a copy of that
       day's file kept at github.com/hashimminhas/SEB-ETL-HOMEWORK (commit 839075b), not from
       the ECB's page itself.
.. [2] Council of the EU, Bulgaria adopts the euro on 1 January 2026 (the table above has no
       BGN); the 21 euro countries below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

from ..numbers import Money
from ..provenance import EU, NORTH_AMERICA

FX_AS_OF = "2026-02-06"
FX_SOURCE = (
    "European Central Bank, euro foreign exchange reference rates of 6 February 2026 "
    "(eurofxref.csv, ecb.europa.eu/stats/eurofxref); read from a copy of that day's file "
    "(github.com/hashimminhas/SEB-ETL-HOMEWORK, commit 839075b), a third-party copy, not the "
    "ECB page itself"
)
# [currency/EUR] the ECB's reference rates of FX_AS_OF [1]_
PER_EUR = MappingProxyType(
    {
        "EUR": 1.0,
        "USD": 1.1794,
        "GBP": 0.86790,
        "SEK": 10.6735,
        "CHF": 0.9175,
        "NOK": 11.4695,
        "DKK": 7.4672,
        "PLN": 4.2185,
        "CZK": 24.240,
        "HUF": 377.95,
        "RON": 5.0920,
        "CAD": 1.6118,
    }
)


def per_usd(currency: str) -> float:
    """Units of ``currency`` one US dollar buys at the table's date [currency/USD]."""
    return PER_EUR[currency] / PER_EUR["USD"]


@dataclass(frozen=True)
class Place:
    """Where the hardware runs, as the prices and the currency see it."""

    country: str  # ISO 3166-1 alpha-2; "" when only a region (or nothing) is known
    name: str  # "Sweden", "the EU"; "" when nothing is known
    region: str  # price region of power and space: ``EU`` or ``NORTH_AMERICA``
    currency: str  # ISO 4217 code the proposal's amounts are written in


@dataclass(frozen=True)
class CurrencyView:
    """The currency every amount of a proposal is written in (``cost.currency``)."""

    code: str  # ISO 4217: "SEK"
    per_usd: float  # [code/USD] at the table's date
    as_of: str  # date of the exchange rates
    source: str
    country: str  # ISO 3166-1 alpha-2 of the place; "" when none is known
    place: str  # "Sweden", "the EU"; "" when none is known (the stated default)


def currency_view(place: Place) -> CurrencyView:
    """``place``'s currency with its rate from the one table."""
    return CurrencyView(
        code=place.currency,
        per_usd=round(per_usd(place.currency), 6),
        as_of=FX_AS_OF,
        source=FX_SOURCE,
        country=place.country,
        place=place.name,
    )


def money_in(place: Place) -> Money:
    """The formatter of every amount for a site at ``place``."""
    return Money(place.currency, per_usd(place.currency))


DEFAULT_PLACE = Place("", "", NORTH_AMERICA, "USD")
"""The stated default for a country the table does not know (or none given): North American
power and space, the reference region of most sources, in US dollars."""

_EURO = (
    ("AT", "Austria", "AUSTRIA"),
    ("BE", "Belgium", "BELGIUM"),
    ("BG", "Bulgaria", "BULGARIA"),
    ("HR", "Croatia", "CROATIA"),
    ("CY", "Cyprus", "CYPRUS"),
    ("EE", "Estonia", "ESTONIA"),
    ("FI", "Finland", "FINLAND"),
    ("FR", "France", "FRANCE"),
    ("DE", "Germany", "GERMANY|DEUTSCHLAND"),
    ("GR", "Greece", "GREECE"),
    ("IE", "Ireland", "IRELAND"),
    ("IT", "Italy", "ITALY"),
    ("LV", "Latvia", "LATVIA"),
    ("LT", "Lithuania", "LITHUANIA"),
    ("LU", "Luxembourg", "LUXEMBOURG"),
    ("MT", "Malta", "MALTA"),
    ("NL", "the Netherlands", "NETHERLANDS|HOLLAND"),
    ("PT", "Portugal", "PORTUGAL"),
    ("SK", "Slovakia", "SLOVAKIA"),
    ("SI", "Slovenia", "SLOVENIA"),
    ("ES", "Spain", "SPAIN"),
)
_OTHERS = (
    # (code, name, words, price region, currency)
    ("SE", "Sweden", "SWEDEN|SVERIGE", EU, "SEK"),
    ("GB", "the United Kingdom", "UK|GB|UNITED KINGDOM|BRITAIN|ENGLAND|SCOTLAND|WALES", EU, "GBP"),
    ("CH", "Switzerland", "SWITZERLAND", EU, "CHF"),
    ("NO", "Norway", "NORWAY|NORGE", EU, "NOK"),
    ("DK", "Denmark", "DENMARK", EU, "DKK"),
    ("IS", "Iceland", "ICELAND", EU, "EUR"),  # no ISK rate in the table: euros, stated
    ("PL", "Poland", "POLAND", EU, "PLN"),
    ("CZ", "Czechia", "CZECHIA|CZECH", EU, "CZK"),
    ("HU", "Hungary", "HUNGARY", EU, "HUF"),
    ("RO", "Romania", "ROMANIA", EU, "RON"),
    ("US", "the United States", "US|USA|U\\.S\\.|UNITED STATES|AMERICA", NORTH_AMERICA, "USD"),
    ("CA", "Canada", "CANADA", NORTH_AMERICA, "CAD"),
)
# A region named without a country: priced in that region, in its main currency.
_REGIONS = (("", "the EU", "EU|EEA|EUROPE|EUROPEAN UNION|EUROPEAN|EUROZONE", EU, "EUR"),)

_TABLE: tuple[tuple[re.Pattern[str], Place], ...] = tuple(
    (re.compile(rf"\b(?:{words})\b"), Place(code, name, region, currency))
    for code, name, words, region, currency in (
        *((code, name, words, EU, "EUR") for code, name, words in _EURO),
        *_OTHERS,
        *_REGIONS,
    )
)
# Two-letter codes only count in capitals ("US", not "us" in "send it to us").
_SHORT_CODES = frozenset({"US", "UK", "GB", "EU", "EEA"})


def place_of(*answers: str | None) -> Place:
    """The place the first of ``answers`` that names one names (the earliest mention in that
    answer wins: "UK and EU only" → the United Kingdom); :data:`DEFAULT_PLACE` otherwise."""
    for answer in answers:
        if not answer:
            continue
        upper = answer.upper()
        found: list[tuple[int, Place]] = []
        for pattern, place in _TABLE:
            for match in pattern.finditer(upper):
                written = answer[match.start() : match.end()]
                if match.group(0) in _SHORT_CODES and written != match.group(0):
                    continue  # "us" in a sentence is not the United States
                found.append((match.start(), place))
                break
        if found:
            return min(found, key=lambda pair: pair[0])[1]
    return DEFAULT_PLACE
