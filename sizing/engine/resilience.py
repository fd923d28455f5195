"""Failures, checkpoint interval and goodput.

References
----------
.. [1] J. W. Young, "A first order approximation to the optimum checkpoint
       interval", CACM 17(9):530-531 (1974): tau = sqrt(2 delta M).
.. [2] J. T. Daly, "A higher order estimate of the optimum checkpoint
       interval for restart dumps", FGCS 22(3):303-312 (2006).
.. [3] Llama 3 Herd of Models, arXiv 2407.21783 (2024), sec. 3.3.4: 419
       unexpected interruptions in 54 days on 16,384 H100 (per-GPU MTBF
       ~50,700 h, derived); more than 90 % effective training time.
.. [4] Jiang et al., MegaScale, arXiv 2402.15627 (NSDI 2024), "fast checkpointing
       and recovery": states are copied to host memory in seconds and written to
       storage in the background; faults detected and diagnosed within 10 minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .assumptions import value, whole
from .units import SECONDS_PER_HOUR

# A background write must finish before the next one starts, and no interval is shorter
# than a minute.
_MIN_INTERVAL_HOURS = 1.0 / 60.0


def job_mtbf_hours(gpus: int) -> float:
    """Mean time between interruptions of a job on ``gpus`` accelerators [h] [3]_.

    ``M_job = M_gpu / N`` (independent exponential failures).
    """
    return value("gpu_mtbf_hours") / max(1, gpus)


def young_interval_hours(write_hours: float, mtbf_hours: float) -> float:
    """Young's optimum checkpoint interval ``sqrt(2 delta M)`` [h] [1]_."""
    return math.sqrt(2.0 * write_hours * mtbf_hours)


def daly_interval_hours(write_hours: float, mtbf_hours: float) -> float:
    """Daly's higher-order optimum checkpoint interval [h] [2]_.

    ``sqrt(2 delta M) [1 + sqrt(delta/2M)/3 + (delta/2M)/9] - delta`` for
    ``delta < 2M``, else ``M``.
    """
    d, m = write_hours, mtbf_hours
    if d >= 2.0 * m:
        return m
    x = d / (2.0 * m)
    return math.sqrt(2.0 * d * m) * (1.0 + math.sqrt(x) / 3.0 + x / 9.0) - d


@dataclass(frozen=True)
class ResilienceResult:
    job_mtbf_hours: float  # [h]
    checkpoint_interval_hours: float  # [h]
    optimal_interval_hours: float  # [h] Daly
    expected_interruptions: float  # [-] per run
    expected_lost_hours: float  # [h] wall-clock lost per run
    lost_gpu_hours: float  # [GPU-h] per run
    spare_nodes: int
    checkpoint_stall_hours: float  # [h] training paused per checkpoint (host-memory snapshot)
    effective_training_fraction: float  # [-] wall-clock not lost to interruptions or stalls
    goodput: float  # [-] productive share of wall-clock time
    # [h] the interval the engine chooses (Daly, within the acceptable lost work); the
    # customer's own interval may differ
    advised_interval_hours: float = 0.0
    # [-] share of the run's wall clock the customer's interval adds over the advised one
    # (0 when the engine chose the interval)
    interval_waste_share: float = 0.0


def plan_resilience(
    *,
    gpus: int,
    nodes: int,
    compute_hours: float,
    write_hours: float,
    max_lost_hours: float,
    forced_interval_hours: float | None,
) -> ResilienceResult:
    """Checkpoint interval, expected interruptions and goodput of one run.

    Parameters
    ----------
    gpus, nodes : int
    compute_hours : float
        Failure-free wall-clock hours of the run [h].
    write_hours : float
        Time the job stalls to write one checkpoint [h].
    max_lost_hours : float
        Customer's acceptable lost work per interruption [h]; the interval
        never exceeds it.
    forced_interval_hours : float, optional
        Customer's own interval [h].

    Notes
    -----
    Checkpoints are asynchronous [4]_: training pauses only for the snapshot to
    host memory, ``delta = min(write, snapshot)``, while the write to storage
    runs in the background (so the interval is at least one write).  Per hour
    of progress the run loses ``delta / tau`` to snapshots and, at rate
    ``1 / M``, a restart plus half an interval of lost work per interruption::

        effective = 1 / (1 + delta / tau + (restart + tau / 2) / M)      [3]_
        goodput   = effective / (1 + run_overhead)

    ``run_overhead`` (evaluation, data stalls, slow nodes) excludes restarts
    and checkpoints, which the first line already counts.  The customer's own
    interval is compared with the one the engine would choose
    (``advised_interval_hours``): ``interval_waste_share`` is how much longer it
    makes the run (:func:`explain.checkpoint_interval_warning` says so past a few per cent).
    """
    mtbf = job_mtbf_hours(gpus)
    stall = min(write_hours, value("checkpoint_snapshot_seconds") / SECONDS_PER_HOUR)
    optimal = daly_interval_hours(stall, mtbf)
    advised = max(min(optimal, max_lost_hours), write_hours, _MIN_INTERVAL_HOURS)
    interval = max(forced_interval_hours or advised, write_hours, _MIN_INTERVAL_HOURS)
    per_failure = value("restart_hours") + interval / 2.0
    effective = effective_fraction(interval, stall, mtbf)
    # the wall clock is compute / effective: the customer's interval stretches it by this share
    waste = max(0.0, 1.0 - effective / effective_fraction(advised, stall, mtbf))
    goodput = effective / (1.0 + value("run_overhead_share"))
    wall = compute_hours / goodput
    interruptions = wall / mtbf
    lost = interruptions * per_failure
    return ResilienceResult(
        job_mtbf_hours=mtbf,
        checkpoint_interval_hours=interval,
        optimal_interval_hours=optimal,
        expected_interruptions=interruptions,
        expected_lost_hours=lost,
        lost_gpu_hours=lost * gpus,
        spare_nodes=spare_nodes(nodes),
        checkpoint_stall_hours=stall,
        effective_training_fraction=effective,
        goodput=goodput,
        advised_interval_hours=advised,
        interval_waste_share=waste,
    )


def effective_fraction(interval_hours: float, stall_hours: float, mtbf_hours: float) -> float:
    """Share of wall-clock time spent training with checkpoints every ``interval_hours`` [-]
    [1]_ [2]_ [3]_.

    Per hour of progress the run pauses ``delta / tau`` for snapshots and, at one
    interruption per ``M`` hours, loses a restart and on average half an interval::

        effective = 1 / (1 + delta / tau + (restart + tau / 2) / M)

    Young's ``tau = sqrt(2 delta M)`` minimises the first-order loss [1]_.  A 405B run on
    16,384 H100 (``M`` = 3.1 h) with a 10 s snapshot: every hour 0.82, every 8 minutes
    (Daly's optimum [2]_) 0.91.
    """
    per_failure = value("restart_hours") + interval_hours / 2.0
    return 1.0 / (1.0 + stall_hours / interval_hours + per_failure / mtbf_hours)


def highest_goodput() -> float:
    """The goodput no run exceeds, whatever its size [-]: no time lost to interruptions or
    checkpoints (``effective = 1`` in :func:`plan_resilience`), only the run overhead."""
    return 1.0 / (1.0 + value("run_overhead_share"))


def spare_nodes(nodes: int, wanted: bool | None = None) -> int:
    """Hot spare nodes for a cluster of ``nodes``.

    ``ceil(spare_node_fraction x nodes)``: spares replace failed nodes of any
    job, so they scale with the whole cluster, not with one job.  ``wanted`` is the
    customer's answer: ``False`` keeps none, ``True`` at least one even below the
    minimum cluster size, ``None`` (not asked or not sure) none below it.
    """
    if wanted is False:
        return 0
    if nodes < whole("spare_nodes_min_cluster_nodes"):
        return 1 if wanted else 0
    return math.ceil(value("spare_node_fraction") * nodes)
