"""Resolve the answers about where and how runs happen.

Software, hardware, network, storage, resilience, deployment, roadmap and
prices.  Defaults are sourced in :mod:`sizing.engine.assumptions`, prices in
:mod:`sizing.engine.prices` and on each accelerator in
:mod:`sizing.engine.hardware`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value, whole
from .hardware import ACCELERATORS, DEFAULT_ACCELERATOR, DEFAULT_ACCELERATORS, AcceleratorSpec
from .inputs import (
    DeploymentInput,
    HardwareInput,
    NetworkInput,
    PricesInput,
    ResilienceInput,
    RoadmapInput,
    SoftwareInput,
    StorageInput,
)
from .platforms import ANY_VENDOR, VENDORS, exclusion, vendor_of
from .prices import price
from .provenance import CUSTOMER_ANSWER, AnswerRecorder

_HOURS_PER_MONTH = 8760.0 / 12.0  # [h] 730 h: a year's hours over twelve months

_DEFAULT_FRAMEWORKS = ("pytorch",)
_DEFAULT_INTER_NODE = "infiniband"
_EUROPEAN_REGIONS = ("EU", "UK", "EUROPE")  # residency answers priced at European power rates


@dataclass(frozen=True)
class ResolvedSoftware:
    frameworks: tuple[str, ...]
    custom_cuda_kernels: bool


def resolve_software(answers: SoftwareInput) -> ResolvedSoftware:
    """The frameworks and kernels the run needs (which stacks they run on: ``platforms``).

    Not recorded as an assumption: the default framework (PyTorch) runs on every stack.
    """
    return ResolvedSoftware(
        frameworks=answers.frameworks or _DEFAULT_FRAMEWORKS,
        custom_cuda_kernels=bool(answers.custom_cuda_kernels),
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
            why="accelerator makers allowed",
        )
    else:
        rec.record(
            "hardware.vendors",
            ANY_VENDOR,
            unit="-",
            given=False,
            source="engine default: accelerators of every maker in the catalog are compared",
            why="accelerator makers allowed",
        )
    accelerator_id = rec.take(
        "hardware.accelerator",
        answers.accelerator,
        _default_accelerator(vendors, software),
        unit="-",
        why="accelerator model",
        source="engine default: the most widely offered training accelerator of an allowed maker",
    )
    gpus_per_node = rec.take(
        "hardware.gpus_per_node",
        answers.gpus_per_node,
        whole("default_gpus_per_node"),
        unit="GPUs/node",
        why="node size",
    )
    if answers.count is not None:
        rec.record(
            "hardware.count",
            answers.count,
            unit="GPUs",
            given=True,
            source=CUSTOMER_ANSWER,
            why="evaluate this cluster instead of sizing one",
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
        why="scale-out fabric",
        question="InfiniBand or Ethernet (RoCE) between nodes?",
    )
    max_comm_share = rec.take(
        "network.max_comm_share",
        answers.max_comm_share,
        value("max_comm_share_default"),
        unit="-",
        why="exposed communication budget",
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
        why="checkpoint write bandwidth",
    )
    checkpoints_retained = rec.take(
        "storage.checkpoints_retained",
        answers.checkpoints_retained,
        whole("checkpoints_retained_default"),
        unit="checkpoints",
        why="checkpoint capacity",
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
        why="checkpoint interval",
        question="How much compute may one failure lose?",
    )
    return float(max_lost_hours)


def ask_about_deployment(answers: DeploymentInput, rec: AnswerRecorder) -> None:
    """Deployment answers have no default; a missing one is an open question."""
    if answers.location is None:
        rec.ask("On-premises, colocation or cloud: is any excluded?")
    if answers.data_residency is None:
        rec.ask("Must the training data stay in a region or on your own premises?")


@dataclass(frozen=True)
class ResolvedRoadmap:
    utilisation: float  # [fraction of the year busy]
    years: int
    growth: float  # [1/yr]


def resolve_roadmap(answers: RoadmapInput, rec: AnswerRecorder) -> ResolvedRoadmap:
    """Utilisation (from runs x hours per month where given), horizon and growth."""
    utilisation_default = value("utilisation_default")
    if answers.runs_per_month is not None and answers.hours_per_run is not None:
        busy_hours = answers.runs_per_month * answers.hours_per_run  # [h/month]
        utilisation_default = min(1.0, busy_hours / _HOURS_PER_MONTH)
    utilisation = rec.take(
        "roadmap.utilisation",
        answers.utilisation,
        utilisation_default,
        unit="-",
        why="cost comparison",
        question="How busy will the cluster be over three years?",
    )
    years = rec.take(
        "roadmap.years", answers.years, whole("default_years"), unit="yr", why="TCO horizon"
    )
    growth = rec.take(
        "roadmap.annual_growth",
        answers.annual_growth,
        value("default_roadmap_growth"),
        unit="1/yr",
        why="roadmap growth",
    )
    return ResolvedRoadmap(utilisation=float(utilisation), years=int(years), growth=float(growth))


@dataclass(frozen=True)
class ResolvedPrices:
    cloud_usd_per_gpu_hour: float
    cloud_reserved_usd_per_gpu_hour: float
    purchase_usd_per_gpu: float
    electricity_usd_per_kwh: float
    pue: float
    colocation_usd_per_kw_month: float
    staff_usd_per_year: float


def resolve_prices(
    answers: PricesInput,
    *,
    accelerator: AcceleratorSpec,
    data_residency: str | None,
    rec: AnswerRecorder,
) -> ResolvedPrices:
    """Every price: the customer's override, else the accelerator's or the price list's."""
    european = bool(
        data_residency and any(region in data_residency.upper() for region in _EUROPEAN_REGIONS)
    )
    acc = accelerator
    cloud = rec.take(
        "prices.cloud_on_demand_usd_per_gpu_hour",
        answers.cloud_on_demand_usd_per_gpu_hour,
        acc.cloud_usd_per_gpu_hour,
        unit="USD/GPU-h",
        why="cloud cost",
        source=f"{acc.price_source} ({acc.cloud_price_date})",
    )
    reserved = rec.take(
        "prices.cloud_reserved_usd_per_gpu_hour",
        answers.cloud_reserved_usd_per_gpu_hour,
        acc.cloud_reserved_usd_per_gpu_hour,
        unit="USD/GPU-h",
        why="reserved cloud cost",
        source=acc.price_source,
    )
    purchase = rec.take(
        "prices.purchase_usd_per_gpu",
        answers.purchase_usd_per_gpu,
        acc.purchase_usd_per_gpu,
        unit="USD/GPU",
        why="purchase cost",
        source=f"{acc.price_source} ({acc.purchase_date})",
    )
    electricity = rec.take(
        "prices.electricity_usd_per_kwh",
        answers.electricity_usd_per_kwh,
        price("electricity_usd_per_kwh_eu" if european else "electricity_usd_per_kwh_us"),
        unit="USD/kWh",
        why="power cost",
        source="Eurostat H1 2024 midpoint" if european else "EIA 2025",
    )
    pue = rec.take(
        "prices.pue",
        answers.pue,
        price("pue_on_prem"),
        unit="-",
        why="facility overhead",
        source="Uptime Institute 2024",
    )
    colocation = rec.take(
        "prices.colocation_usd_per_kw_month",
        answers.colocation_usd_per_kw_month,
        price("colocation_usd_per_kw_month"),
        unit="USD/kW-month",
        why="space and power",
        source="CBRE H2 2024",
    )
    staff = rec.take(
        "prices.staff_usd_per_year",
        answers.staff_usd_per_year,
        price("staff_usd_per_year"),
        unit="USD/FTE-yr",
        why="operations staff",
        question="What does one infrastructure engineer cost you?",
        source="engine placeholder (no public figure)",
    )
    return ResolvedPrices(
        cloud_usd_per_gpu_hour=float(cloud),
        cloud_reserved_usd_per_gpu_hour=float(reserved),
        purchase_usd_per_gpu=float(purchase),
        electricity_usd_per_kwh=float(electricity),
        pue=float(pue),
        colocation_usd_per_kw_month=float(colocation),
        staff_usd_per_year=float(staff),
    )
