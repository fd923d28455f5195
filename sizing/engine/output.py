"""The engine's output: a frozen :class:`SizingResult` and its JSON form.

(Named apart from ``pipeline.models.Recommendation``, the database row that stores this JSON,
so a traceback says which of the two it is.)

:func:`sizing_result_to_dict` produces exactly the output of
``docs/engine-contract.md`` plus the documented extra fields.

References
----------
.. [1] IEEE 754-2019, Standard for Floating-Point Arithmetic, sec. 3.6: binary64 has a 53-bit
       significand, so every whole number below 2^53 is held exactly (``_EXACT_INTEGERS``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from .cost.plan import CostOption, CostResult
from .deployment import DeploymentResult
from .estate import EstateResult
from .hosts import HostsResult
from .network import NetworkResult
from .peer import PeerResult
from .provenance import UsedAssumption
from .ranges import ConfidenceResult
from .storage import StorageResult


@dataclass(frozen=True)
class ComputeResult:
    training_flops: float  # [FLOP] model FLOPs, all epochs, one run
    flops_per_token: float  # [FLOP/token] model FLOPs
    hardware_flops_per_token: float  # [FLOP/token] incl. recomputation
    all_experiments_flops: float  # [FLOP]
    gpu_hours: float  # [GPU-h] one run incl. goodput losses
    all_experiments_gpu_hours: float  # [GPU-h]
    assumed_mfu: float  # [-]
    goodput: float  # [-]
    accelerator: str
    peak_tflops: float  # [TFLOPS] dense peak at the training precision
    tokens_per_s: float  # [tokens/s] whole job
    rule_of_thumb_gpu_hours: float  # [GPU-h] 6 N D at 40 % MFU, for comparison
    gpu_hours_range: tuple[float, float]  # [GPU-h] low, high (ranges.py)
    all_experiments_gpu_hours_range: tuple[float, float]  # [GPU-h]


@dataclass(frozen=True)
class MemoryResult:
    per_gpu_gb: float
    usable_gpu_gb: float
    fits: bool
    min_gpus: int
    breakdown_gb: dict[str, float]
    bytes_per_param: dict[str, Any]


@dataclass(frozen=True)
class ParallelismResult:
    tensor: int
    pipeline: int
    data: int
    expert: int
    context: int  # context-parallel degree: accelerators that split each sequence
    zero_stage: int
    micro_batch_size: int
    micro_batches: int  # whole micro-batches per step on each data-parallel replica (the busiest)
    gradient_checkpointing: bool  # some activation recomputation (selective or full)
    recompute: str  # "none" | "selective" | "full"
    virtual_pipeline_stages: int  # model chunks per pipeline stage (1: not interleaved)
    layers: int  # the model's layers, which the pipeline stages and their chunks share
    reason: str
    forced: tuple[str, ...]


@dataclass(frozen=True)
class ClusterResult:
    accelerator: str
    accelerator_name: str
    gpus: int
    nodes: int
    gpus_per_node: int
    gpus_per_job: int
    spare_nodes: int
    # [GPUs] needed to meet the deadline at the range's ends; (gpus, gpus) when the count is
    # given or no size meets the deadline (then the days move instead)
    gpus_range: tuple[int, int]
    nodes_per_job: int  # [servers] one run's accelerators on whole servers (engine 2026.12.11)
    gpus_in_service: int  # [GPUs] the cluster with its spare servers (engine 2026.12.11)


@dataclass(frozen=True)
class TimelineOption:
    gpus: int
    nodes: int
    wall_clock_days: float
    gpu_hours: float
    cost_usd: float | None  # one run in the GPU cloud; None: no public price
    meets_deadline: bool  # False when the run does not fit in memory
    fits: bool = True  # some plan fits in memory on this many accelerators


@dataclass(frozen=True)
class DeadlineResult:
    """Whether one run meets the deadline; if not, the fastest run and what would fit.

    ``met`` is ``None`` when the run cannot start: no plan fits in memory on the
    accelerators given.  The run on the memory minimum (``min_gpus_*``) then says what it
    would take.
    """

    met: bool | None
    fastest_gpus: int | None  # [GPUs] the size with the fewest days
    fastest_days: float | None  # [d]
    tokens_within_deadline: float | None  # [tokens] on the recommended cluster
    params_within_deadline: float | None  # [param] about, on the recommended cluster
    fits: bool = True  # some plan fits in memory on the recommended or given cluster
    min_gpus: int | None = None  # [GPUs] the memory minimum, when the run does not fit
    min_gpus_wall_clock_days: float | None = None  # [d] one run on ``min_gpus``
    min_gpus_gpu_hours: float | None = None  # [GPU-h] one run on ``min_gpus``
    min_gpus_meets_deadline: bool | None = None


@dataclass(frozen=True)
class TimelineResult:
    wall_clock_days: float
    deadline_days: float | None  # [d] the deadline judged against, given or assumed
    all_experiments_days: float
    options: tuple[TimelineOption, ...]
    deadline: DeadlineResult
    wall_clock_days_range: tuple[float, float]  # [d] one run on the recommended cluster
    all_experiments_days_range: tuple[float, float]  # [d]
    deadline_assumed: bool = False  # the customer gave none: ``deadline_days`` is our assumption


@dataclass(frozen=True)
class ResilienceOut:
    checkpoint_interval_hours: float
    optimal_interval_hours: float
    expected_interruptions: float
    job_mtbf_hours: float
    expected_lost_hours: float
    lost_gpu_hours: float
    spare_nodes: int


@dataclass(frozen=True)
class ConcurrencyResult:
    concurrent_jobs: int
    full_size_runs: int  # [runs] held at once: concurrent jobs, at most the planned runs
    gpus_per_job: int
    headroom_gpus: int  # [GPUs] for the concurrent jobs beyond the full-size runs
    scheduler: str
    reason: str


@dataclass(frozen=True)
class Alternative:
    accelerator: str
    name: str
    gpus: int
    nodes: int
    wall_clock_days: float
    gpu_hours: float
    run_cost_usd: float | None  # one run in the GPU cloud; None: no public price
    servers_usd: float | None  # [USD] its servers bought at list price; None: no public price
    fits: bool
    price_confirmed: bool  # False: the cloud price is a placeholder or another accelerator's
    precision: str  # the precision it is sized in: the one asked, or BF16 where it lacks FP8


@dataclass(frozen=True)
class SizingResult:
    engine_version: str
    model_name: str
    compute: ComputeResult
    memory: MemoryResult
    parallelism: ParallelismResult
    cluster: ClusterResult
    timeline: TimelineResult
    network: NetworkResult
    storage: StorageResult
    hosts: HostsResult
    resilience: ResilienceOut
    deployment: DeploymentResult
    cost: CostResult
    concurrency: ConcurrencyResult
    alternatives: tuple[Alternative, ...]
    excluded_accelerators: tuple[str, ...]
    confidence: ConfidenceResult
    drivers: tuple[str, ...]
    risks: tuple[str, ...]
    assumptions: tuple[UsedAssumption, ...]
    open_questions: tuple[str, ...]
    warnings: tuple[str, ...]
    estate: EstateResult | None = None  # what they own and their ceilings, when given
    # the same run on the NVIDIA part a plan on another maker's is set against (peer.py)
    peer: PeerResult | None = None


_EXACT_INTEGERS = 2.0**53  # floats hold every whole number below this exactly


def _clean(x: Any) -> Any:
    """``x`` as JSON values: dataclasses and dicts as objects, floats to 6 significant digits.

    The common scalars are tested first: a recommendation holds some 3,000 values.
    """
    if isinstance(x, float):
        if not math.isfinite(x):
            return None
        if x.is_integer() and abs(x) < _EXACT_INTEGERS:
            return x  # a whole number (a batch of 2,097,152 tokens) is kept exact
        return float(f"{x:.6g}")
    if x is None or isinstance(x, str | int):
        return x
    if isinstance(x, list | tuple):
        return [v if type(v) in _KEPT else _clean(v) for v in x]
    if isinstance(x, dict):
        return {str(k): v if type(v) in _KEPT else _clean_field(str(k), v) for k, v in x.items()}
    cleaners = _field_cleaners(type(x))
    if cleaners is not None:
        return {
            name: value if type(value) in _KEPT else clean(value)
            for name, clean in cleaners
            for value in (getattr(x, name),)
        }
    return x


# Values that :func:`_clean` and :func:`_to_the_cent` return as they are, tested in place of a
# call for a dataclass's fields and the items of a list or dict: most are words (sources, units,
# dates, the reasons and the price sources' entries)
_KEPT = frozenset({str, int, bool, type(None)})


def _clean_field(name: str, x: Any) -> Any:
    """A field by its name: money (``*_usd``, ``*_eur``) to the cent, so that the parts of a
    cost still add up to its total as stored (to 6 significant digits a $17,452,386 bill's
    lines and its total, $17,452,400, would not); anything else as :func:`_clean`."""
    return _to_the_cent(x) if _is_money(name) else _clean(x)


def _is_money(name: str) -> bool:
    """Whether a field named ``name`` holds money, kept to the cent (:func:`_clean_field`)."""
    # not a rate: usd_per_eur, the currency's per_usd (0.8479 kept, never 0.85)
    return name.endswith(("_usd", "_eur")) and "_per_" not in name and not name.startswith("per_")


# What cleans each field of a dataclass, by class (:func:`_field_cleaners`)
_Cleaners = tuple[tuple[str, Callable[[Any], Any]], ...]
_CLEANERS: dict[type, _Cleaners | None] = {}


def _field_cleaners(cls: type) -> _Cleaners | None:
    """Each field of the dataclass ``cls`` with what cleans its value (:func:`_clean_field`),
    worked out once per class (a recommendation holds some 900 dataclasses); ``None`` when
    ``cls`` is not a dataclass."""
    if cls not in _CLEANERS:
        _CLEANERS[cls] = (
            tuple((f.name, _to_the_cent if _is_money(f.name) else _clean) for f in fields(cls))
            if is_dataclass(cls)
            else None
        )
    return _CLEANERS[cls]


def _to_the_cent(x: Any) -> Any:
    if isinstance(x, float):
        return round(x, 2) if math.isfinite(x) else None
    if isinstance(x, list | tuple):
        return [_to_the_cent(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _to_the_cent(v) for k, v in x.items()}
    return _clean(x)


def _cost_option(o: CostOption | None) -> dict[str, Any] | None:
    if o is None:
        return None
    d = _clean(o)
    d["range_usd"] = [d.pop("low_usd"), d.pop("high_usd")]
    return dict(d)


def cost_to_dict(cost: CostResult) -> dict[str, Any]:
    """The ``cost`` section: one entry per option (null when not priced), then the rest."""
    out: dict[str, Any] = {key: _cost_option(o) for key, o in cost.options.items()}
    for f in fields(cost):
        if f.name != "options":
            out[f.name] = _clean_field(f.name, getattr(cost, f.name))
    return out


def sizing_result_to_dict(rec: SizingResult) -> dict[str, Any]:
    """JSON-serialisable form of ``rec`` (the contract's output object)."""
    out: dict[str, Any] = {"engine_version": rec.engine_version, "model": rec.model_name}
    for name in (
        "compute",
        "memory",
        "parallelism",
        "cluster",
        "timeline",
        "network",
        "storage",
        "hosts",
        "resilience",
        "deployment",
        "concurrency",
        "confidence",
    ):
        out[name] = _clean(getattr(rec, name))
    out["cost"] = cost_to_dict(rec.cost)
    out["alternatives"] = _clean(rec.alternatives)
    out["excluded_accelerators"] = list(rec.excluded_accelerators)
    out["drivers"] = list(rec.drivers)
    out["risks"] = list(rec.risks)
    out["assumptions"] = _clean(rec.assumptions)
    out["open_questions"] = list(rec.open_questions)
    out["warnings"] = list(rec.warnings)
    if rec.estate is not None:  # only when given: results without it stay as they were
        out["estate"] = _clean(rec.estate)
    if rec.peer is not None:
        out["peer"] = _clean(rec.peer)
    return out
