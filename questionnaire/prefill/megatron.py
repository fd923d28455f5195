"""A Megatron-LM argument list (``pretrain_gpt.py`` arguments, or a launch script holding them).

Arguments from Megatron-LM's ``arguments.py``: the parallel sizes
(``--tensor-model-parallel-size``, ``--pipeline-model-parallel-size``,
``--context-parallel-size``, ``--expert-model-parallel-size``, ``--sequence-parallel``,
``--use-distributed-optimizer``), the model's shape (``--num-layers``, ``--hidden-size``,
``--ffn-hidden-size``, ``--num-attention-heads``, ``--num-query-groups``, ``--swiglu``,
``--untie-embeddings-and-output-weights``, ``--num-experts``, ``--moe-router-topk``), the batch
(``--seq-length``, ``--micro-batch-size``, ``--global-batch-size``, in samples) and the number
format (``--bf16``, ``--fp16``, ``--fp8-format``). The vocabulary comes from the tokenizer, not
the arguments, unless ``--vocab-size`` is given: without it the parameters are counted with
the engine's default vocabulary and the page says so.
"""

from __future__ import annotations

from questionnaire.prefill.found import (
    Found,
    Settings,
    add_counts,
    add_optimizer,
    add_parameters,
    add_shape_note,
    counted_parameters,
    finish,
    tool,
)
from sizing.public import (
    DecoderShape,
    whole_assumption,
)

FORMAT_NAME = "Megatron-LM arguments"

_PARALLEL = (
    ("--tensor-model-parallel-size", "tensor", "tensor parallel"),
    ("--pipeline-model-parallel-size", "pipeline", "pipeline parallel"),
    ("--context-parallel-size", "sequence", "context parallel"),
    ("--expert-model-parallel-size", "expert", "expert parallel"),
)


def read_megatron(settings: Settings) -> Found:
    found = Found(FORMAT_NAME)
    _model(found, settings)
    add_counts(
        found,
        settings,
        {
            "--seq-length": ("batch", "sequence_length"),
            "--micro-batch-size": ("batch", "micro_batch_size"),
            "--global-batch-size": ("batch", "global_batch"),
        },
    )
    if settings.count("--global-batch-size"):
        found.add("batch", "global_batch_unit", "samples", "--global-batch-size")
    _precision(found, settings)
    _parallelism(found, settings)
    found.add_choices("software", "frameworks", ["pytorch", "megatron"], tool("Megatron-LM"))
    return finish(found, settings)


def _model(found: Found, settings: Settings) -> None:
    layers = settings.count("--num-layers")
    hidden = settings.count("--hidden-size")
    heads = settings.count("--num-attention-heads")
    if not (layers and hidden and heads):
        return
    experts = settings.count("--num-experts") or 1
    vocab = settings.count("--vocab-size")
    vocab_given = vocab is not None
    if vocab is None:
        vocab = whole_assumption("default_vocab_size")
        found.remarks.append(
            f"The arguments do not give the vocabulary (it comes from the tokenizer), so we "
            f"counted the parameters with {vocab:,} tokens; a larger vocabulary adds a little."
        )
    grouped = settings.flag("--group-query-attention")
    shape = DecoderShape(
        layers=layers,
        hidden_size=hidden,
        attention_heads=heads,
        kv_heads=(settings.count("--num-query-groups") if grouped else None) or heads,
        ffn_hidden_size=settings.count("--ffn-hidden-size") or 4 * hidden,
        vocab_size=vocab,
        head_dim=settings.count("--kv-channels"),
        gated_mlp=bool(settings.flag("--swiglu")),
        tied_embeddings=not settings.flag("--untie-embeddings-and-output-weights"),
        experts=experts,
        experts_per_token=settings.count("--moe-router-topk") or 1,
        expert_ffn_hidden_size=settings.count("--moe-ffn-hidden-size"),
    )
    moe = "--num-experts" if experts > 1 else None
    count = counted_parameters(found, shape)
    if count is not None:
        add_shape_note(found, shape, with_vocabulary=vocab_given)
    add_parameters(found, count, experts_key=moe)


def _precision(found: Found, settings: Settings) -> None:
    fp8 = settings.text("--fp8-format")
    bf16, fp16 = settings.flag("--bf16"), settings.flag("--fp16")
    if fp8:
        found.add("precision", "precision", "fp8", "--fp8-format")
    elif bf16:
        found.add("precision", "precision", "bf16", "--bf16")
    elif fp16:
        found.add("precision", "precision", "fp16", "--fp16")
    add_optimizer(found, settings, "--optimizer")
    if settings.flag("--recompute-activations") or settings.text("--recompute-granularity"):
        found.add("precision", "gradient_checkpointing", "yes", "--recompute-granularity")


def _parallelism(found: Found, settings: Settings) -> None:
    sizes = []
    for key, choice, words in _PARALLEL:
        size = settings.count(key)
        if size and size > 1:
            found.add_choices("parallelism", "strategies", [choice], key)
            sizes.append(f"{words} {size}")
    if settings.flag("--sequence-parallel"):
        found.add_choices("parallelism", "strategies", ["sequence"], "--sequence-parallel")
    if settings.flag("--use-distributed-optimizer"):
        found.add_choices("parallelism", "strategies", ["fsdp"], "--use-distributed-optimizer")
    if sizes:
        found.add("parallelism", "notes", f"Megatron-LM: {', '.join(sizes)}.", "The parallel sizes")
