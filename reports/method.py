"""The "method and sources" appendix: the engine constants that bear on this plan, each with its
value and source. The rest (bytes for optimizers the customer does not use, efficiencies of
accelerators not chosen …) stay in docs/engine.md.

Which constants bear on a plan is decided from the plan itself (its precision, optimizer,
method, accelerator, node count and recommended option), one rule per constant below; a
constant no rule names is left to the docs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sizing.public import (
    ACCELERATORS,
    FAMILIES,
    TYPICAL,
    StoredResult,
    UsedAssumption,
    describe_value,
    format_percent,
    format_quantity,
    stack_family,
)

Plan = dict[str, Any]
_ALWAYS: Callable[[Plan], bool] = lambda p: True  # noqa: E731

_MIXED = ("bf16", "fp16", "fp8", "mixed")


def _adapter(p: Plan) -> bool:
    return p["method"] in ("lora", "qlora")


RELEVANT: dict[str, Callable[[Plan], bool]] = {
    # memory
    "weight_bytes_16bit": lambda p: p["precision"] in _MIXED,
    "weight_bytes_fp32": lambda p: p["precision"] in ("fp32", "tf32"),
    "fp8_extra_weight_bytes": lambda p: p["precision"] == "fp8",
    "grad_bytes_bf16": lambda p: p["precision"] in ("bf16", "fp8", "mixed"),
    "grad_bytes_fp16": lambda p: p["precision"] == "fp16",
    "grad_bytes_fp32": lambda p: p["precision"] in ("fp32", "tf32"),
    "master_weight_bytes": lambda p: p["precision"] in _MIXED,
    "adam_state_bytes": lambda p: p["optimizer"] == "adamw",
    "adam8bit_state_bytes": lambda p: p["optimizer"] == "adamw_8bit",
    "adafactor_state_bytes": lambda p: p["optimizer"] == "adafactor",
    "momentum_state_bytes": lambda p: p["optimizer"] in ("sgd", "lion"),
    "lora_adapter_bytes": _adapter,
    "qlora_base_bytes": lambda p: p["method"] == "qlora",
    "act_sbh_coefficient": lambda p: p["recompute"] != "full",
    "act_full_recompute_coefficient": lambda p: p["recompute"] == "full",
    "framework_overhead_gb": _ALWAYS,
    "usable_memory_fraction": _ALWAYS,
    # compute
    "lora_flops_factor": _adapter,
    "eff_matmul_ceiling": _ALWAYS,
    "eff_comm_overlap": lambda p: p["nodes"] > 1,
    "dualpipe_communication_sm_share": lambda p: p["moe"] and p["nodes"] > 1,
    "eff_moe_factor": lambda p: p["moe"],
    "eff_software_cuda": lambda p: p["software"] == "cuda",
    "eff_software_rocm": lambda p: p["software"] == "rocm",
    "eff_software_gaudi": lambda p: p["software"] == "gaudi",
    # who trains with what: the factor of the customer's software family (sizing/engine/
    # stack_efficiency.py), the typical published run's without an answer
    **{f"eff_stack_{f}": (lambda p, f=f: p["stack"] == f) for f in (TYPICAL, *FAMILIES)},
    # who trains: no one on the team knows the set-up, so the range's slow end widens
    # (sizing/engine/team_experience.py)
    "team_new_to_setup_hours_high": lambda p: p["team_new_to_setup"],
    "run_overhead_share": _ALWAYS,
    # resilience
    "gpu_mtbf_hours": _ALWAYS,
    "restart_hours": _ALWAYS,
    "checkpoint_snapshot_seconds": _ALWAYS,
    "spare_node_fraction": lambda p: p["spare_nodes"] > 0,
    # network
    "nccl_scale_out_efficiency": lambda p: p["nodes"] > 1,
    "nccl_scale_up_efficiency": lambda p: p["gpus_per_node"] > 1,
    # storage and hosts
    "raw_text_bytes_per_token": lambda p: p["modality"] == "text",
    "checkpoint_bytes_mixed_adam": lambda p: p["optimizer"] == "adamw" and p["precision"] in _MIXED,
    "read_headroom": _ALWAYS,
    "min_read_gb_per_s_per_gpu_media": lambda p: p["modality"] not in ("text", ""),
    "cpu_cores_per_gpu_text": lambda p: p["modality"] == "text",
    "cpu_cores_per_gpu_media": lambda p: p["modality"] not in ("text", ""),
    "ram_to_gpu_memory": _ALWAYS,
    # site and cost
    "rack_power_air_max_kw": lambda p: p["owned"],
    "server_power_draw_share": lambda p: p["owned"],
    "owned_max_utilisation": lambda p: p["owned"],
    "server_idle_draw_share": lambda p: p["owned"],
    "fabric_switch_ports": lambda p: p["owned"] and p["nodes"] > 1,
    "gpu_server_lead_weeks_low": lambda p: p["owned"],  # one row with its high end (_RANGES)
    "cloud_idle_share": lambda p: not p["owned"],
    # Installation, support, the hardware's life, staff and cloud storage are prices: the
    # proposal lists them once, with the prices and their dates.
}

# Constants whose value is a share of something (written as a percentage).
_SHARES = frozenset(
    {
        "usable_memory_fraction",
        "eff_matmul_ceiling",
        "eff_comm_overlap",
        "dualpipe_communication_sm_share",
        "eff_moe_factor",
        "eff_software_cuda",
        "eff_software_rocm",
        "eff_software_gaudi",
        *(f"eff_stack_{f}" for f in (TYPICAL, *FAMILIES)),
        "run_overhead_share",
        "spare_node_fraction",
        "nccl_scale_out_efficiency",
        "nccl_scale_up_efficiency",
        "server_power_draw_share",
        "owned_max_utilisation",
        "server_idle_draw_share",
    }
)


def plan_facts(result: StoredResult, engine_input: dict[str, Any]) -> Plan:
    """The few facts of a plan that decide which constants bear on it."""
    training = engine_input.get("training") or {}
    model = engine_input.get("model") or {}
    data = engine_input.get("data") or {}
    spec = ACCELERATORS.get(result.accelerator)
    best = result.recommended_cost
    return {
        "precision": str(training.get("precision") or "bf16"),
        "optimizer": str(training.get("optimizer") or "adamw"),
        "method": str(training.get("method") or ""),
        "recompute": str(result.section("parallelism").get("recompute") or ""),
        "moe": model.get("architecture") == "moe"
        or int(result.section("parallelism").get("expert") or 1) > 1,
        "software": spec.software if spec else "",
        "stack": stack_family((engine_input.get("software") or {}).get("frameworks")),
        "team_new_to_setup": (engine_input.get("software") or {}).get("team_knows_setup") is False,
        "nodes": result.nodes or 0,
        "gpus_per_node": result.gpus_per_node or 0,
        "spare_nodes": int(result.section("cluster").get("spare_nodes") or 0),
        "modality": str(data.get("modality") or "text"),
        "owned": bool(best and best.capex_usd),
    }


def constant_value(item: UsedAssumption) -> str:
    """A constant's value as a reader takes it: shares as percentages, units in words."""
    if item.key in _SHARES and isinstance(item.value, int | float):
        return format_percent(float(item.value))
    if item.unit == "h" and isinstance(item.value, int | float):
        return format_quantity(float(item.value), "h")
    if item.unit in ("-", "") and isinstance(item.value, int | float):
        return f"{item.value:g} ×"
    return describe_value(item.key, item.value, engine_unit=item.unit)


# Constants that are the two ends of one published range, shown as one row: the low end's key,
# the high end's and what the range is.
_RANGES: dict[str, tuple[str, str]] = {
    "gpu_server_lead_weeks_low": (
        "gpu_server_lead_weeks_high",
        "Published time from order to delivery of GPU servers",
    ),
}


def method_rows(result: StoredResult, engine_input: dict[str, Any]) -> list[dict[str, str]]:
    """The constants that bear on this plan: what each is (its rationale), value and source."""
    plan = plan_facts(result, engine_input)
    by_key = {item.key: item for item in result.assumptions}
    rows = []
    for item in result.assumptions:
        rule = RELEVANT.get(item.key)
        if item.provided_by != "default" or rule is None or not rule(plan):
            continue
        what, value = item.rationale, constant_value(item)
        high_key, range_what = _RANGES.get(item.key, ("", ""))
        if high_key in by_key:
            high = by_key[high_key]
            what, value = range_what, f"{item.value:g} to {constant_value(high)}"
        rows.append(
            {
                "what": (what[:1].upper() + what[1:]) or item.key,
                "value": value,
                "source": item.source,
            }
        )
    return rows
