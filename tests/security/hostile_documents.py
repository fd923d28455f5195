"""Hypothesis strategies: hostile values, and files of every format "Fill from a file" reads.

Each file is a real document of its format (the keys its reader looks for, with sane values)
in which some settings are replaced by hostile literals, written as the syntax spells them: a
JSON number of 5,000 digits, ``NaN``, ``1e400``, a YAML date that is none, "²", fullwidth
digits, deep nesting, a 20,000-character string, NUL characters, lone surrogates. Some files
then get bytes that are not UTF-8 spliced in. The values that broke the upload in the review of
2026-12 (issue 25) are always among the literals tried.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

# Values that were server errors, or that are the classic traps of number parsing.
KNOWN_TRAPS = (
    "9" * 5000,  # past Python's 4,300-digit limit for int()
    "9" * 4301,
    "1" * 31,  # just past our own limit
    "-" + "9" * 400,
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "-0.0",
    "0",
    "1e300",
    "1.7976931348623157e308",
)
# Digits and look-alikes that str.isdigit, int() and float() do not agree on.
DIGIT_LOOKALIKES = ("²", "1²", "³²", "½", "１２", "٣", "٣٣", "߁", "𝟘", "1_000", "0x1F", "Ⅻ", "⁴⁰⁹⁶")
DATES = ("2001-13-45", "2001-02-30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "0000-00-00")
TEXT_TRAPS = ("", " ", "\x00", "7\x00B", "\ud800", "\ufeff", "\u202eexe", "auto", "<script>")

# Digits of every script and their look-alikes, letters, punctuation, controls and lone
# surrogates (JSON and YAML escape them, "\ud800"; an argument list holds them as bytes that
# are not UTF-8).
_STRING_ALPHABET = st.characters(categories=("Nd", "No", "Nl", "L", "P", "S", "Zs", "Cc", "Cs"))


def _json_string(text: str) -> str:
    return json.dumps(text)  # escapes NUL and lone surrogates as \u0000, \ud800


@dataclass(frozen=True)
class Literals:
    """How one syntax spells a hostile value."""

    number: Callable[[int], str]
    string: Callable[[str], str]
    specials: tuple[str, ...]
    nested: Callable[[int], str]


JSON = Literals(
    number=str,
    string=_json_string,
    specials=("NaN", "Infinity", "-Infinity", "true", "false", "null", "[]", "{}", '"auto"'),
    nested=lambda depth: "[" * depth + "1" + "]" * depth,
)
YAML = Literals(
    number=str,
    string=lambda text: _json_string(text),  # a YAML double-quoted string reads JSON escapes
    specials=(
        ".nan",
        ".inf",
        "-.inf",
        "~",
        "yes",
        "on",
        "0o17",
        "0b101",
        "190:20:30",
        "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20",
        "!!int abc",
        "!!bool maybe",
        "!!float x",
        "!!timestamp 2001-13-45",
        "!!binary not-base-64",
        "!!set 3",
        "*undefined_alias",
        "&anchor 4",
        "'single ''quoted'''",
        "|\n  block\n  text",
        *DATES,
        *DIGIT_LOOKALIKES,
    ),
    nested=lambda depth: "[" * depth + "1" + "]" * depth,
)
ARGUMENTS = Literals(
    number=str,
    string=lambda text: "'" + text.replace("'", "") + "'",  # raw: a surrogate is not UTF-8
    specials=("--", "=", "''", '"unclosed', "\\", "$(reboot)", "`id`", *DIGIT_LOOKALIKES),
    nested=lambda depth: "x" * depth,
)


def literals(syntax: Literals) -> st.SearchStrategy[str]:
    """A hostile value as ``syntax`` writes it."""
    return st.one_of(
        st.sampled_from(KNOWN_TRAPS),
        st.sampled_from(syntax.specials),
        st.integers(min_value=-(10**12), max_value=10**12).map(syntax.number),
        st.integers(min_value=10**20, max_value=10**35).map(syntax.number),
        st.floats().map(lambda x: repr(x) if x == x and abs(x) != float("inf") else "1e400"),
        st.sampled_from(DIGIT_LOOKALIKES + DATES + TEXT_TRAPS).map(syntax.string),
        st.text(_STRING_ALPHABET, max_size=30).map(syntax.string),
        st.integers(min_value=1, max_value=60).map(syntax.nested),
        st.integers(min_value=1_000, max_value=20_000).map(lambda n: syntax.string("x" * n)),
    )


# --- one document per format: its real keys, some replaced --------------------------------

Path = tuple[str, ...]

HF_CONFIG: dict[Path, str] = {
    ("architectures",): '["LlamaForCausalLM"]',
    ("model_type",): '"llama"',
    ("_name_or_path",): '"meta-llama/Llama-3.1-8B"',
    ("num_hidden_layers",): "32",
    ("hidden_size",): "4096",
    ("num_attention_heads",): "32",
    ("num_key_value_heads",): "8",
    ("intermediate_size",): "14336",
    ("vocab_size",): "128256",
    ("head_dim",): "128",
    ("tie_word_embeddings",): "false",
    ("num_local_experts",): "1",
    ("num_experts_per_tok",): "1",
    ("moe_intermediate_size",): "1408",
    ("n_shared_experts",): "0",
    ("shared_expert_intermediate_size",): "0",
    ("first_k_dense_replace",): "0",
    ("n_layer",): "32",
    ("torch_dtype",): '"bfloat16"',
}
DEEPSPEED: dict[Path, str] = {
    ("train_batch_size",): "512",
    ("train_micro_batch_size_per_gpu",): "4",
    ("gradient_accumulation_steps",): "8",
    ("bf16", "enabled"): "true",
    ("fp16", "enabled"): "false",
    ("optimizer", "type"): '"AdamW"',
    ("zero_optimization", "stage"): "3",
    ("zero_optimization", "offload_optimizer", "device"): '"cpu"',
    ("zero_optimization", "offload_param", "device"): '"nvme"',
}
AXOLOTL: dict[Path, str] = {
    ("base_model",): "meta-llama/Llama-2-7b-hf",
    ("adapter",): "lora",
    ("load_in_4bit",): "true",
    ("sequence_len",): "4096",
    ("micro_batch_size",): "2",
    ("gradient_accumulation_steps",): "4",
    ("num_epochs",): "3",
    ("optimizer",): "adamw_bnb_8bit",
    ("bf16",): "auto",
    ("fp16",): "false",
    ("gradient_checkpointing",): "true",
    ("deepspeed",): "deepspeed_configs/zero3.json",
    ("fsdp",): "full_shard",
}
TORCHTUNE: dict[Path, str] = {
    ("model", "_component_"): "torchtune.models.llama3_1.lora_llama3_1_8b",
    ("tokenizer", "max_seq_len"): "8192",
    ("batch_size",): "2",
    ("gradient_accumulation_steps",): "8",
    ("epochs",): "1",
    ("dtype",): "bf16",
    ("optimizer", "_component_"): "torch.optim.AdamW",
    ("enable_activation_checkpointing",): "true",
    ("tensor_parallel_dim",): "2",
}
LLAMA_FACTORY: dict[Path, str] = {
    ("model_name_or_path",): "Qwen/Qwen2.5-7B-Instruct",
    ("stage",): "sft",
    ("finetuning_type",): "lora",
    ("quantization_bit",): "4",
    ("cutoff_len",): "2048",
    ("per_device_train_batch_size",): "1",
    ("gradient_accumulation_steps",): "8",
    ("num_train_epochs",): "3.0",
    ("bf16",): "true",
    ("optim",): "adamw_torch",
    ("deepspeed",): "examples/deepspeed/ds_z3_config.json",
}
MEGATRON: dict[Path, str] = {
    (f"--{name}",): value
    for name, value in (
        ("tensor-model-parallel-size", "8"),
        ("pipeline-model-parallel-size", "4"),
        ("context-parallel-size", "2"),
        ("expert-model-parallel-size", "1"),
        ("num-layers", "80"),
        ("hidden-size", "8192"),
        ("ffn-hidden-size", "28672"),
        ("num-attention-heads", "64"),
        ("group-query-attention", ""),
        ("num-query-groups", "8"),
        ("swiglu", ""),
        ("num-experts", "1"),
        ("moe-router-topk", "1"),
        ("vocab-size", "128256"),
        ("kv-channels", "128"),
        ("seq-length", "8192"),
        ("micro-batch-size", "1"),
        ("global-batch-size", "1024"),
        ("bf16", ""),
        ("fp8-format", "hybrid"),
        ("optimizer", "adam"),
        ("recompute-granularity", "selective"),
    )
}


def _nest(entries: dict[Path, str]) -> dict[str, object]:
    tree: dict[str, object] = {}
    for path, value in entries.items():
        node = tree
        for part in path[:-1]:
            child = node.setdefault(part, {})
            node = child if isinstance(child, dict) else {}
        node[path[-1]] = value
    return tree


def write_json(entries: dict[Path, str]) -> str:
    def write(node: object) -> str:
        if isinstance(node, dict):
            return "{" + ", ".join(f"{json.dumps(k)}: {write(v)}" for k, v in node.items()) + "}"
        return str(node)

    return write(_nest(entries))


def write_yaml(entries: dict[Path, str]) -> str:
    def write(node: dict[str, object], indent: str) -> list[str]:
        lines = []
        for key, value in node.items():
            # a name that is not a plain word is quoted, as JSON quotes it (escapes included)
            name = key if key.replace("_", "").isalnum() and key.isascii() else json.dumps(key)
            if isinstance(value, dict):
                lines += [f"{indent}{name}:", *write(value, indent + "  ")]
            else:
                lines.append(f"{indent}{name}: {value}")
        return lines

    return "\n".join(write(_nest(entries), "")) + "\n"


def write_arguments(entries: dict[Path, str]) -> str:
    words = [f"{path[0]} {value}".rstrip() for path, value in entries.items()]
    return "torchrun pretrain_gpt.py \\\n    " + " \\\n    ".join(words) + "\n"


@dataclass(frozen=True)
class Format:
    name: str
    entries: dict[Path, str]
    literals: Literals
    write: Callable[[dict[Path, str]], str]


FORMATS = (
    Format("Hugging Face config.json", HF_CONFIG, JSON, write_json),
    Format("DeepSpeed JSON", DEEPSPEED, JSON, write_json),
    Format("Axolotl YAML", AXOLOTL, YAML, write_yaml),
    Format("torchtune YAML", TORCHTUNE, YAML, write_yaml),
    Format("LLaMA-Factory YAML", LLAMA_FACTORY, YAML, write_yaml),
    Format("Megatron-LM arguments", MEGATRON, ARGUMENTS, write_arguments),
)


@st.composite
def documents(draw: st.DrawFn, file_format: Format) -> bytes:
    """A file of ``file_format`` with one to three settings replaced by hostile literals, and
    now and then bytes that are not UTF-8 spliced in."""
    entries = dict(file_format.entries)
    paths = list(entries)
    for path in draw(st.lists(st.sampled_from(paths), min_size=1, max_size=3, unique=True)):
        entries[path] = draw(literals(file_format.literals))
    if draw(st.booleans()):  # a setting no reader knows, with a hostile name too
        name = draw(st.text(_STRING_ALPHABET, min_size=1, max_size=12))
        entries[(name.replace("\n", " ").replace(":", "") or "x",)] = draw(
            literals(file_format.literals)
        )
    text = file_format.write(entries)
    content = text.encode("utf-8", "surrogatepass")
    if draw(st.sampled_from(range(20))) == 13:  # one file in twenty, about
        junk = draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80\x80", b"\x00"]))
        where = draw(st.integers(min_value=0, max_value=len(content)))
        content = content[:where] + junk + content[where:]
    return content


def any_bytes() -> st.SearchStrategy[bytes]:
    """Files of no format at all: random bytes, and random text of every kind."""
    return st.one_of(
        st.binary(max_size=400),
        st.text(max_size=400).map(lambda text: text.encode("utf-8", "surrogatepass")),
    )
