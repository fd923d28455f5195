"""Resolve the answers about one run: training method, data, batch and schedule.

Defaults are sourced in :mod:`sizing.engine.assumptions`.

References
----------
.. [1] Hoffmann et al., Chinchilla, arXiv 2203.15556 (2022): ~20 tokens/param.
.. [2] Touvron et al., Llama 2, arXiv 2307.09288 (2023): 4M-token batches, 4,096 context,
       fine-tuning batches of 64 sequences.
.. [3] Brown et al., GPT-3, arXiv 2005.14165 (2020), Table 2.1: 0.5M-token batches
       below 1B parameters.
.. [4] DeepSeek-AI, DeepSeek LLM, arXiv 2401.02954 (2024), sec. 3.1: near-optimal batch
       ``B_opt = 0.2920 C^0.3271`` tokens for ``C`` FLOPs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..assumptions import ASSUMPTIONS, UNLISTED_ASSUMPTIONS, value, whole
from ..inputs import (
    ADAPTER_METHODS,
    FINETUNE_UNSURE,
    PRETRAINING_METHODS,
    BatchInput,
    DataInput,
    ScheduleInput,
    TrainingInput,
)
from ..numbers import format_count, format_quantity
from ..provenance import AnswerRecorder
from ..units import BILLION, BYTES_PER_GB

_TB = 1e12  # [B/TB]

_MEDIA_DECODED_ON_THE_FLY = ("image", "video")
# Asked only when the customer did not say whether data is prepared before or during training.
ASK_DATA_READY = (
    "Is the data ready and cleaned, or will data preparation run while the hardware waits?"
)
# How tokens read from a dataset's size on disk are sourced, and what is asked about it.
SIZE_READ_AS_TEXT = "worked out from your dataset size read as plain text"
ASK_TEXT_FROM_SIZE = (
    "Is your dataset plain text, or files such as PDF, Word or slides? Such files hold far "
    "less text than their size: the number of documents, or their tokens once the text is "
    "extracted, would size the run better."
)
_DEFAULT_METHOD_CATALOG_MODEL = "full_finetune"  # a named public model is usually fine-tuned
_DEFAULT_METHOD_OWN_MODEL = "pretrain"
_DEFAULT_PRECISION = "bf16"  # mixed BF16, as in Llama 2 [2]
_DEFAULT_OPTIMIZER = "adamw"  # AdamW, as in Llama 2 [2]
_DEFAULT_MODALITY = "text"


@dataclass(frozen=True)
class ResolvedTraining:
    method: str
    precision: str
    optimizer: str
    gradient_checkpointing: bool | None  # None: the plan search decides
    lora_rank: int
    experiments: int  # [full runs]


def resolve_training(
    answers: TrainingInput,
    *,
    model_in_catalog: bool,
    total_params: float,
    tokens_given: float | None,
    rec: AnswerRecorder,
) -> ResolvedTraining:
    """Method, precision, optimizer, adapter rank and number of runs.

    Fine-tuning of a kind not yet decided is sized as full fine-tuning, the larger of the
    two, and said as an assumption with the question that settles it. With no method at all, a
    model of the customer's own is pre-trained, unless their data (``tokens_given`` [tokens])
    is below ``pretrain_min_tokens_per_param`` tokens a parameter of ``total_params``: nobody
    pre-trains a model on that little [1]_ [3]_, so an existing model is adapted with LoRA.
    """
    too_little_to_pretrain = (
        answers.method is None
        and not model_in_catalog
        and tokens_given is not None
        and tokens_given < value("pretrain_min_tokens_per_param") * total_params
    )
    if too_little_to_pretrain:
        method = rec.take(
            "training.method",
            None,
            "lora",
            unit="-",
            why="sets which weights train, and so the memory and the compute",
            question="Pre-training, full fine-tuning or LoRA/QLoRA? With this much data we "
            "sized LoRA adapters on an existing open model; full fine-tuning needs several "
            "times the memory.",
            source=f"your data, about {format_count(tokens_given or 0)} tokens, is far too "
            f"little to pre-train a model of {format_quantity(total_params, 'parameters')} "
            "(compute-optimal pre-training uses about 20 tokens a parameter; GPT-3 used 1.7), "
            "so we sized adapting an existing open model with LoRA",
        )
    elif answers.method == FINETUNE_UNSURE:
        method = rec.take(
            "training.method",
            None,
            "full_finetune",
            unit="-",
            why="sets which weights train, and so the memory and the compute",
            question="Full fine-tuning, or LoRA/QLoRA adapters? We sized full fine-tuning, "
            "the larger; adapters need far fewer accelerators.",
            source="you plan to fine-tune without having chosen how: full fine-tuning is "
            "sized, the larger of the two",
        )
    else:
        method = rec.take(
            "training.method",
            answers.method,
            _DEFAULT_METHOD_CATALOG_MODEL if model_in_catalog else _DEFAULT_METHOD_OWN_MODEL,
            unit="-",
            why="sets which weights train, and so the memory and the compute",
            question="Pre-training, full fine-tuning or LoRA/QLoRA?",
        )
    precision = rec.take(
        "training.precision",
        answers.precision,
        _DEFAULT_PRECISION,
        unit="-",
        why="sets the bytes per number and the speed of the arithmetic",
        question="Which precision (BF16 is assumed)?",
    )
    optimizer = rec.take(
        "training.optimizer",
        answers.optimizer,
        _DEFAULT_OPTIMIZER,
        unit="-",
        why="sets the optimizer's memory",
    )
    if method in ADAPTER_METHODS:
        lora_rank = rec.take(
            "training.lora_rank",
            answers.lora_rank,
            whole("default_lora_rank"),
            unit="-",
            why="sets the size of the adapters",
        )
    else:  # no adapters: the rank is carried along but is no assumption of this sizing
        lora_rank = answers.lora_rank or whole("default_lora_rank")
    experiments = rec.take(
        "training.experiments",
        answers.experiments,
        whole("default_experiments"),
        unit="runs",
        why="sets how many runs the cluster must hold",
        question="How many full runs (phases, repeats, ablations) are planned?",
    )
    return ResolvedTraining(
        method=str(method),
        precision=str(precision),
        optimizer=str(optimizer),
        gradient_checkpointing=answers.gradient_checkpointing,
        lora_rank=int(lora_rank),
        experiments=int(experiments),
    )


def record_lora_targets(rec: AnswerRecorder, *, moe: bool, experts: int) -> None:
    """Record which layers the adapters are assumed on: PEFT's ``target_modules="all-linear"``,
    every linear layer but the output head, each expert's on an MoE model."""
    mlp = (
        f"the gate, up and down projections of all {experts} experts and the router"
        if moe
        else ("the MLP's gate, up and down projections")
    )
    rec.record(
        "training.lora_targets",
        f"every linear layer but the output head: q, k, v, o, {mlp}",
        unit="-",
        given=False,
        source='Hugging Face PEFT docs, LoraConfig target_modules="all-linear"',
        why="sets how many adapter weights train: their memory, checkpoint and compute",
    )


def resolve_sequence_length(
    batch: BatchInput,
    data: DataInput,
    rec: AnswerRecorder,
    *,
    model_name: str = "",
    max_context: int | None = None,
) -> int:
    """Training context [tokens]; video models train on longer sequences [2]_.

    The default never exceeds the context the catalog's model was trained for
    (``max_context``, GPT-2's 1,024 positions); a length the customer gives is kept
    (the recommendation warns when it exceeds that context).
    """
    if data.modality == "video":
        default = whole("default_sequence_length_video")
    else:
        default = whole("default_sequence_length")
    source = "our usual assumption"
    if max_context is not None and max_context < default:
        source = (
            f"our usual assumption of {default:,} tokens, capped at {model_name}'s context "
            f"of {max_context:,} positions (model catalog)"
        )
        default = max_context
    sequence_length = rec.take(
        "batch.sequence_length",
        batch.sequence_length,
        default,
        unit="tokens",
        why="sets the memory of the examples in flight and the attention compute",
        question="What sequence length (context) will you train at?",
        source=source,
    )
    return int(sequence_length)


@dataclass(frozen=True)
class ResolvedData:
    modality: str
    tokens: float  # [tokens per epoch]
    epochs: float
    dataset_size_tb: float  # [TB]
    files: float | None
    growth: float  # [1/yr]
    preprocessing: str  # "offline" | "on_the_fly"


def resolve_data(
    answers: DataInput, *, method: str, total_params: float, rec: AnswerRecorder
) -> ResolvedData:
    """Modality, tokens, epochs, dataset size, growth and preprocessing."""
    modality = rec.take(
        "data.modality",
        answers.modality,
        _DEFAULT_MODALITY,
        unit="-",
        why="sets the CPUs and storage each server needs",
    )
    tokens = _tokens_per_epoch(answers, str(modality), method, total_params, rec)
    # A fine-tune reads its small data several times; one whose data is already at pre-training
    # scale (30 billion tokens) reads it once, as pre-training does: three passes would triple
    # a run the proposal itself then flags as too large for a fine-tune.
    read_once = method in PRETRAINING_METHODS or tokens >= value("pretraining_scale_tokens")
    epochs_key = "default_epochs" if read_once else "default_fine_tune_epochs"
    epochs_default = ASSUMPTIONS.get(epochs_key) or UNLISTED_ASSUMPTIONS[epochs_key]
    epochs = rec.take(
        "data.epochs",
        answers.epochs,
        value(epochs_key),
        unit="epochs",
        why="sets how many times the data is read",
        source=f"{epochs_default.source} ({epochs_default.as_of})",
    )
    dataset_size_tb = rec.take(
        "data.dataset_size_tb",
        answers.dataset_size_tb,
        _raw_dataset_bytes(answers, str(modality), tokens) / _TB,
        unit="TB",
        why="sets the storage capacity",
        question="How large is the dataset on disk?",
        source=_dataset_size_source(answers, str(modality), tokens),
    )
    growth = rec.take(
        "data.annual_growth",
        answers.annual_growth,
        value("default_data_growth"),
        unit="1/yr",
        why="sets how fast the storage grows",
    )
    preprocessing = rec.take(
        "data.preprocessing",
        answers.preprocessing,
        "on_the_fly" if modality in _MEDIA_DECODED_ON_THE_FLY else "offline",
        unit="-",
        why="sets the CPUs each server needs",
    )
    if answers.preprocessing is None:
        rec.ask(ASK_DATA_READY)
    return ResolvedData(
        modality=str(modality),
        tokens=tokens,
        epochs=float(epochs),
        dataset_size_tb=float(dataset_size_tb),
        files=answers.files,
        growth=float(growth),
        preprocessing=str(preprocessing),
    )


def tokens_given(answers: DataInput) -> float | None:
    """The training tokens per epoch the customer's data answers give [tokens] (their figure,
    their samples at the usual length, or their text's size), before any default; None when
    they give none. The same reading as :func:`resolve_data`, which records it."""
    modality = answers.modality or _DEFAULT_MODALITY
    if answers.tokens is not None:
        return float(answers.tokens)
    if answers.samples:
        return answers.samples * _tokens_per_sample(modality)
    if answers.dataset_size_tb and modality == "text":
        return answers.dataset_size_tb * _TB / value("raw_text_bytes_per_token")
    return None


def _tokens_per_sample(modality: str) -> float:
    """Tokens in one sample of ``modality`` [tokens/sample]."""
    return value(f"tokens_per_sample_{modality}")


def _tokens_per_epoch(
    answers: DataInput, modality: str, method: str, total_params: float, rec: AnswerRecorder
) -> float:
    """Training tokens per epoch [tokens]: given, from samples or text size, or assumed [1]_.

    Assumed: ``20 N`` to pre-train, a tenth of that to continue pre-training,
    a fixed placeholder to fine-tune.
    """
    if answers.tokens is None and answers.samples:
        # the customer's count of samples times an assumed length: both listed
        per_sample = _tokens_per_sample(modality)
        rec.record(
            "data.tokens_per_sample",
            per_sample,
            unit="tokens/sample",
            given=False,
            source=f"our usual assumption for {modality} samples",
            why="sets the training tokens from your number of samples",
        )
        return _derived_tokens(
            answers.samples * per_sample,
            f"worked out from your answer: {format_count(answers.samples)} samples × "
            f"{format_count(per_sample)} tokens each",
            rec,
        )
    if answers.tokens is None and answers.dataset_size_tb and modality == "text":
        # a size on disk read as plain text: files such as PDF or Office documents hold far
        # less text than their size, so the reading is stated and asked about
        per_token = value("raw_text_bytes_per_token")
        rec.ask(ASK_TEXT_FROM_SIZE)
        return _derived_tokens(
            answers.dataset_size_tb * _TB / per_token,
            f"{SIZE_READ_AS_TEXT}: {format_quantity(answers.dataset_size_tb, 'TB')} at "
            f"{per_token:g} bytes of plain text a token",
            rec,
        )
    tokens = answers.tokens
    tokens_per_param = value("chinchilla_tokens_per_param")
    if method == "pretrain":
        default = tokens_per_param * total_params
    elif method in PRETRAINING_METHODS:
        default = value("continued_pretrain_data_share") * tokens_per_param * total_params
    else:
        default = value("finetune_tokens_default")
    tokens = rec.take(
        "data.tokens",
        tokens,
        default,
        unit="tokens/epoch",
        why="sets the compute",
        question="How many training tokens (or samples and their length) per epoch?",
        source=f"Chinchilla {tokens_per_param:g} tokens/param [Hoffmann 2022] "
        "or engine placeholder",
    )
    return float(tokens)


def _derived_tokens(tokens: float, source: str, rec: AnswerRecorder) -> float:
    """Training tokens per epoch [tokens] worked out from the customer's answer (not their own
    figure: recorded as assumed, with how it was worked out)."""
    rec.record(
        "data.tokens",
        tokens,
        unit="tokens/epoch",
        given=False,
        source=source,
        why="sets the compute",
    )
    return float(tokens)


def _dataset_size_source(answers: DataInput, modality: str, tokens: float) -> str:
    """How the dataset's size on disk was worked out when not given: from the customer's
    samples or tokens (their answer), or from the tokens we assumed."""
    if modality == "text":
        per_token = value("raw_text_bytes_per_token")
        if answers.tokens is None and not answers.samples:
            return f"our usual assumption: {format_count(tokens)} tokens of text"
        return (
            f"worked out from your answer: {format_count(tokens)} tokens at {per_token:g} "
            "bytes of plain text each"
        )
    if not answers.samples:
        return "our usual assumption"
    each = answers.bytes_per_sample or value("media_bytes_per_sample")
    return (
        f"worked out from your answer: {format_count(answers.samples)} samples × "
        f"{format_quantity(each / BYTES_PER_GB, 'GB')} each"
    )


def _raw_dataset_bytes(answers: DataInput, modality: str, tokens: float) -> float:
    """Dataset size on disk when not given [B]: raw text per token, or samples x sample size."""
    if modality == "text":
        return tokens * value("raw_text_bytes_per_token")
    samples = answers.samples or tokens / _tokens_per_sample(modality)
    return samples * (answers.bytes_per_sample or value("media_bytes_per_sample"))


def resolve_global_batch_tokens(
    batch: BatchInput,
    *,
    method: str,
    training_flops: float,
    sequence_length: int,
    rec: AnswerRecorder,
) -> float:
    """Tokens per optimizer step [tokens], at least one sequence [2]_ [4]_.

    A pre-training default grows with the run's compute ``C`` [FLOP]: the near-optimal
    batch ``0.292 C^0.3271`` tokens of DeepSeek LLM [4]_ (about 4M tokens for a 7B model on
    2T tokens, 30M for DeepSeek-V3's 3e24 FLOPs), a whole number of sequences so a trainer can
    deal them out to the replicas.  A fine-tuning default is a number of sequences [2]_.
    """
    if method in PRETRAINING_METHODS:
        pretraining_batch = value("batch_scaling_coefficient") * max(1.0, training_flops) ** value(
            "batch_scaling_exponent"
        )
        default = max(1, round(pretraining_batch / sequence_length)) * sequence_length
    else:
        default = whole("default_finetune_batch_sequences") * sequence_length
    global_batch_tokens: float = rec.take(  # a whole default is recorded exactly
        "batch.global_batch_tokens",
        batch.global_batch_tokens,
        default,
        unit="tokens",
        why="sets how far the work can be split, and the idle time of a pipeline",
        question="What global batch size?",
    )
    return max(float(global_batch_tokens), float(sequence_length))


@dataclass(frozen=True)
class ResolvedSchedule:
    deadline_days: float  # [d]
    deadline_given: bool
    concurrent_jobs: int
    users: int
    teams: int


def resolve_schedule(
    answers: ScheduleInput, *, method: str, tokens_all_epochs: float, rec: AnswerRecorder
) -> ResolvedSchedule:
    """Deadline and concurrency.

    Unknown deadline: a month for pre-training-scale data (over 10B tokens,
    whatever the method is called), a week for a full fine-tune, a day for
    adapters.  A fine-tune over a trillion tokens is a pre-training run in
    size, and a one-week guess would size a huge cluster on an assumption.
    """
    month = value("deadline_days_pretraining_scale")
    week = value("deadline_days_full_finetune")
    day = value("deadline_days_adapter_training")
    scale_tokens = value("pretraining_scale_tokens")
    if method in PRETRAINING_METHODS or tokens_all_epochs > scale_tokens:
        default_deadline = month
    elif method == "full_finetune":
        default_deadline = week
    else:
        default_deadline = day
    deadline_days = rec.take(
        "schedule.deadline_days",
        answers.deadline_days,
        default_deadline,
        unit="d",
        why="sets the cluster size",
        question="By when must one run finish?",
        source=f"our usual assumption: {month:g} d for over {scale_tokens / BILLION:g}B tokens, "
        f"{week:g} d full fine-tune, {day:g} d adapters",
    )
    concurrent_jobs = rec.take(
        "schedule.concurrent_jobs",
        answers.concurrent_jobs,
        whole("default_concurrent_jobs"),
        unit="jobs",
        why="sets the cluster size",
        question="How many jobs must run at the same time?",
    )
    return ResolvedSchedule(
        deadline_days=float(deadline_days),
        deadline_given=answers.deadline_days is not None,
        concurrent_jobs=int(concurrent_jobs),
        users=answers.users or whole("default_users"),
        teams=answers.teams or whole("default_teams"),
    )
