"""Reading what a customer says they already own ("16 A100 80GB", "two DGX A100", "512 H100")
as a catalog accelerator and a count, for the engine's ``estate`` section, with the network
and the storage that come with them when they name those too ("HDR InfiniBand", "400 GbE
RoCE", "a 200 TB NAS").

A server word ("DGX", "HGX", "servers", "nodes") counts servers of eight accelerators, as the
reference servers of the catalog hold (``sizing.engine.hardware.REFERENCE_SERVER_GPUS``).
An InfiniBand generation is read as its port speed (EDR 100, HDR 200, NDR 400, XDR 800 Gb/s:
reference catalog, section 3a, compiled 2026-12-02); an Ethernet fabric as the speed written
beside it ("400 GbE", "200G RoCE"); storage as the terabytes or petabytes written ("200 TB
NAS", "1.5 PB of Lustre").
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
    fabric: str | None = None  # "infiniband" | "ethernet" (the engine's network.inter_node)
    fabric_gbps: int | None = None  # [Gb/s] per port, one port per accelerator
    storage_tb: float | None = None  # [TB] shared storage


# InfiniBand generations by name, longest first ("ndr200" before "ndr") [Gb/s]
_INFINIBAND = (
    ("ndr200", 200),
    ("hdr100", 100),
    ("edr", 100),
    ("hdr", 200),
    ("ndr", 400),
    ("xdr", 800),
)
_IB_WORD = re.compile(r"\b(?:infiniband|ib)\b")
_IB_GENERATION = re.compile(r"\b(" + "|".join(name for name, _ in _INFINIBAND) + r")\b")
_ETHERNET = re.compile(
    r"(?:(?P<gbps>\d{2,3})\s*(?:gbe|g(?:b/?s)?\b)\s*(?:ethernet|roce)?|\b(?:ethernet|roce)\b)"
)
_STORAGE = re.compile(r"(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>tb|pb)\b")
_TB_PER = {"tb": 1.0, "pb": 1000.0}


def _fabric(text: str) -> tuple[str | None, int | None]:
    """The fabric ``text`` names, and its port speed when it says [Gb/s]."""
    generation = _IB_GENERATION.search(text)
    if generation:
        return "infiniband", dict(_INFINIBAND)[generation[1]]
    if _IB_WORD.search(text):
        return "infiniband", None
    for match in _ETHERNET.finditer(text):
        around = text[max(0, match.start() - 20) : match.end() + 20]
        if match["gbps"] is None or re.search(r"ethernet|roce|gbe", around):
            return "ethernet", int(match["gbps"]) if match["gbps"] else None
    return None, None


def _storage_tb(text: str) -> float | None:
    """The shared storage ``text`` names [TB]: the sum of every capacity written in TB or PB."""
    found = [float(m["n"].replace(",", "")) * _TB_PER[m["unit"]] for m in _STORAGE.finditer(text)]
    return sum(found) if found else None


class NotUnderstood(ValueError):
    """The text names no catalog accelerator, or no count."""


def read_owned(text: str) -> Owned | None:
    """The accelerators ``text`` says are owned; None when it says none (or is empty).

    Raises NotUnderstood when it names no catalog accelerator or no count."""
    cleaned = " ".join(text.lower().replace("\u00d7", " x ").split())
    if not cleaned or cleaned.rstrip(".!") in _NONE:
        return None
    # capacities and fabrics are not accelerators: "IB 200" is no B200
    named = _IB_WORD.sub(" ", _IB_GENERATION.sub(" ", _STORAGE.sub(" ", cleaned)))
    squashed = re.sub(r"[\s\-]", "", named)
    for alias in ("nvidia", "amd", "intel", "instinct", "sxm5", "sxm4"):
        squashed = squashed.replace(alias, "")
    accelerator = next((acc for alias, acc in _SQUASHED if alias in squashed), None)
    if accelerator is None:
        raise NotUnderstood(cleaned)
    fabric, fabric_gbps = _fabric(cleaned)
    storage_tb = _storage_tb(cleaned)
    counted = _STORAGE.sub(" ", cleaned)  # "a 200 TB NAS" counts no accelerators
    for match in _COUNT.finditer(counted):
        number = match["n"]
        count = _WORDS.get(number) or int(number.replace(",", "") or 0)
        tail = counted[match.end() :]
        if re.match(r"^(gb|g\b)", tail):  # "80GB" is the memory, not a count
            continue
        next_word = re.sub(r"[\s\-]", "", tail)[:12]
        if number == "a" and not (
            match["server"] or any(next_word.startswith(alias) for alias, _ in _SQUASHED)
        ):  # "a NAS" is no accelerator
            continue
        if match["server"] or re.match(r"^(dgx|hgx)", tail):
            count *= REFERENCE_SERVER_GPUS
        if count:
            return Owned(accelerator, count, fabric, fabric_gbps, storage_tb)
    raise NotUnderstood(cleaned)
