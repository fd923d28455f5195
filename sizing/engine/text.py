"""Human-readable summary of a recommendation (``--format text``)."""

from __future__ import annotations

from .numbers import format_days, format_times, noun_for_count
from .output import SizingResult, TimelineResult
from .units import MB_PER_GB


def _rate(gb_per_s: float) -> str:
    """A throughput in the unit that keeps it readable [GB/s in]."""
    return f"{gb_per_s:.1f} GB/s" if gb_per_s >= 0.1 else f"{gb_per_s * MB_PER_GB:.1f} MB/s"


def _one_run(t: TimelineResult, gpus: int, gpu_hours: float) -> str:
    """The headline run, or why it cannot start and what the memory minimum would take."""
    d = t.deadline
    if d.fits:
        return f"{t.wall_clock_days:.1f} days on {gpus} accelerators, {gpu_hours:,.0f} GPU-hours"
    on = f"{gpus} {noun_for_count(gpus, 'accelerator')}"
    if d.min_gpus is None or d.min_gpus_wall_clock_days is None:
        return f"cannot start: does not fit in memory on {on}, nor on any size"
    return (
        f"cannot start: does not fit in memory on {on}; on {d.min_gpus} "
        f"(the fewest that fit) {d.min_gpus_wall_clock_days:.1f} days, "
        f"{d.min_gpus_gpu_hours or 0:,.0f} GPU-hours"
    )


def _deadline_line(t: TimelineResult) -> str:
    """The deadline, whose it is, and whether one run meets it."""
    whose = "assumed (none given)" if t.deadline_assumed else "given"
    met = {True: "met", False: "missed", None: "not judged: the run does not fit"}[t.deadline.met]
    return f"Deadline:    {format_days(t.deadline_days or 0)}, {whose}; {met}"


def sizing_result_to_text(rec: SizingResult) -> str:
    """A plain-text summary, one fact per line."""
    c, m, p, cl, t = rec.compute, rec.memory, rec.parallelism, rec.cluster, rec.timeline
    cost = rec.cost
    lines = [
        f"Sizing for {rec.model_name} (engine {rec.engine_version})",
        "",
        f"Cluster:     {cl.gpus} x {cl.accelerator_name} in {cl.nodes} node(s) of {cl.gpus_per_node}"
        + (f", plus {cl.spare_nodes} spare node(s)" if cl.spare_nodes else ""),
        f"One run:     {_one_run(t, cl.gpus_per_job, c.gpu_hours)}, "
        f"{c.training_flops:.3g} FLOPs, utilisation {c.assumed_mfu:.0%}",
        _deadline_line(t),
        (
            f"Range:       {c.gpu_hours_range[0]:,.0f}-{c.gpu_hours_range[1]:,.0f} GPU-hours, "
            f"{t.wall_clock_days_range[0]:.1f}-{t.wall_clock_days_range[1]:.1f} days"
            + (
                f", {cl.gpus_range[0]}-{cl.gpus_range[1]} accelerators to meet the deadline"
                if cl.gpus_range[0] != cl.gpus_range[1]
                else ""
            )
            if t.deadline.fits
            else "Range:       none (the run does not fit in memory)"
        ),
        f"Memory:      {m.per_gpu_gb:.1f} of {m.usable_gpu_gb:.0f} GB per accelerator "
        f"({'fits' if m.fits else 'DOES NOT FIT'}); at least {m.min_gpus} accelerators",
        f"Plan:        TP {p.tensor}"
        + (f" x CP {p.context}" if p.context > 1 else "")
        + f" x PP {p.pipeline} x DP {p.data}"
        + (f" x EP {p.expert}" if p.expert > 1 else "")
        + (f" (interleaved x{p.virtual_pipeline_stages})" if p.virtual_pipeline_stages > 1 else "")
        + f", ZeRO-{p.zero_stage}, micro-batch {p.micro_batch_size}, recomputation {p.recompute}",
        f"Network:     {rec.network.fabric}; {rec.network.technology}",
        f"Storage:     checkpoint {rec.storage.checkpoint_size_gb:,.0f} GB, write "
        f"{_rate(rec.storage.checkpoint_write_gb_per_s)}, read {_rate(rec.storage.read_gb_per_s)}, "
        f"{rec.storage.total_capacity_tb:,.1f} TB",
        f"Hosts:       {rec.hosts.cpu_cores_per_node} cores and {rec.hosts.ram_gb_per_node} GB RAM per node",
        f"Resilience:  checkpoint every {rec.resilience.checkpoint_interval_hours:.2f} h, "
        f"{format_times(rec.resilience.expected_interruptions, 'interruption', 'run')}",
        f"Deployment:  {rec.deployment.recommended_model}; {rec.deployment.facility_power_kw:.0f} kW IT, "
        f"{rec.deployment.racks} rack(s), {rec.deployment.cooling}",
        f"{cost.years}-year cost, net of hardware still worth at the end: "
        + ", ".join(
            f"{key} ${option.net_usd:,.0f}"
            for key, option in cost.options.items()
            if option is not None
        )
        + f" -> {cost.recommended_option or 'not priced'}",
        "",
        "Trade-off (nodes: days, GPU-hours, cloud cost of one run):",
    ]
    for o in t.options:
        lines.append(
            f"  {o.gpus:>6} GPUs / {o.nodes:>4} nodes: {o.wall_clock_days:8.1f} d "
            f"{o.gpu_hours:12,.0f} GPU-h  "
            + ("not priced" if o.cost_usd is None else f"${o.cost_usd:,.0f}")
            + ("" if o.fits else "  (does not fit in memory)")
        )
    for title, items in (
        ("How sure", (rec.confidence.summary,)),
        ("Drivers", rec.drivers),
        ("Warnings", rec.warnings),
        ("Risks", rec.risks),
        ("Open questions", rec.open_questions),
    ):
        if items:
            lines.append("")
            lines.append(f"{title}:")
            lines.extend(f"  - {s}" for s in items)
    return "\n".join(lines) + "\n"
