"""Sizing engine for AI-training infrastructure (standard library only).

Public API::

    parse_input(data) -> SizingInput          raises InvalidInput
    size(inputs, *, today=None) -> SizingResult
    sizing_result_to_dict(result) -> dict     the JSON contract (docs/engine-contract.md)
    size_dict(data, *, today=None) -> dict

``today`` (a ``datetime.date``) dates the customer's answers (their ``as_of``);
``None`` means the current date, read at call time.
"""

from .core import size, size_dict
from .hardware import ACCELERATORS, AcceleratorSpec
from .inputs import SizingInput
from .models import MODEL_CATALOG, ModelSpec
from .output import SizingResult, sizing_result_to_dict
from .provenance import Assumption
from .text import sizing_result_to_text
from .validation import InvalidInput, parse_input
from .version import ENGINE_VERSION

__all__ = [
    "ACCELERATORS",
    "ENGINE_VERSION",
    "MODEL_CATALOG",
    "AcceleratorSpec",
    "Assumption",
    "InvalidInput",
    "ModelSpec",
    "SizingResult",
    "SizingInput",
    "parse_input",
    "sizing_result_to_dict",
    "sizing_result_to_text",
    "size",
    "size_dict",
]
