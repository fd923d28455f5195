"""Sizing engine for AI-training infrastructure (standard library only).

Public API::

    parse_input(data) -> SizingInput          raises InvalidInput
    size(inputs, *, today=None) -> Recommendation
    recommendation_to_dict(rec) -> dict       the JSON contract (docs/engine-contract.md)
    size_dict(data, *, today=None) -> dict

``today`` (a ``datetime.date``) dates the customer's answers (their ``as_of``);
``None`` means the current date, read at call time.
"""

from .core import size, size_dict
from .hardware import ACCELERATORS, AcceleratorSpec
from .inputs import SizingInput
from .models import MODEL_CATALOG, ModelSpec
from .provenance import Assumption
from .result import Recommendation, recommendation_to_dict
from .text import recommendation_to_text
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
    "Recommendation",
    "SizingInput",
    "parse_input",
    "recommendation_to_dict",
    "recommendation_to_text",
    "size",
    "size_dict",
]
