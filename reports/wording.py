"""The proposal's sentences for each area (compute, memory, the split of the work, the cluster,
network, storage, hosts, checkpoints, where it runs, cost) and the table of other accelerators.

These stay beside the proposal because they read what the bill of materials buys
(``reports.bill``: the fabric bought for every server, one run's servers at list price), which
the engine does not output yet; every count, time, cost and provenance in them is said by the
one room for words (``sizing.words``). Customer text only ever passes through here as data and
is autoescaped by the template.
"""

import math
from collections.abc import Mapping
from typing import Any

from reports.bill import fabric_bought, run_servers_usd
from sizing.public import (
    ADAPTER_METHODS,
    Money,
    StoredResult,
    accelerator_hours,
    cost_headline,
    count_of,
    days_with_range,
    format_count,
    format_number,
    format_percent,
    format_quantity,
    format_times,
    gpus_needed,
    helped_time,
    memory_tight,
    money_of,
    no_network_text,
    noun_for,
    one_server_word,
    owned_hosts_sentence,
    owned_network_sentence,
    owned_run_days,
    owned_run_usd,
    owned_storage_sentence,
    platform_lines,
    read_counts,
    rented_apart_sentence,
    run_text,
    run_time,
    size_reason,
    value_words,
)


def _texts(items: Any) -> list[str]:
    return [str(item) for item in items or [] if item]


_HOURS_PER_DAY = 24.0

# Where the cluster runs (``deployment.recommended_model``), as the end of "Run it …".
_WHERE = {
    "on_prem": "on your own premises",
    "colocation": "in a rented data centre (colocation)",
    "cloud": "in the cloud",
    "hybrid": "partly on hardware you own and partly in the cloud",
}


def plain_split_sentence(result: StoredResult) -> str:
    """How the work is split, for a customer who told us no one on the team knows the set-up:
    what it means for them, not the engineering names (those are in "What we assumed")."""
    p = result.section("parallelism")
    parts = [int(p.get(key) or 1) for key in ("tensor", "pipeline", "data", "expert", "context")]
    if all(part == 1 for part in parts):
        return "One accelerator holds the whole model and does all the work: nothing is split."
    return (
        f"The work of each run is shared out across its {count_of(result.gpus_per_job or 0, 'accelerator')}"
        " in the way that finishes soonest within their memory; our engineer goes through how "
        "with you."
    )


def recommendation_sentence(area: str, result: StoredResult) -> str:
    """What we recommend for one area, in one plain sentence built from the result."""
    accelerator = result.accelerator_name or "accelerators"
    if area == "compute":
        needs = (
            f"One training run needs about "
            f"{accelerator_hours(result.gpu_hours or 0, result.gpu_hours_range)} on {accelerator}, "
            f"which takes {days_with_range(result)}"
        )
        helped = helped_time(result)
        if helped:  # the recommendation is theirs with help beside them: both times, each named
            return f"{needs} on the accelerators you own alone, or {helped}."
        return f"{needs} on the recommended cluster."
    if area == "memory":
        memory = result.section("memory")
        need = f"Each accelerator needs about {format_quantity(memory.get('per_gpu_gb'), 'GB')}"
        need += f" of its {format_quantity(memory.get('usable_gpu_gb'), 'GB')} usable memory"
        if not memory.get("fits"):
            return need + ", so the plan does not fit as it stands."
        return need + (memory_tight(result) or ", so the plan fits.")
    if area == "parallelism":
        p = result.section("parallelism")
        chunks = p.get("virtual_pipeline_stages") or 1
        tensor, pipeline = p.get("tensor", 1), p.get("pipeline", 1)
        sequences = p.get("micro_batch_size", 1)
        recompute = {
            "selective": " Cheap activations (norms, activation functions) are recomputed to save memory.",
            "full": " Each layer's activations are recomputed in the backward pass to save memory.",
        }.get(p.get("recompute") or "", "")
        splits = []
        if tensor > 1:
            splits.append(f"{tensor}-way within each layer (tensor)")
        if pipeline > 1:
            splits.append(
                f"{pipeline}-way by layers (pipeline"
                + (
                    f", each stage holding {_chunks(p.get('layers'), pipeline, chunks)}"
                    if chunks > 1
                    else ""
                )
                + ")"
            )
        split = (
            ("Split the model " + " and ".join(splits) + " and copy it")
            if splits
            else "Copy the model"
        )
        # experts and sequence parts are spread over the data-parallel copies (Megatron-Core)
        spread = ""
        if (expert := p.get("expert") or 1) > 1:
            spread += f", its experts spread {expert}-way across the copies (expert parallel)"
        if (context := p.get("context") or 1) > 1:
            spread += f", each sequence split {context}-way (context parallel)"
        # engines before 2026.12.10 stored no whole count of micro-batches per replica
        steps = p.get("micro_batches")
        per_copy = f" and {count_of(steps, 'micro-batch')} a step on each copy" if steps else ""
        copies = int(p.get("data") or 1)
        if copies > 1:
            copied = f"{split} {copies} times (data parallel){spread}"
        elif splits:
            copied = "Split the model " + " and ".join(splits) + f", one copy{spread}"
        else:
            copied = f"Run one copy of the model{spread}"
        zero = int(p.get("zero_stage") or 0)
        # stage 0 is no sharding at all: say so rather than name a stage
        sharding = f"ZeRO/FSDP stage {zero}" if zero else "no ZeRO/FSDP sharding"
        return (
            f"{copied}, with {sharding}, {count_of(sequences, 'sequence')} "
            f"per micro-batch{per_copy}." + recompute
        )
    if area == "cluster":
        counts = read_counts(result)
        # one machine is "in one server", never "in 1 server of 1"
        cluster = f"{format_number(result.gpus)} × {accelerator} in " + (
            one_server_word(counts)
            or f"{count_of(counts.cluster_servers, 'server')} of {format_number(counts.server_size)}"
        )
        if counts.cluster > counts.per_run:  # say what one run uses, never the cluster as one
            uses = (
                count_of(counts.per_run, "accelerator")
                if one_server_word(counts)
                else run_text(counts)
            )
            return f"{cluster}; each run uses {uses}{gpus_needed(result)}."
        return f"{cluster}{gpus_needed(result)}."
    if area == "network" and owned_network_sentence(result):
        return owned_network_sentence(result)
    if area == "storage" and owned_storage_sentence(result):
        return owned_storage_sentence(result)
    if area == "network":
        network = result.section("network")
        if (result.nodes or 0) <= 1:
            return no_network_text(read_counts(result)) + "."
        if not network.get("nic_gbps"):
            return (
                "No fast network between servers is needed for training: each run fits in "
                "one server. An ordinary data-centre network links the servers to storage."
            )
        return (
            f"{network.get('technology') or 'A high-speed network'} with "
            f"{format_number(network.get('nics_per_node'))} × "
            f"{format_number(network.get('nic_gbps'))} Gb/s "
            f"per server, {fabric_bought(result) or 'non-blocking'}."
        )
    if area == "storage":
        storage = result.section("storage")
        return (
            f"About {format_quantity(storage.get('total_capacity_tb'), 'TB')} of fast shared "
            f"storage that reads {format_quantity(storage.get('read_gb_per_s'), 'GB/s')} and "
            f"writes a {format_quantity(storage.get('checkpoint_size_gb'), 'GB')} checkpoint at "
            f"{format_quantity(storage.get('checkpoint_write_gb_per_s'), 'GB/s')}."
        )
    if area == "hosts" and owned_hosts_sentence(result):
        return owned_hosts_sentence(result)
    if area == "hosts":
        hosts = result.section("hosts")
        counts = read_counts(result)
        # the host figures are those of the server the plan names (4 accelerators: 32 cores),
        # said with it and with the rule behind them, so they never read as an 8-way server's
        size = counts.server_size
        its = "its one accelerator" if size == 1 else f"its {count_of(size, 'accelerator')}"
        where = (
            f"the server, for {its}" if counts.cluster_servers <= 1 else f"each server, for {its}"
        )
        per_gpu = hosts.get("cpu_cores_per_gpu")
        ratio = next((a.value for a in result.assumptions if a.key == "ram_to_gpu_memory"), None)
        times = "twice" if ratio == 2 else f"{format_number(ratio)} times"
        ram_rule = (
            f", and RAM at least {times} {'its' if size == 1 else 'their'} memory, rounded up "
            "to a usual size"
            if isinstance(ratio, int | float)
            else ""
        )
        each = "for it" if size == 1 else "each"
        rule = f" ({count_of(per_gpu, 'core')} {each}{ram_rule})" if per_gpu else ""
        return (
            f"{format_number(hosts.get('cpu_cores_per_node'))} CPU cores and "
            f"{format_quantity(hosts.get('ram_gb_per_node'), 'GB')} of RAM in {where}{rule}."
        )
    if area == "resilience":
        resilience = result.section("resilience")
        interval = resilience.get("checkpoint_interval_hours")
        interruptions = resilience.get("expected_interruptions")
        run_hours = (result.wall_clock_days or 0.0) * _HOURS_PER_DAY
        # a run shorter than the interval never reaches a periodic checkpoint: say so
        if isinstance(interval, int | float) and 0 < run_hours <= interval:
            saves = (
                f"Save one checkpoint at the end of each run (a run takes about "
                f"{run_time(result.wall_clock_days or 0.0)}, less than the "
                f"{format_quantity(interval, 'h')} between periodic checkpoints)"
            )
        else:
            saves = f"Save a checkpoint every {format_quantity(interval, 'h')}"
        return saves + (
            f"; expect {format_times(interruptions, 'interruption', 'run')}."
            if isinstance(interruptions, int | float)
            else "."
        )
    if area == "deployment":
        model = str(result.section("deployment").get("recommended_model") or "")
        words = _WHERE.get(model)
        return f"Run it {words}." if words else "Where it runs is to be agreed."
    if area == "cost":
        cost = cost_headline(result)
        if not cost.priced:
            return cost.undecided
        return f"{cost.option}: {cost.sentence}."
    return ""


def _training_work(result: StoredResult) -> str:
    """The rule behind the training work, with the figures that give it: about 6 operations per
    parameter for each token read (4 per frozen parameter with adapters) plus attention, times
    the tokens; recomputation, when the plan uses it, on top (sizing.engine.compute)."""
    compute = result.section("compute")
    total = float(compute.get("training_flops") or 0.0)
    per_token = float(compute.get("flops_per_token") or 0.0)
    if not (total and per_token):
        return ""
    method = next((a.value for a in result.assumptions if a.key == "training.method"), "")
    rule = (
        "about 4 operations per frozen parameter and 6 per adapter parameter"
        if method in ADAPTER_METHODS
        else "about 6 operations per parameter"
    )
    text = (
        f"Training work is {rule} for each token read (the forward and backward passes), plus "
        f"the attention over each sequence: about {format_number(per_token)} operations a "
        f"token, times {format_quantity(total / per_token, 'tokens')}, is about "
        f"{format_number(total)} operations."
    )
    hardware = float(compute.get("hardware_flops_per_token") or 0.0)
    if hardware > per_token:
        text += (
            f" Recomputing intermediate results to save memory adds "
            f"{format_percent(hardware / per_token - 1)} more work, which the run time counts."
        )
    return text


def why_sentences(
    area: str,
    result: StoredResult,
    sources: Mapping[str, str] | None = None,
    *,
    plain: bool = False,
) -> list[str]:
    """Why: the engine's own reasons and notes for this area, plus a sentence of context;
    ``sources`` says who set each input (the deadline our engineer set is not "yours");
    ``plain`` leaves out the scheduler's reasons (Slurm, gang scheduling), which only an
    engineer reads, for a customer who told us no one knows the set-up."""
    section = result.section(area)
    if area == "hosts" and owned_hosts_sentence(result):
        return []  # how hosts are sized, for servers of theirs that came with their hosts
    reasons: list[str] = []
    if area == "compute":
        mfu = section.get("assumed_mfu")
        if mfu:
            speed = (
                f"Real clusters reach about {format_percent(mfu)} of their peak speed, which is "
                "what we assume."
            )
            reasons.append(f"{_training_work(result)} {speed}".lstrip())
        reasons.append(size_reason(result, sources))
        # How sure we are is said once, in the executive summary.
    if area == "memory":
        reasons.append(
            "Memory holds the model's weights, its gradients, the optimizer's state and the "
            "intermediate results (activations) of the examples in flight."
        )
    if area == "parallelism" and int(section.get("tensor") or 1) > 1:
        reasons.append(
            "Tensor parallelism stays inside one server, where the links are fastest; pipeline "
            "and data parallelism cross servers."
        )
    if area == "cluster":
        concurrent = result.section("concurrency").get("concurrent_jobs")
        if concurrent and concurrent > 1:
            reasons.append(f"It leaves room for {count_of(concurrent, 'job')} at the same time.")
    if area == "resilience":
        goodput = section.get("goodput")
        if goodput:
            reasons.append(
                f"Large clusters fail now and then; with this plan about "
                f"{format_percent(goodput)} of the time is productive."
            )
    if area == "network" and rented_apart_sentence(result):
        reasons.append(rented_apart_sentence(result))
    if area == "cluster":  # AMD's or Intel's software, and the NVIDIA rival beside it
        reasons.extend(platform_lines(result))
    if area == "cluster" and not plain:
        reason = result.section("concurrency").get("reason")
        if reason:
            reasons.append(f"Scheduling: {reason}.")
    for key in ("reason", "rationale", "explanation", "summary", "small_files_advice"):
        if isinstance(section.get(key), str) and section[key]:
            reasons.append(section[key])
    for key in ("reasons", "notes", "security_measures"):
        reasons.extend(_texts(section.get(key)))
    # the engine's notes are phrases; in the proposal each is a whole sentence
    return [r if r.endswith((".", "?", "!", ")")) else f"{r}." for r in reasons]


def alternative_rows(result: StoredResult) -> list[dict[str, Any]]:
    """The recommended accelerator first, then up to six others, each against it: against one
    run's cloud price, or, on accelerators they own, against what one run on them costs (their
    running cost and any help rented beside them), never their cloud price."""
    owned_run = owned_run_usd(result)
    ours_cost = result.one_run_cloud_usd if owned_run is None else owned_run
    ours_days = result.wall_clock_days if owned_run is None else owned_run_days(result)
    estate = result.estate
    helped = (
        f": yours, with the {format_count(estate.add_count)} {estate.add_name} rented beside them"
        if owned_run is not None and estate and estate.add == "rent" and estate.add_count
        else ": yours"
        if owned_run is not None
        else ""
    )
    money = money_of(result)
    ours_servers = run_servers_usd(result)  # a buyer also compares what the servers cost
    rows = [
        {
            "name": result.accelerator_name,
            # one run's accelerators and servers, as the alternatives' rows count them
            "gpus": format_count(result.gpus_per_job or 0),
            "nodes": format_count(result.nodes_per_job or 1),
            "days": run_time(ours_days or 0),
            "cost": money.short(ours_cost) if ours_cost is not None else "not priced",
            "servers": _money_or_unpriced(ours_servers, money),
            "note": f"recommended{helped}",
            "recommended": True,
        }
    ]
    asked = next((a.value for a in result.assumptions if a.key == "training.precision"), None)
    for alt in list(result.alternatives)[:6]:
        cost = alt.get("run_cost_usd")
        days = float(alt.get("wall_clock_days") or 0)
        notes = []
        sized = alt.get("precision")
        if asked is not None and sized is not None and sized != asked:
            notes.append(
                f"no {value_words('training.precision', asked)}: "
                f"sized in {value_words('training.precision', sized)}"
            )
        servers = alt.get("servers_usd")
        if ours_servers is not None and servers is not None:
            diff = float(servers) - ours_servers
            notes.append(f"{money.short(abs(diff))} {'more' if diff > 0 else 'less'} in servers")
        if cost is not None and ours_cost is not None:
            diff = float(cost) - ours_cost
            if money.short(abs(diff)) == money.short(0):
                notes.append("about the same a run")  # never "$0 more a run"
            else:
                notes.append(f"{money.short(abs(diff))} {'more' if diff > 0 else 'less'} a run")
        if ours_days:
            gap = days - ours_days
            if abs(gap) * 24 >= 1:
                notes.append(f"{run_time(abs(gap))} {'slower' if gap > 0 else 'faster'}")
        if cost is not None and alt.get("price_confirmed") is False:
            notes.append("price not confirmed")
        rows.append(
            {
                "name": str(alt.get("name") or alt.get("accelerator") or ""),
                "gpus": format_count(int(alt.get("gpus") or 0)),
                "nodes": format_count(int(alt.get("nodes") or 0)),
                "days": run_time(days),
                "cost": "not priced" if cost is None else money.short(cost),
                "servers": _money_or_unpriced(servers, money),
                "note": "; ".join(notes),
                "recommended": False,
            }
        )
    return rows


def alternatives_cost_heading(result: StoredResult) -> str:
    """The heading of the table's cost column: one run in the cloud, unless the first row is
    one run on accelerators they own, priced at their running cost (:func:`alternative_rows`)."""
    return "A run, cloud" if owned_run_usd(result) is None else "A run"


def _money_or_unpriced(usd: Any, money: Money) -> str:
    return "not priced" if usd is None else money.short(float(usd))


def _chunks(layers: int | None, pipeline: int, chunks: int) -> str:
    """A stage's interleaved chunks in words, with the whole layers each holds (the stages
    of a model whose layers the pipeline does not divide hold one layer more or less)."""
    if not layers:
        return f"{chunks} interleaved chunks"
    fewest = layers // pipeline // chunks
    most = math.ceil(math.ceil(layers / pipeline) / chunks)
    held = (
        f"{fewest}"
        if fewest == most
        else f"{fewest} or {most}"
        if most == fewest + 1
        else f"{fewest} to {most}"
    )
    return f"{chunks} interleaved chunks of {held} {noun_for(most, 'layer')}"
