"""Labels and number formatting for the proposal's figures tables.

Units come from the field names (``_gb``, ``_tb``, ``_gb_per_s``, ``_usd`` …), as the engine
contract promises, so a new engine field gets a sensible label and unit without a code change.
"""

from typing import Any

COST_OPTION_LABELS = {
    "cloud_on_demand": "Cloud, on demand",
    "cloud_reserved": "Cloud, reserved",
    "buy": "Buy (on premises)",
    "hybrid": "Hybrid",
}

# Engine field → plain label, where the humanised name is not good enough.
LABELS = {
    "training_flops": "Training compute (FLOPs)",
    "flops_per_token": "Compute per token (FLOPs)",
    "gpu_hours": "Accelerator-hours",
    "assumed_mfu": "Assumed efficiency (MFU)",
    "per_gpu_gb": "Peak memory per accelerator",
    "usable_gpu_gb": "Usable memory per accelerator",
    "min_gpus": "Fewest accelerators that fit the model",
    "fits": "Fits in memory",
    "zero_stage": "ZeRO / FSDP stage",
    "gpus": "Accelerators",
    "nodes": "Nodes",
    "gpus_per_node": "Accelerators per node",
    "wall_clock_days": "Wall-clock time",
    "nic_gbps": "Network port speed",
    "cpu_cores_per_node": "CPU cores per node",
    "ram_gb_per_node": "RAM per node",
    "job_mtbf_hours": "Mean time between job failures",
    "goodput": "Productive share of time (goodput)",
    "facility_power_kw": "IT power",
    "facility_power_with_pue_kw": "Facility power incl. cooling",
    "break_even_utilisation": "Break-even utilisation (buy vs cloud)",
    "one_run_cloud_usd": "One run in the cloud",
    "all_experiments_gpu_hours": "Accelerator-hours, all planned runs",
    "all_experiments_flops": "Training compute, all planned runs (FLOPs)",
    "hardware_flops_per_token": "Hardware compute per token, incl. recomputation (FLOPs)",
    "rule_of_thumb_gpu_hours": "Rule-of-thumb check (6 × parameters × tokens)",
    "peak_tflops": "Peak speed per accelerator",
    "tokens_per_s": "Training throughput (tokens)",
    "accelerator_name": "Accelerator",
    "step_time_s": "Time per training step",
    "headroom_gpus": "Spare accelerators for other work",
    "gpus_per_job": "Accelerators per job",
    "spare_nodes": "Spare nodes",
    "recommended_model": "Recommended way to run it",
    "recommended_option": "Recommended option",
}

# Unit tokens inside field names → the unit shown (longest first).
UNIT_TOKENS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("gb", "per", "s"), "GB/s"),
    (("per", "s"), "per second"),
    (("gbps",), "Gb/s"),
    (("tflops",), "TFLOPS"),
    (("gb",), "GB"),
    (("tb",), "TB"),
    (("usd",), "USD"),
    (("kw",), "kW"),
    (("hours",), "h"),
    (("days",), "days"),
    (("minutes",), "min"),
    (("s",), "s"),
)
WORDS = {
    "cpu": "CPU",
    "gpu": "accelerator",
    "gpus": "accelerators",
    "ram": "RAM",
    "nvme": "NVMe",
    "pcie": "PCIe",
    "nics": "network ports",
    "mfu": "MFU",
    "flops": "FLOPs",
    "pue": "PUE",
    "mtbf": "MTBF",
    "tb": "TB",
    "gb": "GB",
}
HIDDEN = {
    "notes",
    "reason",
    "forced",
    "accelerator",
    "concurrent_jobs",
    "reasons",
    "security_measures",
    "tiers",
    "price_sources",
    "options",
    "rationale",
    "small_files_advice",
    "explanation",
    "summary",
    "basis",
}


def number(value: Any) -> str:
    """1234567 → "1,234,567"; 0.4567 → "0.457"; 2.5e21 → "2.5 × 10²¹"."""
    if isinstance(value, bool) or value is None:
        return "yes" if value else ("no" if value is False else "—")
    if not isinstance(value, int | float):
        return str(value)
    magnitude = abs(value)
    if magnitude >= 1e15:
        mantissa, exponent = f"{value:.3e}".split("e")
        superscript = str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
        return f"{float(mantissa):.3g} × 10{superscript}"
    if magnitude >= 1e12:
        return f"{value / 1e12:,.3g} trillion"
    if magnitude >= 1e9:
        return f"{value / 1e9:,.3g} billion"
    if magnitude >= 1e6:
        return f"{value / 1e6:,.3g} million"
    if float(value).is_integer():
        return f"{int(value):,}"
    if magnitude >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def money(value: Any) -> str:
    if value is None:
        return "—"
    value = float(value)
    if abs(value) >= 1e9:
        return f"${value / 1e9:,.2f} billion"
    if abs(value) >= 1e6:
        return f"${value / 1e6:,.2f} million"
    return f"${value:,.0f}"


def money_short(value: Any) -> str:
    """Compact money for narrow table cells: $14.7M, $850k."""
    if value is None:
        return "—"
    value = float(value)
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"${value / limit:,.3g}{suffix}"
    return f"${value:,.0f}"


def format_quantity(value: Any, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "USD":
        return money(value)
    if unit == "GB/s" and isinstance(value, int | float) and 0 < value < 0.1:
        return f"{number(value * 1000)} MB/s"  # a trickle reads better in MB/s than 0.00209 GB/s
    return f"{number(value)} {unit}".strip()


def label_and_unit(name: str) -> tuple[str, str]:
    """``scale_up_gb_per_s_needed`` → ("Scale up needed", "GB/s"); ``LABELS`` wins for the label."""
    tokens = name.split("_")
    unit = ""
    for pattern, shown in UNIT_TOKENS:
        size = len(pattern)
        for start in range(len(tokens) - size + 1):
            if tuple(tokens[start : start + size]) == pattern:
                unit = shown
                tokens = tokens[:start] + tokens[start + size :]
                break
        if unit:
            break
    words = [WORDS.get(token, token) for token in tokens if token]
    label = " ".join(words) or name
    label = label[0].upper() + label[1:]
    return LABELS.get(name, label), unit


def figure_rows(area: str, section: dict[str, Any]) -> list[tuple[str, str]]:
    """The scalar figures of one result section as (label, formatted value) rows."""
    rows = []
    for name, value in section.items():
        if name in HIDDEN or value is None:
            continue
        if isinstance(value, dict):
            if area == "cost":
                continue  # the options have their own table
            for part, part_value in value.items():
                if isinstance(part_value, int | float) and not isinstance(part_value, bool):
                    label, unit = label_and_unit(name)
                    rows.append(
                        (f"{label}: {part.replace('_', ' ')}", format_quantity(part_value, unit))
                    )
            continue
        if isinstance(value, list | tuple):
            continue
        label, unit = label_and_unit(name)
        if name in (
            "assumed_mfu",
            "goodput",
            "utilisation",
            "break_even_utilisation",
            "max_comm_share",
        ) and isinstance(value, int | float):
            rows.append((label, f"{value * 100:.0f} %"))
        else:
            rows.append((label, format_quantity(value, unit)))
    return rows


INPUT_LABELS = {
    "model.name": "Model",
    "model.total_params": "Model size (parameters)",
    "model.active_params": "Parameters used per token",
    "model.architecture": "Architecture",
    "data.tokens": "Training tokens per epoch",
    "data.epochs": "Epochs",
    "training.method": "Training method",
    "training.experiments": "Full runs planned",
    "schedule.deadline_days": "Deadline (days)",
    "schedule.concurrent_jobs": "Jobs at the same time",
    "training.precision": "Number precision",
    "training.optimizer": "Optimizer",
    "batch.sequence_length": "Sequence length (tokens)",
    "data.dataset_size_tb": "Dataset size (TB)",
    "data.modality": "Kind of data",
    "data.annual_growth": "Data growth per year",
}
SOURCE_LABELS = {
    "customer": "you told us",
    "override": "set by our engineer",
    "not_sure": "you were not sure: we assumed",
    "derived": "worked out from your answers",
}


def input_rows(
    engine_input: dict[str, Any], fields: tuple[str, ...], sources: dict[str, str]
) -> list[tuple[str, str, str]]:
    """(label, value, where it came from) for the engine-input fields behind one section."""
    rows = []
    for spec in fields:
        section, _, name = spec.partition(".")
        values = engine_input.get(section) or {}
        names = [name] if name else list(values)
        for field_name in names:
            value = values.get(field_name)
            if value is None or value == [] or value == "":
                continue
            path = f"{section}.{field_name}"
            label = INPUT_LABELS.get(path) or field_name.replace("_", " ").capitalize()
            if isinstance(value, list):
                shown = ", ".join(str(v) for v in value)
            elif path == "data.annual_growth" and isinstance(value, int | float):
                shown = f"{value * 100:.0f} %"
            elif isinstance(value, str):
                shown = value.replace("_", " ")  # engine enums (continued_pretrain); names as-is
            else:
                shown = number(value)
            rows.append((label, shown, SOURCE_LABELS.get(sources.get(path, ""), "")))
    return rows
