"""Plain-language drivers, risks, warnings and the scheduler recommendation.

Short strings, no presentation markup.  Discovery questions that always
apply are appended to the open questions.
"""

from __future__ import annotations

import math

from .assumptions import value, whole
from .cluster import RunEstimate
from .cost.option import OWNED_OPTIONS
from .hardware import ACCELERATORS, AcceleratorSpec
from .inputs import ADAPTER_METHODS, PRETRAINING_METHODS
from .numbers import (
    format_count,
    format_days,
    format_hours,
    format_percent,
    format_times,
    noun_for_count,
)
from .output import ConcurrencyResult, DeadlineResult
from .platforms import limits
from .resolve.resolved import Resolved
from .units import HOURS_PER_DAY
from .vocabulary import VALUES

# Questions asked of every customer. None today: the two discovery questions (is the data
# ready, who operates the cluster) are asked while resolving, and only when not answered
# (resolve.run.ASK_DATA_READY, resolve.site.ASK_OPERATIONS).
DISCOVERY_QUESTIONS: tuple[str, ...] = ()


def _deadline(days: float) -> str:
    """A deadline as an adjective: "21-day", "12-hour" (not "0.5-day")."""
    if days < 1:
        return f"{round(days * HOURS_PER_DAY):g}-hour"
    return f"{days:g}-day"


def _the_deadline(r: Resolved) -> str:
    """ "the 7-day deadline", or "the 7-day deadline we assumed" when the customer gave none."""
    assumed = "" if r.deadline_given else " we assumed"
    return f"the {_deadline(r.deadline_days)} deadline{assumed}"


def _does_not_fit(r: Resolved, run: RunEstimate, deadline: DeadlineResult) -> str:
    """Why the given count cannot run, and what the memory minimum would take."""
    given = f"the {accelerators(run.gpus)} you gave"
    days = deadline.min_gpus_wall_clock_days
    if deadline.min_gpus is None or days is None:
        return f"the model does not fit in memory on {given}, nor on any size we searched"
    within = "within" if deadline.min_gpus_meets_deadline else "past"
    return (
        f"the model does not fit in memory on {given}: it needs at least "
        f"{deadline.min_gpus:,}, on which one run takes {format_days(days)}, "
        f"{within} {_the_deadline(r)}"
    )


def accelerators(count: int) -> str:
    """ "1 accelerator", "1,024 accelerators"."""
    return f"{count:,} {noun_for_count(count, 'accelerator')}"


def drivers(
    r: Resolved,
    run: RunEstimate,
    min_gpus: int,
    deadline: DeadlineResult,
    fewest: RunEstimate | None = None,
) -> tuple[str, ...]:
    """The three things that most drive the recommendation.

    Each candidate has a rank (higher first); they order sentences, they are
    no estimate of anything.  A run that does not fit in memory is not timed
    here: the sentences give the memory minimum and the run on it.  ``fewest`` is
    the fewest accelerators that meet the deadline, when the recommended size is
    larger because it is faster and cheaper.
    """
    out: list[tuple[float, str]] = []
    tokens = r.tokens * r.epochs
    if r.active_params < r.total_params:  # an MoE model computes with its active parameters
        params = (
            f"{format_count(r.active_params, short=True)} active parameters (of "
            f"{format_count(r.total_params, short=True)})"
        )
    else:
        params = f"{format_count(r.total_params, short=True)} parameters"
    gpu_hours = run.gpu_hours if deadline.fits else deadline.min_gpus_gpu_hours
    if gpu_hours is not None:
        on = "" if deadline.fits else f" on {accelerators(deadline.min_gpus or 0)}"
        # A short fine-tune is a fraction of an hour or a few: "1.4 accelerator-hours", never
        # "1 accelerator-hours".
        shown = round(gpu_hours, 1) if gpu_hours < 10 else round(gpu_hours)
        hours = f"{shown:g}" if gpu_hours < 10 else f"{shown:,.0f}"
        amount = (
            "less than 1 accelerator-hour"  # never "0.3 hours", a unit to convert
            if gpu_hours < 1
            else f"{hours} {noun_for_count(shown, 'accelerator-hour')}"
        )
        out.append(
            (
                3.0,
                f"{params} trained on {format_count(tokens, short=True)} tokens set the "
                f"compute: {amount} per run{on}",
            )
        )
    chosen = accelerators(run.gpus)
    set_by_memory = (
        deadline.met is True and r.count is None and min_gpus > 0 and run.gpus <= min_gpus
    )
    if not deadline.fits:
        out.append((3.5, _does_not_fit(r, run, deadline)))
    elif r.count is not None:  # the customer's count, not the deadline, sets the cluster
        within = "within" if deadline.met else "past"
        out.append(
            (
                3.5,
                f"on the {chosen} you gave, one run takes {format_days(run.wall_clock_days)}, "
                f"{within} {_the_deadline(r)}",
            )
        )
    elif not deadline.met:
        out.append(
            (
                3.5,
                f"{_the_deadline(r)} cannot be met: {chosen}, "
                f"where more stop paying for themselves, take {format_days(run.wall_clock_days)}",
            )
        )
    elif fewest is not None and fewest.gpus < run.gpus:
        smaller = (
            f"the {fewest.gpus:,} memory needs at least"
            if fewest.gpus <= min_gpus
            else f"the {fewest.gpus:,} that would just meet {_the_deadline(r)}"
        )
        out.append(
            (
                2.7,
                f"{chosen} finish sooner and in fewer accelerator-hours than {smaller} "
                f"({run.gpu_hours:,.0f} against {fewest.gpu_hours:,.0f})",
            )
        )
    elif set_by_memory and run.gpus <= 1:
        out.append(
            (
                2.6,
                f"one accelerator holds the model ({run.plan.memory.total_gb:.0f} GB in the "
                "chosen plan) and is the smallest cluster",
            )
        )
    elif set_by_memory:
        out.append(
            (
                2.6,
                f"memory sets the cluster at {chosen} "
                f"({run.plan.memory.total_gb:.0f} GB per accelerator in the chosen plan); "
                f"fewer would meet {_the_deadline(r)}",
            )
        )
    elif r.deadline_given or r.deadline_days < value("deadline_days_pretraining_scale"):
        per_run = "each run" if r.concurrent_jobs > 1 else "the cluster"
        out.append((2.5, f"{_the_deadline(r)} sets {per_run} at {chosen}"))
    if min_gpus > 1 and not set_by_memory and deadline.fits:
        out.append(
            (
                2.0 + min_gpus / max(run.gpus, 1),
                f"memory needs at least {min_gpus} accelerators "
                f"({run.plan.memory.total_gb:.0f} GB per accelerator in the chosen plan)",
            )
        )
    if r.method in ADAPTER_METHODS and run.nodes == 1:
        method = VALUES["training.method"].get(r.method, r.method)
        enough = "each run fits on one node" if full_size_runs(r) > 1 else "one node is enough"
        out.append((2.8, f"{method} trains only small adapters, so {enough}"))
    if r.concurrent_jobs > 1:
        runs = full_size_runs(r)
        room = f"room for {runs} {noun_for_count(runs, 'full-size run')}"
        if runs < r.concurrent_jobs:
            room += " and smaller jobs"
        out.append((2.2, f"{r.concurrent_jobs} jobs at once: the cluster has {room}"))
    if r.air_gapped or r.dedicated_hardware or r.data_residency:
        out.append((1.8, "data-location rules limit where the cluster can run"))
    for limit in limits(
        vendors=r.vendors, frameworks=r.frameworks, custom_cuda_kernels=r.custom_cuda_kernels
    ):
        out.append((1.5, limit))
    name = ACCELERATORS[r.accelerator].name if r.accelerator in ACCELERATORS else r.accelerator
    out.append((1.0, f"{run.plan.mfu:.0%} expected utilisation of {name}"))
    out.sort(key=lambda x: -x[0])
    return tuple(s for _, s in out[:3])


def deadline_warnings(r: Resolved, run: RunEstimate, deadline: DeadlineResult) -> tuple[str, ...]:
    """A missed deadline said plainly, and what would fit in it instead (nothing when the run
    does not fit in memory: the memory warning says so)."""
    if deadline.met is not False:
        return ()
    days = format_days(r.deadline_days)
    out = [
        f"the {_deadline(r.deadline_days)} deadline cannot be met: one run takes "
        f"{format_days(run.wall_clock_days)} on the recommended {run.gpus:,} "
        f"{noun_for_count(run.gpus, 'accelerator')}"
    ]
    if deadline.fastest_gpus is not None and deadline.fastest_days is not None:
        out[0] += (
            f"; no size is faster than {format_days(deadline.fastest_days)} "
            f"({deadline.fastest_gpus:,} {noun_for_count(deadline.fastest_gpus, 'accelerator')}), "
            "and beyond the recommended size "
            "each added accelerator does less than half its share"
        )
    if deadline.tokens_within_deadline is not None:
        out.append(
            f"to finish in {days} on {run.gpus:,} {noun_for_count(run.gpus, 'accelerator')}: train "
            f"{format_count(deadline.tokens_within_deadline, short=True)} tokens instead of "
            f"{format_count(r.tokens * r.epochs, short=True)}"
            + (
                f", or a model of about "
                f"{format_count(deadline.params_within_deadline, short=True)} parameters"
                if deadline.params_within_deadline
                else ""
            )
            + f", or allow {format_days(run.wall_clock_days)}"
        )
    return tuple(out)


def risks(r: Resolved, run: RunEstimate, recommended_option: str | None) -> tuple[str, ...]:
    """The plan's risks, each as "risk: what lowers it"; a risk only where it applies to the
    recommended option (cloud spend only when the plan rents; by location when nothing is
    priced).

    References
    ----------
    .. [1] Chowdhery et al., PaLM, arXiv 2204.02311 (2022), sec. 5.1: about 20 loss spikes,
           each handled by restarting about 100 steps before it and skipping 200 to 500 batches.
    """
    out = [
        "idle hardware while data preparation or evaluation stalls: plan the data pipeline first"
    ]
    rents = (
        recommended_option not in OWNED_OPTIONS
        if recommended_option is not None
        else r.location in (None, "cloud", "hybrid")
    )
    if rents:
        out.append(
            "cloud spend continues after an experiment ends: tear instances down "
            "automatically when a job ends, and set a budget alert"
        )
    if run.resilience.expected_interruptions >= 1:
        out.append(
            f"{format_times(run.resilience.expected_interruptions, 'interruption', 'run')}: "
            "automated restart and node health checks are essential"
        )
    if r.precision == "fp8":
        out.append("FP8 training can diverge: keep a BF16 fallback")
    if r.method == "pretrain":
        out.append(  # what PaLM did [1]_
            "loss spikes may force rollbacks to older checkpoints: keep several recent "
            "checkpoints and watch the loss; restart from one before the spike and skip the "
            "batches that caused it"
        )
    if r.modality in ("video", "image") and r.preprocessing == "on_the_fly":
        out.append(
            "on-the-fly decoding can starve the accelerators: measure loader throughput early"
        )
    return tuple(out)


def full_size_runs(r: Resolved) -> int:
    """Full-size runs the cluster holds at once [runs].

    ``min(concurrent jobs, planned runs)``: a job beyond the planned full runs
    is a smaller experiment, test or evaluation sharing the cluster.  A
    count the customer fixed holds one run on all of it.
    """
    if r.count is not None:
        return 1
    return max(1, min(r.concurrent_jobs, r.experiments))


def headroom_gpus(r: Resolved, gpus_per_job: int) -> int:
    """Accelerators for the concurrent jobs beyond the full-size runs [GPUs].

    ``ceil(concurrency_headroom_share x gpus_per_job)`` when some concurrent
    jobs are not full runs, else none.
    """
    if r.count is not None or r.concurrent_jobs <= full_size_runs(r):
        return 0
    return math.ceil(gpus_per_job * value("concurrency_headroom_share"))


KUBERNETES_BATCH = "Kubernetes with a batch scheduler (Kueue or Volcano)"
# The scheduler the customer chose (``schedule.scheduler``), as the recommendation names it.
_CHOSEN_SCHEDULER = {
    "slurm": "Slurm",
    "kubernetes": KUBERNETES_BATCH,
    "none": "no scheduler (jobs started by hand)",
    "other": "your own scheduler",
}


def concurrency(r: Resolved, gpus_per_job: int, per_node: int) -> ConcurrencyResult:
    """Capacity for concurrent jobs and the scheduler: the customer's choice when they made one,
    else our suggestion (:func:`suggested_scheduler`)."""
    headroom = headroom_gpus(r, gpus_per_job)
    sched, why = suggested_scheduler(r, gpus_per_job, per_node)
    if r.scheduler in _CHOSEN_SCHEDULER:
        # The customer's choice stands; we do not talk them out of it in the proposal.
        sched = _CHOSEN_SCHEDULER[r.scheduler]
        why = f"{sched}, as you chose"
        if r.scheduler == "none" and r.concurrent_jobs > 1:
            why += (
                f"; with {r.concurrent_jobs} jobs at the same time, a scheduler would share "
                "the cluster fairly"
            )
    return ConcurrencyResult(
        concurrent_jobs=r.concurrent_jobs,
        full_size_runs=full_size_runs(r),
        gpus_per_job=gpus_per_job,
        headroom_gpus=headroom,
        scheduler=sched,
        reason=why,
    )


def suggested_scheduler(r: Resolved, gpus_per_job: int, per_node: int) -> tuple[str, str]:
    """The scheduler we suggest, and why: Slurm for multi-node gang-scheduled or pre-training
    jobs and for a few users; Kubernetes for several teams sharing mostly single-node jobs."""
    big = gpus_per_job >= whole("gang_scheduled_job_nodes") * per_node
    if big:
        return "Slurm", "multi-node gang-scheduled training jobs; Slurm's topology-aware scheduling"
    if r.method in PRETRAINING_METHODS:
        # a pre-training run within one server is no multi-node job (customer 3's 2 H100)
        return (
            "Slurm",
            "long pre-training runs that hold their accelerators for days; simplest to queue and restart",
        )
    if r.teams > 1 or r.users > whole("shared_cluster_users"):
        return (
            KUBERNETES_BATCH,
            "several teams sharing GPUs with quotas and mostly single-node jobs",
        )
    return "Slurm", "a few users running batch jobs; simplest to operate"


def precision_fallback_warning(r: Resolved, acc: AcceleratorSpec) -> str:
    """The accelerator lacks the precision asked (FP8 on an A100): what it is sized in."""
    asked = VALUES["training.precision"][r.precision_asked]
    sized = VALUES["training.precision"][r.precision]
    return (
        f"the {acc.name} has no {asked} arithmetic: sized in {sized} "
        "(speed, memory and the range alike)"
    )


def context_warning(r: Resolved) -> str:
    """The sequence length given exceeds the context the catalog's model was trained for."""
    return (
        f"a sequence length of {format_count(r.sequence_length)} tokens exceeds "
        f"{r.model_name}'s context of {format_count(r.max_context or 0)} positions: extend "
        "its positions first (for instance RoPE scaling) or train at its context"
    )


def checkpoint_interval_warning(r: Resolved, run: RunEstimate) -> str | None:
    """Advice when the customer's checkpoint interval lengthens the run by more than
    ``checkpoint_interval_waste_warning_share`` over the interval the engine would choose
    (:func:`resilience.plan_resilience`: Young 1974 and Daly 2006 within the acceptable lost
    work), with that interval; ``None`` otherwise."""
    res = run.resilience
    waste = res.interval_waste_share
    if not r.checkpoint_interval_hours or waste <= value("checkpoint_interval_waste_warning_share"):
        return None
    lost_days = run.wall_clock_days * waste
    return (
        f"checkpointing every {format_hours(res.checkpoint_interval_hours)} makes the run about "
        f"{format_percent(waste)} longer than it needs to be ({format_days(lost_days)} of "
        f"{format_days(run.wall_clock_days)}): on {run.gpus:,} "
        f"{noun_for_count(run.gpus, 'accelerator')} a job is interrupted "
        f"about every {format_hours(res.job_mtbf_hours)} "
        f"({format_times(res.expected_interruptions, 'interruption', 'run')}), and each one "
        f"repeats half an interval of work; a checkpoint every "
        f"{format_hours(res.advised_interval_hours)} wastes least (Young 1974, Daly 2006)"
    )
