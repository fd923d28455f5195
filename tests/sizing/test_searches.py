"""One sizing runs the costly plan search once per accelerator and GPU count.

The size search, the memory minimum, the trade-off table and the alternatives
ask for overlapping counts; ``cluster.Searches`` keeps what was searched.
Memory checks are shared by accelerators with the same memory, which is only
right while fitting depends on the accelerator through its memory alone: the
last tests check that dependence.
"""

from __future__ import annotations

import datetime
import json
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from sizing.engine import cluster, parse_input, size_dict
from sizing.engine.compute import training_flops
from sizing.engine.hardware import ACCELERATORS, AcceleratorSpec
from sizing.engine.parallelism import PLAN_ANSWERS, any_plan_fits, search_plan, workload
from sizing.engine.reads import noting_reads
from sizing.engine.resolve.resolved import resolve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "sizing" / "engine" / "examples").glob("*.json"))
TODAY = datetime.date(2026, 12, 2)


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[Any], Counter[Any]]:
    """Plan searches by (accelerator, GPUs) and memory checks by (memory [GB], GPUs)."""
    plans: Counter[Any] = Counter()
    checks: Counter[Any] = Counter()
    search_plan, fits = cluster.search_plan, cluster.any_plan_fits

    def counted_search(w: Any, r: Any, acc: AcceleratorSpec, gpus: int, *rest: Any) -> Any:
        plans[acc.id, gpus] += 1
        return search_plan(w, r, acc, gpus, *rest)

    def counted_fits(w: Any, r: Any, acc: AcceleratorSpec, gpus: int, *rest: Any) -> bool:
        checks[acc.memory_gb, gpus] += 1
        return fits(w, r, acc, gpus, *rest)

    monkeypatch.setattr(cluster, "search_plan", counted_search)
    monkeypatch.setattr(cluster, "any_plan_fits", counted_fits)
    return plans, checks


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_sizing_searches_each_accelerator_and_count_once(
    path: Path, searched: tuple[Counter[Any], Counter[Any]]
) -> None:
    size_dict(json.loads(path.read_text()), today=TODAY)
    plans, checks = searched
    assert plans and checks
    assert [key for key, n in plans.items() if n > 1] == []
    assert [key for key, n in checks.items() if n > 1] == []


# Workloads for the dependence check: dense and MoE, full training and adapters, FP8, forced
# plans and recomputation, another node size.
WORKLOADS: list[dict[str, Any]] = [
    {"model": {"name": "Llama 3.1 70B"}, "training": {"method": "pretrain"}},
    {"model": {"name": "Mixtral 8x7B"}, "training": {"method": "full_finetune"}},
    {"model": {"name": "DeepSeek-V3"}, "training": {"method": "pretrain", "precision": "fp8"}},
    {"model": {"name": "Llama 3.1 70B"}, "training": {"method": "qlora"}},
    {"model": {"total_params": 3e10}, "training": {"method": "lora", "precision": "fp32"}},
    {
        "model": {"total_params": 1.3e10},
        "training": {"gradient_checkpointing": False, "optimizer": "adafactor"},
        "parallelism": {"tensor": 2, "zero_stage": 1},
        "hardware": {"gpus_per_node": 4},
    },
]
COUNTS = (1, 2, 4, 8, 16, 32, 64, 128, 256)


def _unlike(acc: AcceleratorSpec) -> AcceleratorSpec:
    """An accelerator with ``acc``'s memory and every other figure changed."""
    changed: dict[str, Any] = {}
    for f in fields(acc):
        old = getattr(acc, f.name)
        if f.name == "memory_gb":
            continue
        if isinstance(old, str):
            changed[f.name] = old + "-other" if f.name != "software" else "rocm"
        elif isinstance(old, int | float):
            changed[f.name] = type(old)(old * 3 + 1)
        else:  # an FP8 or TF32 peak the accelerator does not have
            changed[f.name] = 1234.0
    return replace(acc, **changed)


@pytest.mark.parametrize("answers", WORKLOADS, ids=range(len(WORKLOADS)))
@pytest.mark.parametrize("acc_id", ["h100-sxm", "a100-40gb", "mi300x"])
def test_fitting_depends_on_the_accelerator_only_through_its_memory(
    answers: dict[str, Any], acc_id: str
) -> None:
    acc = ACCELERATORS[acc_id]
    other = _unlike(acc)
    r = resolve(parse_input(answers), today=TODAY)
    r_acc = replace(r, accelerator=acc.id)
    r_other = replace(r, accelerator=other.id)
    w = workload(r_acc)
    assert workload(r_other) == w
    mine = [any_plan_fits(w, r_acc, acc, g) for g in COUNTS]
    assert [any_plan_fits(w, r_other, other, g) for g in COUNTS] == mine


def test_the_dependence_check_sees_both_outcomes() -> None:
    """Some of the workloads above fit on some counts and not on others."""
    acc = ACCELERATORS["h100-sxm"]
    outcomes = set()
    for answers in WORKLOADS:
        r = resolve(parse_input(answers), today=TODAY)
        outcomes |= {any_plan_fits(workload(r), r, acc, g) for g in COUNTS}
    assert outcomes == {True, False}


def test_even_node_counts_have_an_odd_part_of_at_most_seven() -> None:
    assert [cluster.even_nodes(n) for n in (1, 5, 9, 11, 13, 15, 17, 317)] == [
        1,
        5,
        10,
        12,
        14,
        16,
        20,
        320,
    ]


def _timed_run(times: dict[int, float]) -> Any:
    """A stand-in for ``Searches.run``: days from a table by GPU count, every plan fitting."""
    w, r, acc = _small_case()
    plan = replace(cluster.estimate_run(w, r, acc, 8, 1e20).plan, fits=True)
    asked: list[int] = []

    def run(gpus: int) -> cluster.RunEstimate:
        asked.append(gpus)
        return cluster.RunEstimate(
            gpus=gpus,
            nodes=gpus // 8,
            plan=replace(plan, gpus=gpus),
            compute_hours=0.0,
            wall_clock_days=times[gpus],
            gpu_hours=0.0,
            resilience=None,  # type: ignore[arg-type]
        )

    run.asked = asked  # type: ignore[attr-defined]
    return run


def _small_case() -> tuple[Any, Any, Any]:
    r = resolve(parse_input(json.loads(EXAMPLES[0].read_text())), today=TODAY)
    return workload(r), r, ACCELERATORS[r.accelerator]


def test_the_deadline_bisection_settles_on_a_count_that_splits_evenly() -> None:
    """317 nodes (a prime) would just meet 100 / nodes <= 0.3155 days; 320 is the answer."""
    times = {n * 8: 100.0 / n for n in range(1, 700)}
    run = _timed_run(times)
    est = cluster._bisect_nodes(run, 8, 256, 512, deadline_days=0.3155)
    assert est.gpus == 320 * 8
    assert all(cluster.even_nodes(g // 8) == g // 8 for g in run.asked)


def test_an_alternative_sized_from_an_estimate_matches_the_full_walk_within_one_even_step() -> None:
    """Two or three searches near the estimate instead of the walk from the memory minimum."""
    for path in (*EXAMPLES, ROOT / "benchmarks" / "inputs" / "mixtral_8x22b_pretrain.json"):
        data = json.loads(path.read_text())
        out = size_dict(data, today=TODAY)
        r0 = resolve(parse_input(data), today=TODAY)
        if r0.count is not None:
            continue
        for alt in out["alternatives"]:
            r = replace(r0, accelerator=alt["accelerator"])
            acc = ACCELERATORS[alt["accelerator"]]
            w = workload(r)
            flops = training_flops(w.model_flops_per_token, r.tokens, r.epochs)
            full = cluster.size_searched(cluster.Searches(w, r, acc, flops))
            if not full.deadline_met:
                continue
            assert alt["wall_clock_days"] <= r.deadline_days, (path.name, alt["accelerator"])
            nodes = max(1, alt["gpus"] // r.gpus_per_node)
            full_nodes = max(1, full.run.gpus // r.gpus_per_node)
            assert nodes <= cluster.even_nodes(full_nodes + 1), (path.name, alt["accelerator"])


@pytest.mark.parametrize(("accelerator", "estimate"), [("l40s", 59571), ("l4", 131753)])
def test_an_alternative_that_cannot_meet_the_deadline_gets_the_knee_of_the_full_walk(
    accelerator: str, estimate: float
) -> None:
    """Llama 3.1 405B on 15T tokens in 90 days: no count of 24 or 48 GB cards meets it."""
    data = json.loads((ROOT / "benchmarks" / "inputs" / "llama31_405b_pretrain.json").read_text())
    data["hardware"]["accelerator"] = accelerator
    r = resolve(parse_input(data), today=TODAY)
    acc = ACCELERATORS[accelerator]
    w = workload(r)
    flops = training_flops(w.model_flops_per_token, r.tokens, r.epochs)
    full = cluster.size_searched(cluster.Searches(w, r, acc, flops))
    near_searches = cluster.Searches(w, r, acc, flops)
    near = cluster.size_from_estimate(near_searches, estimate)
    assert not full.deadline_met
    assert near is not None and near.gpus == full.run.gpus
    assert len(near_searches.runs) < 8  # the full walk searches 10 sizes and checks 13 for memory


def test_the_plan_search_reads_only_the_answers_its_plans_are_kept_by() -> None:
    """``cluster.FoundPlans`` serves a plan to every step of a sizing whose workload,
    accelerator, count and ``PLAN_ANSWERS`` agree: right only while the search reads no
    other answer (the deadline, the prices and the count asked for move no plan)."""
    reads: set[str] = set()
    for answers in WORKLOADS:
        r = resolve(parse_input(answers), today=TODAY)
        for acc_id in ("h100-sxm", "a100-40gb", "mi300x"):
            for gpus in COUNTS:
                search_plan(workload(r), noting_reads(r, reads), ACCELERATORS[acc_id], gpus)
    assert reads and reads <= set(PLAN_ANSWERS)


def test_the_steps_of_an_estate_sizing_search_each_plan_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sized as if nothing were owned, then on the 512 H100 owned, then sooner within the
    budget: the steps ask for many of the same plans, each searched once."""
    keyed: Counter[Any] = Counter()
    search_plan = cluster.search_plan

    def keyed_search(w: Any, r: Any, acc: AcceleratorSpec, gpus: int, *rest: Any) -> Any:
        keyed[w, acc.id, gpus, *(getattr(r, name) for name in PLAN_ANSWERS)] += 1
        return search_plan(w, r, acc, gpus, *rest)

    monkeypatch.setattr(cluster, "search_plan", keyed_search)
    answers = {
        "model": {"name": "Llama 3.1 70B"},
        "training": {"method": "pretrain"},
        "data": {"tokens": 2e12},
        "schedule": {"deadline_days": 30},
        "hardware": {"vendors": ["nvidia"]},
        "estate": {"accelerator": "h100-sxm", "count": 512, "budget_usd": 40_000_000},
    }
    size_dict(answers, today=TODAY)
    assert keyed
    assert [key for key, n in keyed.items() if n > 1] == []
