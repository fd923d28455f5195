"""The proposal's words: plain-language sentences around the engine's figures, the customer's
answers from the question registry, assumptions, and sources.

Every sentence is built from the result; none holds a number of its own. Customer text only
ever passes through here as data and is autoescaped by the template.
"""

from typing import Any

from questionnaire.answers import answer_lines
from questionnaire.questions import QUESTIONS, plain
from reports.figures import (
    COST_OPTION_LABELS,
    INPUT_LABELS,
    format_quantity,
    label_and_unit,
    money,
    number,
)

DEPLOYMENT_MODELS = {
    "on_prem": "in your own data centre (on premises)",
    "colocation": "your own hardware in a rented data centre (colocation)",
    "cloud": "in the cloud",
    "hybrid": "a mix of your own hardware and the cloud (hybrid)",
}


def _g(result: dict[str, Any], *path: str) -> Any:
    value: Any = result
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _texts(items: Any) -> list[str]:
    return [str(item) for item in items or [] if item]


def recommendation_sentence(area: str, result: dict[str, Any]) -> str:
    """What we recommend for one area, in one plain sentence built from the result."""
    cluster = result.get("cluster") or {}
    accelerator = cluster.get("accelerator_name") or cluster.get("accelerator") or "accelerators"
    if area == "compute":
        return (
            f"One training run needs about {number(_g(result, 'compute', 'gpu_hours'))} "
            f"accelerator-hours on {accelerator}, which takes about "
            f"{number(_g(result, 'timeline', 'wall_clock_days'))} days on the recommended cluster."
        )
    if area == "memory":
        fits = _g(result, "memory", "fits")
        return (
            f"Each accelerator needs about {format_quantity(_g(result, 'memory', 'per_gpu_gb'), 'GB')}"
            f" of its {format_quantity(_g(result, 'memory', 'usable_gpu_gb'), 'GB')} usable memory"
            + (", so the plan fits." if fits else ", so the plan does not fit as it stands.")
        )
    if area == "parallelism":
        p = result.get("parallelism") or {}
        return (
            f"Split the model {p.get('tensor', 1)}-way within each layer (tensor), "
            f"{p.get('pipeline', 1)}-way by layers (pipeline) and copy it {p.get('data', 1)} "
            f"times (data parallel), with ZeRO/FSDP stage {p.get('zero_stage', 0)}."
        )
    if area == "cluster":
        return (
            f"{number(cluster.get('gpus'))} × {accelerator} in {number(cluster.get('nodes'))} "
            f"nodes of {number(cluster.get('gpus_per_node'))}."
        )
    if area == "network":
        network = result.get("network") or {}
        return (
            f"{network.get('technology') or 'A high-speed network'} with "
            f"{number(network.get('nics_per_node'))} × {number(network.get('nic_gbps'))} Gb/s "
            f"per node, {network.get('fabric') or 'non-blocking'}."
        )
    if area == "storage":
        storage = result.get("storage") or {}
        return (
            f"About {format_quantity(storage.get('total_capacity_tb'), 'TB')} of fast shared "
            f"storage that reads {format_quantity(storage.get('read_gb_per_s'), 'GB/s')} and "
            f"writes a {format_quantity(storage.get('checkpoint_size_gb'), 'GB')} checkpoint at "
            f"{format_quantity(storage.get('checkpoint_write_gb_per_s'), 'GB/s')}."
        )
    if area == "hosts":
        hosts = result.get("hosts") or {}
        return (
            f"{number(hosts.get('cpu_cores_per_node'))} CPU cores and "
            f"{format_quantity(hosts.get('ram_gb_per_node'), 'GB')} of RAM in each node."
        )
    if area == "resilience":
        resilience = result.get("resilience") or {}
        return (
            f"Save a checkpoint every {number(resilience.get('checkpoint_interval_hours'))} hours; "
            f"expect about {number(resilience.get('expected_interruptions'))} interruptions per run."
        )
    if area == "deployment":
        deployment = result.get("deployment") or {}
        model = DEPLOYMENT_MODELS.get(str(deployment.get("recommended_model")), "to be agreed")
        return f"Recommended way to run it: {model}."
    if area == "cost":
        cost = result.get("cost") or {}
        option = COST_OPTION_LABELS.get(cost.get("recommended_option", ""), "")
        total = _g(result, "cost", cost.get("recommended_option", ""), "total_usd")
        years = cost.get("years", 3)
        if option:
            return (
                f"Over {years} years we recommend {option.lower()}, at about {money(total)}; "
                "the other options are compared below."
            )
        return "Cost options are compared below."
    return ""


def why_sentences(area: str, result: dict[str, Any]) -> list[str]:
    """Why: the engine's own reasons and notes for this area, plus a sentence of context."""
    section = result.get(area) or {}
    reasons: list[str] = []
    if area == "compute":
        mfu = section.get("assumed_mfu")
        if mfu:
            reasons.append(
                f"Training work is the model size times the tokens it reads (about "
                f"{number(section.get('training_flops'))} operations); real clusters reach about "
                f"{mfu * 100:.0f} % of their peak speed, which is what we assume."
            )
        deadline = _g(result, "timeline", "deadline_days")
        if deadline:
            reasons.append(
                f"The cluster is sized to finish within your {number(deadline)}-day deadline."
            )
    if area == "memory":
        reasons.append(
            "Memory holds the model's weights, its gradients, the optimizer's state and the "
            "intermediate results (activations) of the examples in flight."
        )
    if area == "parallelism":
        reasons.append(
            "Tensor parallelism stays inside one node, where the links are fastest; pipeline and "
            "data parallelism cross nodes."
        )
    if area == "cluster":
        concurrent = _g(result, "concurrency", "concurrent_jobs")
        if concurrent and concurrent > 1:
            reasons.append(f"It leaves room for {number(concurrent)} jobs at the same time.")
    if area == "resilience":
        goodput = section.get("goodput")
        if goodput:
            reasons.append(
                f"Large clusters fail now and then; with this plan about {goodput * 100:.0f} % "
                "of the time is productive."
            )
    if area == "cluster":
        reason = _g(result, "concurrency", "reason")
        if reason:
            reasons.append(f"Scheduling: {reason}.")
    for key in ("reason", "rationale", "explanation", "summary", "small_files_advice"):
        if isinstance(section.get(key), str) and section[key]:
            reasons.append(section[key])
    for key in ("reasons", "notes", "security_measures"):
        reasons.extend(_texts(section.get(key)))
    return reasons


def answer_rows(answers: dict[str, Any]) -> list[dict[str, Any]]:
    """All fifteen questions from the registry, with what the customer answered."""
    rows = []
    for question in QUESTIONS:
        rows.append(
            {
                "number": question.number,
                "title": plain(question.title),
                "lines": answer_lines(question.form_class, answers.get(question.slug)),
            }
        )
    return rows


def assumption_rows(
    result: dict[str, Any], answers: dict[str, Any], sources: dict[str, str]
) -> list[dict[str, Any]]:
    """Each value the engine assumed (not the customer's own answers, which have their section),
    marked where the customer told us they were not sure."""
    rows = []
    for item in result.get("assumptions") or []:
        if not isinstance(item, dict) or item.get("provided_by") == "customer":
            continue
        key = str(item.get("key", ""))
        value = item.get("value")
        unit = str(item.get("unit") or "").strip()
        if unit in ("-", "1"):
            unit = ""
        if isinstance(value, str):
            shown = value.replace("_", " ")
        else:
            shown = f"{number(value)} {unit}".strip() if value is not None else "—"
        rows.append(
            {
                "key": key,
                "label": item.get("label") or INPUT_LABELS.get(key) or _humanise_key(key),
                "value": shown,
                "source": item.get("source", ""),
                "rationale": item.get("rationale", ""),
                "not_sure": sources.get(key) in ("not_sure", "unusable"),
                "unusable": sources.get(key) == "unusable",
            }
        )
    rows.sort(key=lambda row: not row["not_sure"])
    return rows


def _humanise_key(key: str) -> str:
    section, _, name = key.partition(".")
    label, _unit = label_and_unit(name or section)
    return f"{label} ({section})" if name else label


def source_rows(result: dict[str, Any]) -> list[str]:
    """Every distinct source the engine cited (assumptions and prices), in order of appearance."""
    seen: dict[str, None] = {}
    for item in result.get("assumptions") or []:
        if isinstance(item, dict) and item.get("source"):
            seen.setdefault(str(item["source"]), None)
    for item in _g(result, "cost", "price_sources") or []:
        if isinstance(item, dict):
            text = " — ".join(str(v) for v in item.values() if v)
            if text:
                seen.setdefault(text, None)
        elif item:
            seen.setdefault(str(item), None)
    for item in result.get("sources") or []:
        seen.setdefault(str(item.get("title", item)) if isinstance(item, dict) else str(item), None)
    return list(seen)
