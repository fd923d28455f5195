"""What a reader found in a file: answers to fill, and the settings it did not use.

Each reader asks :class:`Settings` for the keys it understands; every key it did not take is
listed to the customer as not used. Values are form data, written as a customer would type them
("8.03B", "bf16", "4096"): the question's own form checks them before anything is saved.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from questionnaire.prefill.reading import MAX_NUMBER_DIGITS, flatten
from sizing.public import (
    DecoderShape,
    InvalidInput,
    ModelSpec,
    ParameterCount,
    check_shape,
    count_parameters,
    find_model,
    format_count,
)

FormValue = str | list[str]


# Where a value came from is a setting's name ("micro_batch_size", "--bf16") or, for a value
# worked out from several, a sentence starting with a capital letter (shown as words).
SHAPE = "Counted from the model's layers, width, attention heads and vocabulary"
NO_EXPERTS = "The file lists no experts"


def tool(name: str) -> str:
    return f"The file is for {name}"


@dataclass(frozen=True)
class FoundValue:
    """One answer from the file: question slug, form field, value, and the setting it came from."""

    slug: str
    field: str
    value: FormValue
    source: str
    # worked out, not read (a name from the shape alone): never replaces what the customer typed
    guessed: bool = False


@dataclass
class Found:
    """Everything one reader made of a file (``format_name`` in words for the customer)."""

    format_name: str
    values: list[FoundValue] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)

    def add(
        self, slug: str, name: str, value: FormValue | None, source: str, *, guessed: bool = False
    ) -> None:
        if value not in (None, "", []):
            self.values.append(FoundValue(slug, name, value, source, guessed))

    def add_choices(self, slug: str, name: str, choices: list[str], source: str) -> None:
        """Several choices of one checkbox question, merged with any already found."""
        for index, found in enumerate(self.values):
            if (found.slug, found.field) == (slug, name):
                merged = list(dict.fromkeys([*found.value, *choices]))
                sources = (
                    found.source if found.source[:1].isupper() else f"{found.source}, {source}"
                )
                self.values[index] = FoundValue(slug, name, merged, sources)
                return
        self.add(slug, name, list(dict.fromkeys(choices)), source)


class Settings:
    """The file's settings by dotted path, remembering which ones a reader used."""

    def __init__(self, data: Mapping[str, Any]):
        self._leaves = flatten(data)
        self._used: set[str] = set()

    def __contains__(self, key: str) -> bool:
        return key in self._leaves

    def peek(self, key: str) -> Any:
        """The value without marking it used (to recognise a format)."""
        return self._leaves.get(key)

    def use(self, key: str) -> None:
        if key in self._leaves:
            self._used.add(key)

    def text(self, key: str) -> str | None:
        value = self._leaves.get(key)
        if isinstance(value, str) and value.strip():
            self._used.add(key)
            return value.strip()
        return None

    def count(self, key: str) -> int | None:
        """A whole number above zero, or text of decimal digits ("4096", "１２"); anything else
        ("auto", -1, "²") stays unused."""
        value = self._leaves.get(key)
        if isinstance(value, str):
            value = _decimal(value.strip())
        if isinstance(value, float) and value.is_integer():  # never inf or NaN
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            self._used.add(key)
            return value
        return None

    def number(self, key: str) -> float | None:
        """A finite number above zero (JSON's ``NaN`` and ``Infinity`` stay unused)."""
        value = self._leaves.get(key)
        # the reader bounds integers to 30 digits, so float() cannot overflow
        if (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and value > 0
            and math.isfinite(value)
        ):
            self._used.add(key)
            return float(value)
        return None

    def flag(self, key: str) -> bool | None:
        value = self._leaves.get(key)
        if isinstance(value, bool):
            self._used.add(key)
            return value
        return None

    def unused(self) -> list[str]:
        """Settings with a value that no reader took, in the file's order."""
        return [
            key
            for key, value in self._leaves.items()
            if key not in self._used and value not in (None, "", [], {})
        ]


def _decimal(text: str) -> int | None:
    """Text of decimal digits as its number: ``str.isdigit`` also takes "²", which ``int``
    refuses, and past 4,300 digits ``int`` raises, so both are checked first."""
    if text.isdecimal() and len(text) <= MAX_NUMBER_DIGITS:
        return int(text)
    return None


def finish(found: Found, settings: Settings) -> Found:
    found.ignored = settings.unused()
    return found


def counted_parameters(found: Found, shape: DecoderShape) -> ParameterCount | None:
    """The parameters of ``shape``, or None with a remark when its figures are no model's
    (the engine's own limits: a file may say a model has 10^300 layers)."""
    try:
        check_shape(shape)
    except InvalidInput as refused:
        found.remarks.append(
            f"The model's shape in the file is outside what we can size "
            f"({'; '.join(refused.messages)}), so we did not count its parameters. Give their "
            "number on question 1."
        )
        return None
    return count_parameters(shape)


# The figures of a shape the engine reads back from question 1's notes
# (``sizing.notes.shape_from_notes``), in the words it reads.
SHAPE_NOTE_SOURCE = "The model's shape, so that it is sized as it is"


def add_shape_note(found: Found, shape: DecoderShape, *, with_vocabulary: bool = True) -> None:
    """The file's shape as a line of question 1's notes ("126 layers, hidden size 16,384, ...").

    The model's name carries a catalog model's shape to the engine, but a model under its own
    name (or a name typed before the upload) has none, and the engine then works out a generic
    shape from the parameter count (a customer's 126 layers, 8 KV heads and vocabulary of
    128,256 became 127, 128 and 32,000). The note is read back by the adapter on every path.
    ``with_vocabulary`` is False when the vocabulary was assumed, not read from the file."""
    parts = [
        f"{shape.layers:,} layers",
        f"hidden size {shape.hidden_size:,}",
        f"{shape.attention_heads:,} attention heads",
        f"{shape.kv_heads or shape.attention_heads:,} KV heads",
    ]
    if with_vocabulary:
        parts.append(f"vocabulary {shape.vocab_size:,}")
    found.add("model", "notes", "Shape from the file: " + ", ".join(parts) + ".", SHAPE_NOTE_SOURCE)


def add_parameters(found: Found, count: ParameterCount | None, *, experts_key: str | None) -> None:
    """Dense or MoE (``experts_key`` names the setting with more than one expert), and the
    parameters counted from the shape (none when the shape was refused)."""
    if experts_key:
        found.add("model", "architecture", "moe", experts_key)
    else:
        found.add("model", "architecture", "dense", NO_EXPERTS)
    if count is None:
        return
    found.add("model", "total_params", format_count(count.total_params, short=True), SHAPE)
    if experts_key:
        found.add("model", "active_params", format_count(count.active_params, short=True), SHAPE)


# --- the vocabulary of recipes -----------------------------------------------------------------

# Tuned variants and releases of one model, all the size of the model: "-Instruct-v0.2", "-hf".
_NAME_SUFFIXES = re.compile(r"([-_](instruct|chat|hf|base|it|v\d+(\.\d+)*))+$", re.IGNORECASE)
# A model's name is a few words; past this a file's "name" is not one. The suffix pattern above
# retries from every dash, so its time grows with the square of the length: a 256 KB name of
# "-it-it-it..." took minutes.
NAME_LENGTH = 200


def known_model(written: str) -> ModelSpec | None:
    """The catalog model a recipe names (``meta-llama/Meta-Llama-3.1-8B-Instruct``), or None.

    The engine's own lookup, tried on the name after the organisation and without the suffix
    of a tuned variant (same size as its base model). Only the first ``NAME_LENGTH``
    characters are read.
    """
    written = written[:NAME_LENGTH]
    name = written.strip().rstrip("/").split("/")[-1]
    candidates = [written, name, _NAME_SUFFIXES.sub("", name)]
    candidates += [
        re.sub(r"^meta-", "", candidate, flags=re.IGNORECASE) for candidate in candidates
    ]
    for candidate in candidates:
        spec = find_model(candidate)
        if spec is not None:
            return spec
    return None


def add_model_name(found: Found, written: str, source: str) -> None:
    """The model a recipe trains: its catalog name, or as written with a word on its size."""
    spec = known_model(written)
    if spec is not None:
        found.add("model", "model_name", spec.name, source)
        return
    found.add("model", "model_name", written[:NAME_LENGTH], source)
    found.remarks.append(
        f"We do not know the size of “{written[:NAME_LENGTH]}”. Give its number of parameters on "
        "question 1, or upload its config.json."
    )


def optimizer_choice(name: str) -> str:
    """Question 3's optimizer choice for an optimizer's name in any framework's spelling."""
    key = re.sub(r"[^a-z0-9]", "", name.lower().rsplit(".", 1)[-1])
    if "adam" in key and "8bit" in key:
        return "adamw_8bit"
    for part, choice in (("lion", "lion"), ("adafactor", "adafactor"), ("sgd", "sgd")):
        if part in key:
            return choice
    return "adamw" if "adam" in key else "other"


def add_optimizer(found: Found, settings: Settings, key: str) -> None:
    name = settings.text(key)
    if name:
        found.add("precision", "optimizer", optimizer_choice(name), key)


def add_counts(found: Found, settings: Settings, places: dict[str, tuple[str, str]]) -> None:
    """Whole numbers above zero, ``{setting: (question slug, field)}``, as typed on the page."""
    for key, (slug, name) in places.items():
        value = settings.count(key)
        found.add(slug, name, str(value) if value else None, key)


def add_epochs(found: Found, settings: Settings, key: str) -> None:
    epochs = settings.number(key)
    found.add("data", "epochs", f"{epochs:g}" if epochs else None, key)


def add_yes_no(found: Found, settings: Settings, slug: str, name: str, key: str) -> None:
    value = settings.flag(key)
    if value is not None:
        found.add(slug, name, "yes" if value else "no", key)
