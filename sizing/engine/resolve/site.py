"""Resolve the answers about where and how runs happen.

Software, hardware, network, storage, resilience, deployment, roadmap and
prices.  Defaults are sourced in :mod:`sizing.engine.assumptions`, prices in
:mod:`sizing.engine.cost.prices` and per accelerator in
:mod:`sizing.engine.cost.accelerator_prices`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..assumptions import value, whole
from ..cost.places import Place
from ..cost.price_set import (
    YOUR_FIGURE,
    PriceOverrides,
    PriceSet,
    UsedPrice,
    price_set,
)
from ..hardware import ACCELERATORS, DEFAULT_ACCELERATOR, DEFAULT_ACCELERATORS, AcceleratorSpec
from ..inputs import (
    DeploymentInput,
    HardwareInput,
    NetworkInput,
    PricesInput,
    ResilienceInput,
    RoadmapInput,
    SoftwareInput,
    StorageInput,
)
from ..platforms import ANY_VENDOR, VENDORS, exclusion, vendor_of
from ..provenance import CUSTOMER_ANSWER, AnswerRecorder
from ..stack_efficiency import stack_family
from ..team_experience import WHO_TRAINS, who_trains_effect, who_trains_words

_DEFAULT_FRAMEWORKS = ("pytorch",)
_DEFAULT_INTER_NODE = "infiniband"


@dataclass(frozen=True)
class ResolvedSoftware:
    frameworks: tuple[str, ...]
    custom_cuda_kernels: bool
    stack_family: str  # who trains with what: stack_efficiency.stack_family
    team_knows_setup: bool | None  # who trains: team_experience


def resolve_software(answers: SoftwareInput, rec: AnswerRecorder) -> ResolvedSoftware:
    """The frameworks and kernels the run needs (which stacks they run on: ``platforms``).

    Not recorded as an assumption: the default framework (PyTorch) runs on every stack.  The
    software family is read from the answer alone: with none, the typical published run's
    efficiency (``stack_efficiency``), not the default framework's.  Who trains, with what, and
    what that does to the estimate are recorded as one assumption (``team_experience``).
    """
    family = stack_family(answers.frameworks)
    rec.record(
        WHO_TRAINS,
        who_trains_words(answers.team_knows_setup),
        unit="",
        given=False,
        source="our measurement on published training runs, each left out of the fit in turn",
        why=who_trains_effect(family, answers.team_knows_setup),
    )
    return ResolvedSoftware(
        frameworks=answers.frameworks or _DEFAULT_FRAMEWORKS,
        custom_cuda_kernels=bool(answers.custom_cuda_kernels),
        stack_family=family,
        team_knows_setup=answers.team_knows_setup,
    )


@dataclass(frozen=True)
class ResolvedHardware:
    accelerator: AcceleratorSpec
    count: int | None  # given: evaluate this cluster instead of sizing one
    gpus_per_node: int
    vendors: tuple[str, ...]  # makers allowed


def resolve_hardware(
    answers: HardwareInput, rec: AnswerRecorder, *, software: ResolvedSoftware
) -> ResolvedHardware:
    vendors = answers.vendors or VENDORS
    if answers.vendors:
        rec.record(
            "hardware.vendors",
            answers.vendors,
            unit="-",
            given=True,
            source=CUSTOMER_ANSWER,
            why="sets which accelerators are compared",
        )
    else:
        rec.record(
            "hardware.vendors",
            ANY_VENDOR,
            unit="-",
            given=False,
            source="our usual assumption: accelerators of every maker in the catalog are compared",
            why="sets which accelerators are compared",
        )
    accelerator_id = rec.take(
        "hardware.accelerator",
        answers.accelerator,
        _default_accelerator(vendors, software),
        unit="-",
        why="sets the accelerator we size for",
        source="our usual assumption: the most widely offered training accelerator of an allowed maker",
    )
    gpus_per_node = rec.take(
        "hardware.gpus_per_node",
        answers.gpus_per_node,
        whole("default_gpus_per_node"),
        unit="GPUs/node",
        why="sets the size of each server",
    )
    if answers.count is not None:
        rec.record(
            "hardware.count",
            answers.count,
            unit="GPUs",
            given=True,
            source=CUSTOMER_ANSWER,
            why="sets the cluster we evaluate instead of sizing one",
        )
    return ResolvedHardware(
        accelerator=ACCELERATORS[str(accelerator_id)],
        count=answers.count,
        gpus_per_node=int(gpus_per_node),
        vendors=vendors,
    )


def _default_accelerator(vendors: tuple[str, ...], software: ResolvedSoftware) -> str:
    """The first default accelerator the makers and the software allow, else of an allowed maker.

    With no allowed accelerator at all (say AMD only, with custom CUDA kernels) the maker wins:
    the recommendation then warns that the software does not run on it.
    """
    candidates = [ACCELERATORS[i] for i in DEFAULT_ACCELERATORS]
    for acc in candidates:
        if not exclusion(
            acc,
            vendors=vendors,
            frameworks=software.frameworks,
            custom_cuda_kernels=software.custom_cuda_kernels,
        ):
            return acc.id
    return next((a.id for a in candidates if vendor_of(a) in vendors), DEFAULT_ACCELERATOR)


@dataclass(frozen=True)
class ResolvedNetwork:
    inter_node: str
    max_comm_share: float  # [fraction of step time]


def resolve_network(answers: NetworkInput, rec: AnswerRecorder) -> ResolvedNetwork:
    inter_node = rec.take(
        "network.inter_node",
        answers.inter_node,
        _DEFAULT_INTER_NODE,
        unit="-",
        why="sets the network between servers",
        question="InfiniBand or Ethernet (RoCE) between nodes?",
    )
    max_comm_share = rec.take(
        "network.max_comm_share",
        answers.max_comm_share,
        value("max_comm_share_default"),
        unit="-",
        why="sets how much of a step may be spent communicating",
    )
    if answers.oversubscription is None:
        rec.ask("What network oversubscription can you tolerate (1:1 non-blocking is assumed)?")
    return ResolvedNetwork(inter_node=str(inter_node), max_comm_share=float(max_comm_share))


@dataclass(frozen=True)
class ResolvedStorage:
    checkpoint_minutes_max: float  # [min]
    checkpoints_retained: int


def resolve_storage(answers: StorageInput, rec: AnswerRecorder) -> ResolvedStorage:
    checkpoint_minutes_max = rec.take(
        "storage.checkpoint_minutes_max",
        answers.checkpoint_minutes_max,
        value("checkpoint_minutes_default"),
        unit="min",
        why="sets the storage write speed",
    )
    checkpoints_retained = rec.take(
        "storage.checkpoints_retained",
        answers.checkpoints_retained,
        whole("checkpoints_retained_default"),
        unit="checkpoints",
        why="sets the storage kept for checkpoints",
    )
    return ResolvedStorage(
        checkpoint_minutes_max=float(checkpoint_minutes_max),
        checkpoints_retained=int(checkpoints_retained),
    )


def resolve_max_lost_hours(answers: ResilienceInput, rec: AnswerRecorder) -> float:
    """Compute one failure may lose [h]."""
    max_lost_hours = rec.take(
        "resilience.max_lost_hours",
        answers.max_lost_hours,
        value("max_lost_hours_default"),
        unit="h",
        why="sets how often a checkpoint is saved",
        question="How much compute may one failure lose?",
    )
    if answers.spare_nodes is not None:
        rec.record(
            "resilience.spare_nodes",
            answers.spare_nodes,
            unit="",
            given=True,
            source=CUSTOMER_ANSWER,
            why="sets whether spare servers are kept",
        )
    return float(max_lost_hours)


ASK_OPERATIONS = "Who operates the cluster day to day (drivers, scheduler, failures)?"


def ask_about_deployment(answers: DeploymentInput, rec: AnswerRecorder) -> None:
    """Deployment answers have no default; a missing one is an open question (and only then:
    a proposal never asks what the customer already answered)."""
    if answers.location is None:
        rec.ask("On-premises, colocation or cloud: is any excluded?")
    if answers.data_residency is None:
        rec.ask("Must the training data stay in a region or on your own premises?")
    if answers.operations is None:
        rec.ask(ASK_OPERATIONS)


@dataclass(frozen=True)
class ResolvedRoadmap:
    runs_per_month: float | None  # [runs/month] None: not known
    hours_per_run: float | None  # [h] wall-clock of one of those runs; None: the sized run's
    utilisation: float | None  # [fraction of the year busy] the customer's own figure
    years: int
    growth: float  # [1/yr]


def resolve_roadmap(answers: RoadmapInput, rec: AnswerRecorder) -> ResolvedRoadmap:
    """Runs a month and hours per run (or a utilisation) as given, horizon and growth.

    No utilisation is invented: when neither runs a month nor a utilisation is given, the
    cost covers the planned runs and says how often owning would pay off.
    """
    for key, given, unit, why in (
        (
            "roadmap.runs_per_month",
            answers.runs_per_month,
            "runs/month",
            "sets the usage the cost assumes",
        ),
        ("roadmap.hours_per_run", answers.hours_per_run, "h", "sets the length of those runs"),
        (
            "roadmap.utilisation",
            answers.utilisation,
            "-",
            "sets the share of the year the cluster is busy",
        ),
    ):
        if given is not None:
            rec.record(key, given, unit=unit, given=True, source=CUSTOMER_ANSWER, why=why)
    if answers.runs_per_month is None and answers.utilisation is None:
        rec.ask("How many training runs a month do you expect once running, and how long is each?")
    years = rec.take(
        "roadmap.years",
        answers.years,
        whole("default_years"),
        unit="yr",
        why="sets how many years the cost covers",
    )
    growth = rec.take(
        "roadmap.annual_growth",
        answers.annual_growth,
        value("default_roadmap_growth"),
        unit="1/yr",
        why="sets how the cluster grows",
    )
    return ResolvedRoadmap(
        runs_per_month=answers.runs_per_month,
        hours_per_run=answers.hours_per_run,
        utilisation=answers.utilisation,
        years=int(years),
        growth=float(growth),
    )


def _record_price(
    rec: AnswerRecorder, key: str, found: UsedPrice | None, *, why: str, missing: str
) -> None:
    """Record one price as the customer's or as assumed; ask for a quote when none exists."""
    if found is None:
        rec.ask(f"We found no public {missing}: do you have a quote?")
        return
    given = found.flag == YOUR_FIGURE
    source = CUSTOMER_ANSWER if given else f"{found.source} ({found.as_of}; {found.flag})"
    rec.record(key, found.value, unit=found.unit, given=given, source=source, why=why)


def resolve_prices(
    answers: PricesInput,
    *,
    accelerator: AcceleratorSpec,
    place: Place,
    rec: AnswerRecorder,
) -> PriceSet:
    """Every price: the customer's where given, else the accelerator's and the region's of the
    country the hardware runs in (``place``)."""
    region = place.region
    prices = price_set(
        accelerator.id,
        region,
        PriceOverrides(
            cloud_on_demand=answers.cloud_on_demand_usd_per_gpu_hour,
            cloud_reserved=answers.cloud_reserved_usd_per_gpu_hour,
            purchase=answers.purchase_usd_per_gpu,
            electricity=answers.electricity_usd_per_kwh,
            pue=answers.pue,
            colocation=answers.colocation_usd_per_kw_month,
            staff=answers.staff_usd_per_year,
        ),
    )
    name = accelerator.name
    _record_price(
        rec,
        "prices.cloud_on_demand_usd_per_gpu_hour",
        prices.gpu_cloud,
        why="sets the cost of renting accelerators",
        missing=f"GPU-cloud price per hour for the {name}",
    )
    _record_price(
        rec,
        "prices.purchase_usd_per_gpu",
        prices.purchase,
        why="sets the cost of buying accelerators with their share of the server",
        missing=f"purchase price for the {name}",
    )
    for key, found, why in (
        ("prices.electricity_usd_per_kwh", prices.electricity, f"sets the power cost ({region})"),
        ("prices.pue", prices.pue_own, "sets the power the facility adds"),
        (
            "prices.colocation_usd_per_kw_month",
            prices.colocation,
            f"sets the cost of rented space ({region})",
        ),
        ("prices.staff_usd_per_year", prices.staff_cost, "sets the cost of operations staff"),
    ):
        _record_price(rec, key, found, why=why, missing="")
    if prices.reserved_override is not None:
        _record_price(
            rec,
            "prices.cloud_reserved_usd_per_gpu_hour",
            prices.reserved_override,
            why="sets the cost of reserved cloud accelerators",
            missing="",
        )
    return prices
