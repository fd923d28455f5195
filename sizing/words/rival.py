"""The recommended accelerator's software and its nearest rival of another maker, in
sentences: a plan on AMD or Intel accelerators names the software it runs on, and sets the
same run beside the best NVIDIA accelerator sized for it, saying which of the two times rests
on less public evidence.

Public training runs at scale are published mostly on NVIDIA accelerators (the reference's
``published_runs.json``, compiled 2026-12-02: every pre-training row above 1,024 accelerators
is NVIDIA or TPU), so a time on an AMD or Intel part is the less certain of the two; the range
itself is the engine's (``confidence``), this only says why it is wider.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sizing.engine.hardware import ACCELERATORS, AcceleratorSpec
from sizing.engine.numbers import format_count
from sizing.engine.vocabulary import COST_OPTIONS, STACK_WORDS, in_sentence
from sizing.stored_result import StoredResult
from sizing.words.durations import run_time, run_time_range
from sizing.words.estate import format_power

# What each stack trains with, by its maker's documentation (sizing/engine/platforms.py [1] [2]:
# ROCm 7.1 deep-learning frameworks; Megatron-LM through AMD's Primus images; Intel Gaudi
# software support matrix v1.15)
_STACK_TOOLS = {
    "rocm": "PyTorch, DeepSpeed and Megatron-LM (AMD's ROCm builds)",
    "gaudi": "PyTorch, DeepSpeed and Optimum Habana (Intel's Gaudi builds)",
}


# How DeepSpeed and Megatron run on another maker's software, and what its speed rests on
# (sizing/engine/platforms.py [2] [5] [6]; sizing/engine/vendor_scale.py [1] [2] [3])
_OTHER_STACK = {
    "rocm": (
        "AMD's ROCm builds (ROCm documentation: Megatron-LM through AMD's Primus images)",
        "AMD's published MLPerf results (Llama 2 70B with LoRA) and the Frontier runs",
    ),
    "gaudi": (
        "Intel's own forks (Intel Gaudi software support matrix v1.15: DeepSpeed and "
        "Megatron-DeepSpeed; HabanaAI/Megatron-LM)",
        "Intel's published Gaudi 2 training figures (Llama 3.1 70B and 8B)",
    ),
}


def experts_elsewhere(result: StoredResult, accelerator: str) -> str:
    """Whether a mixture-of-experts set-up carries over to ``accelerator`` when it runs on
    another maker's software than the plan: where DeepSpeed and Megatron come from there, and
    that the speed we give it rests on dense models only (customer 4 was offered Gaudi 3 with
    no word on their expert parallelism); "" for a dense model or the same software."""
    acc, ours = ACCELERATORS.get(accelerator), ACCELERATORS.get(result.accelerator)
    if acc is None or ours is None or acc.software == ours.software:
        return ""
    if acc.software not in _OTHER_STACK:
        return ""
    sizes = {a.key: a.value for a in result.assumptions}
    total, active = sizes.get("model.total_params"), sizes.get("model.active_params")
    if not (isinstance(total, int | float) and isinstance(active, int | float) and active < total):
        return ""
    builds, evidence = _OTHER_STACK[acc.software]
    return (
        f"On the {acc.name}, DeepSpeed and Megatron, and with them your expert parallelism, "
        f"run as {builds} rather than the upstream projects; our speed for it rests on "
        f"{evidence}, all dense models without experts. A trial run of your mixture-of-experts "
        "set-up on it settles whether it carries over, and at what speed, before you choose it."
    )


def _other_maker(result: StoredResult) -> AcceleratorSpec | None:
    """The plan's accelerator when NVIDIA does not make it (None for an NVIDIA plan)."""
    acc = ACCELERATORS.get(str(result.section("cluster").get("accelerator") or ""))
    return None if acc is None or acc.software == "cuda" else acc


def _peer_fits(result: StoredResult) -> bool:
    """Whether the plan's NVIDIA counterpart was sized on as many accelerators and fits."""
    peer = result.section("peer")
    return bool(peer.get("accelerator") and peer.get("fits"))


def reads_alternatives(result: StoredResult) -> bool:
    """Whether :func:`platform_lines` of ``result`` reads the other accelerators sized for the
    run (a non-NVIDIA plan whose NVIDIA counterpart was not sized at the same scale): a sizing
    made without them (``sized_once.size_built_once(alternatives=False)``) is then made in
    full before it is shown."""
    return _other_maker(result) is not None and not _peer_fits(result)


def platform_lines(result: StoredResult) -> list[str]:
    """The software a non-NVIDIA plan runs on, and the same run on the best NVIDIA accelerator
    sized for it (empty for an NVIDIA plan)."""
    acc = _other_maker(result)
    if acc is None:
        return []
    lines = [
        f"{acc.name} runs on {STACK_WORDS[acc.software]}: {_STACK_TOOLS[acc.software]}; "
        "code written for NVIDIA's CUDA alone (custom kernels) must be ported."
    ]
    if _peer_fits(result):
        lines.append(_same_scale(result, acc.name, acc.vendor, result.section("peer")))
        return lines
    rival = _nvidia_rival(result.alternatives, result.gpus_per_job or result.gpus or 0)
    if rival is not None:
        days = float(rival.get("wall_clock_days") or 0.0)
        gpus = int(rival.get("gpus") or 0)
        lines.append(
            f"Beside it, {format_count(gpus)} × {rival.get('name')} would take about "
            f"{run_time(days)} a run, against about {run_time(result.wall_clock_days or 0.0)} "
            f"on {format_count(result.gpus_per_job or result.gpus or 0)} × {acc.name}. "
            f"Fewer training runs at this scale are published on {acc.vendor} accelerators "
            "than on NVIDIA's, so the time on "
            f"{acc.name} is the less certain of the two: a short trial run settles it."
        )
    return lines


def _same_scale(result: StoredResult, name: str, vendor: str, peer: Mapping[str, Any]) -> str:
    """The plan and its NVIDIA counterpart on as many accelerators (``engine.peer``): time with
    its range, the cost of the way each is paid for, and the power with cooling."""

    def run(days: float, span: Any, option: Any, net: Any, kw: float) -> str:
        likely = f" (likely {run_time_range(*span)})" if span else ""
        paid = (
            f", {result.money(float(net))} over the plan ({in_sentence(COST_OPTIONS[option])})"
            if option in COST_OPTIONS and net is not None
            else ""
        )
        return (
            f"about {run_time(days)} a run{likely}{paid}, drawing {format_power(kw)} with cooling"
        )

    cost = result.section("cost")
    chosen = cost.get("recommended_option")
    plan_net = (cost.get(chosen) or {}).get("net_usd") if chosen else None
    timeline = result.section("timeline")
    theirs = run(
        float(peer["wall_clock_days"]),
        peer.get("wall_clock_days_range"),
        peer.get("option"),
        peer.get("net_usd"),
        float(peer["facility_power_kw"]),
    )
    ours = run(
        result.wall_clock_days or 0.0,
        timeline.get("wall_clock_days_range"),
        chosen,
        plan_net,
        float(result.section("deployment").get("facility_power_with_pue_kw") or 0.0),
    )
    estate = result.estate
    both_within = bool(
        peer.get("within_power")
        and estate is not None
        and estate.cluster_power_kw is not None
        and estate.cluster_power_kw <= (estate.power_kw or 0.0)
    )
    power = " Both fit within your power available." if both_within else ""
    return (
        f"On the same {format_count(int(peer['gpus']))} accelerators, {peer['name']} would take "
        f"{theirs}; {name}: {ours}.{power} Fewer training runs at this scale are published on "
        f"{vendor} accelerators than on NVIDIA's, so the time on {name} is the less certain of "
        "the two and its range the wider: a short trial run settles it."
    )


def _nvidia_rival(
    alternatives: tuple[Mapping[str, Any], ...], gpus: int
) -> Mapping[str, Any] | None:
    """The NVIDIA accelerator of the comparison to set beside the plan: one sized at the same
    scale (``gpus``) when there is one, else the first that fits (the engine ranks them)."""
    nvidia = [
        alt
        for alt in alternatives
        if alt.get("fits")
        and str(alt.get("accelerator")) in ACCELERATORS
        and ACCELERATORS[str(alt["accelerator"])].software == "cuda"
    ]
    same_scale = [alt for alt in nvidia if int(alt.get("gpus") or 0) == gpus]
    return (same_scale or nvidia or [None])[0]
