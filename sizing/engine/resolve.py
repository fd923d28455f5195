"""Fill every "not sure yet" answer with a documented default and record it.

:func:`resolve` turns a :class:`SizingInput` into a :class:`Resolved` whose
fields are all concrete, plus the list of assumptions (customer-provided or
assumed) and the open questions that the defaults raise.

References
----------
.. [1] Hoffmann et al., Chinchilla, arXiv 2203.15556 (2022): ~20 tokens/param.
.. [2] Touvron et al., Llama 2, arXiv 2307.09288 (2023): 4M-token batches, 4,096 context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from .hardware import ACCELERATORS, DEFAULT_ACCELERATOR
from .inputs import SizingInput
from .models import find_model, shape_from_params
from .prices import price
from .provenance import UsedAssumption

TODAY = "2026-12-02"
_CUSTOMER = "customer answer"
_PRETRAINING_SCALE_TOKENS = 1e10  # [tokens] data volume treated as pre-training scale
_CHINCHILLA_TOKENS_PER_PARAM = 20.0  # [tokens/param] [1]
_DEFAULT_PARAMS = 7e9  # [param] a Llama-2-7B-class model [2]
_DEFAULT_VOCAB = 32000  # [tokens] Llama 2 / Mistral vocabulary [2]
_FINETUNE_TOKENS = 1e8  # [tokens] engine placeholder when no data size is known
_TOKENS_PER_SAMPLE = {"text": 1024, "image": 256, "audio": 1500, "video": 8192, "multimodal": 1024}
T = TypeVar("T")
_CUDA_ONLY = (
    "megatron",
    "megatron-lm",
    "apex",
    "flash-attn",
    "flashattention",
    "triton",
    "cuda",
    "tensorrt",
)


@dataclass(frozen=True)
class Resolved:
    """All answers, concrete.  Units as in the contract."""

    model_name: str
    model_known: bool
    architecture: str
    total_params: float
    active_params: float
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    ffn_hidden_size: int
    vocab_size: int
    experts: int
    experts_per_token: int
    method: str
    precision: str
    optimizer: str
    gradient_checkpointing: bool | None
    lora_rank: int
    experiments: int
    tokens: float
    epochs: float
    modality: str
    dataset_size_tb: float
    samples: float | None
    files: float | None
    data_growth: float
    preprocessing: str
    sequence_length: int
    global_batch_tokens: float
    micro_batch_size: int | None
    deadline_days: float
    deadline_given: bool
    concurrent_jobs: int
    users: int
    teams: int
    accelerator: str
    accelerator_given: bool
    count: int | None
    gpus_per_node: int
    forced_tensor: int | None
    forced_pipeline: int | None
    forced_data: int | None
    forced_expert: int | None
    forced_zero: int | None
    frameworks: tuple[str, ...]
    custom_cuda_kernels: bool
    cuda_only: bool
    inter_node: str
    oversubscription: float | None
    max_comm_share: float
    nic_gbps_per_gpu: float | None
    checkpoint_minutes_max: float
    checkpoints_retained: int
    existing_read_gb_per_s: float | None
    max_lost_hours: float
    checkpoint_interval_hours: float | None
    location: str | None
    data_residency: str | None
    air_gapped: bool
    dedicated_hardware: bool
    export_controlled: bool
    utilisation: float
    roadmap_growth: float
    years: int
    cloud_usd_per_gpu_hour: float
    cloud_reserved_usd_per_gpu_hour: float
    purchase_usd_per_gpu: float
    electricity_usd_per_kwh: float
    pue: float
    colocation_usd_per_kw_month: float
    staff_usd_per_year: float
    assumptions: tuple[UsedAssumption, ...] = field(default=())
    open_questions: tuple[str, ...] = field(default=())


class _Recorder:
    def __init__(self) -> None:
        self.items: list[UsedAssumption] = []
        self.questions: list[str] = []

    def take(
        self,
        key: str,
        given: T | None,
        default: T,
        unit: str,
        why: str,
        question: str | None = None,
        source: str = "engine default",
    ) -> T:
        if given is not None:
            self.items.append(
                UsedAssumption(key, _plain(given), unit, _CUSTOMER, TODAY, "customer", why)
            )
            return given
        self.items.append(UsedAssumption(key, _plain(default), unit, source, TODAY, "assumed", why))
        if question:
            self.questions.append(question)
        return default


def _plain(v: object) -> float | str | bool | None:
    if v is None or isinstance(v, bool | str):
        return v
    if isinstance(v, int | float):
        return v
    if isinstance(v, tuple):
        return ", ".join(str(x) for x in v)
    return str(v)


def resolve(inp: SizingInput) -> Resolved:  # noqa: C901 - one linear pass over 15 answers
    """Resolve all answers; see module docstring."""
    r = _Recorder()
    m, t, d = inp.model, inp.training, inp.data
    spec = find_model(m.name) if m.name else None
    total = m.total_params or (spec.total_params if spec else None)
    r.take(
        "model.total_params",
        total,
        _DEFAULT_PARAMS,
        "parameters",
        "decides memory and compute",
        "Which model (or at least how many parameters) will you train?",
        source="engine default: a 7B decoder [Llama 2]",
    )
    total = total or _DEFAULT_PARAMS
    vocab = m.vocab_size or (spec.vocab_size if spec else None)
    vocab = int(
        r.take("model.vocab_size", vocab, _DEFAULT_VOCAB, "tokens", "embedding and logits size")
        or _DEFAULT_VOCAB
    )
    shape = shape_from_params(total, vocab)
    layers = m.layers or (spec.layers if spec else shape.layers)
    hidden = m.hidden_size or (spec.hidden_size if spec else shape.hidden_size)
    generated_heads = shape.attention_heads if not m.hidden_size else max(1, hidden // 128)
    heads = m.attention_heads or (spec.attention_heads if spec else generated_heads)
    kv = m.kv_heads or (spec.kv_heads if spec else heads)
    ffn = m.ffn_hidden_size or (spec.ffn_hidden_size if spec else 4 * hidden)
    shape_src = (
        "model catalog: " + spec.source
        if spec
        else "plausible shape for the parameter count [Kaplan 2020]"
    )
    for key, val in (
        ("layers", layers),
        ("hidden_size", hidden),
        ("attention_heads", heads),
        ("kv_heads", kv),
        ("ffn_hidden_size", ffn),
    ):
        given = getattr(m, key)
        r.items.append(
            UsedAssumption(
                f"model.{key}",
                val,
                "-",
                _CUSTOMER if given else shape_src,
                TODAY,
                "customer" if given else "assumed",
                "model shape",
            )
        )
    experts = m.experts or (spec.experts if spec else None) or 1
    top_k = (
        m.experts_per_token
        or (spec.experts_per_token if spec else None)
        or (2 if experts > 1 else 1)
    )
    arch = m.architecture or ("moe" if experts > 1 else "dense")
    if arch == "moe" and experts == 1:
        experts, top_k = 8, 2
        r.questions.append("How many experts does the MoE model have, and how many per token?")
    active = m.active_params or (spec.active_params if spec and m.total_params is None else None)
    if active is None:
        active = total if arch == "dense" else total * (0.1 + 0.9 * top_k / experts)
        if arch == "moe":
            r.questions.append("How many parameters are active per token?")
    r.items.append(
        UsedAssumption(
            "model.active_params",
            active,
            "parameters",
            _CUSTOMER if m.active_params else "catalog or shared+top-k/experts estimate",
            TODAY,
            "customer" if m.active_params else "assumed",
            "decides compute",
        )
    )
    method = str(
        r.take(
            "training.method",
            t.method,
            "full_finetune" if spec else "pretrain",
            "-",
            "training method",
            "Pre-training, full fine-tuning or LoRA/QLoRA?",
        )
    )
    precision = str(
        r.take(
            "training.precision",
            t.precision,
            "bf16",
            "-",
            "numeric precision",
            "Which precision (BF16 is assumed)?",
        )
    )
    optimizer = str(r.take("training.optimizer", t.optimizer, "adamw", "-", "optimizer state size"))
    lora_rank = (
        int(r.take("training.lora_rank", t.lora_rank, 16, "-", "LoRA adapter size"))
        if method in ("lora", "qlora")
        else (t.lora_rank or 16)
    )
    experiments = int(
        r.take(
            "training.experiments",
            t.experiments,
            1,
            "runs",
            "runs planned",
            "How many full runs (phases, repeats, ablations) are planned?",
        )
    )
    seq = int(
        r.take(
            "batch.sequence_length",
            inp.batch.sequence_length,
            8192 if d.modality == "video" else 4096,
            "tokens",
            "activation memory, attention FLOPs",
            "What sequence length (context) will you train at?",
        )
    )
    pretrain = method in ("pretrain", "continued_pretrain")
    modality = str(r.take("data.modality", d.modality, "text", "-", "host CPU and storage"))
    tokens = d.tokens
    if tokens is None and d.samples:
        tokens = d.samples * _TOKENS_PER_SAMPLE[modality]
    if tokens is None and d.dataset_size_tb and modality == "text":
        tokens = d.dataset_size_tb * 1e12 / 4.0
    default_tokens = (
        _CHINCHILLA_TOKENS_PER_PARAM * total
        if method == "pretrain"
        else (0.1 * _CHINCHILLA_TOKENS_PER_PARAM * total if pretrain else _FINETUNE_TOKENS)
    )
    tokens = float(
        r.take(
            "data.tokens",
            tokens,
            default_tokens,
            "tokens/epoch",
            "decides compute",
            "How many training tokens (or samples and their length) per epoch?",
            source="Chinchilla 20 tokens/param [Hoffmann 2022] or engine placeholder",
        )
    )
    epochs = float(r.take("data.epochs", d.epochs, 1.0, "epochs", "passes over the data"))
    raw_bytes = (
        tokens * 4.0
        if modality == "text"
        else ((d.samples or tokens / _TOKENS_PER_SAMPLE[modality]) * (d.bytes_per_sample or 1e6))
    )
    dataset_tb = float(
        r.take(
            "data.dataset_size_tb",
            d.dataset_size_tb,
            raw_bytes / 1e12,
            "TB",
            "storage capacity",
            "How large is the dataset on disk?",
        )
    )
    growth = float(r.take("data.annual_growth", d.annual_growth, 0.0, "1/yr", "storage growth"))
    pre = str(
        r.take(
            "data.preprocessing",
            d.preprocessing,
            "on_the_fly" if modality in ("image", "video") else "offline",
            "-",
            "host CPUs",
        )
    )
    gbt_default = max(float(seq), 4e6 if total >= 1e9 else 5e5) if pretrain else 64.0 * seq
    gbt = float(
        r.take(
            "batch.global_batch_tokens",
            inp.batch.global_batch_tokens,
            gbt_default,
            "tokens",
            "parallelism limits and pipeline bubble",
            "What global batch size?",
        )
    )
    gbt = max(gbt, float(seq))
    # Unknown deadline: a month for pre-training-scale data (over 10B tokens, whatever the
    # method is called), a week for a full fine-tune, a day for adapters. A fine-tune over a
    # trillion tokens is a pre-training run in size, and a one-week guess would size a huge
    # cluster on an assumption.
    pretraining_scale = pretrain or tokens * epochs > _PRETRAINING_SCALE_TOKENS
    default_deadline = 30.0 if pretraining_scale else (7.0 if method == "full_finetune" else 1.0)
    deadline_given = inp.schedule.deadline_days is not None
    deadline = float(
        r.take(
            "schedule.deadline_days",
            inp.schedule.deadline_days,
            default_deadline,
            "d",
            "cluster size",
            "By when must one run finish?",
            source="engine default: 30 d for over 10B tokens, 7 d full fine-tune, 1 d adapters",
        )
    )
    jobs = int(
        r.take(
            "schedule.concurrent_jobs",
            inp.schedule.concurrent_jobs,
            1,
            "jobs",
            "cluster size",
            "How many jobs must run at the same time?",
        )
    )
    users = inp.schedule.users or 1
    teams = inp.schedule.teams or 1
    hw = inp.hardware
    frameworks = inp.software.frameworks or ("pytorch",)
    custom = bool(inp.software.custom_cuda_kernels)
    cuda_only = custom or any(f in _CUDA_ONLY for f in frameworks)
    accelerator = str(
        r.take(
            "hardware.accelerator",
            hw.accelerator,
            DEFAULT_ACCELERATOR,
            "-",
            "accelerator model",
            source="engine default: the most widely offered training GPU",
        )
    )
    acc = ACCELERATORS[accelerator]
    per_node = int(r.take("hardware.gpus_per_node", hw.gpus_per_node, 8, "GPUs/node", "node size"))
    if hw.count is not None:
        r.items.append(
            UsedAssumption(
                "hardware.count",
                hw.count,
                "GPUs",
                _CUSTOMER,
                TODAY,
                "customer",
                "evaluate this cluster instead of sizing one",
            )
        )
    net = inp.network
    inter = str(
        r.take(
            "network.inter_node",
            net.inter_node,
            "infiniband",
            "-",
            "scale-out fabric",
            "InfiniBand or Ethernet (RoCE) between nodes?",
        )
    )
    share = float(
        r.take(
            "network.max_comm_share", net.max_comm_share, 0.15, "-", "exposed communication budget"
        )
    )
    if net.oversubscription is None:
        r.questions.append(
            "What network oversubscription can you tolerate (1:1 non-blocking is assumed)?"
        )
    ckpt_min = float(
        r.take(
            "storage.checkpoint_minutes_max",
            inp.storage.checkpoint_minutes_max,
            5.0,
            "min",
            "checkpoint write bandwidth",
        )
    )
    retained = int(
        r.take(
            "storage.checkpoints_retained",
            inp.storage.checkpoints_retained,
            5,
            "checkpoints",
            "checkpoint capacity",
        )
    )
    lost = float(
        r.take(
            "resilience.max_lost_hours",
            inp.resilience.max_lost_hours,
            2.0,
            "h",
            "checkpoint interval",
            "How much compute may one failure lose?",
        )
    )
    dep = inp.deployment
    if dep.location is None:
        r.questions.append("On-premises, colocation or cloud: is any excluded?")
    if dep.data_residency is None:
        r.questions.append("Must the training data stay in a region or on your own premises?")
    rm = inp.roadmap
    util_default = 0.5
    if rm.runs_per_month is not None and rm.hours_per_run is not None:
        util_default = min(1.0, rm.runs_per_month * rm.hours_per_run / 730.0)
    util = float(
        r.take(
            "roadmap.utilisation",
            rm.utilisation,
            util_default,
            "-",
            "cost comparison",
            "How busy will the cluster be over three years?",
        )
    )
    years = int(r.take("roadmap.years", rm.years, 3, "yr", "TCO horizon"))
    rgrowth = float(
        r.take("roadmap.annual_growth", rm.annual_growth, 0.0, "1/yr", "roadmap growth")
    )
    pr = inp.prices
    eu = bool(
        dep.data_residency and any(k in dep.data_residency.upper() for k in ("EU", "UK", "EUROPE"))
    )
    cloud = float(
        r.take(
            "prices.cloud_on_demand_usd_per_gpu_hour",
            pr.cloud_on_demand_usd_per_gpu_hour,
            acc.cloud_usd_per_gpu_hour,
            "USD/GPU-h",
            "cloud cost",
            source=f"{acc.price_source} ({acc.cloud_price_date})",
        )
    )
    reserved = float(
        r.take(
            "prices.cloud_reserved_usd_per_gpu_hour",
            pr.cloud_reserved_usd_per_gpu_hour,
            acc.cloud_reserved_usd_per_gpu_hour,
            "USD/GPU-h",
            "reserved cloud cost",
            source=acc.price_source,
        )
    )
    purchase = float(
        r.take(
            "prices.purchase_usd_per_gpu",
            pr.purchase_usd_per_gpu,
            acc.purchase_usd_per_gpu,
            "USD/GPU",
            "purchase cost",
            source=f"{acc.price_source} ({acc.purchase_date})",
        )
    )
    elec = float(
        r.take(
            "prices.electricity_usd_per_kwh",
            pr.electricity_usd_per_kwh,
            price("electricity_usd_per_kwh_eu" if eu else "electricity_usd_per_kwh_us"),
            "USD/kWh",
            "power cost",
            source="Eurostat H1 2024 midpoint" if eu else "EIA 2025",
        )
    )
    pue = float(
        r.take(
            "prices.pue",
            pr.pue,
            price("pue_on_prem"),
            "-",
            "facility overhead",
            source="Uptime Institute 2024",
        )
    )
    colo = float(
        r.take(
            "prices.colocation_usd_per_kw_month",
            pr.colocation_usd_per_kw_month,
            price("colocation_usd_per_kw_month"),
            "USD/kW-month",
            "space and power",
            source="CBRE H2 2024",
        )
    )
    staff = float(
        r.take(
            "prices.staff_usd_per_year",
            pr.staff_usd_per_year,
            price("staff_usd_per_year"),
            "USD/FTE-yr",
            "operations staff",
            "What does one infrastructure engineer cost you?",
            source="engine placeholder (no public figure)",
        )
    )
    par = inp.parallelism
    return Resolved(
        model_name=spec.name if spec else (m.name or f"{total / 1e9:.3g}B {arch} model"),
        model_known=spec is not None,
        architecture=arch,
        total_params=float(total),
        active_params=float(active),
        layers=int(layers),
        hidden_size=int(hidden),
        attention_heads=int(heads),
        kv_heads=int(kv),
        ffn_hidden_size=int(ffn),
        vocab_size=vocab,
        experts=int(experts),
        experts_per_token=int(top_k),
        method=method,
        precision=precision,
        optimizer=optimizer,
        gradient_checkpointing=t.gradient_checkpointing,
        lora_rank=lora_rank,
        experiments=experiments,
        tokens=tokens,
        epochs=epochs,
        modality=modality,
        dataset_size_tb=dataset_tb,
        samples=d.samples,
        files=d.files,
        data_growth=growth,
        preprocessing=pre,
        sequence_length=seq,
        global_batch_tokens=gbt,
        micro_batch_size=inp.batch.micro_batch_size,
        deadline_days=deadline,
        deadline_given=deadline_given,
        concurrent_jobs=jobs,
        users=users,
        teams=teams,
        accelerator=accelerator,
        accelerator_given=hw.accelerator is not None,
        count=hw.count,
        gpus_per_node=per_node,
        forced_tensor=par.tensor,
        forced_pipeline=par.pipeline,
        forced_data=par.data,
        forced_expert=par.expert,
        forced_zero=par.zero_stage,
        frameworks=frameworks,
        custom_cuda_kernels=custom,
        cuda_only=cuda_only,
        inter_node=inter,
        oversubscription=net.oversubscription,
        max_comm_share=share,
        nic_gbps_per_gpu=net.nic_gbps_per_gpu,
        checkpoint_minutes_max=ckpt_min,
        checkpoints_retained=retained,
        existing_read_gb_per_s=inp.storage.existing_read_gb_per_s,
        max_lost_hours=lost,
        checkpoint_interval_hours=inp.resilience.checkpoint_interval_hours,
        location=dep.location,
        data_residency=dep.data_residency,
        air_gapped=bool(dep.air_gapped),
        dedicated_hardware=bool(dep.dedicated_hardware),
        export_controlled=bool(dep.export_controlled),
        utilisation=util,
        roadmap_growth=rgrowth,
        years=years,
        cloud_usd_per_gpu_hour=cloud,
        cloud_reserved_usd_per_gpu_hour=reserved,
        purchase_usd_per_gpu=purchase,
        electricity_usd_per_kwh=elec,
        pue=pue,
        colocation_usd_per_kw_month=colo,
        staff_usd_per_year=staff,
        assumptions=tuple(r.items),
        open_questions=tuple(r.questions),
    )
