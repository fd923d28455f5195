"""A LLaMA-Factory training configuration (YAML, as for ``llamafactory-cli train``).

Keys from LLaMA-Factory's examples: ``model_name_or_path``, ``stage`` (``pt`` pre-training,
``sft`` and the preference stages), ``finetuning_type`` (``lora``, ``full``, ``freeze``),
``quantization_bit`` (4 for QLoRA), ``cutoff_len`` (the training sequence length),
``per_device_train_batch_size``, ``gradient_accumulation_steps``, ``num_train_epochs``,
``bf16``/``fp16``/``pure_bf16``, ``optim`` and ``deepspeed``.
"""

from __future__ import annotations

from questionnaire.prefill.found import (
    Found,
    Settings,
    add_counts,
    add_epochs,
    add_model_name,
    add_optimizer,
    finish,
    tool,
)

FORMAT_NAME = "LLaMA-Factory training configuration"
QLORA_BITS = 4


def is_llama_factory(settings: Settings) -> bool:
    return "finetuning_type" in settings or (
        "model_name_or_path" in settings and ("stage" in settings or "cutoff_len" in settings)
    )


def read_llama_factory(settings: Settings) -> Found:
    found = Found(FORMAT_NAME)
    model = settings.text("model_name_or_path")
    if model:
        add_model_name(found, model, "model_name_or_path")
    _method(found, settings)
    add_counts(
        found,
        settings,
        {
            "cutoff_len": ("batch", "sequence_length"),
            "per_device_train_batch_size": ("batch", "micro_batch_size"),
            "gradient_accumulation_steps": ("batch", "gradient_accumulation"),
        },
    )
    add_epochs(found, settings, "num_train_epochs")
    for key, precision in (("bf16", "bf16"), ("pure_bf16", "bf16"), ("fp16", "fp16")):
        if settings.flag(key):
            found.add("precision", "precision", precision, key)
            break
    add_optimizer(found, settings, "optim")
    found.add_choices("software", "frameworks", ["pytorch", "huggingface"], tool("LLaMA-Factory"))
    if settings.text("deepspeed"):
        found.add_choices("parallelism", "strategies", ["data", "fsdp"], "deepspeed")
        found.add_choices("software", "frameworks", ["deepspeed"], "deepspeed")
    return finish(found, settings)


def _method(found: Found, settings: Settings) -> None:
    kind = (settings.text("finetuning_type") or "").lower()
    stage = (settings.text("stage") or "").lower()
    bits = settings.count("quantization_bit")
    if kind == "lora":
        method = "qlora" if bits == QLORA_BITS else "lora"
    elif kind == "full":
        method = "continued_pretrain" if stage == "pt" else "full_finetune"
    elif kind:
        method = "other_peft"
    else:
        return
    found.add("method", "method", method, "finetuning_type")
