"""A count and its noun agree through Django's ngettext, for every noun the code counts."""

import re
from pathlib import Path

import pytest

from sizing.words.plural import NOUNS, count_of, noun_for

ROOT = Path(__file__).resolve().parents[3]
APPS = ("sizing", "questionnaire", "reports", "pipeline", "staff")
# count_of(…, "noun") and noun_for(…, "noun"), the call possibly split over lines
_CALL = re.compile(r"\b(?:count_of|noun_for)\((?:[^()]|\([^()]*\))*?,\s*['\"]([^'\"]+)['\"]\s*\)")


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [
        (1, "job", "1 job"),
        (2, "job", "2 jobs"),
        (0, "accelerator", "0 accelerators"),
        (24576, "accelerator", "24,576 accelerators"),
        (1, "micro-batch", "1 micro-batch"),
        (3, "micro-batch", "3 micro-batches"),
        (1, "year", "1 year"),
        (2.5, "day", "2.5 days"),
    ],
)
def test_a_count_agrees_with_its_noun(count, noun, said):
    assert count_of(count, noun) == said


def test_a_fraction_reads_as_plural():
    assert noun_for(0.5, "run") == "runs"


def test_every_noun_the_code_counts_has_its_plural():
    used = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            used |= set(_CALL.findall(path.read_text()))
    assert used, "no count_of call found: the pattern is out of date"
    assert sorted(used - set(NOUNS)) == []
