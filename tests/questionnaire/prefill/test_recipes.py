"""Training recipes of five kinds fill the method, batch, precision and parallelism questions."""

import pytest

from questionnaire.prefill.formats import read_answers
from tests.questionnaire.prefill.files import example

AXOLOTL = {
    ("model", "model_name"): "Llama 3.1 8B",
    ("method", "method"): "qlora",
    ("batch", "sequence_length"): "4096",
    ("batch", "micro_batch_size"): "2",
    ("batch", "gradient_accumulation"): "4",
    ("data", "epochs"): "3",
    ("precision", "precision"): "bf16",
    ("precision", "optimizer"): "adamw_8bit",
    ("precision", "gradient_checkpointing"): "yes",
    ("software", "frameworks"): ["pytorch", "huggingface"],
}
TORCHTUNE = {
    ("model", "model_name"): "Llama 3.1 8B",
    ("method", "method"): "lora",
    ("batch", "sequence_length"): "8192",
    ("batch", "micro_batch_size"): "4",
    ("batch", "gradient_accumulation"): "16",
    ("data", "epochs"): "2",
    ("precision", "precision"): "bf16",
    ("precision", "optimizer"): "adamw",
    ("precision", "gradient_checkpointing"): "yes",
    ("software", "frameworks"): ["pytorch"],
}
LLAMA_FACTORY = {
    ("model", "model_name"): "Qwen2.5 7B",
    ("method", "method"): "full_finetune",
    ("batch", "sequence_length"): "2048",
    ("batch", "micro_batch_size"): "1",
    ("batch", "gradient_accumulation"): "8",
    ("data", "epochs"): "3",
    ("precision", "precision"): "bf16",
    ("precision", "optimizer"): "adamw",
    ("software", "frameworks"): ["pytorch", "huggingface", "deepspeed"],
    ("parallelism", "strategies"): ["data", "fsdp"],
}
DEEPSPEED = {
    ("batch", "global_batch"): "256",
    ("batch", "global_batch_unit"): "samples",
    ("batch", "micro_batch_size"): "4",
    ("batch", "gradient_accumulation"): "8",
    ("precision", "precision"): "bf16",
    ("precision", "optimizer"): "adamw",
    ("parallelism", "strategies"): ["data", "fsdp"],
    ("parallelism", "notes"): "DeepSpeed ZeRO stage 3, optimizer state offloaded to CPU.",
    ("software", "frameworks"): ["pytorch", "deepspeed"],
}
MEGATRON = {
    # 80 layers of 8192, 64 heads in 8 groups, SwiGLU 28672, vocabulary 128,256: Llama 3 70B's
    # shape, 70.6B parameters (model card).
    ("model", "architecture"): "dense",
    ("model", "total_params"): "70.6B",
    ("model", "notes"): "Shape from the file: 80 layers, hidden size 8,192, 64 attention heads, "
    "8 KV heads, vocabulary 128,256.",
    ("batch", "sequence_length"): "8192",
    ("batch", "micro_batch_size"): "1",
    ("batch", "global_batch"): "1024",
    ("batch", "global_batch_unit"): "samples",
    ("precision", "precision"): "fp8",
    ("precision", "optimizer"): "adamw",
    ("precision", "gradient_checkpointing"): "yes",
    ("parallelism", "strategies"): ["tensor", "pipeline", "sequence", "fsdp"],
    ("parallelism", "notes"): "Megatron-LM: tensor parallel 8, pipeline parallel 4.",
    ("software", "frameworks"): ["pytorch", "megatron"],
}


@pytest.mark.parametrize(
    ("name", "format_name", "expected"),
    [
        ("axolotl_llama3_qlora.yml", "Axolotl recipe", AXOLOTL),
        ("torchtune_llama3_1_8b_lora.yaml", "torchtune recipe configuration", TORCHTUNE),
        (
            "llama_factory_qwen_full_sft.yaml",
            "LLaMA-Factory training configuration",
            LLAMA_FACTORY,
        ),
        ("ds_zero3_offload.json", "DeepSpeed configuration", DEEPSPEED),
        ("megatron_70b_pretrain.sh", "Megatron-LM arguments", MEGATRON),
    ],
)
def test_each_kind_of_recipe_is_recognised_and_fills_its_answers(name, format_name, expected):
    found = read_answers(example(name))
    assert found.format_name == format_name
    assert {(v.slug, v.field): v.value for v in found.values} == expected


@pytest.mark.parametrize(
    ("name", "ignored"),
    [
        ("axolotl_llama3_qlora.yml", {"learning_rate", "lora_r", "datasets", "flash_attention"}),
        ("torchtune_llama3_1_8b_lora.yaml", {"optimizer.lr", "model.lora_rank", "device"}),
        ("llama_factory_qwen_full_sft.yaml", {"learning_rate", "template", "dataset"}),
        ("ds_zero3_offload.json", {"gradient_clipping", "zero_optimization.overlap_comm"}),
        ("megatron_70b_pretrain.sh", {"--lr", "--train-iters", "--data-path"}),
    ],
)
def test_settings_that_answer_nothing_are_listed_as_not_used(name, ignored):
    found = read_answers(example(name))
    assert ignored <= set(found.ignored)
    used = {v.source for v in found.values}
    assert not used & set(found.ignored)


def test_deepspeed_auto_values_are_not_values_yet():
    found = read_answers(
        b'{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",'
        b' "bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 2}}'
    )
    filled = {(v.slug, v.field) for v in found.values}
    assert ("batch", "micro_batch_size") not in filled
    assert ("precision", "precision") not in filled
    assert {"train_micro_batch_size_per_gpu", "bf16.enabled"} <= set(found.ignored)


@pytest.mark.parametrize(
    ("recipe", "method"),
    [
        (b"base_model: m/x\nadapter: lora\n", "lora"),
        (b"base_model: m/x\nadapter: lora\nload_in_4bit: true\n", "qlora"),
        (b"base_model: m/x\nsequence_len: 1024\n", "full_finetune"),
        (b"model_name_or_path: m/x\nfinetuning_type: lora\nquantization_bit: 4\n", "qlora"),
        (b"model_name_or_path: m/x\nstage: pt\nfinetuning_type: full\n", "continued_pretrain"),
        (b"model:\n  _component_: torchtune.models.qwen2_5.qlora_qwen2_5_7b\n", "qlora"),
        (b"model:\n  _component_: torchtune.models.llama3_1.llama3_1_70b\n", "full_finetune"),
    ],
)
def test_the_training_method_follows_the_recipe(recipe, method):
    found = read_answers(recipe)
    assert {(v.slug, v.field): v.value for v in found.values}[("method", "method")] == method


def test_an_unknown_model_is_kept_as_written_with_a_word_on_its_size():
    found = read_answers(b"base_model: our-org/claims-13b\nmicro_batch_size: 1\n")
    assert found.values[0].value == "our-org/claims-13b"
    assert "our-org/claims-13b" in found.remarks[0]


def test_megatron_without_a_vocabulary_counts_with_the_default_and_says_so():
    found = read_answers(b"--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --swiglu")
    assert ("model", "total_params") in {(v.slug, v.field) for v in found.values}
    assert "vocabulary" in found.remarks[0]
