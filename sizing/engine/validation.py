"""Validate a JSON-like mapping into a :class:`SizingInput`.

Every problem is collected (not just the first) as one line
``"field.path: message (got ...)"``.  Out-of-range values are rejected, never
clamped.  Unknown keys are errors, so that typos are caught.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .hardware import ACCELERATORS, peak_tflops
from .inputs import (
    FINETUNE_UNSURE,
    BatchInput,
    DataInput,
    DeploymentInput,
    EstateInput,
    HardwareInput,
    MeasuredInput,
    ModelInput,
    NetworkInput,
    ParallelismInput,
    PricesInput,
    ResilienceInput,
    RoadmapInput,
    ScheduleInput,
    SizingInput,
    SoftwareInput,
    StorageInput,
    TrainingInput,
)
from .models import MODEL_CATALOG, find_model
from .parameter_count import DecoderShape
from .platforms import VENDORS


class InvalidInput(ValueError):
    """Raised for invalid input; ``messages`` holds one line per problem."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


@dataclass(frozen=True)
class _Field:
    kind: str  # "number" | "int" | "bool" | "enum" | "enum_list" | "text" | "text_list"
    what: str  # plain description used in messages
    low: float = 0.0
    high: float = math.inf
    low_open: bool = False  # True: value must be > low
    choices: tuple[str, ...] = ()


def _num(what: str, low: float, high: float, *, low_open: bool = False) -> _Field:
    return _Field("number", what, low, high, low_open)


def _int(what: str, low: float, high: float) -> _Field:
    return _Field("int", what, low, high)


def _enum(*choices: str) -> _Field:
    return _Field("enum", "one of " + ", ".join(f'"{c}"' for c in choices), choices=choices)


def _enum_list(*choices: str) -> _Field:
    listed = ", ".join(f'"{c}"' for c in choices)
    return _Field("enum_list", f"a list of one or more of {listed}", choices=choices)


_BOOL = _Field("bool", "true, false or null")
_PARAMS = _num("a positive number of parameters (1e5 to 1e14)", 1e5, 1e14)
_FRACTION = _num("a fraction between 0 and 1", 0.0, 1.0)
_GROWTH = _num("a yearly growth fraction between 0 and 10 (0.5 = +50 %)", 0.0, 10.0)
_USD = _num("a positive price in USD", 0.0, 1e9, low_open=True)
_MEASURED_TFLOPS = _num("a measured throughput in TFLOP/s (0 to 100,000)", 0.0, 1e5, low_open=True)

SCHEMA: Mapping[str, Mapping[str, _Field]] = {
    "model": {
        "name": _Field("text", "a model name in printable text, at most 200 characters"),
        "architecture": _enum("dense", "moe"),
        "total_params": _PARAMS,
        "active_params": _PARAMS,
        "layers": _int("a whole number of layers (1 to 1000)", 1, 1000),
        "hidden_size": _int("a whole hidden size (16 to 1,000,000)", 16, 1_000_000),
        "attention_heads": _int("a whole number of heads (1 to 10,000)", 1, 10_000),
        "kv_heads": _int("a whole number of key/value heads (1 to 10,000)", 1, 10_000),
        "ffn_hidden_size": _int("a whole FFN size (1 to 10,000,000)", 1, 10_000_000),
        "vocab_size": _int("a whole vocabulary size (1 to 10,000,000)", 1, 10_000_000),
        "experts": _int("a whole number of experts (1 to 10,000)", 1, 10_000),
        "experts_per_token": _int("a whole number of experts per token (1 to 10,000)", 1, 10_000),
    },
    "training": {
        "method": _enum(
            "pretrain", "continued_pretrain", "full_finetune", "lora", "qlora", FINETUNE_UNSURE
        ),
        "precision": _enum("fp32", "tf32", "fp16", "bf16", "fp8"),
        "optimizer": _enum("adamw", "adamw_8bit", "adafactor", "sgd", "lion"),
        "gradient_checkpointing": _BOOL,
        "lora_rank": _int("a whole LoRA rank (1 to 4096)", 1, 4096),
        "experiments": _int("a whole number of runs (1 to 10,000)", 1, 10_000),
    },
    "data": {
        "tokens": _num("a positive number of tokens per epoch (1e3 to 1e16)", 1e3, 1e16),
        "epochs": _num("a positive number of epochs (at most 1,000)", 0.0, 1000.0, low_open=True),
        "modality": _enum("text", "image", "audio", "video", "multimodal"),
        "dataset_size_tb": _num("a dataset size in TB (0 to 1,000,000)", 0.0, 1e6, low_open=True),
        "samples": _num("a positive number of samples (at most 1e13)", 1.0, 1e13),
        "bytes_per_sample": _num("a positive size in bytes (at most 1e12)", 1.0, 1e12),
        "files": _num("a positive number of files (at most 1e13)", 1.0, 1e13),
        "annual_growth": _GROWTH,
        "preprocessing": _enum("offline", "on_the_fly"),
    },
    "batch": {
        "sequence_length": _int(
            "a whole sequence length in tokens (16 to 10,000,000)", 16, 10_000_000
        ),
        "global_batch_tokens": _num(
            "a positive number of tokens per step (at most 1e10)", 1.0, 1e10
        ),
        "micro_batch_size": _int("a whole number of sequences (1 to 65,536)", 1, 65_536),
    },
    "schedule": {
        "deadline_days": _num(
            "a positive number of days (at most 3,650)", 0.0, 3650.0, low_open=True
        ),
        "concurrent_jobs": _int("a whole number of jobs (1 to 1,000)", 1, 1000),
        "users": _int("a whole number of people (1 to 100,000)", 1, 100_000),
        "teams": _int("a whole number of teams (1 to 1,000)", 1, 1000),
        "scheduler": _enum("slurm", "kubernetes", "none", "other"),
    },
    "hardware": {
        "accelerator": _enum(*sorted(ACCELERATORS)),
        "count": _int("a whole number of accelerators (1 to 1,000,000)", 1, 1_000_000),
        "gpus_per_node": _int("a whole number of accelerators per node (1 to 72)", 1, 72),
        "vendors": _enum_list(*VENDORS),
    },
    "parallelism": {
        "tensor": _int("a whole tensor-parallel degree (1 to 72)", 1, 72),
        "pipeline": _int("a whole pipeline-parallel degree (1 to 1,000)", 1, 1000),
        "data": _int("a whole data-parallel degree (1 to 1,000,000)", 1, 1_000_000),
        "expert": _int("a whole expert-parallel degree (1 to 10,000)", 1, 10_000),
        "zero_stage": _int("a ZeRO stage 0, 1, 2 or 3", 0, 3),
        "context": _int("a whole context-parallel degree (1 to 64)", 1, 64),
    },
    "software": {
        "frameworks": _Field("text_list", "a list of framework names"),
        "custom_cuda_kernels": _BOOL,
        "team_knows_setup": _BOOL,
    },
    "network": {
        "inter_node": _enum("infiniband", "roce", "ethernet"),
        "oversubscription": _num(
            "an oversubscription ratio between 1 (non-blocking) and 16", 1.0, 16.0
        ),
        "max_comm_share": _num("a fraction of step time between 0 and 1", 0.0, 1.0, low_open=True),
        "nic_gbps_per_gpu": _num("a bandwidth in Gb/s per accelerator (1 to 3,200)", 1.0, 3200.0),
    },
    "storage": {
        "checkpoint_minutes_max": _num(
            "a positive number of minutes (at most 1,440)", 0.0, 1440.0, low_open=True
        ),
        "checkpoints_retained": _int("a whole number of checkpoints (1 to 10,000)", 1, 10_000),
        "existing_read_gb_per_s": _num("a read rate in GB/s (0 to 1,000,000)", 0.0, 1e6),
        "required_read_gb_per_s": _num(
            "a read rate in GB/s (0 to 1,000,000)", 0.0, 1e6, low_open=True
        ),
        "checkpoint_size_gb": _num(
            "a checkpoint size in GB (0 to 10,000,000)", 0.0, 1e7, low_open=True
        ),
        "existing": _enum("shared_fs", "object", "both", "none"),
        "many_small_files": _BOOL,
    },
    "resilience": {
        "max_lost_hours": _num(
            "a positive number of hours (at most 10,000)", 0.0, 10_000.0, low_open=True
        ),
        "checkpoint_interval_hours": _num(
            "a positive number of hours (at most 1,000)", 0.0, 1000.0, low_open=True
        ),
        "spare_nodes": _BOOL,
    },
    "deployment": {
        "location": _enum("on_prem", "colocation", "cloud", "hybrid"),
        "data_residency": _Field("text", "a region name in printable text, at most 200 characters"),
        "country": _Field("text", "a country name in printable text, at most 200 characters"),
        "air_gapped": _BOOL,
        "dedicated_hardware": _BOOL,
        "export_controlled": _BOOL,
        "operations": _enum("in_house", "some", "none"),
    },
    "roadmap": {
        "runs_per_month": _num("a number of runs per month (0 to 10,000)", 0.0, 10_000.0),
        "hours_per_run": _num("a number of hours (0 to 8,760)", 0.0, 8760.0),
        "annual_growth": _GROWTH,
        "years": _int("a whole number of years (1 to 10)", 1, 10),
        "utilisation": _FRACTION,
    },
    "prices": {
        "cloud_on_demand_usd_per_gpu_hour": _USD,
        "cloud_reserved_usd_per_gpu_hour": _USD,
        "purchase_usd_per_gpu": _USD,
        "electricity_usd_per_kwh": _num("a price in USD/kWh (0 to 10)", 0.0, 10.0, low_open=True),
        "pue": _num("a PUE between 1 and 3", 1.0, 3.0),
        "colocation_usd_per_kw_month": _num(
            "a price in USD per kW-month (0 to 10,000)", 0.0, 10_000.0, low_open=True
        ),
        "staff_usd_per_year": _num("a cost in USD per year (0 to 1e9)", 0.0, 1e9),
    },
    "estate": {
        "accelerator": _enum(*sorted(ACCELERATORS)),
        "count": _int("a whole number of accelerators (1 to 1,000,000)", 1, 1_000_000),
        "power_kw": _num("a power in kW (0 to 10,000,000)", 0.0, 1e7, low_open=True),
        "budget_usd": _num("an amount in USD (0 to 1e12)", 0.0, 1e12, low_open=True),
        "fabric": _enum("infiniband", "roce", "ethernet"),
        "fabric_gbps": _num("a bandwidth in Gb/s per accelerator (1 to 3,200)", 1.0, 3200.0),
        "storage_tb": _num("a capacity in TB (0 to 1,000,000)", 0.0, 1e6, low_open=True),
    },
    "measured": {
        "accelerator": _enum(*sorted(ACCELERATORS)),
        "matmul_bf16_tflops": _MEASURED_TFLOPS,
        "matmul_fp8_tflops": _MEASURED_TFLOPS,
    },
}

_SECTIONS: Mapping[str, Callable[..., Any]] = {
    "model": ModelInput,
    "training": TrainingInput,
    "data": DataInput,
    "batch": BatchInput,
    "schedule": ScheduleInput,
    "hardware": HardwareInput,
    "parallelism": ParallelismInput,
    "software": SoftwareInput,
    "network": NetworkInput,
    "storage": StorageInput,
    "resilience": ResilienceInput,
    "deployment": DeploymentInput,
    "roadmap": RoadmapInput,
    "prices": PricesInput,
    "estate": EstateInput,
    "measured": MeasuredInput,
}


# Past this many digits a whole number is shown by its length: it cannot be a figure of any
# input, and Python refuses to write out one of more than 4,300 digits.
_SHOWN_DIGITS = 30


def _show(value: object) -> str:
    if isinstance(value, int) and abs(value) >= 10**_SHOWN_DIGITS:
        return f"a whole number of about {value.bit_length() * math.log10(2):,.0f} digits"
    try:
        text = json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check(path: str, spec: _Field, value: object, problems: list[str]) -> object:
    bad = f"{path}: must be {spec.what} (got {_show(value)})"
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value
        problems.append(bad)
        return None
    if spec.kind in ("number", "int"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            problems.append(bad)
            return None
        try:
            number = float(value)
        except OverflowError:  # a whole number beyond the largest float
            problems.append(bad)
            return None
        if not math.isfinite(number):
            problems.append(bad)
            return None
        if spec.kind == "int" and number != int(number):
            problems.append(bad)
            return None
        too_low = number <= spec.low if spec.low_open else number < spec.low
        if too_low or number > spec.high:
            problems.append(bad)
            return None
        return int(number) if spec.kind == "int" else number
    if spec.kind == "enum":
        if isinstance(value, str) and value in spec.choices:
            return value
        problems.append(bad)
        return None
    if spec.kind == "enum_list":
        if (
            isinstance(value, list)
            and value
            and all(isinstance(v, str) and v in spec.choices for v in value)
        ):
            return tuple(c for c in spec.choices if c in value)  # catalog order, once each
        problems.append(bad)
        return None
    if spec.kind == "text":
        if isinstance(value, str) and value.strip() and len(value) <= 200 and _is_text(value):
            return value.strip()
        problems.append(bad)
        return None
    # text_list
    if (
        isinstance(value, list)
        and all(isinstance(v, str) and v.strip() and len(v) <= 100 and _is_text(v) for v in value)
        and len(value) <= 50
    ):
        return tuple(v.strip().lower() for v in value)
    problems.append(bad)
    return None


def _is_text(value: str) -> bool:
    """Printable Unicode only: no lone surrogates (JSON allows "\\ud800", UTF-8 does not)
    and no control characters, which could garble a terminal or a report."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in value)


def parse_input(data: object) -> SizingInput:
    """Validate ``data`` (parsed JSON) against the contract.

    Parameters
    ----------
    data : dict
        The input object of ``docs/engine-contract.md``.

    Returns
    -------
    SizingInput

    Raises
    ------
    InvalidInput
        With one message per problem, each naming the field.
    """
    if not isinstance(data, Mapping):
        raise InvalidInput([f"input: must be a JSON object (got {_show(data)})"])
    problems: list[str] = []
    sections: dict[str, Any] = {}
    for key, section in data.items():
        if key not in SCHEMA:
            problems.append(f"{key}: unknown section (expected one of {', '.join(SCHEMA)})")
            continue
        if section is None:
            continue
        if not isinstance(section, Mapping):
            problems.append(f"{key}: must be an object or null (got {_show(section)})")
            continue
        fields: dict[str, object] = {}
        for name, value in section.items():
            path = f"{key}.{name}"
            spec = SCHEMA[key].get(str(name))
            if spec is None:
                problems.append(f"{path}: unknown field (expected one of {', '.join(SCHEMA[key])})")
                continue
            if value is None:
                continue
            checked = _check(path, spec, value, problems)
            if checked is not None:
                fields[str(name)] = checked
        sections[key] = fields
    problems.extend(_cross_checks(sections))
    if problems:
        raise InvalidInput(problems)
    return SizingInput(**{k: _SECTIONS[k](**v) for k, v in sections.items()})


def _measured_checks(measured: Mapping[str, object]) -> list[str]:
    """A measured throughput names its accelerator and stays within that one's datasheet peak
    (no GEMM runs faster than its peak: a larger figure is a wrong file or a wrong name)."""
    accelerator = measured.get("accelerator")
    problems: list[str] = []
    for name, precision in (("matmul_bf16_tflops", "bf16"), ("matmul_fp8_tflops", "fp8")):
        tflops = measured.get(name)
        if not isinstance(tflops, float):
            continue
        if not isinstance(accelerator, str):
            problems.append(f"measured.{name}: needs measured.accelerator, the one it ran on")
            continue
        peak = peak_tflops(ACCELERATORS[accelerator], precision)
        if tflops > peak:
            problems.append(
                f"measured.{name}: above the peak of {ACCELERATORS[accelerator].name} "
                f"({tflops:g} > {peak:g} TFLOP/s)"
            )
    return problems


def _cross_checks(sections: Mapping[str, Mapping[str, object]]) -> list[str]:
    """Consistency between fields (each still names the field)."""
    problems: list[str] = []
    model = sections.get("model", {})
    total, active = model.get("total_params"), model.get("active_params")
    name = model.get("name")
    if isinstance(name, str) and total is None and find_model(name) is None:
        problems.append(
            f"model.name: unknown model (got {_show(name)}); give model.total_params or a catalog "
            f"name such as {MODEL_CATALOG[10].name!r}"
        )
    if isinstance(total, float) and isinstance(active, float) and active > total:
        problems.append(
            f"model.active_params: must not exceed model.total_params (got {active:g} > {total:g})"
        )
    heads, kv = model.get("attention_heads"), model.get("kv_heads")
    if isinstance(heads, int) and isinstance(kv, int) and (kv > heads or heads % kv):
        problems.append(
            f"model.kv_heads: must divide model.attention_heads (got {kv} for {heads} heads)"
        )
    experts, per_token = model.get("experts"), model.get("experts_per_token")
    if isinstance(experts, int) and isinstance(per_token, int) and per_token > experts:
        problems.append(
            f"model.experts_per_token: must not exceed model.experts (got {per_token} > {experts})"
        )
    if model.get("architecture") == "dense" and isinstance(experts, int) and experts > 1:
        problems.append(f'model.experts: a "dense" model has no experts (got {experts})')
    estate = sections.get("estate", {})
    if ("accelerator" in estate) != ("count" in estate):
        problems.append(
            "estate.count: the accelerators owned need both a model and a count "
            f"(got {_show(estate.get('accelerator'))}, {_show(estate.get('count'))})"
        )
    problems.extend(_measured_checks(sections.get("measured", {})))
    hw = sections.get("hardware", {})
    count, per_node = hw.get("count"), hw.get("gpus_per_node")
    if (
        isinstance(count, int)
        and isinstance(per_node, int)
        and count > per_node
        and count % per_node
    ):
        problems.append(
            f"hardware.count: must be a multiple of hardware.gpus_per_node when it spans nodes "
            f"(got {count} with {per_node} per node)"
        )
    par = sections.get("parallelism", {})
    product = 1
    for key in ("tensor", "context", "pipeline", "data"):
        value = par.get(key)
        product *= value if isinstance(value, int) else 1
    if (
        isinstance(count, int)
        and product != count
        and all(isinstance(par.get(k), int) for k in ("tensor", "pipeline", "data"))
    ):
        problems.append(
            f"parallelism.data: tensor x context x pipeline x data must equal hardware.count "
            f"(got {product} for {count})"
        )
    if isinstance(count, int) and product > count:
        problems.append(
            f"parallelism: tensor x context x pipeline x data exceeds hardware.count "
            f"(got {product} > {count})"
        )
    tensor = par.get("tensor")
    if isinstance(tensor, int) and isinstance(per_node, int) and tensor > per_node:
        problems.append(
            f"parallelism.tensor: must fit inside one node of {per_node} accelerators (got {tensor})"
        )
    if isinstance(tensor, int) and isinstance(heads, int) and heads % tensor:
        problems.append(
            f"parallelism.tensor: must divide model.attention_heads (got {tensor} for {heads} heads)"
        )
    batch = sections.get("batch", {})
    seq, gbt = batch.get("sequence_length"), batch.get("global_batch_tokens")
    if isinstance(seq, int) and isinstance(gbt, float) and gbt < seq:
        problems.append(
            f"batch.global_batch_tokens: must hold at least one sequence of {seq} tokens (got {gbt:g})"
        )
    training = sections.get("training", {})
    if training.get("method") == "qlora" and training.get("precision") in ("fp32", "tf32"):
        got = training.get("precision")
        problems.append(f'training.precision: QLoRA computes in "bf16" or "fp16" (got "{got}")')
    return problems


# The figures of a model's shape (parameter_count.DecoderShape): the model section's limits
# where the names are shared, the same bounds for the widths and layers only a shape has.
_SHAPE_LIMITS: Mapping[str, _Field] = {
    **{
        name: SCHEMA["model"][name]
        for name in (
            "layers",
            "hidden_size",
            "attention_heads",
            "kv_heads",
            "ffn_hidden_size",
            "vocab_size",
            "experts",
            "experts_per_token",
        )
    },
    "head_dim": _int("a whole head width (1 to 1,000,000)", 1, 1_000_000),
    "expert_ffn_hidden_size": SCHEMA["model"]["ffn_hidden_size"],
    "shared_expert_ffn_hidden_size": _int("a whole FFN size (0 to 10,000,000)", 0, 10_000_000),
    "dense_layers": _int("a whole number of layers (0 to 1000)", 0, 1000),
}


def check_shape(shape: DecoderShape) -> None:
    """Refuse a model shape no model has, before its parameters are counted.

    A configuration file can hold any figures; these are the limits of the model section
    (``layers`` 1 to 1,000, ``hidden_size`` 16 to 1,000,000, ...), within which every count of
    :func:`~sizing.engine.parameter_count.count_parameters` is a finite float.

    Raises
    ------
    InvalidInput
        With one message per figure out of range, each naming the figure.
    """
    problems: list[str] = []
    for name, spec in _SHAPE_LIMITS.items():
        value = getattr(shape, name)
        if value is not None:
            _check(name, spec, value, problems)
    if not problems and shape.dense_layers > shape.layers:
        problems.append(
            f"dense_layers: must not exceed layers (got {shape.dense_layers} > {shape.layers})"
        )
    if problems:
        raise InvalidInput(problems)
