"""What each answer does: the one vocabulary of the answer trace.

Every structured field of every question form declares, next to the field, one of three roles
(``does=`` on the field; ``docs/answers.md`` is generated from them):

* :class:`Feeds` — the answer feeds the sizing engine: these engine inputs, through
  ``sizing/adapters.py``. Where two answers feed one input, ``sizing.adapters.SHARED_INPUTS``
  states the rule that combines them.
* :class:`Requirement` — a stated requirement: the proposal repeats it and says how the plan
  honours it.
* :class:`Noted` — noted for our engineer, with the reason it does not change the sizing.

Tests check that no field goes without a role, that an answer declared as feeding an input
really reaches it, and that no two answers feed one input without a stated rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FEEDS = "feeds the engine"
REQUIREMENT = "stated requirement"
NOTED = "noted for our engineer"


@dataclass(frozen=True)
class Feeds:
    """The answer feeds these engine inputs (dotted paths of ``docs/engine-contract.md``).

    ``when`` lists the other parts of the same answer the mapping needs, one alternative per
    item, as stored values (``{"dataset_unit": "samples", "tokens_per_sample": 1500}``); empty
    when the answer feeds its inputs on its own.
    """

    inputs: tuple[str, ...]
    when: tuple[dict[str, Any], ...] = ()
    also: str = ""  # what else the answer does, in words (docs/answers.md)
    role = FEEDS


@dataclass(frozen=True)
class Requirement:
    """A requirement the proposal repeats; ``honoured_by`` says how the plan honours it."""

    honoured_by: str
    role = REQUIREMENT


@dataclass(frozen=True)
class Noted:
    """Kept for our engineer; ``reason`` says why it does not change the sizing."""

    reason: str
    role = NOTED


Role = Feeds | Requirement | Noted
