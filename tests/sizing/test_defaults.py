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


def _active_and_questions(total: str | None) -> tuple[float, list[str]]:
    model = {"name": "Mixtral 8x22B"}
    if total is not None:
        model["total_params"] = float(total)
    out = size_dict({"model": model, "data": {"tokens": 2e12}})
    active = next(a for a in out["assumptions"] if a["key"] == "model.active_params")
    return float(active["value"]), out["open_questions"]


def test_a_catalog_model_with_its_size_rounded_keeps_its_published_active_parameters():
    # Mixtral 8x22B: 140.6B parameters, 39.1B active (Hugging Face config.json)
    named, _ = _active_and_questions(None)
    assert named == pytest.approx(39.1e9)
    rounded, questions = _active_and_questions("141e9")
    assert rounded == pytest.approx(39.1e9 * 141 / 140.6)
    assert "How many parameters are active per token?" not in questions
    # a variant of its own size: its active share is estimated, and we ask
    variant, questions = _active_and_questions("200e9")
    assert variant != pytest.approx(39.1e9 * 200 / 140.6)
    assert "How many parameters are active per token?" in questions


def _gpt2(batch: dict | None = None) -> dict:
    run: dict = {"model": {"name": "GPT-2"}, "training": {"method": "pretrain"}}
    run["data"] = {"tokens": 1e10}
    if batch:
        run["batch"] = batch
    return size_dict(run)


def test_the_default_sequence_length_is_capped_at_the_catalog_models_context():
    # GPT-2 has 1,024 learned positions (Hugging Face config.json: n_positions)
    result = _gpt2()
    assert assumed(result, "batch.sequence_length") == 1024
    (item,) = [a for a in result["assumptions"] if a["key"] == "batch.sequence_length"]
    assert "capped at GPT-2's context of 1,024 positions" in item["source"]
    assert not any("context" in w for w in result["warnings"])


def test_a_sequence_length_given_beyond_the_models_context_is_kept_with_a_warning():
    result = _gpt2({"sequence_length": 2048})
    (item,) = [a for a in result["assumptions"] if a["key"] == "batch.sequence_length"]
    assert (item["value"], item["provided_by"]) == (2048, "customer")
    assert any("exceeds GPT-2's context of 1,024 positions" in w for w in result["warnings"])
    assert not any("context of" in w for w in _gpt2({"sequence_length": 512})["warnings"])


def test_a_model_with_a_long_context_keeps_the_usual_default_length():
    result = size_dict({"model": {"name": "Llama 3.1 8B"}, "training": {"method": "lora"}})
    assert assumed(result, "batch.sequence_length") == 4096


def _method_of(data: dict, model: dict | None = None) -> tuple[str, str]:
    result = size_dict({"model": model or {}, "training": {}, "data": data})
    (item,) = [a for a in result["assumptions"] if a["key"] == "training.method"]
    return item["value"], item["source"]


def test_a_model_of_their_own_with_far_too_little_data_to_pretrain_is_adapted_with_lora():
    """Customer 8 of the scenarios: 50,000 support tickets and no idea about models. 51.2M
    tokens is 0.007 tokens a parameter of the 7B assumed; GPT-3 pre-trained on 1.7 and
    Chinchilla's optimum is 20, so nobody pre-trains on this: LoRA on an open model."""
    method, source = _method_of({"samples": 50_000})
    assert method == "lora"
    assert "far too little to pre-train" in source


def test_a_model_of_their_own_with_pretraining_data_is_still_pretrained():
    assert _method_of({"tokens": 2e12})[0] == "pretrain"  # 285 tokens a parameter of 7B
    assert _method_of({})[0] == "pretrain"  # no data given: the tokens follow the method


def test_a_public_model_with_little_data_is_still_fine_tuned_in_full():
    assert _method_of({"samples": 50_000}, {"name": "Llama 3.1 8B"})[0] == "full_finetune"
