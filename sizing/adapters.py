"""The one place that knows both vocabularies: questionnaire answers → sizing-engine input.

Answers are stored as ``{slug: {field: value, "not_sure": bool, "notes": str}}`` (see
``questionnaire/questions.py``); the engine takes the nested dict of ``docs/engine-contract.md``.
Anything the customer was not sure about is left out (``None``), so the engine picks its
documented default and lists it as an assumption. Every engine field we set is recorded with
where it came from: ``customer`` (answered), ``not_sure`` (left to the engine's default),
``override`` (an engineer's override).
"""

from dataclasses import dataclass, field
from typing import Any

try:
    from sizing.engine import ENGINE_VERSION, InvalidInput, parse_input, size_dict
    from sizing.engine.validation import SCHEMA
except ImportError:  # TEMPORARY while helper-1's engine package lands; removed once it has.
    from sizing.engine.validation import SCHEMA, InvalidInput  # noqa: I001

    ENGINE_VERSION = "unavailable"

    def parse_input(data):  # type: ignore[no-redef]
        raise RuntimeError("the sizing engine is not installed yet")

    size_dict = parse_input

__all__ = [
    "ENGINE_VERSION",
    "BuiltInput",
    "InvalidInput",
    "build_engine_input",
    "check_engine_input",
    "nest_overrides",
    "run_engine",
    "unknown_override_paths",
]

# Every input field of the engine, by section (the engine's own schema). Engineers may override
# any of them.
CONTRACT_FIELDS: dict[str, tuple[str, ...]] = {
    section: tuple(fields) for section, fields in SCHEMA.items()
}


@dataclass(frozen=True)
class BuiltInput:
    """An engine input and, per dotted field, where its value came from."""

    engine_input: dict[str, Any]
    sources: dict[str, str] = field(default_factory=dict)


def nest_overrides(overrides: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{"model.total_params": 7e9}`` or ``{"model": {"total_params": 7e9}}`` → nested."""
    nested: dict[str, dict[str, Any]] = {}
    for key, value in (overrides or {}).items():
        if isinstance(value, dict):
            nested.setdefault(key, {}).update(value)
        else:
            section, _, name = str(key).partition(".")
            nested.setdefault(section, {})[name] = value
    return nested


def unknown_override_paths(nested: dict[str, dict[str, Any]]) -> list[str]:
    """Dotted paths in ``nested`` that are not engine input fields."""
    unknown = []
    for section, values in nested.items():
        for name in values:
            if name not in CONTRACT_FIELDS.get(section, ()):
                unknown.append(f"{section}.{name}")
    return unknown


def build_engine_input(
    *, answers: dict[str, Any], overrides: dict[str, Any] | None = None
) -> BuiltInput:
    """Map stored answers (plus engineer overrides) to the engine's input dict."""
    engine_input: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    for mapper in ANSWER_MAPPERS:
        mapper(answers or {}, engine_input, sources)
    for section, values in nest_overrides(overrides or {}).items():
        for name, value in values.items():
            engine_input.setdefault(section, {})[name] = value
            sources[f"{section}.{name}"] = "override"
    return BuiltInput(engine_input={k: v for k, v in engine_input.items() if v}, sources=sources)


def check_engine_input(engine_input: dict[str, Any]) -> None:
    """Raise ``InvalidInput`` if the engine would refuse this input."""
    parse_input(engine_input)


def run_engine(engine_input: dict[str, Any]) -> dict[str, Any]:
    """Size the input; the engine's JSON-ready result dict."""
    return size_dict(engine_input)


# --- answers → input ----------------------------------------------------------------------------
# One small function per question; each reads its answer and writes engine fields. Filled in
# from the question registry (questionnaire/questions.py).

ANSWER_MAPPERS: list = []
