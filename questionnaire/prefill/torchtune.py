"""A torchtune recipe configuration (YAML).

torchtune names its parts by builder (``model._component_:
torchtune.models.llama3_1.lora_llama3_1_8b``): the builder says the model and the method (a
``lora_`` or ``qlora_`` prefix, else full fine-tuning). Other keys from torchtune's recipe
configs: ``batch_size``, ``gradient_accumulation_steps``, ``epochs``, ``tokenizer.max_seq_len``,
``dtype``, ``optimizer._component_``, ``enable_activation_checkpointing``.
"""

from __future__ import annotations

import re

from questionnaire.prefill.found import (
    Found,
    Settings,
    add_counts,
    add_model_name,
    add_optimizer,
    add_yes_no,
    finish,
    tool,
)

FORMAT_NAME = "torchtune recipe configuration"
_BUILDER = re.compile(r"^torchtune\.models\.[a-z0-9_]+\.(?P<method>q?lora_)?(?P<model>[a-z0-9_]+)$")
# Builders write versions with underscores (llama3_1_8b): "3_1_" is version 3.1.
_VERSION = re.compile(r"(\d)_(\d)_")


def is_torchtune(settings: Settings) -> bool:
    component = settings.peek("model._component_")
    return isinstance(component, str) and component.startswith("torchtune.")


def read_torchtune(settings: Settings) -> Found:
    found = Found(FORMAT_NAME)
    builder = _BUILDER.match(settings.text("model._component_") or "")
    if builder:
        model = _VERSION.sub(r"\1.\2 ", builder["model"]).replace("_", " ")
        add_model_name(found, model, "model._component_")
        method = {"lora_": "lora", "qlora_": "qlora"}.get(builder["method"] or "", "full_finetune")
        found.add("method", "method", method, "model._component_")
    add_counts(
        found,
        settings,
        {
            "tokenizer.max_seq_len": ("batch", "sequence_length"),
            "batch_size": ("batch", "micro_batch_size"),
            "gradient_accumulation_steps": ("batch", "gradient_accumulation"),
            "epochs": ("data", "epochs"),
        },
    )
    dtype = settings.peek("dtype")
    if isinstance(dtype, str) and dtype.lower() in ("bf16", "fp16", "fp32"):
        settings.use("dtype")
        found.add("precision", "precision", dtype.lower(), "dtype")
    add_optimizer(found, settings, "optimizer._component_")
    add_yes_no(
        found, settings, "precision", "gradient_checkpointing", "enable_activation_checkpointing"
    )
    tensor_parallel = settings.count("tensor_parallel_dim")
    if tensor_parallel and tensor_parallel > 1:
        found.add_choices("parallelism", "strategies", ["tensor"], "tensor_parallel_dim")
    found.add_choices("software", "frameworks", ["pytorch"], tool("torchtune"))
    return finish(found, settings)
