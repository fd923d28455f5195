"""A count and its noun, agreed once: "1 accelerator", "2 accelerators", "1 year".

Every sentence of the room says a count through :func:`count_of`, which asks Django's
``ngettext`` for the noun (the language's own plural rule, not an ``"s"`` added by hand), and
writes the number with the one formatter (``sizing.engine.numbers.format_count``).
"""

from __future__ import annotations

from django.utils.translation import ngettext

from sizing.engine.numbers import format_count

# Nouns the room counts: (singular, plural). A noun not listed here is a mistake to catch in
# review, not to guess at: ``count_of`` refuses it.
NOUNS: dict[str, str] = {
    "accelerator": "accelerators",
    "server": "servers",
    "node": "nodes",
    "spare server": "spare servers",
    "cloud instance": "cloud instances",
    "year": "years",
    "run": "runs",
    "job": "jobs",
    "sequence": "sequences",
    "micro-batch": "micro-batches",
    "layer": "layers",
    "rack": "racks",
    "day": "days",
    "week": "weeks",
    "size": "sizes",
    "price": "prices",
    "answer": "answers",
    "finding": "findings",
    "email": "emails",
    "published run": "published runs",
    "full-size run": "full-size runs",
    "full run": "full runs",
    "second": "seconds",
    "GPU": "GPUs",
    "GPU-hour": "GPU-hours",
    "CPU core": "CPU cores",
    "core": "cores",
    "interruption": "interruptions",
    "hour": "hours",
    "detail": "details",
    "other setting": "other settings",
}


def noun_for(count: float, singular: str) -> str:
    """The noun that agrees with ``count``: ``noun_for(1, "year")`` → "year"."""
    plural = NOUNS[singular]
    # ngettext takes a whole number; a fraction (0.5 runs) reads as plural, as English has it
    whole = int(count) if float(count).is_integer() else 2
    return str(ngettext(singular, plural, whole))


def count_of(count: float, singular: str) -> str:
    """The count with its noun: ``count_of(24576, "accelerator")`` → "24,576 accelerators"."""
    return f"{format_count(count)} {noun_for(count, singular)}"


def in_words(items: list[str], *, last: str = "and") -> str:
    """``["a", "b", "c"]`` → "a, b and c" (``last="or"``: "a, b or c")."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
