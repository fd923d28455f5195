"""Defaults for "not sure" answers are recorded as assumptions and stay proportionate."""

import pytest

from sizing.engine import size_dict


def assumed(result: dict, key: str):
    (item,) = [a for a in result["assumptions"] if a["key"] == key]
    assert item["provided_by"] == "assumed"
    return item["value"]


@pytest.mark.parametrize(
    ("method", "tokens", "days"),
    [
        ("pretrain", 2e9, 30.0),
        ("full_finetune", 2e9, 7.0),
        ("lora", 2e9, 1.0),
        # A "fine-tune" over a trillion tokens is pre-training-sized: a week would be a guess
        # that sizes a cluster ten times larger than a month does.
        ("full_finetune", 1.2e12, 30.0),
        ("lora", 5e10, 30.0),
    ],
)
def test_an_unknown_deadline_defaults_by_method_and_data_volume(method, tokens, days):
    result = size_dict(
        {
            "model": {"name": "Llama 3.1 8B"},
            "training": {"method": method},
            "data": {"tokens": tokens},
        }
    )
    assert assumed(result, "schedule.deadline_days") == days
    assert "By when must one run finish?" in result["open_questions"]
