"""How the plan honours each requirement the customer stated, in one sentence per answer.

One function per requirement field of the question registry (``questionnaire/roles.py``:
:class:`~questionnaire.roles.Requirement`), keyed ``slug.field``. Each reads the customer's
answer and the engine's result and says what the plan does about it; where the plan cannot
meet it as it stands, it also gives the open question to settle. Figures come from the result
and go through the one formatter; no sentence holds a number of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sizing.public import (
    ACCELERATORS,
    StoredResult,
    count_of,
    format_number,
    format_quantity,
)


@dataclass(frozen=True)
class Answer:
    """One question's stored answer, and all the answers (some checks read two questions)."""

    own: Mapping[str, Any]
    all: Mapping[str, Any]

    def get(self, name: str) -> Any:
        return self.own.get(name)

    def other(self, slug: str, name: str) -> Any:
        answer = self.all.get(slug)
        return answer.get(name) if isinstance(answer, Mapping) else None


@dataclass(frozen=True)
class Honour:
    """What the plan does about one requirement, and the question to ask when it falls short."""

    sentence: str
    question: str = ""


def _under_scheduler(result: StoredResult) -> str:
    """How jobs are started: " under Slurm", or ", started by hand" without a scheduler."""
    scheduler = str(result.section("concurrency").get("scheduler") or "your scheduler")
    return ", started by hand" if scheduler.startswith("no scheduler") else f" under {scheduler}"


def _assumed(result: StoredResult, key: str) -> Any:
    return next((item.value for item in result.assumptions if item.key == key), None)


def _servers_per_run(result: StoredResult) -> int:
    return result.nodes_per_job or 1


def queue_time(answer: Answer, result: StoredResult) -> Honour:
    runs = result.runs_at_once
    if runs == 1:
        held = "The cluster holds one full-size run at once, so a second run waits for the first"
    else:
        held = (
            f"The cluster holds {format_number(runs)} full-size runs at once, so a run waits "
            f"only when all {format_number(runs)} are busy"
        )
    if answer.get("queue_time_hours") == 0:
        return Honour(
            f"{held}. Starting every run at once would need a larger cluster.",
            f"Runs must start at once, and the cluster holds {count_of(runs, 'full-size run')} "
            "at a time: how many runs may need to start together?",
        )
    return Honour(f"{held}; our engineer sets your limit as the scheduler's queue policy.")


def max_global_batch(answer: Answer, result: StoredResult) -> Honour:
    limit = answer.get("max_global_batch")
    tokens = _assumed(result, "batch.global_batch_tokens")
    sequence = _assumed(result, "batch.sequence_length")
    if not isinstance(tokens, int | float) or not isinstance(limit, int | float):
        return Honour("")
    in_samples = answer.get("global_batch_unit") == "samples" and isinstance(sequence, int | float)
    planned = tokens / sequence if in_samples else tokens
    unit = "samples" if in_samples else "tokens"
    if planned <= limit:
        return Honour(
            f"The plan trains with about {format_number(planned)} {unit} per step, within "
            "your limit."
        )
    return Honour(
        f"The plan trains with about {format_number(planned)} {unit} per step, above your limit.",
        f"The plan's global batch of about {format_number(planned)} {unit} is larger than the "
        f"{format_number(limit)} your training accepts: may we use it, or should we size for "
        "a smaller batch (more steps, so a longer run)?",
    )


def containers(answer: Answer, result: StoredResult) -> Honour:
    scheduler = _under_scheduler(result)
    if answer.get("containers") == "yes":
        return Honour(
            f"Jobs run in containers{scheduler}, with the accelerator drivers and the "
            "container runtime on every server."
        )
    return Honour(
        f"Jobs run directly on the servers{scheduler}; we install the frameworks and drivers there."
    )


_KINDS = {
    "data": "data parallel",
    "tensor": "tensor parallel",
    "pipeline": "pipeline parallel",
    "expert": "expert parallel",
    "sequence": "sequence or context parallel",
    "fsdp": "FSDP or ZeRO",
}


def _plan_kinds(result: StoredResult) -> list[str]:
    plan = result.section("parallelism")
    kinds = [kind for kind in ("data", "tensor", "pipeline", "expert") if plan.get(kind, 1) > 1]
    if plan.get("zero_stage", 0) > 0:
        kinds.append("fsdp")
    return kinds


def _listed(kinds: list[str]) -> str:
    words = [_KINDS[kind] for kind in kinds]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def strategies(answer: Answer, result: StoredResult) -> Honour:
    theirs = [kind for kind in answer.get("strategies") or () if kind in _KINDS]
    plan = _plan_kinds(result)
    if not plan:
        return Honour("The plan needs no splitting: one accelerator holds a run.")
    if not theirs:
        return Honour(f"You asked us to recommend one: the plan uses {_listed(plan)}.")
    added = [kind for kind in plan if kind not in theirs]
    unused = [kind for kind in theirs if kind not in plan]
    sentence = f"The plan uses {_listed(plan)}"
    if added:
        sentence += f"; it adds {_listed(added)}, which your code would need"
    if unused:
        sentence += f"; it does not need {_listed(unused)}"
    return Honour(sentence + ".")


def existing_distributed_code(answer: Answer, result: StoredResult) -> Honour:
    servers = _servers_per_run(result)
    if servers == 1:
        return Honour("One run fits in one server, so no code for several machines is needed.")
    if answer.get("existing_distributed_code") == "yes":
        return Honour(f"Your distributed code runs the plan across {count_of(servers, 'server')}.")
    return Honour(
        f"One run spans {count_of(servers, 'server')}: your code must first learn to train "
        "across machines (FSDP, DeepSpeed or Megatron, for example). Allow time for that "
        "before the cluster is fully used."
    )


def orchestration(answer: Answer, result: StoredResult) -> Honour:
    launcher = str(answer.get("orchestration") or "").strip()
    return Honour(f"Jobs start with {launcher}{_under_scheduler(result)}.")


def nvlink(answer: Answer, result: StoredResult) -> Honour:
    spec = ACCELERATORS.get(result.accelerator)
    if spec is None:
        return Honour("")
    fast = "PCIe" not in spec.scale_up_name
    sentence = f"Inside each server the {spec.name} accelerators are linked by {spec.scale_up_name}"
    if answer.get("nvlink_needed") == "yes" and not fast:
        return Honour(
            sentence + ", not NVLink.",
            f"You need NVLink inside each server, but the {spec.name} links its accelerators "
            "over PCIe: may we propose a server with NVLink instead?",
        )
    return Honour(sentence + ("." if not fast else ", a fast link."))


def rdma(answer: Answer, result: StoredResult) -> Honour:
    network = result.section("network")
    technology = str(network.get("technology") or "none")
    if not network.get("nic_gbps"):
        return Honour(
            "One run fits in one server, so training needs no network between servers; any "
            "network we add later carries RDMA."
        )
    if answer.get("rdma") == "yes":
        return Honour(f"The recommended network, {technology}, carries RDMA.")
    return Honour(
        f"The recommended network, {technology}, carries RDMA anyway: training traffic "
        "between servers needs it to keep the accelerators busy."
    )


def local_nvme(answer: Answer, result: StoredResult) -> Honour:
    tb = result.section("hosts").get("local_nvme_tb_per_node")
    size = format_quantity(tb, "TB")
    if answer.get("local_nvme") == "yes":
        return Honour(f"Each server has {size} of local NVMe for checkpoint staging and a cache.")
    return Honour(
        f"The plan has {size} of local NVMe per server to stage checkpoints; it can be left "
        "out, with checkpoints written straight to shared storage."
    )


def _owned_storage_use(result: StoredResult) -> str:
    """What the plan keeps on the customer's own storage (the engine's capacity tier)."""
    tiers = result.section("storage").get("tiers") or ()
    owned = [tier for tier in tiers if str(tier.get("tier", "")).startswith("your existing")]
    read = format_quantity(result.section("storage").get("read_gb_per_s"), "GB/s")
    if not owned:
        return f"The plan adds fast shared storage that reads {read}."
    return (
        f"The plan keeps {owned[0]['use']} on {owned[0]['tier']}, so it needs no new capacity "
        f"storage; training reads from a new fast tier at {read}."
    )


def existing_storage(answer: Answer, result: StoredResult) -> Honour:
    """Said here only when the customer gave no details (the details line says it then)."""
    if answer.get("existing_storage_details"):
        return Honour("")
    return Honour(_owned_storage_use(result))


def existing_storage_details(answer: Answer, result: StoredResult) -> Honour:
    if answer.get("existing_storage") in (None, "", "none", "not_sure"):
        return Honour(
            "We can keep raw data there; our engineer checks its speed and free space with you."
        )
    return Honour(
        f"{_owned_storage_use(result)} Data is copied from yours to the fast tier before a "
        "run; our engineer checks its speed and free space for that."
    )


def cpu_threads(answer: Answer, result: StoredResult) -> Honour:
    threads = answer.get("cpu_threads_per_gpu")
    cores = result.section("hosts").get("cpu_cores_per_gpu")
    if not isinstance(threads, int | float) or not isinstance(cores, int | float):
        return Honour("")
    if threads <= cores:
        return Honour(f"The plan has {count_of(cores, 'CPU core')} per accelerator: enough.")
    per_node = threads * (result.gpus_per_node or 1)
    return Honour(
        f"That is more than the {count_of(cores, 'core')} per accelerator of our standard "
        f"server: the servers we quote have at least {format_number(per_node)} cores each."
    )


def ram_working_set(answer: Answer, result: StoredResult) -> Honour:
    needed = answer.get("ram_working_set_gb")
    ram = result.section("hosts").get("ram_gb_per_node")
    if not isinstance(needed, int | float) or not isinstance(ram, int | float):
        return Honour("")
    if needed <= ram:
        return Honour(f"The plan has {format_quantity(ram, 'GB')} of RAM per server: enough.")
    return Honour(
        f"That is more than the {format_quantity(ram, 'GB')} of our standard server: the "
        f"servers we quote have at least {format_quantity(needed, 'GB')}."
    )


def replication(answer: Answer, result: StoredResult) -> Honour:
    storage = result.section("storage")
    capacity = format_quantity(storage.get("checkpoint_capacity_tb"), "TB")
    where = {
        "second_system": "on other storage",
        "offsite": "in another building or region",
    }.get(str(answer.get("replication") or ""))
    if where is None:
        return Honour(f"One copy of the checkpoints is kept ({capacity}).")
    return Honour(f"A second copy of the checkpoints is kept {where}: about {capacity} more.")


def restart(answer: Answer, result: StoredResult) -> Honour:
    interruptions = result.section("resilience").get("expected_interruptions") or 0.0
    if answer.get("restart") == "automatic":
        return Honour(
            "The scheduler requeues a failed run after a health check, and it continues "
            "from the last checkpoint."
        )
    if interruptions >= 1:
        return Honour(
            "Failed runs restart by hand from the last checkpoint. The plan expects about "
            f"{count_of(round(interruptions), 'interruption')} per run: automatic restart "
            "would save the wait for someone to notice."
        )
    return Honour("Failed runs restart by hand from the last checkpoint; failures are rare.")


def spare_nodes(answer: Answer, result: StoredResult) -> Honour:
    spare = result.section("cluster").get("spare_nodes") or 0
    if answer.get("spare_nodes") == "yes":
        if spare:
            return Honour(f"The plan includes {count_of(spare, 'spare server')}, as you asked.")
        return Honour(
            "The plan has no spare server: it runs in the cloud, where the provider "
            "replaces a failed one."
        )
    if answer.get("spare_nodes") == "no":
        return Honour("No spare servers, as you asked: a failed server waits for its repair.")
    if spare:
        return Honour(
            f"The plan includes {count_of(spare, 'spare server')} for fast repairs; you can "
            f"leave {'it' if spare == 1 else 'them'} out."
        )
    return Honour("No spare servers are planned.")


_ENCRYPTION = {
    "at_rest": "storage encrypted at rest (self-encrypting drives or file-system encryption)",
    "in_transit": "traffic encrypted on the network (TLS for services, MACsec or IPsec links)",
}


def encryption(answer: Answer, result: StoredResult) -> Honour:
    kinds = [_ENCRYPTION[kind] for kind in answer.get("encryption") or () if kind in _ENCRYPTION]
    return Honour("The plan includes " + " and ".join(kinds) + ".") if kinds else Honour("")


def export_policy(answer: Answer, result: StoredResult) -> Honour:
    return Honour(
        "Checkpoints, trained models and their copies stay where your rule allows; the "
        "backups and the support access we propose follow it."
    )


def _duration(days: float) -> str:
    """A run's length for the reader: hours under two days, else days."""
    if days < 2:
        return count_of(round(days * 24) or 1, "hour")
    return f"{format_number(days)} days"


def first_results(answer: Answer, result: StoredResult) -> Honour:
    """The first-results date against one run: when the cluster must be running by."""
    days = result.wall_clock_days
    try:
        deadline = date.fromisoformat(str(answer.get("deadline")))
    except ValueError:
        return Honour("")
    if days is None:
        return Honour("")
    start = deadline - timedelta(days=math.ceil(days))
    return Honour(
        f"One run takes about {_duration(days)} on the recommended cluster, so the cluster "
        f"must be running by {start.day} {start:%B %Y}; ask us for delivery times."
    )


def link_speed(answer: Answer, result: StoredResult) -> Honour:
    """The customer's link speed against the network the plan recommends."""
    given = answer.get("link_speed_gbps")
    network = result.section("network")
    nic = network.get("nic_gbps")
    if not isinstance(given, int | float):
        return Honour("")
    if not nic:
        return Honour("One run fits in one server, so training needs no links between servers.")
    ports = network.get("nics_per_node") or 1
    wanted = float(network.get("scale_out_gbps_per_node_needed") or 0.0) / ports
    if nic <= given and wanted > nic:
        return Honour(
            f"The plan uses {format_number(nic)} Gb/s per accelerator, the most a server's "
            f"PCIe slot carries: it would use {format_number(round(wanted))} Gb/s, so "
            "communication takes a larger share of each step (see Why below)."
        )
    if nic <= given:
        return Honour(
            f"The plan needs {format_number(nic)} Gb/s per accelerator: your speed is enough."
        )
    return Honour(
        f"The plan recommends {format_number(nic)} Gb/s per accelerator, faster than your "
        f"{format_number(given)} Gb/s: with slower links each step waits longer for the "
        "network. Our engineer checks with you whether yours are links to reuse."
    )


def phases(answer: Answer, result: StoredResult) -> Honour:
    """The training phases: the runs counted when no experiments are given, else within them
    (``sizing/adapters.py``: the experiments count the runs)."""
    given = answer.get("phases")
    experiments = answer.get("experiments")
    if not isinstance(given, int | float):
        return Honour("")
    if isinstance(experiments, int | float) and experiments:
        return Honour(
            f"Counted within the {count_of(experiments, 'run')} you expect (your experiments "
            "answer): we price those runs, and each phase is one of them."
        )
    return Honour(
        f"With no number of experiments given, we price {count_of(given, 'full run')}: one per phase."
    )


HONOURS: dict[str, Callable[[Answer, StoredResult], Honour]] = {
    "timeline.deadline": first_results,
    "method.phases": phases,
    "storage.existing_storage": existing_storage,
    "network.link_speed_gbps": link_speed,
    "timeline.queue_time_hours": queue_time,
    "batch.max_global_batch": max_global_batch,
    "software.containers": containers,
    "parallelism.strategies": strategies,
    "parallelism.existing_distributed_code": existing_distributed_code,
    "parallelism.orchestration": orchestration,
    "network.nvlink_needed": nvlink,
    "network.rdma": rdma,
    "storage.local_nvme": local_nvme,
    "storage.existing_storage_details": existing_storage_details,
    "preprocessing.cpu_threads_per_gpu": cpu_threads,
    "preprocessing.ram_working_set_gb": ram_working_set,
    "resilience.replication": replication,
    "resilience.restart": restart,
    "resilience.spare_nodes": spare_nodes,
    "deployment.encryption": encryption,
    "deployment.export_policy": export_policy,
}
