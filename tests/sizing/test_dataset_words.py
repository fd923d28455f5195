"""A dataset size the customer wrote is used, not asked for again, and the proposal's two
dataset figures say why they differ.

The insurance group wrote "About 2 TB of raw documents" and was asked "How large is the dataset
on disk?"; a proposal showed a dataset of 1.6 TB beside "space for the dataset 2.7 TB" with
nothing to say that the second is the first grown by 30 % a year to the plan's last year.
"""

from __future__ import annotations

from datetime import date

import pytest

from questionnaire.demo import INSURANCE, RESEARCH
from reports.demo import answers_from
from sizing.adapters import size_answers
from sizing.engine.vocabulary import output_label_and_unit
from sizing.notes import dataset_tb_from_words

TODAY = date(2026, 12, 4)
ASKED = "How large is the dataset on disk?"


@pytest.mark.parametrize(
    ("words", "size_tb"),
    [
        ("About 2 TB of raw documents", 2.0),
        ("10-second clips, 48 TB in total.", 48.0),
        ("NetApp NFS, 500 GB of documents", 0.5),
        ("Lustre, about 20 GB/s", None),  # a speed, not a size
        ("2 TB raw, 8 TB tokenised", None),  # two sizes: which one is the dataset?
        ("", None),
    ],
)
def test_a_size_on_disk_is_read_from_words(words, size_tb):
    assert dataset_tb_from_words(words) == size_tb


def test_the_insurance_groups_2_tb_is_used_and_not_asked_again():
    sized = size_answers(answers=answers_from(INSURANCE.answers), today=TODAY)
    assert sized.engine_input["data"]["dataset_size_tb"] == 2.0
    assert sized.sources["data.dataset_size_tb"] == "customer"
    assert ASKED not in sized.result["open_questions"]


def test_a_rate_is_not_a_dataset_size():
    sized = size_answers(answers=answers_from(RESEARCH.answers), today=TODAY)
    assert "dataset_size_tb" not in sized.engine_input.get("data", {})


def test_the_space_for_the_dataset_says_it_is_grown_to_the_last_year():
    label, _unit = output_label_and_unit("dataset_capacity_tb")
    assert "grows to the plan's last year" in label
