"""Every key of docs/engine-contract.md is in real output, with the documented extras."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

import pytest

from sizing.engine import ACCELERATORS, ENGINE_VERSION, MODEL_CATALOG, parse_input, size_dict

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "sizing" / "engine" / "examples"
DOC = (ROOT / "docs" / "engine-contract.md").read_text()
BLOCKS = re.findall(r"```jsonc\n(.*?)```", DOC, flags=re.S)


def _jsonc(text: str) -> Any:
    return json.loads(re.sub(r"//[^\n]*", "", text))


def _keys(template: Any, actual: Any, path: str = "") -> list[str]:
    missing: list[str] = []
    if isinstance(template, dict):
        if not isinstance(actual, dict):
            return [path or "<root>"]
        for key, sub in template.items():
            if key == "…":
                continue
            if key not in actual:
                missing.append(f"{path}{key}")
            else:
                missing += _keys(sub, actual[key], f"{path}{key}.")
    elif isinstance(template, list) and template and isinstance(template[0], dict):
        if not actual:
            return [path.rstrip(".")]
        missing += _keys(template[0], actual[0], path)
    return missing


@pytest.fixture(scope="module")
def example_output() -> dict[str, Any]:
    return size_dict(_jsonc(BLOCKS[0]))


def test_contract_input_example_is_valid() -> None:
    example = _jsonc(BLOCKS[0])
    inputs = parse_input(example)
    given = {
        (section, name): answer
        for section, fields in example.items()
        for name, answer in fields.items()
        if answer is not None
    }
    assert len(given) >= 20  # the example answers most questions
    for (section, name), answer in given.items():
        parsed = getattr(getattr(inputs, section), name)
        expected = tuple(answer) if isinstance(answer, list) else answer
        assert parsed == expected, f"{section}.{name}"
    assert inputs.model.experts is None  # null means "not sure yet"


def test_every_contract_output_key_is_present(example_output: dict[str, Any]) -> None:
    assert _keys(_jsonc(BLOCKS[1]), example_output) == []


def test_contract_accelerator_ids_are_known() -> None:
    ids = re.findall(r"`([a-z0-9-]+)`", DOC.split("Accelerator ids")[1].split("\n")[0])
    assert ids and set(ids) <= set(ACCELERATORS)


EXTRAS = {
    "timeline": ["options", "deadline_days"],
    "memory": ["breakdown_gb", "usable_gpu_gb", "bytes_per_param"],
    "cost": [
        "cloud_on_demand",
        "cloud_hyperscaler",
        "cloud_reserved_1yr",
        "cloud_reserved",
        "buy",
        "colocation",
        "hybrid",
        "break_even_utilisation",
        "break_even_months",
        "recommended_option",
        "usage",
        "constraints",
        "sensitivity",
        "capex_usd",
        "running_usd",
        "bill_of_materials",
        "eur",
        "not_priced",
        "reasons",
        "price_sources",
    ],
    "storage": [
        "read_gb_per_s",
        "checkpoint_write_gb_per_s",
        "total_capacity_tb",
        "tiers",
        "small_files_advice",
    ],
    "network": [
        "per_step_gb",
        "scale_up_gb_per_s_needed",
        "scale_out_gb_per_s_per_gpu_needed",
        "nics_per_node",
        "fabric",
        "technology",
    ],
    "resilience": [
        "checkpoint_interval_hours",
        "expected_interruptions",
        "spare_nodes",
        "expected_lost_hours",
    ],
    "deployment": [
        "recommended_model",
        "reasons",
        "security_measures",
        "facility_power_kw",
        "racks",
        "cooling",
    ],
    "concurrency": ["scheduler"],
}


def test_documented_extras_are_present(example_output: dict[str, Any]) -> None:
    for section, keys in EXTRAS.items():
        for key in keys:
            assert key in example_output[section], f"{section}.{key}"
    cost = example_output["cost"]
    for option in ("cloud_on_demand", "cloud_reserved", "buy", "colocation"):
        o = cost[option]
        assert len(o["by_year_usd"]) == 3 and len(o["range_usd"]) == 2 and o["total_usd"] > 0
        assert o["net_usd"] == pytest.approx(o["total_usd"] - o["residual_value_usd"], rel=1e-5)
        assert o["range_usd"][0] <= o["net_usd"] <= o["range_usd"][1]
    # 2,048 accelerators for one run: the hybrid's base is the whole cluster, and it says so
    assert cost["hybrid"]["owned_base_gpus"] == example_output["cluster"]["gpus"]
    assert "one run needs all" in cost["hybrid"]["basis"]
    assert not any(item["option"] == "hybrid" for item in cost["not_priced"])
    opt = example_output["timeline"]["options"][0]
    assert {"gpus", "nodes", "wall_clock_days", "gpu_hours", "cost_usd"} <= set(opt)
    for key in ("alternatives", "drivers", "risks", "assumptions", "open_questions", "warnings"):
        assert isinstance(example_output[key], list)
    assert len(example_output["drivers"]) == 3
    a = example_output["assumptions"][0]
    assert {"key", "value", "unit", "source", "as_of", "provided_by", "rationale"} <= set(a)
    assert {x["provided_by"] for x in example_output["assumptions"]} <= {
        "customer",
        "assumed",
        "default",
    }


def test_output_is_json_serialisable_without_nan(example_output: dict[str, Any]) -> None:
    json.dumps(example_output, allow_nan=False)
    assert example_output["engine_version"] == ENGINE_VERSION


def test_hardware_count_is_evaluated_not_sized(example_output: dict[str, Any]) -> None:
    assert example_output["cluster"]["gpus"] == 2048


def test_model_catalog_has_at_least_25_models_with_sources() -> None:
    assert len(MODEL_CATALOG) >= 25
    families = {m.family for m in MODEL_CATALOG}
    assert {
        "Llama 2",
        "Llama 3",
        "Llama 3.1",
        "Llama 3.2",
        "Mistral",
        "Mixtral",
        "Qwen2.5",
        "Gemma 2",
        "DeepSeek",
        "Phi-3",
        "GPT-2",
        "BERT",
        "T5",
        "Falcon",
        "OLMo",
    } <= families
    assert all(m.source for m in MODEL_CATALOG)


def test_missing_answers_are_assumed_and_asked() -> None:
    out = size_dict({})
    assumed = {a["key"] for a in out["assumptions"] if a["provided_by"] == "assumed"}
    assert "model.total_params" in assumed and out["open_questions"]


def test_custom_cuda_kernels_exclude_other_vendors() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "data": {"tokens": 1e9},
            "software": {"custom_cuda_kernels": True},
        }
    )
    assert all(ACCELERATORS[a["accelerator"]].vendor == "NVIDIA" for a in out["alternatives"])
    assert (
        "AMD Instinct MI300X 192GB: custom CUDA kernels do not run on AMD ROCm"
        in out["excluded_accelerators"]
    )


def test_forced_parallelism_is_honoured() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 13B"},
            "data": {"tokens": 1e9},
            "hardware": {"count": 16},
            "parallelism": {"tensor": 4, "pipeline": 2},
        }
    )
    p = out["parallelism"]
    assert (p["tensor"], p["pipeline"], p["data"]) == (4, 2, 2)


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_the_engine_states_the_counts_others_would_derive(example):
    """One run's servers, the cluster with its spares (engine 2026.12.11): stated once here,
    so no page works them out again."""
    out = size_dict(json.loads(example.read_text()), today=datetime.date(2026, 12, 2))
    cluster = out["cluster"]
    per_node = cluster["gpus_per_node"]
    assert cluster["nodes_per_job"] == max(1, -(-cluster["gpus_per_job"] // per_node))
    assert cluster["gpus_in_service"] == cluster["gpus"] + cluster["spare_nodes"] * per_node
    assert cluster["nodes_per_job"] <= cluster["nodes"]
