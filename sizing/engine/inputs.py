"""The engine's input: frozen dataclasses mirroring ``docs/engine-contract.md``.

Every field is optional; ``None`` means the customer is "not sure yet" and
the engine picks a documented default (see :mod:`sizing.engine.resolve.resolved`).
Units are in the field names or in the contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PRETRAINING_METHODS = ("pretrain", "continued_pretrain")  # training.method values
ADAPTER_METHODS = ("lora", "qlora")  # train small adapters on a frozen base model
FINETUNE_UNSURE = "finetune"  # fine-tuning, full or adapters not decided yet


@dataclass(frozen=True)
class ModelInput:
    name: str | None = None
    architecture: str | None = None  # "dense" | "moe"
    total_params: float | None = None  # [parameters]
    active_params: float | None = None  # [parameters per token]
    layers: int | None = None
    hidden_size: int | None = None
    attention_heads: int | None = None
    kv_heads: int | None = None
    ffn_hidden_size: int | None = None
    vocab_size: int | None = None
    experts: int | None = None
    experts_per_token: int | None = None


@dataclass(frozen=True)
class TrainingInput:
    method: str | None = None
    precision: str | None = None
    optimizer: str | None = None
    gradient_checkpointing: bool | None = None
    lora_rank: int | None = None
    experiments: int | None = None  # [full runs]


@dataclass(frozen=True)
class DataInput:
    tokens: float | None = None  # [tokens per epoch]
    epochs: float | None = None
    modality: str | None = None
    dataset_size_tb: float | None = None  # [TB]
    samples: float | None = None
    bytes_per_sample: float | None = None  # [B]
    files: float | None = None
    annual_growth: float | None = None  # [fraction per year]
    preprocessing: str | None = None  # "offline" | "on_the_fly"


@dataclass(frozen=True)
class BatchInput:
    sequence_length: int | None = None  # [tokens]
    global_batch_tokens: float | None = None  # [tokens]
    micro_batch_size: int | None = None  # [sequences]


@dataclass(frozen=True)
class ScheduleInput:
    deadline_days: float | None = None  # [d]
    concurrent_jobs: int | None = None
    users: int | None = None
    teams: int | None = None
    scheduler: str | None = None  # "slurm" | "kubernetes" | "none" | "other": the customer's


@dataclass(frozen=True)
class HardwareInput:
    accelerator: str | None = None
    count: int | None = None
    gpus_per_node: int | None = None
    vendors: tuple[str, ...] | None = None  # makers allowed ("nvidia", "amd", "intel"); all if None


@dataclass(frozen=True)
class ParallelismInput:
    tensor: int | None = None
    pipeline: int | None = None
    data: int | None = None
    expert: int | None = None
    zero_stage: int | None = None
    context: int | None = None


@dataclass(frozen=True)
class SoftwareInput:
    frameworks: tuple[str, ...] | None = None
    custom_cuda_kernels: bool | None = None
    team_knows_setup: bool | None = None  # someone on the team knows the training set-up


@dataclass(frozen=True)
class NetworkInput:
    inter_node: str | None = None  # "infiniband" | "roce" | "ethernet"
    oversubscription: float | None = None  # [x:1]
    max_comm_share: float | None = None  # [fraction of step time]
    nic_gbps_per_gpu: float | None = None  # [Gb/s] existing scale-out bandwidth per GPU


@dataclass(frozen=True)
class StorageInput:
    checkpoint_minutes_max: float | None = None  # [min]
    checkpoints_retained: int | None = None
    existing_read_gb_per_s: float | None = None  # [GB/s]
    required_read_gb_per_s: float | None = None  # [GB/s] the customer's own read rate
    checkpoint_size_gb: float | None = None  # [GB] the customer's own checkpoint size
    existing: str | None = None  # storage they own: "shared_fs" | "object" | "both" | "none"
    many_small_files: bool | None = None  # data stored as millions of small files


@dataclass(frozen=True)
class ResilienceInput:
    max_lost_hours: float | None = None  # [h]
    checkpoint_interval_hours: float | None = None  # [h]
    spare_nodes: bool | None = None  # hot spare servers wanted (None: our rule decides)


@dataclass(frozen=True)
class DeploymentInput:
    location: str | None = None  # "on_prem" | "colocation" | "cloud" | "hybrid"
    data_residency: str | None = None  # free text, e.g. "EU"
    country: str | None = None  # free text: the country the hardware runs in, e.g. "Sweden"
    air_gapped: bool | None = None
    dedicated_hardware: bool | None = None
    export_controlled: bool | None = None
    operations: str | None = None  # who runs it: "in_house" | "some" (with help) | "none"


@dataclass(frozen=True)
class RoadmapInput:
    runs_per_month: float | None = None
    hours_per_run: float | None = None  # [h]
    annual_growth: float | None = None  # [fraction per year]
    years: int | None = None
    utilisation: float | None = None  # [fraction of the year the cluster is busy]


@dataclass(frozen=True)
class PricesInput:
    """Customer overrides of any price the cost model uses."""

    cloud_on_demand_usd_per_gpu_hour: float | None = None
    cloud_reserved_usd_per_gpu_hour: float | None = None
    purchase_usd_per_gpu: float | None = None
    electricity_usd_per_kwh: float | None = None
    pue: float | None = None
    colocation_usd_per_kw_month: float | None = None
    staff_usd_per_year: float | None = None


@dataclass(frozen=True)
class EstateInput:
    """What the customer already owns and the ceilings they set (all optional)."""

    accelerator: str | None = None  # the accelerators they own (catalog id)
    count: int | None = None  # [accelerators] how many they own
    power_kw: float | None = None  # [kW] power available for IT and cooling
    budget_usd: float | None = None  # [USD] the most they will spend
    # the network and storage that come with the owned accelerators, when they say
    fabric: str | None = None  # "infiniband" | "roce" | "ethernet"
    fabric_gbps: float | None = None  # [Gb/s] per accelerator
    storage_tb: float | None = None  # [TB] shared storage they own

    @property
    def owned(self) -> bool:
        return self.accelerator is not None and bool(self.count)

    @property
    def given(self) -> bool:
        return self.owned or self.power_kw is not None or self.budget_usd is not None


@dataclass(frozen=True)
class MeasuredInput:
    """What the verification kit measured on the customer's hardware (``kit/verify_hardware.py``;
    :mod:`sizing.engine.measured`)."""

    accelerator: str | None = None  # catalog id of the accelerator the kit ran on
    matmul_bf16_tflops: float | None = None  # [TFLOP/s] dense BF16 matrix multiply, measured
    matmul_fp8_tflops: float | None = None  # [TFLOP/s] dense FP8 matrix multiply, measured


@dataclass(frozen=True)
class SizingInput:
    """All fifteen answers, validated (see :func:`sizing.engine.validation.parse_input`)."""

    model: ModelInput = field(default_factory=ModelInput)
    training: TrainingInput = field(default_factory=TrainingInput)
    data: DataInput = field(default_factory=DataInput)
    batch: BatchInput = field(default_factory=BatchInput)
    schedule: ScheduleInput = field(default_factory=ScheduleInput)
    hardware: HardwareInput = field(default_factory=HardwareInput)
    parallelism: ParallelismInput = field(default_factory=ParallelismInput)
    software: SoftwareInput = field(default_factory=SoftwareInput)
    network: NetworkInput = field(default_factory=NetworkInput)
    storage: StorageInput = field(default_factory=StorageInput)
    resilience: ResilienceInput = field(default_factory=ResilienceInput)
    deployment: DeploymentInput = field(default_factory=DeploymentInput)
    roadmap: RoadmapInput = field(default_factory=RoadmapInput)
    prices: PricesInput = field(default_factory=PricesInput)
    estate: EstateInput = field(default_factory=EstateInput)
    measured: MeasuredInput = field(default_factory=MeasuredInput)
