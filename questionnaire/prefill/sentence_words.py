"""The numbers and quotes of the discovery sentence's reader (``sentence.py``,
``sentence_site.py``): how a figure may be written, and where a value came from.
"""

from __future__ import annotations

import re

from questionnaire.quantities import UNITS_WORDS

# A figure of more digits than this is no plan's (the largest budget or token count anyone
# writes has twelve or thirteen); longer runs of digits are not read as numbers at all.
MAX_DIGITS = 15

NUMBER = rf"(?<![\d,.])(?:\d{{1,3}}(?:,\d{{3}})+|\d{{1,{MAX_DIGITS}}})(?:\.\d{{1,6}})?(?![\d,]\d)"
# the small numbers people write in words (the questionnaire's own reading of them), and "once"
WORD_NUMBERS = {
    **{word: number for word, number in UNITS_WORDS.items() if 1 <= number <= 12},
    "once": 1,
    "twice": 2,
}
COUNT = rf"(?:{NUMBER}|{'|'.join(sorted(WORD_NUMBERS, key=len, reverse=True))})"
SCALE = r"(?:thousand|million|billion|trillion|[kKmMbBtT]n?)"


def said(fragment: str) -> str:
    """Where a value came from, in the words of the check page (a capital: shown as words)."""
    return f"Your words “{' '.join(fragment.split())}”"


def find_all(pattern: str, text: str, flags: int = re.IGNORECASE) -> list[re.Match[str]]:
    return list(re.finditer(pattern, text, flags))
