"""A model's config.json fills question 1: dense or MoE, and the parameters counted from it."""

import json

import pytest

from questionnaire.forms.workload import ModelForm
from questionnaire.prefill.formats import read_answers
from questionnaire.prefill.found import Found
from questionnaire.prefill.hf_config import FORMAT_NAME
from sizing.public import find_model, size_answers
from tests.questionnaire.prefill.files import example

# The shape goes into question 1's notes, read back by the adapter whatever the model's name.
SHAPE = "Shape from the file: {}."


def answers(found: Found) -> dict[tuple[str, str], object]:
    return {(v.slug, v.field): v.value for v in found.values}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Published sizes: Llama 3.1 8B 8.03B (model card); Mixtral 8x7B 46.7B total, 12.9B
        # active (Jiang et al. 2024); Qwen2-7B 7.62B (model card); DeepSeek-V3 671B / 37B.
        (
            "llama31_8b_config.json",
            {
                "architecture": "dense",
                "total_params": "8.03B",
                "notes": SHAPE.format(
                    "32 layers, hidden size 4,096, 32 attention heads, 8 KV "
                    "heads, vocabulary 128,256"
                ),
            },
        ),
        # A file without a name whose shape is one catalog model's is named after it (the name
        # carries the shape to the engine); the check page shows why, so a look-alike is unticked.
        (
            "mixtral_8x7b_config.json",
            {
                "model_name": "Mixtral 8x7B",
                "architecture": "moe",
                "total_params": "46.7B",
                "active_params": "12.9B",
                "experts": "8",  # num_local_experts
                "experts_per_token": "2",  # num_experts_per_tok
                "notes": SHAPE.format(
                    "32 layers, hidden size 4,096, 32 attention heads, 8 KV "
                    "heads, vocabulary 32,000"
                ),
            },
        ),
        (
            "qwen2_7b_config.json",
            {
                "model_name": "Qwen2.5 7B",
                "architecture": "dense",
                "total_params": "7.62B",
                "notes": SHAPE.format(
                    "28 layers, hidden size 3,584, 28 attention heads, 4 KV "
                    "heads, vocabulary 152,064"
                ),
            },
        ),
        (
            "deepseek_v3_config.json",
            {
                "model_name": "DeepSeek-V3",
                "architecture": "moe",
                "total_params": "671B",
                "active_params": "37B",
                "experts": "256",  # n_routed_experts
                "experts_per_token": "8",
            },
        ),
        # Meta's config.json of Llama 3.1 405B: 126 layers, 8 KV heads, vocabulary 128,256
        (
            "llama31_405b_config.json",
            {
                "model_name": "Llama 3.1 405B",
                "architecture": "dense",
                "total_params": "406B",
                "notes": SHAPE.format(
                    "126 layers, hidden size 16,384, 128 attention heads, 8 KV "
                    "heads, vocabulary 128,256"
                ),
            },
        ),
    ],
)
def test_public_configs_fill_the_model_question_with_the_published_sizes(name, expected):
    found = read_answers(example(name))
    assert found.format_name == FORMAT_NAME
    assert answers(found) == {("model", key): value for key, value in expected.items()}


def test_the_weights_format_and_the_longest_context_are_not_taken_for_training_settings():
    found = read_answers(example("llama31_8b_config.json"))
    assert {v.slug for v in found.values} == {"model"}
    assert "torch_dtype" in found.ignored and "max_position_embeddings" in found.ignored
    assert any("torch_dtype" in remark for remark in found.remarks)


def test_unknown_keys_are_listed_and_the_catalog_twin_is_named():
    found = read_answers(example("llama31_8b_config.json"))
    assert "rope_scaling.rope_type" in found.ignored
    assert "hidden_size" not in found.ignored
    assert any("Llama 3.1 8B" in remark for remark in found.remarks)


def test_gpt2_style_keys_and_tied_embeddings_are_counted():
    config = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257}
    found = read_answers(json.dumps(config).encode())
    assert answers(found)[("model", "total_params")] == "124M"


def test_a_config_without_the_shape_fills_nothing_and_says_why():
    found = read_answers(b'{"model_type": "llama", "num_local_experts": 8}')
    assert answers(found) == {("model", "architecture"): "moe", ("model", "experts"): "8"}
    assert "could not count" in found.remarks[0]


def with_own_name(file: str, name_or_path: str) -> bytes:
    config = json.loads(example(file))
    config["_name_or_path"] = name_or_path
    return json.dumps(config).encode()


def test_the_model_s_own_name_fills_the_model_name_as_the_last_part_of_its_path():
    # Reader 2 uploaded a 70B-shaped config.json of "our-org/clinical-llama-70b": no name.
    found = read_answers(with_own_name("llama31_8b_config.json", "our-org/clinical-llama-8b"))
    assert answers(found)[("model", "model_name")] == "clinical-llama-8b"
    assert "_name_or_path" not in found.ignored
    assert not any("type its name" in remark for remark in found.remarks)


def test_a_known_model_s_path_fills_its_catalog_name():
    found = read_answers(with_own_name("llama31_8b_config.json", "meta-llama/Llama-3.1-8B"))
    assert answers(found)[("model", "model_name")] == "Llama 3.1 8B"


@pytest.mark.parametrize("path", ["", ".", "/"])
def test_a_path_without_a_name_fills_no_name(path):
    found = read_answers(with_own_name("llama31_8b_config.json", path))
    assert ("model", "model_name") not in answers(found)


def test_a_file_shaped_like_two_catalog_models_names_neither_and_says_so():
    found = read_answers(example("llama31_8b_config.json"))  # Llama 3 8B and Llama 3.1 8B
    assert ("model", "model_name") not in answers(found)
    assert any("If it is one of them, type its name" in remark for remark in found.remarks)


def test_the_405b_file_s_shape_reaches_the_engine_not_a_generic_one():
    # A customer's Llama 3.1 405B config.json was sized as 127 layers, 128 KV heads and a
    # 32,000 vocabulary: only the parameter count reached the engine.
    found = read_answers(example("llama31_405b_config.json"))
    form = ModelForm(data={v.field: v.value for v in found.values if v.slug == "model"})
    assert form.is_valid(), form.errors
    name = next(v for v in found.values if v.field == "model_name")
    assert "shape" in name.source
    sized = size_answers(answers={"model": form.to_answer()})
    assert sized.engine_input["model"]["name"] == "Llama 3.1 405B"
    assert sized.sources["model.name"] == "customer"  # confirmed by them on the check page
    spec = find_model("Llama 3.1 405B")
    assert (spec.layers, spec.kv_heads, spec.vocab_size) == (126, 8, 128_256)
    assert sized.result["parallelism"]["layers"] == 126


def test_a_qwen_moe_config_gives_its_experts_and_routing():
    # Qwen1.5-MoE-A2.7B's config.json: "num_experts": 60, "num_experts_per_tok": 4
    config = {
        "model_type": "qwen2_moe",
        "num_experts": 60,
        "num_experts_per_tok": 4,
        "num_hidden_layers": 24,
        "hidden_size": 2048,
        "num_attention_heads": 16,
        "vocab_size": 151936,
        "moe_intermediate_size": 1408,
        "shared_expert_intermediate_size": 5632,
    }
    found = read_answers(json.dumps(config).encode())
    got = answers(found)
    assert (got[("model", "experts")], got[("model", "experts_per_token")]) == ("60", "4")
    assert "num_experts_per_tok" not in found.ignored
