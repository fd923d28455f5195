"""A count and its noun agree through Django's ngettext, for every noun the code counts."""

import re
from datetime import date
from pathlib import Path

import pytest

from reports.demo import DEMO_FORM_DATA, answers_from
from sizing.public import read_result, size_answers
from sizing.words.counts import concurrency_question
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


# A noun given an "s" by hand: f"run{'s' if runs > 1 else ''}", "rack" if n == 1 else "racks".
_HAND_SUFFIX = re.compile(r"\{['\"]s?['\"] if [^{}\n]*? else ['\"]s?['\"]\}")
_HAND_NOUN = re.compile(r"['\"]([A-Za-z][\w -]*)['\"] if [^\n]*?== ?1 else ['\"]\1(?:s|es)['\"]")


def test_no_sentence_adds_an_s_to_its_noun_by_hand():
    # issue 28: "1 jobs of 24,576 accelerators" came from a noun pluralised by hand in the
    # engine; a count's noun comes from count_of/noun_for (ngettext), or in the engine, which
    # cannot import Django, from sizing.engine.numbers.noun_for_count
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if _HAND_SUFFIX.search(line) or _HAND_NOUN.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


# "1 jobs", "1 full-size runs": a count of one with a plural noun.
_ONE_WITH_PLURAL = re.compile(
    r"(?<![\w.,])1 (jobs|runs|full-size runs|accelerators|nodes|servers|racks|GPUs)\b"
)


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


def test_a_huge_pretraining_with_one_full_run_among_three_jobs_never_says_1_jobs():
    # the customer: one full-size pre-training run held beside two smaller jobs
    sized = size_answers(answers=_huge_pretraining(), today=date(2026, 12, 2))
    result = read_result(sized.result)
    concurrency = sized.result["concurrency"]
    assert (concurrency["concurrent_jobs"], concurrency["full_size_runs"]) == (3, 1)
    assert concurrency["gpus_per_job"] >= 8192
    said = [text for text in _texts(sized.result) if _ONE_WITH_PLURAL.search(text)]
    assert said == []
    question = next(q for q in result.open_questions if q.startswith("The cluster holds"))
    each = count_of(concurrency["gpus_per_job"], "accelerator")
    assert f"The cluster holds 1 full-size run at once (one job of {each}, as many" in question
    # and the words room says the same of a run of 24,576 accelerators
    stored = {**sized.result, "concurrency": {**concurrency, "gpus_per_job": 24576}}
    worded = concurrency_question(read_result(stored))
    assert "(one job of 24,576 accelerators, as many as the planned runs)" in worded
    assert not _ONE_WITH_PLURAL.search(worded)


def _huge_pretraining() -> dict:
    data = {slug: dict(values) for slug, values in DEMO_FORM_DATA.items()}
    data["model"] = {"model_name": "", "architecture": "dense", "total_params": "1T"}
    data["method"] = {"method": "pretrain", "phases": "1", "experiments": "1"}
    data["data"] = {**data["data"], "dataset_size": "30T tokens"}
    data["timeline"] = {"run_time_hours": "60 days", "runs_per_month": "1"}
    data["teams"] = {"teams": "3", "concurrent_jobs": "3"}
    return answers_from(data)


def test_a_short_fine_tune_states_its_accelerator_hours_to_a_tenth_never_1_hours():
    # the game studio's first estimate said "1 accelerator-hours per run" for 1.4 hours
    data = {slug: dict(values) for slug, values in DEMO_FORM_DATA.items()}
    data["model"] = {"model_name": "Llama 3.1 8B"}
    data["method"] = {"method": "lora", "phases": "1", "experiments": "1"}
    data["data"] = {**data["data"], "dataset_size": "30M tokens"}  # about 1.4 hours
    data["timeline"] = {"run_time_hours": "12 hours", "runs_per_month": "1"}
    sized = size_answers(answers=answers_from(data), today=date(2026, 12, 2))
    driver = next(d for d in read_result(sized.result).drivers if "accelerator-hour" in d)
    said = re.search(r"compute: ([\d,.]+) (accelerator-hours?) per run", driver)
    value = float(said[1].replace(",", ""))
    assert 1 < value < 2 and "." in said[1], driver  # to a tenth: "1.4", never "1"
    assert said[2] == "accelerator-hours", driver
