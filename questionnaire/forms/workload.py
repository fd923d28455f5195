"""Questions 1–6: the model, how it is trained, the data, time, and batch shape."""

from __future__ import annotations

import datetime

from django.utils.functional import lazy

from questionnaire.fields import (
    DateAnswerField,
    QuantityField,
    RadioAnswerField,
    TextAnswerField,
    YesNoField,
)
from questionnaire.forms.base import QuestionForm
from questionnaire.quantities import Kind
from questionnaire.roles import Feeds, Noted, Requirement
from sizing.public import (
    MODEL_CATALOG,
)

# Upper limits that catch a slip of the unit (GB for TB, B for T) without refusing real plans.
# The largest published models have around 2 trillion parameters and are trained on tens of
# trillions of tokens; the limits sit far above that.
MAX_PARAMETERS = 1e14
# Below a million parameters a bare number is a missing scale word ("70" for 70 billion).
MIN_PARAMETERS = 1e6
MAX_TOKENS = 1e16
MAX_RUN_HOURS = 24 * 365 * 2
# The engine's own limit on a model's experts (sizing.engine.validation); DeepSeek-V3 has 256.
MAX_EXPERTS = 10_000

__all__ = [
    "BatchForm",
    "DataForm",
    "MethodForm",
    "ModelForm",
    "PrecisionForm",
    "TimelineForm",
]


def _deadline_hint() -> str:
    """How to type a date, with an example in the en-GB order a year from today."""
    example = datetime.date.today() + datetime.timedelta(days=365)
    return f"Type it as day/month/year, for example {example.day}/{example.month}/{example.year}."


class ModelForm(QuestionForm):
    model_name = TextAnswerField(
        does=Feeds(("model.name",)),
        label="Model name",
        help_text="Start typing to see known models.",
        suggestions=tuple(spec.name for spec in MODEL_CATALOG),
        max_length=200,
    )
    architecture = RadioAnswerField(
        does=Feeds(("model.architecture",)),
        label="Type of model",
        choices=(
            ("dense", "Dense: every parameter is used for every token"),
            ("moe", "Mixture of experts (MoE): only some parts are used for each token"),
        ),
    )
    total_params = QuantityField(
        does=Feeds(("model.total_params",)),
        label="Total parameters",
        help_text="For example 8B, 70 billion or 350M.",
        kind=Kind.COUNT,
        what="the total number of parameters",
        maximum=MAX_PARAMETERS,
        minimum=MIN_PARAMETERS,
    )
    active_params = QuantityField(
        does=Feeds(("model.active_params",), when=({"architecture": "moe"},)),
        label="Active parameters per token (mixture of experts only)",
        help_text="For example 12.9B.",
        kind=Kind.COUNT,
        what="the number of active parameters",
        maximum=MAX_PARAMETERS,
        minimum=MIN_PARAMETERS,
    )

    # The engine places whole experts on each expert-parallel rank (its degree divides the
    # count) and sends each token to its top-k of them: the all-to-all traffic and the expert
    # layout follow these two figures, and without them the engine assumes a typical count.
    experts = QuantityField(
        does=Feeds(("model.experts",), when=({"architecture": "moe"},)),
        label="Experts (mixture of experts only)",
        help_text="For example 64.",
        kind=Kind.COUNT,
        what="the number of experts",
        whole=True,
        minimum=2,
        maximum=MAX_EXPERTS,
        width="short",
    )
    experts_per_token = QuantityField(
        does=Feeds(("model.experts_per_token",), when=({"architecture": "moe"},)),
        label="Experts used per token (mixture of experts only)",
        help_text="For example 8.",
        kind=Kind.COUNT,
        what="the number of experts used per token",
        whole=True,
        minimum=1,
        maximum=MAX_EXPERTS,
        width="short",
    )

    def clean(self):
        cleaned = super().clean()
        total, active = cleaned.get("total_params"), cleaned.get("active_params")
        if total and active and total.value and active.value and active.value > total.value:
            self.add_error(
                "active_params",
                "Active parameters cannot be more than the total parameters.",
            )
        most, used = (
            field.value if field else None
            for field in (cleaned.get("experts"), cleaned.get("experts_per_token"))
        )
        if most and used and used > most:
            self.add_error(
                "experts_per_token",
                "Experts used per token cannot be more than the experts.",
            )
        return cleaned


class MethodForm(QuestionForm):
    method = RadioAnswerField(
        does=Feeds(("training.method",)),
        label="How will you train?",
        choices=(
            ("pretrain", "From scratch (pre-training)"),
            ("continued_pretrain", "Continue pre-training an existing model"),
            ("full_finetune", "Full fine-tuning: all parameters change"),
            ("lora", "LoRA"),
            ("qlora", "QLoRA"),
            ("other_peft", "Another parameter-efficient method"),
            ("finetune_unsure", "Fine-tuning, not sure yet whether full or LoRA"),
        ),
    )
    phases = QuantityField(
        does=Feeds(("training.experiments",)),
        label="Training phases",
        help_text="For example 2: pre-train, then fine-tune.",
        kind=Kind.COUNT,
        what="the number of phases",
        whole=True,
        maximum=100,
        width="short",
    )
    experiments = QuantityField(
        does=Feeds(("training.experiments",)),
        label="Experiments or runs you expect",
        help_text="Tests included. For example 20.",
        kind=Kind.COUNT,
        what="the number of experiments",
        whole=True,
        maximum=1e5,
        width="short",
    )


class PrecisionForm(QuestionForm):
    precision = RadioAnswerField(
        does=Feeds(("training.precision",)),
        label="Number format during training",
        choices=(
            ("bf16", "BF16"),
            ("fp16", "FP16"),
            ("fp8", "FP8"),
            ("mixed", "Mixed precision (BF16 with FP32 master weights)"),
            ("tf32", "TF32"),
            ("fp32", "FP32"),
        ),
    )
    optimizer = RadioAnswerField(
        does=Feeds(("training.optimizer",)),
        label="Optimizer",
        choices=(
            ("adamw", "AdamW"),
            ("adamw_8bit", "8-bit Adam"),
            ("adafactor", "Adafactor"),
            ("sgd", "SGD"),
            ("lion", "Lion"),
            ("other", "Another optimizer"),
        ),
    )
    gradient_checkpointing = YesNoField(
        does=Feeds(("training.gradient_checkpointing",)),
        label="Will you use gradient checkpointing?",
    )


class DataForm(QuestionForm):
    dataset_size = QuantityField(
        does=Feeds(
            ("data.tokens", "data.samples", "data.dataset_size_tb"),
            when=({"dataset_unit": "tokens"}, {"dataset_unit": "samples"}, {"dataset_unit": "gb"}),
        ),
        label="Size of your training data",
        help_text="For example 1.2T tokens, 400,000 samples or 2 TB.",
        kind=Kind.DATA,
        what="the size of your data",
        maximum=MAX_TOKENS,
        unit_field="dataset_unit",
    )
    dataset_unit = RadioAnswerField(
        does=Feeds(
            ("data.tokens", "data.samples", "data.dataset_size_tb"),
            when=({"dataset_size": 1e9},),
        ),
        label="That size is counted in",
        choices=(
            ("tokens", "Tokens"),
            ("samples", "Samples (documents, images, clips or examples)"),
            ("gb", "Storage size (GB or TB)"),
        ),
    )
    modality = RadioAnswerField(
        does=Feeds(("data.modality",)),
        label="Kind of data",
        choices=(
            ("text", "Text"),
            ("image", "Images"),
            ("audio", "Audio"),
            ("video", "Video"),
            ("multimodal", "A mix of these (multimodal)"),
        ),
    )
    tokens_per_sample = QuantityField(
        does=Feeds(("data.tokens",), when=({"dataset_size": 4e5, "dataset_unit": "samples"},)),
        label="Average tokens per sample (text)",
        kind=Kind.COUNT,
        what="the average tokens per sample",
        maximum=1e8,
        width="short",
    )
    sample_size_gb = QuantityField(
        does=Feeds(("data.bytes_per_sample",)),
        label="Average size of one sample on disk",
        help_text="For example 40 MB.",
        kind=Kind.SIZE,
        default_unit="MB",
        what="the average sample size",
        maximum=1e4,
        width="short",
    )
    epochs = QuantityField(
        does=Feeds(("data.epochs",)),
        label="Epochs: how many times the model sees the data",
        kind=Kind.COUNT,
        what="the number of epochs",
        maximum=1e4,
        width="short",
    )
    annual_growth_pct = QuantityField(
        does=Feeds(("data.annual_growth",)),
        label="Growth of the data per year",
        help_text="For example 30 %, or 0.",
        kind=Kind.PERCENT,
        what="the yearly growth",
        allow_zero=True,
        maximum=10_000,
        width="short",
    )


class TimelineForm(QuestionForm):
    run_time_hours = QuantityField(
        does=Feeds(("schedule.deadline_days",)),
        label="Longest time for one training run",
        help_text="For example 12 hours or 3 days.",
        kind=Kind.DURATION,
        default_unit="hours",
        what="the time for one run",
        maximum=MAX_RUN_HOURS,
    )
    deadline = DateAnswerField(
        does=Feeds(("schedule.deadline_days",)),
        label="First results needed by (optional)",
        help_text=lazy(_deadline_hint, str)(),
        future_only=True,
    )
    runs_per_month = QuantityField(
        does=Feeds(("roadmap.runs_per_month",)),
        label="Training runs per month",
        kind=Kind.COUNT,
        what="the number of runs per month",
        maximum=1e4,
        width="short",
    )
    queue_time_hours = QuantityField(
        does=Requirement(
            "The compute and timeline section repeats it next to how many full-size runs the "
            "cluster holds at once, and asks how many runs may start together when none may wait."
        ),
        label="Longest wait before a run starts",
        help_text="For example 2 hours, or 0 to start at once.",
        kind=Kind.DURATION,
        default_unit="hours",
        what="the waiting time",
        allow_zero=True,
        maximum=MAX_RUN_HOURS,
    )


class BatchForm(QuestionForm):
    sequence_length = QuantityField(
        does=Feeds(
            ("batch.sequence_length", "batch.global_batch_tokens"),
            when=({}, {"global_batch": 512, "global_batch_unit": "samples"}),
        ),
        label="Sequence length in tokens",
        help_text="For example 4096, 4k or 32k.",
        kind=Kind.CONTEXT,
        what="the sequence length",
        whole=True,
        maximum=1e8,
        width="short",
    )
    global_batch = QuantityField(
        does=Feeds(
            ("batch.global_batch_tokens",),
            when=(
                {"global_batch_unit": "tokens"},
                {"global_batch_unit": "samples", "sequence_length": 4096},
            ),
        ),
        label="Global batch size",
        help_text="For example 512 samples or 4M tokens.",
        kind=Kind.COUNT,
        what="the global batch size",
        maximum=1e10,
        unit_field="global_batch_unit",
    )
    global_batch_unit = RadioAnswerField(
        does=Feeds(
            ("batch.global_batch_tokens",), when=({"global_batch": 1024, "sequence_length": 256},)
        ),
        label="That batch size is counted in",
        choices=(("samples", "Samples"), ("tokens", "Tokens")),
    )
    micro_batch_size = QuantityField(
        does=Feeds(("batch.micro_batch_size",)),
        label="Micro-batch size per accelerator",
        kind=Kind.COUNT,
        what="the micro-batch size",
        whole=True,
        maximum=1e6,
        width="short",
    )
    gradient_accumulation = QuantityField(
        does=Noted(
            "The plan sets the accumulation steps from the global batch, the micro-batch and the "
            "number of data-parallel copies; a count of yours only changes how the same batch is "
            "split, not the hardware. Our engineer reconciles it with the plan."
        ),
        label="Gradient accumulation steps",
        kind=Kind.COUNT,
        what="the gradient accumulation steps",
        whole=True,
        maximum=1e6,
        width="short",
    )
    max_global_batch = QuantityField(
        does=Requirement(
            "The parallelism section compares it with the global batch the plan trains with, "
            "and asks you when the plan's batch is larger."
        ),
        label="Largest global batch you can accept",
        help_text="In the same unit as above.",
        kind=Kind.COUNT,
        what="the largest batch",
        maximum=1e10,
    )
