"""Numbers the way people write them: ``70B``, ``7.5 billion``, ``1.2T tokens``, ``2 TB``.

Each *kind* of quantity has its own vocabulary, because the same letter means different things
in different places: ``70B`` parameters is seventy billion, ``500 MB`` is megabytes, ``90m`` of
wall-clock time is ninety minutes, and ``4k`` context is 4,096 tokens (sequence lengths are
powers of two in every framework, so ``4k``/``8k``/``32k`` there mean 4,096/8,192/32,768).

Every parser returns a :class:`Quantity` whose ``value`` is in the kind's base unit (named in
:data:`BASE_UNITS`) or ``None`` when the customer left the field empty or wrote that they are not
sure. Anything that cannot be understood raises :class:`QuantityError` with a message written for
the customer, to be shown next to the field.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum

from sizing.public import (
    format_count,
    format_decimal,
)


class Kind(StrEnum):
    COUNT = "count"  # parameters, tokens, samples, experiments [1]
    CONTEXT = "context"  # sequence length [tokens]; k = 1,024
    DATA = "data"  # a count with a noun (tokens/samples) or a size in bytes
    SIZE = "size"  # storage or memory [GB]
    DURATION = "duration"  # wall-clock time [hours]
    RATE = "rate"  # read or write bandwidth [GB/s]
    LINK = "link"  # network link speed [Gbit/s]
    PERCENT = "percent"  # a share or a yearly growth [%]
    POWER = "power"  # electrical power [kW]
    MONEY = "money"  # an amount in US dollars [USD]


BASE_UNITS: dict[Kind, str] = {
    Kind.COUNT: "",
    Kind.CONTEXT: "tokens",
    Kind.DATA: "",
    Kind.SIZE: "GB",
    Kind.DURATION: "hours",
    Kind.RATE: "GB/s",
    Kind.LINK: "Gbit/s",
    Kind.PERCENT: "%",
    Kind.POWER: "kW",
    Kind.MONEY: "USD",
}


class QuantityError(ValueError):
    """A value the customer typed that we cannot use; ``str()`` is the message for them."""


@dataclass(frozen=True)
class Quantity:
    """What the customer typed, and what we understood.

    ``unit`` is set when the text itself says what it counts: ``"tokens"`` or ``"samples"``
    (``1.2T tokens``, ``400,000 documents``) or, for :attr:`Kind.DATA`, ``"gb"`` (``2 TB``).
    """

    text: str
    value: float | None
    unit: str | None = None


_NOT_SURE = {
    "?",
    "??",
    "-",
    "n/a",
    "na",
    "tbd",
    "unknown",
    "not sure",
    "not sure yet",
    "dont know",
    "don't know",
    "do not know",
    "no idea",
    "idk",
}
# Words people put in front of a number that do not change it.
_HEDGES = re.compile(
    r"^(about|around|approx\.?|approximately|roughly|circa|ca\.?|~|≈|up to|max\.?)\s*"
)
_NUMBER = re.compile(
    r"^(?P<sign>[-+−])?\s*(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:[eE](?P<exp>[-+]?\d+))?\s*(?P<rest>.*)$"
)
# "8-16 GPUs", "1.2 to 2T"; not an exponent such as "1e-400" (a number, if a tiny one).
_RANGE = re.compile(r"^\d[\d.,]*(?![\d.,]|e[-+]?\d)\s*[a-z]*\s*(-|–|to)\s*\d")

_SCALE = {
    "": 1.0,
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "mio": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "t": 1e12,
    "tn": 1e12,
    "trillion": 1e12,
    "trillions": 1e12,
}
_COUNT_NOUNS = {
    "tokens": "tokens",
    "token": "tokens",
    "tok": "tokens",
    "samples": "samples",
    "sample": "samples",
    "examples": "samples",
    "documents": "samples",
    "docs": "samples",
    "images": "samples",
    "clips": "samples",
    "videos": "samples",
    "files": "samples",
    "records": "samples",
    "rows": "samples",
    "sequences": "samples",
    "parameters": "",
    "params": "",
    "experiments": "",
    "runs": "",
    "jobs": "",
    "people": "",
    "teams": "",
    "threads": "",
    "cores": "",
    "nodes": "",
    "gpus": "",
}
# Decimal storage units, as drive and cloud vendors quote them [GB = 10^9 bytes]; binary units
# (GiB) are converted, since people paste them from tools like ``df -h``.
_BYTES_IN_GB = {
    "b": 1e-9,
    "bytes": 1e-9,
    "kb": 1e-6,
    "mb": 1e-3,
    "gb": 1.0,
    "tb": 1e3,
    "pb": 1e6,
    "kib": 1024 / 1e9,
    "mib": 1024**2 / 1e9,
    "gib": 1024**3 / 1e9,
    "tib": 1024**4 / 1e9,
    "pib": 1024**5 / 1e9,
    "kilobytes": 1e-6,
    "megabytes": 1e-3,
    "gigabytes": 1.0,
    "terabytes": 1e3,
    "petabytes": 1e6,
}
_HOURS = {
    "s": 1 / 3600,
    "sec": 1 / 3600,
    "secs": 1 / 3600,
    "second": 1 / 3600,
    "seconds": 1 / 3600,
    "m": 1 / 60,
    "min": 1 / 60,
    "mins": 1 / 60,
    "minute": 1 / 60,
    "minutes": 1 / 60,
    "h": 1.0,
    "hr": 1.0,
    "hrs": 1.0,
    "hour": 1.0,
    "hours": 1.0,
    "d": 24.0,
    "day": 24.0,
    "days": 24.0,
    "w": 168.0,
    "wk": 168.0,
    "week": 168.0,
    "weeks": 168.0,
    "month": 730.0,  # an average month: 8,760 hours a year / 12
    "months": 730.0,
}
_GB_PER_S = {
    "gb/s": 1.0,
    "gbps": 1.0,
    "gbyte/s": 1.0,
    "mb/s": 1e-3,
    "mbps": 1e-3,
    "tb/s": 1e3,
    "gib/s": 1024**3 / 1e9,
    "mib/s": 1024**2 / 1e9,
}
_KW = {
    "kw": 1.0,
    "kilowatt": 1.0,
    "kilowatts": 1.0,
    "mw": 1e3,
    "megawatt": 1e3,
    "megawatts": 1e3,
    "w": 1e-3,
    "watts": 1e-3,
}
_MONEY = re.compile(r"^(?P<scale>[a-z]*)\s*(usd|us\$|\$|dollars?)?$")
# Network speeds are quoted in bits: "400G", "400 Gb/s", "400 Gbit/s", "100GbE".
_GBIT_PER_S = {
    "g": 1.0,
    "gb/s": 1.0,
    "gbit/s": 1.0,
    "gbit": 1.0,
    "gbps": 1.0,
    "gbe": 1.0,
    "gige": 1.0,
    "t": 1e3,
    "tb/s": 1e3,
    "tbit/s": 1e3,
    "m": 1e-3,
    "mbit/s": 1e-3,
    "mb/s": 1e-3,
    "mbps": 1e-3,
}


def parse_quantity(
    text: str,
    kind: Kind,
    *,
    default_unit: str = "",
    what: str = "this",
    allow_zero: bool = False,
    maximum: float | None = None,
    whole: bool = False,
    minimum: float | None = None,
) -> Quantity:
    """Understand one typed value of the given kind.

    ``default_unit`` applies to a bare number (``"12"`` with ``default_unit="days"`` is 288
    hours). ``what`` names the field in messages ("Total parameters must be more than 0").
    ``maximum`` and ``minimum`` are in the base unit (below ``minimum`` the customer most
    likely left out a scale word, and is asked which they meant); ``whole`` demands an integer.
    Number words ("seventy billion") and everyday durations ("overnight", "a few weeks") are
    understood; "asap" is not a duration and counts as not sure.
    """
    raw = text
    cleaned = " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split()).lower()
    if not cleaned or cleaned.rstrip(".!") in _NOT_SURE:
        return Quantity(raw, None)
    cleaned = _HEDGES.sub("", cleaned).strip()
    if kind is Kind.DURATION:
        words = cleaned.rstrip(".!")
        if words in _AS_SOON_AS_POSSIBLE:
            return Quantity(raw, None)
        cleaned = _EVERYDAY_DURATIONS.get(words, cleaned)
    if kind is Kind.MONEY:  # "$40 million", "USD 2M"
        cleaned = re.sub(r"^(us\$|usd|\$)\s*", "", cleaned)
    cleaned = _digits_for_number_words(cleaned)
    if _RANGE.match(cleaned):
        raise QuantityError(
            f"Enter one number for {what}, not a range. Give the larger number and add the range "
            "in the notes."
        )
    match = _NUMBER.match(cleaned)
    if not match:
        raise QuantityError(
            f"We did not understand “{raw.strip()}”. Enter {what} as a number, "
            f"for example {_EXAMPLES[kind]}"
        )
    digits = match["digits"].replace(",", "")
    # float() of the whole literal turns an absurd exponent into inf instead of an exception.
    number = float(f"{digits}e{match['exp']}" if match["exp"] else digits)
    if match["sign"] in ("-", "−"):
        number = -number
    rest = match["rest"].strip().rstrip(".")
    try:
        factor, unit = _unit_factor(kind, rest, default_unit, what)
    except QuantityError as error:  # quote all they typed, not the fragment after the number
        raise QuantityError(
            str(error).replace(f"understand “{rest}”", f"understand “{raw.strip()}”")
        ) from None
    value = number * factor
    if not math.isfinite(value):
        raise QuantityError(f"{_cap(what)} is too large. Check the number.")
    if value < 0:
        raise QuantityError(f"{_cap(what)} cannot be negative.")
    if value == 0 and not allow_zero:
        raise QuantityError(f"{_cap(what)} must be more than 0.")
    if maximum is not None and value > maximum:
        raise QuantityError(
            f"{_cap(what)} looks too large (more than {describe(maximum, kind)}). "
            "Check the number and its unit."
        )
    if minimum is not None and 0 < value < minimum and unit != "gb":
        raise QuantityError(_too_small(raw.strip(), value, kind, what, minimum, maximum))
    if whole:
        if value != int(value):
            raise QuantityError(f"{_cap(what)} must be a whole number.")
        return Quantity(raw, int(value), unit)
    # Whole values are stored as integers so that 32,000 reads back as 32000, not 32000.0.
    stored: float = int(value) if value == int(value) and abs(value) < 2**53 else value
    return Quantity(raw, stored, unit)


def _too_small(
    typed: str, value: float, kind: Kind, what: str, minimum: float, maximum: float | None
) -> str:
    """The message for a value below ``minimum``: the scale word they most likely left out."""
    for word, scale in (("billion", 1e9), ("million", 1e6), ("trillion", 1e12)):
        if minimum <= value * scale and (maximum is None or value * scale <= maximum):
            return (
                f"{describe(value, kind)} is very small for {what}. "
                f"Did you mean {format_count(value * scale, digits=5)}? "
                f"Write it as {typed}{word[0].upper()} or {typed} {word}."
            )
    return f"{_cap(what)} looks too small. Check the number and its unit."


# Everyday words for how long something takes, as question 5's help suggests them.
_EVERYDAY_DURATIONS = {
    "overnight": "12 hours",
    "over night": "12 hours",
    "an hour": "1 hour",
    "a day": "1 day",
    "a weekend": "2 days",
    "over a weekend": "2 days",
    "over the weekend": "2 days",
    "a couple of days": "2 days",
    "a few days": "3 days",
    "a week": "1 week",
    "a couple of weeks": "2 weeks",
    "a few weeks": "3 weeks",
    "a month": "1 month",
    "a couple of months": "2 months",
    "a few months": "3 months",
}
_AS_SOON_AS_POSSIBLE = {"asap", "as soon as possible", "urgent", "yesterday"}
UNITS_WORDS = {
    "zero": 0,
    "one": 1,
    "a": 1,
    "an": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS_WORDS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_NUMBER_WORDS = re.compile(
    r"^(?:(?P<hundreds>[a-z]+)[ -]hundred(?:[ -]and)?[ -]?)?"
    r"(?P<tens>" + "|".join(_TENS_WORDS) + r")?[ -]?(?P<units>[a-z]+)?(?=\s|$)(?P<rest>.*)$"
)


def _digits_for_number_words(text: str) -> str:
    """``"seventy-five billion"`` → ``"75 billion"``; text that does not start with a number
    word (up to 999) is returned as it was."""
    match = _NUMBER_WORDS.match(text)
    if not match or not any(match.group("hundreds", "tens", "units")):
        return text
    hundreds, tens, units = match.group("hundreds", "tens", "units")
    if units and units not in UNITS_WORDS:
        if tens or hundreds:  # "seventy billion": the word after the tens is the scale
            rest = f"{units}{match['rest']}"
            units = None
        else:
            return text
    else:
        rest = match["rest"]
    if hundreds and hundreds not in UNITS_WORDS:
        return text
    number = (UNITS_WORDS[hundreds] * 100 if hundreds else 0) + (_TENS_WORDS[tens] if tens else 0)
    number += UNITS_WORDS[units] if units else 0
    if hundreds and not tens and not units:
        number = UNITS_WORDS[hundreds] * 100
    return f"{number}{(' ' + rest.strip()) if rest.strip() else ''}"


_EXAMPLES = {
    Kind.COUNT: "70B, 7.5 billion, 350M or 32,000.",
    Kind.CONTEXT: "4096, 4k or 32k.",
    Kind.DATA: "1.2T tokens, 400,000 samples or 2 TB.",
    Kind.SIZE: "500 GB or 2 TB.",
    Kind.DURATION: "12 hours, 3 days or 2 weeks.",
    Kind.POWER: "2 MW or 40 kW.",
    Kind.MONEY: "$40 million or $250,000.",
    Kind.RATE: "5 GB/s or 800 MB/s.",
    Kind.LINK: "200 Gb/s or 400G.",
    Kind.PERCENT: "30 %.",
}


def _unit_factor(kind: Kind, rest: str, default_unit: str, what: str) -> tuple[float, str | None]:
    """Return (multiplier to the base unit, detected data unit) for the text after the number."""
    squashed = rest.replace(" ", "")
    if kind is Kind.PERCENT:
        if rest in ("", "%", "percent", "per cent", "pct"):
            return 1.0, None
        raise QuantityError(f"Enter {what} as a percentage, for example 30 %.")
    if kind is Kind.SIZE:
        return _lookup(_BYTES_IN_GB, squashed or default_unit.lower(), kind, what), None
    if kind is Kind.DURATION:
        return _lookup(_HOURS, rest or default_unit, kind, what), None
    if kind is Kind.RATE:
        return _lookup(_GB_PER_S, squashed or default_unit.lower(), kind, what), None
    if kind is Kind.LINK:
        return _lookup(_GBIT_PER_S, squashed or default_unit.lower(), kind, what), None
    if kind is Kind.POWER:
        return _lookup(_KW, squashed or default_unit.lower(), kind, what), None
    if kind is Kind.MONEY:
        money = _MONEY.match(rest)
        if money and money["scale"] in _SCALE:
            return _SCALE[money["scale"]], None
        raise QuantityError(f"We did not understand “{rest}”. Enter {what} like {_EXAMPLES[kind]}")
    if kind is Kind.DATA and squashed in _BYTES_IN_GB and squashed not in ("b",):
        return _BYTES_IN_GB[squashed], "gb"
    # Counts: an optional scale word, then an optional noun ("1.2T tokens", "350 million").
    scale_match = re.match(r"^(?P<scale>[a-z]*)\s*(?P<noun>[a-z]*)$", rest)
    if scale_match:
        scale, noun = scale_match["scale"], scale_match["noun"]
        if scale in _COUNT_NOUNS and not noun:
            scale, noun = "", scale
        if scale in _SCALE and (not noun or noun in _COUNT_NOUNS):
            factor = _SCALE[scale]
            if kind is Kind.CONTEXT and scale == "k":
                factor = 1024.0
            unit = None if kind is Kind.CONTEXT else (_COUNT_NOUNS.get(noun) or None)
            return factor, unit
    raise QuantityError(f"We did not understand “{rest}”. Enter {what} like {_EXAMPLES[kind]}")


def _lookup(table: dict[str, float], unit: str, kind: Kind, what: str) -> float:
    if unit in table:
        return table[unit]
    raise QuantityError(
        f"We did not understand the unit “{unit}”. Enter {what} like {_EXAMPLES[kind]}"
    )


def _cap(what: str) -> str:
    return what[:1].upper() + what[1:]


def describe(value: float, kind: Kind) -> str:
    """A short human form of a value in the kind's base unit: ``7e10`` → ``"70 billion"``.

    Counts keep five significant digits, so what the customer typed comes back recognisably
    ("1.2345 billion"); other quantities keep two decimals.
    """
    unit = BASE_UNITS[kind]
    if kind in (Kind.COUNT, Kind.DATA, Kind.CONTEXT):
        return format_count(value, digits=5) + (f" {unit}" if unit else "")
    if kind is Kind.SIZE and value >= 1000:
        return f"{format_decimal(value / 1000)} TB"
    if kind is Kind.MONEY:
        return "$" + format_count(value, digits=5)
    if kind is Kind.POWER and value >= 1000:
        return f"{format_decimal(value / 1000)} MW"
    if kind is Kind.DURATION and value >= 48:
        return f"{format_decimal(value / 24)} days"
    if kind is Kind.DURATION and value == 1:
        return "1 hour"
    return f"{format_decimal(value)} {unit}"
