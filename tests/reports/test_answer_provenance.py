"""The proposal says where each value came from: the customer's answer, what we worked out
from it (and how), the catalog, or our assumption (fresh reader findings A3, A5, B8)."""

from __future__ import annotations

import datetime

from reports.demo import demo_answers, demo_data
from reports.document import build_context
from sizing.stored_result import read_result

TODAY = datetime.date(2026, 12, 1)


def _context(answers: dict) -> dict:
    return build_context(demo_data(answers=answers, today=TODAY))


def _rows(context: dict) -> dict:
    return {row["key"]: row for row in context["assumptions"]}


def _with(scenario: str = "", **questions: dict) -> dict:
    answers = demo_answers(scenario)
    for slug, changes in questions.items():
        answers[slug] = {**answers[slug], **changes}
    return answers


# walk 2: "A chatbot that answers staff questions from our internal documents", LoRA, 7B, 2 TB
_TWO_TB = {"dataset_size": 2000, "dataset_size_text": "2 TB", "dataset_unit": "gb", "modality": ""}


def test_a_size_on_disk_is_said_to_be_read_as_plain_text_in_the_summary():
    context = _context(_with("lora-one-node", data=_TWO_TB))
    reading = " ".join(context["data_reading"])
    assert "Your data: 2 TB read as about 500 billion tokens of plain text (4 bytes a token)" in (
        reading
    )
    assert "PDF, Word or slides hold far less text than their size" in reading
    assert any(
        q.startswith("Is your dataset plain text, or files such as PDF")
        for q in (context["open_questions"])
    )
    tokens = _rows(context)["data.tokens"]
    assert tokens["source"].startswith("worked out from your dataset size read as plain text")


def test_a_fine_tune_at_pre_training_scale_is_flagged():
    reading = " ".join(_context(_with("lora-one-node", data=_TWO_TB))["data_reading"])
    assert "a fine-tune that reads 1.5 trillion tokens is at pre-training scale" in reading
    # the demo's own LoRA (600 million tokens from 400,000 documents) is not
    assert _context(demo_answers("lora-one-node"))["data_reading"] == []


def test_a_storage_size_is_told_back_as_the_customers_not_worked_out():
    context = _context(_with("lora-one-node", data=_TWO_TB))
    storage = next(s for s in context["sections"] if s["key"] == "storage")
    assert ("Dataset size", "2 TB", "") in storage["told"]


def test_tokens_from_a_count_of_documents_list_the_assumed_length_and_say_how():
    documents = {"dataset_size": 50000, "dataset_unit": "samples", "tokens_per_sample": None}
    rows = _rows(_context(_with("lora-one-node", data=documents)))
    assert rows["data.tokens_per_sample"]["value"].startswith("1,024")
    assert rows["data.tokens"]["source"] == (
        "worked out from your answer: 50,000 samples × 1,024 tokens each"
    )


def test_a_dataset_size_worked_out_from_the_answers_is_not_our_usual_assumption():
    rows = _rows(_context(demo_answers("lora-one-node")))
    assert rows["data.dataset_size_tb"]["source"].startswith("worked out from your answer: 600")


def test_no_preference_for_the_accelerator_maker_is_told_back_as_theirs():
    rows = _rows(_context(demo_answers("lora-one-node")))
    assert rows["hardware.vendors"]["source"].startswith("you told us you have no preference")


def test_phases_are_told_back_with_what_the_sizing_did_with_them():
    context = _context(demo_answers("sovereign-eu"))
    compute = next(s for s in context["sections"] if s["key"] == "compute")
    (phases,) = [line for line in compute["told_answers"] if "phases" in line.label]
    assert phases.answer == "2"
    assert "Counted within the 6 runs you expect" in phases.what_we_do


def test_a_catalog_value_is_the_catalogs_not_the_customers():
    result = read_result(demo_data(answers=demo_answers("lora-one-node"), today=TODAY).result)
    (vocab,) = [item for item in result.assumptions if item.key == "model.vocab_size"]
    assert vocab.provided_by != "customer"
    assert vocab.source.startswith("model catalog")
