"""Log filters against noise that would bury what matters."""

from __future__ import annotations

import logging


class OncePerProcess(logging.Filter):
    """Lets a record whose message starts with one of ``prefixes`` through the first time only,
    and every other record always.

    WeasyPrint warns "Using fontTools instead of HarfBuzz-Subset for font …" for each font of
    each PDF when ``libharfbuzz-subset0`` is missing: two lines a render that say one thing
    about the machine (reports.checks says it at start-up too).
    """

    def __init__(self, prefixes: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__()
        self.prefixes = tuple(prefixes)
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        prefix = next((p for p in self.prefixes if message.startswith(p)), None)
        if prefix is None:
            return True
        if prefix in self.seen:
            return False
        self.seen.add(prefix)
        return True
