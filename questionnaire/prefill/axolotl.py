"""An Axolotl recipe (YAML): the model, LoRA or QLoRA, batch, precision and epochs.

Key names from Axolotl's documented configuration (``base_model``, ``adapter``,
``load_in_4bit``, ``sequence_len``, ``micro_batch_size``, ``gradient_accumulation_steps``,
``num_epochs``, ``optimizer``, ``bf16``, ``fp16``, ``gradient_checkpointing``, ``deepspeed``,
``fsdp``). Without ``adapter``, Axolotl fine-tunes every parameter.
"""

from __future__ import annotations

from questionnaire.prefill.found import (
    Found,
    Settings,
    add_counts,
    add_epochs,
    add_model_name,
    add_optimizer,
    add_yes_no,
    finish,
    tool,
)

FORMAT_NAME = "Axolotl recipe"


def is_axolotl(settings: Settings) -> bool:
    return settings.peek("base_model") is not None or (
        "sequence_len" in settings and "micro_batch_size" in settings
    )


def read_axolotl(settings: Settings) -> Found:
    found = Found(FORMAT_NAME)
    model = settings.text("base_model")
    if model:
        add_model_name(found, model, "base_model")
    settings.use("base_model_config")
    _method(found, settings)
    add_counts(
        found,
        settings,
        {
            "sequence_len": ("batch", "sequence_length"),
            "micro_batch_size": ("batch", "micro_batch_size"),
            "gradient_accumulation_steps": ("batch", "gradient_accumulation"),
        },
    )
    add_epochs(found, settings, "num_epochs")
    _precision(found, settings)
    add_optimizer(found, settings, "optimizer")
    add_yes_no(found, settings, "precision", "gradient_checkpointing", "gradient_checkpointing")
    _sharding(found, settings)
    found.add_choices("software", "frameworks", ["pytorch", "huggingface"], tool("Axolotl"))
    return finish(found, settings)


def _method(found: Found, settings: Settings) -> None:
    adapter = settings.text("adapter")
    four_bit = settings.flag("load_in_4bit")
    settings.flag("load_in_8bit")
    if adapter is None:
        found.add(
            "method", "method", "full_finetune", "No adapter is set, so every parameter is trained"
        )
    elif adapter.lower() == "qlora" or (adapter.lower() == "lora" and four_bit):
        found.add("method", "method", "qlora", "adapter, load_in_4bit" if four_bit else "adapter")
    elif adapter.lower() == "lora":
        found.add("method", "method", "lora", "adapter")
    else:
        found.add("method", "method", "other_peft", "adapter")


def _precision(found: Found, settings: Settings) -> None:
    # "auto" picks BF16 wherever the accelerator has it, as every current training one does.
    bf16 = settings.peek("bf16")
    if bf16 is True or bf16 == "auto":
        settings.use("bf16")
        found.add("precision", "precision", "bf16", "bf16")
    elif settings.flag("fp16"):
        found.add("precision", "precision", "fp16", "fp16")
    settings.flag("bf16")
    settings.flag("fp16")


def _sharding(found: Found, settings: Settings) -> None:
    if settings.text("deepspeed"):
        found.add_choices("parallelism", "strategies", ["data", "fsdp"], "deepspeed")
        found.add_choices("software", "frameworks", ["deepspeed"], "deepspeed")
    if settings.peek("fsdp") or any(key.startswith("fsdp_config.") for key in settings.unused()):
        settings.use("fsdp")
        found.add_choices("parallelism", "strategies", ["data", "fsdp"], "fsdp")
