"""Which fields of a frozen dataclass a piece of the engine reads.

The engine keeps some work for the rest of one sizing by the fields that work reads (a pricing
by the prices it reads, ``cost.options``; a plan search by ``cluster.PLAN_ANSWERS``). What is
read is found out, not listed by hand alone: a copy of the instance that notes each field
asked of it.
"""

from dataclasses import fields
from typing import TypeVar

Instance = TypeVar("Instance")


def noting_reads(instance: Instance, reads: set[str]) -> Instance:
    """A copy of the dataclass ``instance`` that adds the name of each of its fields read on it
    to ``reads``; it is equal to ``instance`` in every field and behaves as it does."""
    names = frozenset(f.name for f in fields(instance))  # type: ignore[arg-type]

    class Noting(type(instance)):  # type: ignore[misc]
        def __getattribute__(self, name: str) -> object:
            if name in names:
                reads.add(name)
            return super().__getattribute__(name)

    copy = object.__new__(Noting)
    copy.__dict__.update(instance.__dict__)
    return copy
