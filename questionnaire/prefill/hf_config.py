"""A Hugging Face model ``config.json``: the model's type and its parameters, counted.

Only what the file fixes is filled: the model's own name (``_name_or_path``, where
``transformers`` saved or loaded it), dense or mixture of experts, total parameters and (MoE)
active parameters, counted with the engine's formula from the shape, and (MoE) the number of
experts and of experts per token (``num_experts_per_tok``). ``torch_dtype`` is the
format the weights were saved in, not the training format, and ``max_position_embeddings`` the
longest context the model accepts, not the training sequence length: both are left unused.

Key names are the ``transformers`` library's, with the spellings of older families (GPT-2's
``n_embd``, ``n_layer``...) and of MoE families (Mixtral's ``num_local_experts``, Qwen-MoE's
``num_experts`` and shared expert, DeepSeek's ``n_routed_experts`` and leading dense layers).
"""

from __future__ import annotations

from questionnaire.prefill.found import (
    NAME_LENGTH,
    NO_EXPERTS,
    Found,
    Settings,
    add_parameters,
    add_shape_note,
    counted_parameters,
    finish,
    known_model,
)
from sizing.public import (
    MODEL_CATALOG,
    DecoderShape,
    ModelSpec,
    ParameterCount,
)

FORMAT_NAME = "Hugging Face model configuration"
MARKERS = ("architectures", "model_type", "num_hidden_layers", "n_layer")

# Families whose feed-forward block is a plain two-matrix MLP; every other decoder in the
# catalog (Llama, Mistral, Qwen, Gemma, Phi-3, OLMo, DeepSeek) has a gated one.
PLAIN_MLP_TYPES = frozenset(
    {
        "gpt2",
        "gpt_neox",
        "gptj",
        "opt",
        "bert",
        "roberta",
        "falcon",
        "mpt",
        "bloom",
        "phi",
        "gpt_bigcode",
        "starcoder2",
        "t5",
    }
)
_DIFFERENT_ATTENTION = "kv_lora_rank"
# Where transformers saved or loaded the model: "our-org/clinical-llama-70b", a local folder.
_NAME_KEYS = ("_name_or_path", "name_or_path")
_NOT_A_NAME = frozenset({"", ".", "..", "~"})
_EXPERTS_KEYS = (
    "num_local_experts",
    "num_experts",
    "n_routed_experts",
)  # DeepSeek's latent attention: not the formula's shape


_SHAPE_OF = "Its shape is that of {} in our list of known models"


def is_hf_config(settings: Settings) -> bool:
    return any(settings.peek(key) is not None for key in MARKERS)


def _first_count(settings: Settings, *keys: str) -> int | None:
    for key in keys:
        value = settings.count(key)
        if value is not None:
            return value
    return None


def _own_name(settings: Settings) -> tuple[str, str] | None:
    """The model's name as the file gives it (the last part of its path), and the setting."""
    for key in _NAME_KEYS:
        written = settings.text(key)
        if written:
            name = written.replace("\\", "/").rstrip("/").split("/")[-1].strip()
            return None if name in _NOT_A_NAME else (name[:NAME_LENGTH], key)
    return None


def _add_own_name(found: Found, own: tuple[str, str] | None, known: list[ModelSpec] | None) -> None:
    """The name from the file: the catalog's spelling when it is that model (of the same shape,
    when ``known`` lists the catalog models of the file's shape), else as written. A file without
    a name whose shape is one catalog model's is named after it: the name is what carries the
    shape (layers, KV heads, vocabulary) to the engine, which otherwise guesses a generic shape
    from the bare parameter count (Llama 3.1 405B's 126 layers and 8 KV heads became 127 and 128)."""
    if own is None:
        if known is not None and len(known) == 1:
            name = known[0].name
            found.add("model", "model_name", name, _SHAPE_OF.format(name), guessed=True)
        return
    name, key = own
    spec = known_model(name)
    is_it = spec is not None and (known is None or spec in known)
    found.add("model", "model_name", spec.name if spec and is_it else name, key)


def read_hf_config(settings: Settings) -> Found:
    found = Found(FORMAT_NAME)
    settings.use("architectures")
    own = _own_name(settings)
    model_type = settings.text("model_type") or ""
    layers = _first_count(settings, "num_hidden_layers", "n_layer", "num_layers")
    hidden = _first_count(settings, "hidden_size", "n_embd", "d_model")
    heads = _first_count(settings, "num_attention_heads", "n_head", "num_heads")
    vocab = settings.count("vocab_size")
    experts_key = next(
        (k for k in _EXPERTS_KEYS if isinstance(settings.peek(k), int) and settings.peek(k) > 1),
        None,
    )
    experts = _first_count(settings, *_EXPERTS_KEYS) or 1
    if experts > 1:
        _add_routing(found, settings, experts, experts_key)
    if not (layers and hidden and heads and vocab):
        found.remarks.append(
            "The file does not give the number of layers, the hidden size, the attention heads "
            "and the vocabulary, so we could not count the parameters."
        )
        _add_own_name(found, own, None)
        if experts > 1:
            found.add("model", "architecture", "moe", experts_key or NO_EXPERTS)
        return finish(found, settings)
    shape = DecoderShape(
        layers=layers,
        hidden_size=hidden,
        attention_heads=heads,
        kv_heads=_first_count(settings, "num_key_value_heads", "num_kv_heads") or heads,
        ffn_hidden_size=_first_count(settings, "intermediate_size", "n_inner", "ffn_dim", "d_ff")
        or 4 * hidden,
        vocab_size=vocab,
        head_dim=settings.count("head_dim"),
        gated_mlp=model_type not in PLAIN_MLP_TYPES,
        # transformers ties them unless the file says otherwise (GPT-2's file does not say)
        tied_embeddings=settings.flag("tie_word_embeddings") is not False,
        experts=experts,
        experts_per_token=settings.count("num_experts_per_tok") or 1,
        expert_ffn_hidden_size=settings.count("moe_intermediate_size"),
        shared_expert_ffn_hidden_size=_shared_expert_width(settings),
        dense_layers=settings.count("first_k_dense_replace") or 0,
    )
    known = _same_shape(shape)
    _add_own_name(found, own, known)
    if _DIFFERENT_ATTENTION in settings:
        count = _published_count(known)
        if count is None:
            found.remarks.append(
                "This model's attention is built differently from the designs we can count, "
                "so give its number of parameters on question 1."
            )
            found.add(
                "model",
                "architecture",
                "moe" if experts_key else "dense",
                experts_key or NO_EXPERTS,
            )
            return finish(found, settings)
    else:
        count = counted_parameters(found, shape)
        if count is not None:
            add_shape_note(found, shape)
    add_parameters(found, count, experts_key=experts_key)
    if known and count is not None:
        names = " and ".join(spec.name for spec in known)
        found.remarks.append(
            f"Its shape is the same as {names} in our list of known models."
            + (
                ""
                if own or len(known) == 1
                else " If it is one of them, type its name on question 1."
            )
        )
    for key, why in (
        ("torch_dtype", "the number format the weights are saved in, not the one you train in"),
        (
            "max_position_embeddings",
            "the longest text the model accepts, not your training sequence length",
        ),
    ):
        if key in settings:
            found.remarks.append(f"We did not use “{key}”: it is {why}.")
    return finish(found, settings)


def _add_routing(found: Found, settings: Settings, experts: int, key: str | None) -> None:
    """The experts and the experts each token is routed to, as question 1 takes them: the
    engine lays the experts out over expert-parallel ranks and sizes their all-to-all traffic
    from these, and assumes a typical count without them."""
    found.add("model", "experts", str(experts), key or _EXPERTS_KEYS[0])
    per_token = settings.count("num_experts_per_tok")
    if per_token is not None and per_token <= experts:
        found.add("model", "experts_per_token", str(per_token), "num_experts_per_tok")


def _shared_expert_width(settings: Settings) -> int:
    width = settings.count("shared_expert_intermediate_size")
    if width:
        return width
    shared = settings.count("n_shared_experts")
    expert = settings.peek("moe_intermediate_size")
    return shared * expert if shared and isinstance(expert, int) else 0


def _same_shape(shape: DecoderShape) -> list[ModelSpec]:
    """Catalog models with the same layers, width, heads, vocabulary and experts."""
    figures = (shape.layers, shape.hidden_size, shape.attention_heads, shape.vocab_size)
    return [
        spec
        for spec in MODEL_CATALOG
        if (spec.layers, spec.hidden_size, spec.attention_heads, spec.vocab_size) == figures
        and (spec.experts or 1) == shape.experts
    ]


def _published_count(known: list[ModelSpec]) -> ParameterCount | None:
    if len(known) != 1:
        return None
    return ParameterCount(known[0].total_params, known[0].active_params)
