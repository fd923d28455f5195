"""WeasyPrint's HTML parser (tinyhtml5) with its cache of character patterns working.

tinyhtml5 2.1.0 (WeasyPrint's parser, pinned in pyproject.toml) reads runs of text with
``chars_until``, which keeps one compiled pattern per set of stop characters in the module's
``characters_until_regex``. Its line ``characters = cache[(characters, opposite)] = regex``
rebinds ``characters`` before the key is built, so each pattern is stored under the pattern
itself and never found again: every run of text builds its pattern's source anew (3,600 times for
the demo proposal's 77 KB, about 40 % of the parse, 56 ms of a layout; issue 29).

:func:`cache_character_patterns` gives the module a cache that builds a missing pattern exactly
as ``chars_until`` does and keeps it under the right key: the parser then finds it, and reads
the same tree as before (a test compares them).
"""

import re
from typing import Any

import tinyhtml5.inputstream


class _CharacterPatterns(dict[tuple[Any, bool], re.Pattern[str]]):
    """Compiled "run of these characters" patterns, by (stop characters, ``opposite``): the
    pattern ``chars_until`` would build for them (tinyhtml5 2.1.0, ``inputstream.py``)."""

    def __missing__(self, key: tuple[Any, bool]) -> re.Pattern[str]:
        characters, opposite = key
        escaped = "".join(f"\\x{ord(character):02x}" for character in characters)
        if not opposite:
            escaped = f"^{escaped}"
        pattern = self[key] = re.compile(f"[{escaped}]+")
        return pattern


def cache_character_patterns() -> None:
    """Give tinyhtml5's ``chars_until`` a cache that keeps its patterns; called once when
    reports.document is imported, before any proposal is parsed."""
    if not isinstance(tinyhtml5.inputstream.characters_until_regex, _CharacterPatterns):
        tinyhtml5.inputstream.characters_until_regex = _CharacterPatterns()
