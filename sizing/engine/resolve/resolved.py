"""Fill every "not sure yet" answer with a documented default and record it.

:func:`resolve` turns a :class:`SizingInput` into a :class:`Resolved` whose
fields are all concrete, plus the list of assumptions (customer-provided or
assumed) and the open questions that the defaults raise.  One function per
concern does the work: the model in :mod:`sizing.engine.resolve.model`; the
training method, data, batch and schedule of one run in
:mod:`sizing.engine.resolve.run`; software, hardware, network, storage,
resilience, deployment, roadmap and prices in :mod:`sizing.engine.resolve.site`.
They are called in the order the recommendation lists its assumptions and
questions.  Every default is an :class:`~sizing.engine.provenance.Assumption`
in :mod:`sizing.engine.assumptions` or :mod:`sizing.engine.cost.prices`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from ..compute import FLOPS_PER_PARAM_TOKEN
from ..cost.places import Place, place_of
from ..cost.price_set import PriceSet
from ..hardware import training_precision
from ..inputs import ADAPTER_METHODS, MeasuredInput, SizingInput
from ..parameter_count import ModelShape
from ..provenance import AnswerRecorder, UsedAssumption
from .model import resolve_model
from .run import (
    record_lora_targets,
    resolve_data,
    resolve_global_batch_tokens,
    resolve_schedule,
    resolve_sequence_length,
    resolve_training,
    tokens_given,
)
from .site import (
    ask_about_deployment,
    resolve_hardware,
    resolve_max_lost_hours,
    resolve_network,
    resolve_prices,
    resolve_roadmap,
    resolve_software,
    resolve_storage,
)


@dataclass(frozen=True)
class Resolved(ModelShape):
    """All answers, concrete.  Units as in the contract; the model's shape is
    :class:`ModelShape`'s six figures."""

    model_name: str
    architecture: str
    total_params: float
    active_params: float
    experts: int
    experts_per_token: int
    method: str
    precision: str  # the precision sized: the one asked, unless the accelerator lacks it
    precision_asked: str  # the customer's (or the default) before that fallback
    optimizer: str
    gradient_checkpointing: bool | None
    lora_rank: int
    experiments: int
    tokens: float
    epochs: float
    modality: str
    dataset_size_tb: float
    files: float | None
    data_growth: float
    preprocessing: str
    sequence_length: int
    max_context: int | None  # [tokens] the catalog model's trained context; None: not known
    global_batch_tokens: float
    micro_batch_size: int | None
    deadline_days: float
    deadline_given: bool
    concurrent_jobs: int
    users: int
    teams: int
    scheduler: str | None  # the customer's scheduler ("slurm", "kubernetes", "none", "other")
    accelerator: str
    count: int | None
    gpus_per_node: int
    forced_tensor: int | None
    forced_pipeline: int | None
    forced_data: int | None
    forced_expert: int | None
    forced_context: int | None
    forced_zero: int | None
    vendors: tuple[str, ...]  # accelerator makers allowed ("nvidia", "amd", "intel")
    frameworks: tuple[str, ...]  # the software stacks they run on: platforms.FRAMEWORK_STACKS
    custom_cuda_kernels: bool  # run on CUDA (NVIDIA) only
    stack_family: str  # the software family that sets the efficiency prior (stack_efficiency)
    team_knows_setup: bool | None  # who trains: widens the slow end when false (team_experience)
    inter_node: str
    oversubscription: float | None
    max_comm_share: float
    nic_gbps_per_gpu: float | None
    checkpoint_minutes_max: float
    checkpoints_retained: int
    existing_read_gb_per_s: float | None
    required_read_gb_per_s: float | None  # [GB/s] the customer's own read rate
    checkpoint_size_gb: float | None  # [GB] the customer's own checkpoint size
    existing_storage: str | None  # "shared_fs" | "object" | "both" | "none"
    many_small_files: bool
    max_lost_hours: float
    checkpoint_interval_hours: float | None
    spare_nodes_wanted: bool | None  # the customer's answer (see resilience.spare_nodes)
    location: str | None
    data_residency: str | None
    air_gapped: bool
    dedicated_hardware: bool
    export_controlled: bool
    operations: str | None  # who runs it: "in_house" | "some" | "none"
    runs_per_month: float | None  # [runs/month] the roadmap's, None when not known
    hours_per_run: float | None  # [h] wall-clock of one of those runs
    utilisation: float | None  # [fraction of the year] the customer's own figure
    roadmap_growth: float
    years: int
    price_region: str  # "north_america" | "eu"
    place: Place  # the country the hardware runs in: its price region and currency
    prices: PriceSet
    assumptions: tuple[UsedAssumption, ...] = field(default=())
    open_questions: tuple[str, ...] = field(default=())
    routed_node_limit: int = 0  # [nodes] node-limited routing of the catalog model; 0: none
    # what the verification kit measured on the customer's hardware (:mod:`..measured`)
    measured: MeasuredInput = field(default_factory=MeasuredInput)


def resolve(answers: SizingInput, *, today: datetime.date) -> Resolved:
    """Resolve all answers; see module docstring.

    Parameters
    ----------
    answers : SizingInput
    today : datetime.date
        Date of the answers: the ``as_of`` of every customer or assumed entry.
    """
    rec = AnswerRecorder(as_of=today.isoformat())
    model = resolve_model(answers.model, rec)
    training = resolve_training(
        answers.training,
        model_in_catalog=model.in_catalog,
        total_params=model.total_params,
        tokens_given=tokens_given(answers.data),
        rec=rec,
    )
    if training.method in ADAPTER_METHODS:
        record_lora_targets(rec, moe=model.architecture == "moe", experts=model.experts)
    sequence_length = resolve_sequence_length(
        answers.batch,
        answers.data,
        rec,
        model_name=model.name,
        max_context=model.max_context,
    )
    data = resolve_data(
        answers.data, method=training.method, total_params=model.total_params, rec=rec
    )
    global_batch_tokens = resolve_global_batch_tokens(
        answers.batch,
        method=training.method,
        training_flops=FLOPS_PER_PARAM_TOKEN * model.active_params * data.tokens * data.epochs,
        sequence_length=sequence_length,
        rec=rec,
    )
    schedule = resolve_schedule(
        answers.schedule,
        method=training.method,
        tokens_all_epochs=data.tokens * data.epochs,
        rec=rec,
    )
    software = resolve_software(answers.software, rec)
    hardware = resolve_hardware(answers.hardware, rec, software=software)
    network = resolve_network(answers.network, rec)
    storage = resolve_storage(answers.storage, rec)
    max_lost_hours = resolve_max_lost_hours(answers.resilience, rec)
    deployment = answers.deployment
    ask_about_deployment(deployment, rec)
    roadmap = resolve_roadmap(answers.roadmap, rec)
    place = place_of(deployment.country, deployment.data_residency)
    prices = resolve_prices(
        answers.prices,
        accelerator=hardware.accelerator,
        place=place,
        rec=rec,
    )
    forced = answers.parallelism
    return Resolved(
        model_name=model.name,
        architecture=model.architecture,
        total_params=model.total_params,
        active_params=model.active_params,
        layers=model.layers,
        hidden_size=model.hidden_size,
        attention_heads=model.attention_heads,
        kv_heads=model.kv_heads,
        ffn_hidden_size=model.ffn_hidden_size,
        vocab_size=model.vocab_size,
        experts=model.experts,
        experts_per_token=model.experts_per_token,
        method=training.method,
        precision=training_precision(training.precision, hardware.accelerator),
        precision_asked=training.precision,
        optimizer=training.optimizer,
        gradient_checkpointing=training.gradient_checkpointing,
        lora_rank=training.lora_rank,
        experiments=training.experiments,
        tokens=data.tokens,
        epochs=data.epochs,
        modality=data.modality,
        dataset_size_tb=data.dataset_size_tb,
        files=data.files,
        data_growth=data.growth,
        preprocessing=data.preprocessing,
        sequence_length=sequence_length,
        max_context=model.max_context,
        routed_node_limit=model.routed_node_limit,
        global_batch_tokens=global_batch_tokens,
        micro_batch_size=answers.batch.micro_batch_size,
        deadline_days=schedule.deadline_days,
        deadline_given=schedule.deadline_given,
        concurrent_jobs=schedule.concurrent_jobs,
        users=schedule.users,
        teams=schedule.teams,
        scheduler=answers.schedule.scheduler,
        accelerator=hardware.accelerator.id,
        measured=answers.measured,
        count=hardware.count,
        gpus_per_node=hardware.gpus_per_node,
        forced_tensor=forced.tensor,
        forced_pipeline=forced.pipeline,
        forced_data=forced.data,
        forced_expert=forced.expert,
        forced_context=forced.context,
        forced_zero=forced.zero_stage,
        vendors=hardware.vendors,
        frameworks=software.frameworks,
        custom_cuda_kernels=software.custom_cuda_kernels,
        stack_family=software.stack_family,
        team_knows_setup=software.team_knows_setup,
        inter_node=network.inter_node,
        oversubscription=answers.network.oversubscription,
        max_comm_share=network.max_comm_share,
        nic_gbps_per_gpu=answers.network.nic_gbps_per_gpu,
        checkpoint_minutes_max=storage.checkpoint_minutes_max,
        checkpoints_retained=storage.checkpoints_retained,
        existing_read_gb_per_s=answers.storage.existing_read_gb_per_s,
        required_read_gb_per_s=answers.storage.required_read_gb_per_s,
        checkpoint_size_gb=answers.storage.checkpoint_size_gb,
        existing_storage=answers.storage.existing,
        many_small_files=bool(answers.storage.many_small_files),
        max_lost_hours=max_lost_hours,
        checkpoint_interval_hours=answers.resilience.checkpoint_interval_hours,
        spare_nodes_wanted=answers.resilience.spare_nodes,
        location=deployment.location,
        data_residency=deployment.data_residency,
        air_gapped=bool(deployment.air_gapped),
        dedicated_hardware=bool(deployment.dedicated_hardware),
        export_controlled=bool(deployment.export_controlled),
        operations=deployment.operations,
        runs_per_month=roadmap.runs_per_month,
        hours_per_run=roadmap.hours_per_run,
        utilisation=roadmap.utilisation,
        roadmap_growth=roadmap.growth,
        years=roadmap.years,
        price_region=place.region,
        place=place,
        prices=prices,
        assumptions=tuple(rec.items),
        open_questions=tuple(rec.questions),
    )
