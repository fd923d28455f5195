"""Reading what a customer says they already own ("16 A100 80GB", "two DGX A100", "512 H100")
as a catalog accelerator and a count, for the engine's ``estate`` section.

A server word ("DGX", "HGX", "servers", "nodes") counts servers of eight accelerators, as the
reference servers of the catalog hold (``sizing.engine.hardware.REFERENCE_SERVER_GPUS``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sizing.engine.hardware import ACCELERATORS, REFERENCE_SERVER_GPUS

# What people call each catalog accelerator, longest first when read; a bare "A100" is the
# 80 GB part (the one sold in DGX A100 servers since 2020), a bare "H100" the SXM5 part.
_ALIASES: dict[str, str] = {
    "a100 80gb": "a100-80gb",
    "a100 80": "a100-80gb",
    "a100 40gb": "a100-40gb",
    "a100 40": "a100-40gb",
    "a100": "a100-80gb",
    "h100 pcie": "h100-pcie",
    "h100 sxm": "h100-sxm",
    "h100": "h100-sxm",
    "h800": "h800",
    "h200": "h200",
    "b200": "b200",
    "l40s": "l40s",
    "rtx a6000": "rtx-a6000",
    "a6000": "rtx-a6000",
    "l4": "l4",
    "mi300x": "mi300x",
    "mi325x": "mi325x",
    "mi250x": "mi250x",
    "gaudi 3": "gaudi3",
    "gaudi 2": "gaudi2",
}
_SQUASHED = sorted(
    ((re.sub(r"[\s\-]", "", alias), acc) for alias, acc in _ALIASES.items()),
    key=lambda pair: -len(pair[0]),
)
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Counts people write in words ("two DGX A100"); "a" is one.
_WORDS = {
    **{word: n for n, word in enumerate(_NUMBER_WORDS, start=1)},
    "a": 1,
    "twelve": 12,
    "sixteen": 16,
}
_COUNT = re.compile(
    r"(?<![a-z\d])(?P<n>\d[\d,]*|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
    r"(?![a-wyz\d])\s*(?:x(?![a-z\d]))?\s*(?P<server>dgx|hgx|servers?|nodes?)?",
)
_NONE = {"none", "no", "nothing", "-", "0", "n/a", "not sure", "not sure yet", "none yet"}

# Catalog names a customer can pick from (the form's suggestions).
OWNED_SUGGESTIONS: tuple[str, ...] = tuple(f"8 × {spec.name}" for spec in ACCELERATORS.values())


@dataclass(frozen=True)
class Owned:
    accelerator: str  # catalog id
    count: int  # [accelerators]


class NotUnderstood(ValueError):
    """The text names no catalog accelerator, or no count."""


def read_owned(text: str) -> Owned | None:
    """The accelerators ``text`` says are owned; None when it says none (or is empty).

    Raises NotUnderstood when it names no catalog accelerator or no count."""
    cleaned = " ".join(text.lower().replace("\u00d7", " x ").split())
    if not cleaned or cleaned.rstrip(".!") in _NONE:
        return None
    squashed = re.sub(r"[\s\-]", "", cleaned)
    for alias in ("nvidia", "amd", "intel", "instinct", "sxm5", "sxm4"):
        squashed = squashed.replace(alias, "")
    accelerator = next((acc for alias, acc in _SQUASHED if alias in squashed), None)
    if accelerator is None:
        raise NotUnderstood(cleaned)
    for match in _COUNT.finditer(cleaned):
        number = match["n"]
        count = _WORDS.get(number) or int(number.replace(",", "") or 0)
        tail = cleaned[match.end() :]
        if re.match(r"^(gb|g\b)", tail):  # "80GB" is the memory, not a count
            continue
        if match["server"] or re.match(r"^(dgx|hgx)", tail):
            count *= REFERENCE_SERVER_GPUS
        if count:
            return Owned(accelerator, count)
    raise NotUnderstood(cleaned)
