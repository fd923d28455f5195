"""A DeepSpeed configuration (JSON): batch, number format, optimizer and ZeRO sharding.

Keys from DeepSpeed's configuration reference: ``train_batch_size`` (the global batch, in
samples), ``train_micro_batch_size_per_gpu``, ``gradient_accumulation_steps``,
``bf16.enabled``, ``fp16.enabled``, ``optimizer.type``, ``zero_optimization.stage`` and its
``offload_optimizer.device`` and ``offload_param.device``. A value of ``"auto"`` (filled in by
the Hugging Face integration at run time) is not a value yet, so it is left unused.
"""

from __future__ import annotations

from questionnaire.prefill.found import Found, Settings, add_counts, add_optimizer, finish, tool

FORMAT_NAME = "DeepSpeed configuration"
MARKERS = (
    "zero_optimization",
    "train_micro_batch_size_per_gpu",
    "train_batch_size",
    "zero_optimization.stage",
)


def is_deepspeed(settings: Settings) -> bool:
    return any(key in settings or f"{key}.stage" in settings for key in MARKERS)


def read_deepspeed(settings: Settings) -> Found:
    found = Found(FORMAT_NAME)
    global_batch = settings.count("train_batch_size")
    if global_batch:
        found.add("batch", "global_batch", str(global_batch), "train_batch_size")
        found.add("batch", "global_batch_unit", "samples", "train_batch_size")
    add_counts(
        found,
        settings,
        {
            "train_micro_batch_size_per_gpu": ("batch", "micro_batch_size"),
            "gradient_accumulation_steps": ("batch", "gradient_accumulation"),
        },
    )
    if settings.flag("bf16.enabled"):
        found.add("precision", "precision", "bf16", "bf16.enabled")
    elif settings.flag("fp16.enabled"):
        found.add("precision", "precision", "fp16", "fp16.enabled")
    settings.flag("bf16.enabled")
    settings.flag("fp16.enabled")
    add_optimizer(found, settings, "optimizer.type")
    _zero(found, settings)
    found.add_choices("software", "frameworks", ["pytorch", "deepspeed"], tool("DeepSpeed"))
    return finish(found, settings)


def _zero(found: Found, settings: Settings) -> None:
    stage = settings.peek("zero_optimization.stage")
    if not isinstance(stage, int) or isinstance(stage, bool) or stage not in (0, 1, 2, 3):
        return
    settings.use("zero_optimization.stage")
    strategies = ["data", "fsdp"] if stage else ["data"]
    found.add_choices("parallelism", "strategies", strategies, "zero_optimization.stage")
    parts = [f"DeepSpeed ZeRO stage {stage}"]
    for key, what in (
        ("zero_optimization.offload_optimizer.device", "optimizer state"),
        ("zero_optimization.offload_param.device", "parameters"),
    ):
        device = settings.text(key)
        if device and device.lower() in ("cpu", "nvme"):
            parts.append(f"{what} offloaded to {device.upper()}")
        elif device:
            settings.use(key)
    found.add("parallelism", "notes", ", ".join(parts) + ".", "zero_optimization")
