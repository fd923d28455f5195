"""Figures a customer wrote in words, read where they can be read reliably.

Two answers carry figures that have no field of their own: the model's shape in the model
question's notes ("32 layers, hidden 4096, 32 heads, vocabulary 32k") and the models planned in
the years ahead in the roadmap question ("30B next year, maybe 70B in year three"). A figure the
customer wrote is theirs: the engine must never replace it with a generated one (a start-up's
hidden size of 4,096 became 4,187), nor assume "0 % growth" beside a roadmap that names larger
models. What cannot be read plainly is left to the engine's assumption, and said so.
"""

from __future__ import annotations

import re

_NUMBER = r"(\d[\d,]*(?:\.\d+)?)\s*([kK]\b)?"

# Each shape figure, by the words a config or a paper uses for it (the number before or after).
_SHAPE_PATTERNS: dict[str, tuple[str, ...]] = {
    "layers": (
        rf"{_NUMBER}\s*(?:transformer\s+|decoder\s+)?layers\b",
        rf"\blayers\s*[:=]?\s*{_NUMBER}",
    ),
    "hidden_size": (
        rf"\b(?:hidden(?:[\s_-]*(?:size|dim(?:ension)?|width))?|d_model|model\s+width)\s*[:=]?\s*{_NUMBER}",
        rf"{_NUMBER}\s*hidden\b",
    ),
    "attention_heads": (
        rf"{_NUMBER}\s*(?:attention\s+|query\s+)?heads\b",
        rf"\b(?:attention\s+)?heads\s*[:=]?\s*{_NUMBER}",
    ),
    "kv_heads": (rf"{_NUMBER}\s*(?:kv|key[\s-]value)\s+heads\b",),
    "vocab_size": (rf"\bvocab(?:ulary)?(?:[\s_]*size)?\s*(?:of\s+)?[:=]?\s*{_NUMBER}",),
}


def _number(digits: str, thousands: str | None) -> int:
    value = float(digits.replace(",", ""))
    return int(round(value * (1000 if thousands else 1)))


def shape_from_notes(text: str) -> dict[str, int]:
    """The shape figures a customer wrote in a note, by engine field name (``layers``,
    ``hidden_size``, ``attention_heads``, ``kv_heads``, ``vocab_size``); a figure named twice
    with different values is left out (it cannot be read reliably)."""
    found: dict[str, int] = {}
    text = text or ""
    # "8 key-value heads" must not also read as 8 attention heads
    without_kv = re.sub(rf"{_NUMBER}\s*(?:kv|key[\s-]value)\s+heads\b", " ", text, flags=re.I)
    for name, patterns in _SHAPE_PATTERNS.items():
        source = text if name == "kv_heads" else without_kv
        values = {
            _number(match.group(1), match.group(2))
            for pattern in patterns
            for match in re.finditer(pattern, source, flags=re.I)
        }
        if len(values) == 1 and (value := values.pop()) > 0:
            found[name] = value
    return found


_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(B|billion|T|trillion)\b", re.I)
_ORDINALS = {"two": 2, "three": 3, "four": 4, "five": 5, "second": 2, "third": 3, "fourth": 4}


def _year_of(words: str) -> int | None:
    """The plan year a phrase names: "next year" is year 2, "in year three" year 3."""
    words = words.lower()
    if "next year" in words or "in a year" in words:
        return 2
    match = re.search(r"year\s+(\d|two|three|four|five)\b|(second|third|fourth)\s+year", words)
    if not match:
        return None
    word = match.group(1) or match.group(2)
    return int(word) if word.isdigit() else _ORDINALS[word]


def growth_from_roadmap(text: str, current_params: float | None) -> float | None:
    """The yearly growth of the work that a roadmap's larger models imply [1/yr].

    Each model size tied to a plan year ("30B next year", "maybe 70B in year three") is read;
    the largest size of the latest year, against today's model, gives the compound yearly
    growth of the compute a run needs, which grows with the parameters at the same data:
    ``(N_future / N_now) ** (1 / (year - 1)) - 1``. ``None`` when no size and year can be read,
    or when there is no model today to compare with.
    """
    if not text or not current_params:
        return None
    best: tuple[int, float] | None = None
    for clause in re.split(r"[;,.]|\band\b|\bthen\b", text):
        sizes = _SIZE.findall(clause)
        year = _year_of(clause)
        if not sizes or not year or year < 2:
            continue
        multiplier = {"b": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}
        params = max(float(number) * multiplier[unit.lower()] for number, unit in sizes)
        if best is None or (year, params) > best:
            best = (year, params)
    if best is None:
        return None
    year, params = best
    return max(0.0, (params / current_params) ** (1.0 / (year - 1)) - 1.0)


_DISK_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(PB|TB|GB)\b(?!\s*/)", re.I)
_PER_TB = {"pb": 1000.0, "tb": 1.0, "gb": 0.001}


def dataset_tb_from_words(text: str) -> float | None:
    """The size on disk a customer wrote for their data ("About 2 TB of raw documents",
    "48 TB in total") [TB]; ``None`` without one, or with two different ones, or for a rate
    ("20 GB/s" is a speed, not a size)."""
    sizes = {
        float(number) * _PER_TB[unit.lower()] for number, unit in _DISK_SIZE.findall(text or "")
    }
    return sizes.pop() if len(sizes) == 1 else None
