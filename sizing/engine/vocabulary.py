"""The one vocabulary of the engine's fields: each input and output field's label and unit, and
the words for each enumerated value.

The questionnaire's review page, the proposal, the staff pages and the CSV all name an engine
field through here; the answers' own labels live in the question registry
(``questionnaire/questions.py``). Labels are sentence case without the unit; ``in_sentence``
gives the form used inside a sentence ("we will assume number precision: BF16").

A machine of the cluster is a *server* in every label and sentence a person reads ("2 servers of
8", "CPU cores per server"); *node* is only the engine's word inside field names
(``gpus_per_node``, ``spare_nodes``) and the glossary's term, defined as one server in a cluster.
A rented one is a *cloud instance*.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hardware import ACCELERATORS
from .numbers import (
    USD,
    Money,
    currency_sign,
    format_number,
    format_percent,
    format_quantity,
    noun_for_count,
)


@dataclass(frozen=True)
class Term:
    """How people call a field: its label and the unit its value is in ("" when none)."""

    label: str
    unit: str = ""


# Engine input fields by dotted path (docs/engine-contract.md).
INPUTS: dict[str, Term] = {
    "model.name": Term("Model"),
    "model.architecture": Term("Architecture"),
    "model.total_params": Term("Model size", "parameters"),
    "model.active_params": Term("Parameters used per token", "parameters"),
    "model.layers": Term("Layers"),
    "model.hidden_size": Term("Hidden size"),
    "model.attention_heads": Term("Attention heads"),
    "model.kv_heads": Term("Key-value heads"),
    "model.ffn_hidden_size": Term("Feed-forward size"),
    "model.vocab_size": Term("Vocabulary size", "tokens"),
    "model.experts": Term("Experts"),
    "model.experts_per_token": Term("Experts used per token"),
    "training.method": Term("Training method"),
    "training.precision": Term("Number precision"),
    "training.optimizer": Term("Optimizer"),
    "training.gradient_checkpointing": Term("Recompute activations (gradient checkpointing)"),
    "training.lora_rank": Term("LoRA rank"),
    "training.lora_targets": Term("Layers given LoRA adapters"),
    "training.experiments": Term("Full runs planned"),
    "data.tokens": Term("Training tokens per pass", "tokens"),
    # not an input: the length the engine assumes for each sample when only their count is given
    "data.tokens_per_sample": Term("Tokens per sample", "tokens"),
    "data.epochs": Term("Passes over the data (epochs)"),
    "data.modality": Term("Kind of data"),
    "data.dataset_size_tb": Term("Dataset size", "TB"),
    "data.samples": Term("Samples", "samples"),
    "data.bytes_per_sample": Term("Size of one sample", "bytes"),
    "data.files": Term("Files in the dataset", "files"),
    "data.annual_growth": Term("Data growth per year", "%"),
    "data.preprocessing": Term("Preprocessing"),
    "batch.sequence_length": Term("Sequence length", "tokens"),
    "batch.global_batch_tokens": Term("Global batch", "tokens"),
    "batch.micro_batch_size": Term("Micro-batch size (samples per accelerator)"),
    "schedule.deadline_days": Term("Time you allow for one run", "days"),
    "schedule.concurrent_jobs": Term("Jobs at the same time"),
    "schedule.teams": Term("Teams sharing the cluster"),
    "schedule.users": Term("People using the cluster"),
    "schedule.scheduler": Term("Job scheduler"),
    "hardware.accelerator": Term("Accelerator"),
    "hardware.count": Term("Accelerators", "GPUs"),
    "hardware.gpus_per_node": Term("Accelerators per server"),
    "hardware.vendors": Term("Accelerator makers"),
    # set by an engineer only (the override form); the questionnaire does not ask for them
    "parallelism.tensor": Term("Tensor parallel (ways)"),
    "parallelism.pipeline": Term("Pipeline parallel (stages)"),
    "parallelism.data": Term("Data parallel (copies)"),
    "parallelism.expert": Term("Expert parallel (ways)"),
    "parallelism.zero_stage": Term("ZeRO / FSDP stage"),
    "parallelism.context": Term("Context parallel (ways)"),
    "software.frameworks": Term("Frameworks"),
    "software.custom_cuda_kernels": Term("Custom CUDA kernels"),
    "software.team_knows_setup": Term("Someone on the team knows the training set-up"),
    "network.inter_node": Term("Network between servers"),
    "network.oversubscription": Term("Network oversubscription", ": 1"),
    "network.max_comm_share": Term("Most time spent communicating", "%"),
    "network.nic_gbps_per_gpu": Term("Link speed per accelerator", "Gb/s"),
    "storage.checkpoint_minutes_max": Term("Time to save a checkpoint", "minutes"),
    "storage.checkpoints_retained": Term("Checkpoints kept", "checkpoints"),
    "storage.existing_read_gb_per_s": Term("Read rate of your storage", "GB/s"),
    "storage.required_read_gb_per_s": Term("Read rate training needs", "GB/s"),
    "storage.checkpoint_size_gb": Term("Size of one checkpoint", "GB"),
    "storage.existing": Term("Storage you already have"),
    "storage.many_small_files": Term("Data stored as millions of small files"),
    "resilience.max_lost_hours": Term("Work you can afford to lose", "hours"),
    "resilience.checkpoint_interval_hours": Term("Time between checkpoints", "hours"),
    "resilience.spare_nodes": Term("Spare servers kept ready"),
    "deployment.location": Term("Where it runs"),
    "deployment.data_residency": Term("Data residency"),
    "deployment.air_gapped": Term("No internet connection (air-gapped)"),
    "deployment.dedicated_hardware": Term("Dedicated hardware"),
    "deployment.export_controlled": Term("Export-controlled work"),
    "deployment.operations": Term("Who runs the hardware day to day"),
    "roadmap.runs_per_month": Term("Runs per month"),
    "roadmap.hours_per_run": Term("Length of each future run", "hours"),
    "roadmap.utilisation": Term("Share of the year the hardware is busy", "%"),
    "roadmap.annual_growth": Term("Growth of your needs per year", "%"),
    "roadmap.years": Term("Planning horizon", "years"),
    "estate.accelerator": Term("Accelerators you own"),
    "estate.count": Term("Accelerators you own", "GPUs"),
    "estate.power_kw": Term("Power available, IT and cooling", "kW"),
    "estate.budget_usd": Term("Most you will spend", "USD"),
}

# Words for enumerated values, by the input field they belong to.
VALUES: dict[str, dict[str, str]] = {
    "model.architecture": {"dense": "Dense", "moe": "Mixture of experts (MoE)"},
    "training.method": {
        "pretrain": "Pre-training from scratch",
        "continued_pretrain": "Continued pre-training",
        "full_finetune": "Full fine-tuning",
        "lora": "LoRA",
        "qlora": "QLoRA",
        "finetune": "Fine-tuning, kind not decided",
    },
    "training.precision": {
        "fp32": "FP32",
        "tf32": "TF32",
        "fp16": "FP16",
        "bf16": "BF16",
        "fp8": "FP8",
    },
    "training.optimizer": {
        "adamw": "AdamW",
        "adamw_8bit": "8-bit AdamW",
        "adafactor": "Adafactor",
        "sgd": "SGD",
        "lion": "Lion",
    },
    "data.modality": {
        "text": "Text",
        "image": "Images",
        "audio": "Audio",
        "video": "Video",
        "multimodal": "Several kinds (multimodal)",
    },
    "data.preprocessing": {
        "offline": "Done before training",
        "on_the_fly": "During training (on the fly)",
    },
    "network.inter_node": {
        "infiniband": "InfiniBand",
        "roce": "Ethernet with RDMA (RoCE)",
        "ethernet": "Ethernet",
    },
    "schedule.scheduler": {
        "slurm": "Slurm",
        "kubernetes": "Kubernetes",
        "none": "None: jobs started by hand",
        "other": "Another scheduler",
    },
    "storage.existing": {
        "shared_fs": "A shared file system",
        "object": "Object storage",
        "both": "A shared file system and object storage",
        "none": "None",
    },
    "deployment.operations": {
        "in_house": "Your own team, with experience of clusters",
        "some": "Your own team, with our help",
        "none": "Someone else runs it for you",
    },
    "deployment.location": {
        "on_prem": "On premises",
        "colocation": "Colocation",
        "cloud": "Cloud",
        "hybrid": "Hybrid",
    },
    "hardware.accelerator": {spec_id: spec.name for spec_id, spec in ACCELERATORS.items()},
    "hardware.vendors": {
        **{spec.vendor.lower(): spec.vendor for spec in ACCELERATORS.values()},
        "any": "Any maker",
    },
    "software.frameworks": {
        "pytorch": "PyTorch",
        "jax": "JAX",
        "tensorflow": "TensorFlow",
        "deepspeed": "DeepSpeed",
        "megatron": "Megatron-LM",
        "megatron-lm": "Megatron-LM",
        "nemo": "NVIDIA NeMo",
        "huggingface": "Hugging Face",
        "apex": "NVIDIA Apex",
        "flash-attn": "FlashAttention",
        "flashattention": "FlashAttention",
        "triton": "Triton",
        "tensorrt": "TensorRT",
        "cuda": "CUDA code",
    },
}

# The software stack each accelerator runs (``AcceleratorSpec.software``), in words.
STACK_WORDS: dict[str, str] = {
    "cuda": "NVIDIA CUDA",
    "rocm": "AMD ROCm",
    "gaudi": "Intel Gaudi software",
}

# The cost options of the comparison, by result key, in the order they are listed.
COST_OPTIONS: dict[str, str] = {
    "cloud_on_demand": "GPU cloud, pay as you go",
    "cloud_hyperscaler": "Large public cloud, pay as you go",
    "cloud_reserved_1yr": "GPU cloud, one-year reservation",
    "cloud_reserved": "GPU cloud, three-year reservation",
    "buy": "Buy, in your own data centre",
    "colocation": "Buy, in a rented data centre (colocation)",
    "hybrid": "Buy a base, rent the peaks",
}

# The "buy" option's name when the plan runs on accelerators the customer already owns and
# buys none (the result's ``estate``; cost.owned prices them with no capital).
OWN_ESTATE_OPTION = "The accelerators you own, in your data centre"

# The parts of a year's cost (``cost.<option>.parts_by_year_usd``; keys: cost.cloud.COST_PARTS).
COST_PARTS: dict[str, str] = {
    "hardware": "Hardware bought, installed",
    "power": "Power and cooling",
    "space": "Data-centre space",
    "support": "Hardware support contracts",
    "staff": "Operations staff",
    "rented": "Rented accelerator time",
    "storage": "Rented storage",
}


def net_words(years: int) -> str:
    """What every option's compared figure nets (``cost.<option>.net_usd``), in words: the
    sentences, the tables and the chart all say it this way."""
    return f"after subtracting what the hardware is still worth at the end of year {years}"


# The customer's rules that can exclude a cost option (``cost.constraints``).
RULES: dict[str, str] = {
    "air_gapped": "no internet connection",
    "dedicated_hardware": "hardware that is yours alone",
    "location": "where the hardware should be",
    "budget": "your budget ceiling",
    "estate": "what you already own runs it",
}

# The "location" rule in words, by the answer behind it (``cost.constraints.location``): what
# each answer keeps (``cost.choice``), so a status reads "ruled out by your rules: only on
# premises".
LOCATION_RULES: dict[str, str] = {
    "on_prem": "only on premises",
    "colocation": "only in a rented data centre",
    "cloud": "only in the cloud",
    "hybrid": "a mix of hardware of your own and the cloud",
}

# Price regions (``cost.region``, ``price_sources[].region``).
REGIONS: dict[str, str] = {
    "north_america": "North America",
    "eu": "EU",
    "global": "worldwide",
}

# Engine constants and prices by key (listed in a recommendation, ``cost.price_sources``,
# ``cost.sensitivity``), where the words of the key are not enough.
CONSTANTS: dict[str, str] = {
    "gpu_cloud": "GPU cloud price per accelerator-hour",
    "large_cloud": "Large public cloud price per accelerator-hour",
    "reserved": "Your reserved price per accelerator-hour",
    "purchase": "Purchase price per accelerator, with its share of the server",
    "usd_per_eur": "Exchange rate",
    # the customer's own plan, varied in ``cost.sensitivity`` (cost.sensitivity.USAGE_KEYS)
    "roadmap_growth": "Your yearly growth in training",
    "runs_per_month": "Your runs a month",
    "usage_swing_share": "How far your growth and runs a month are varied",
    "sensitivity_min_share": "Smallest change listed among what moves the total",
    "price_stale_months": "Age after which a price is marked as dated",
    "electricity_usd_per_kwh_north_america": "Electricity price, North America",
    "electricity_usd_per_kwh_eu": "Electricity price, EU",
    "pue_own_facility": "Cooling and power overhead, own data centre (PUE)",
    "pue_colocation": "Cooling and power overhead, rented data centre (PUE)",
    "colocation_usd_per_kw_month_north_america": "Rented data-centre space, North America",
    "colocation_usd_per_kw_month_eu": "Rented data-centre space, EU",
    "own_space_share_of_colocation": "Space in your own data centre (share of the rented price)",
    "cloud_storage_usd_per_gb_month": "Cloud storage price",
    "cloud_idle_share": "Cloud time paid outside runs",
    "reserved_1yr_ratio": "One-year reservation price (share of pay as you go)",
    "reserved_3yr_ratio": "Three-year reservation price (share of pay as you go)",
    "host_platform_usd_per_server": "Server around accelerators bought on their own",
    "network_switch_usd": "Network switch price",
    "network_link_usd": "Network cables and transceivers per link",
    "storage_usd_per_tb_owned": "Storage purchase price",
    "installation_share": "Installation",
    "support_share_per_year": "Support contracts per year",
    "depreciation_years": "Life of owned hardware",
    "staff_usd_per_year": "Cost of one operations engineer per year",
    "staff_accelerators_per_fte": "Accelerators one operations engineer looks after",
    "owned_max_utilisation": "Most of the year an owned cluster can run jobs",
    "short_rent_max_gpus": "Largest cluster rented for days or weeks without a negotiated contract",
    "short_rent_max_days": "Longest such a cluster is rented for",
    "server_idle_draw_share": "Power an idle server draws (share of its maximum)",
    "fabric_switch_ports": "Ports per network switch",
    "fabric_one_tier_max_nodes": "Largest cluster on one layer of switches",
    "fabric_two_tier_max_nodes": "Largest cluster on two layers of switches",
    "prices.cloud_on_demand_usd_per_gpu_hour": "GPU cloud price per accelerator-hour",
    "prices.cloud_reserved_usd_per_gpu_hour": "Your reserved price per accelerator-hour",
    "prices.purchase_usd_per_gpu": "Purchase price per accelerator, with its share of the server",
    "prices.electricity_usd_per_kwh": "Electricity price",
    "prices.pue": "Cooling and power overhead (PUE)",
    "prices.colocation_usd_per_kw_month": "Rented data-centre space per kW",
    "prices.staff_usd_per_year": "Cost of one operations engineer per year",
}

# Lines of the bill of materials (``cost.bill_of_materials``).
BOM_ITEMS: dict[str, str] = {
    "servers": "Accelerators with their servers",
    "switches": "Network switches",
    "links": "Network cables and transceivers",
    "storage": "Shared storage (TB)",
    "installation": "Installation",
}

# Price units → how a value is written ("USD/GPU-h", 3.99 → "$3.99 per accelerator-hour").
_PRICE_UNITS: dict[str, str] = {
    "USD/GPU-h": "per accelerator-hour",
    "USD/GPU": "per accelerator",
    "USD/kWh": "per kWh",
    "USD/kW-month": "per kW a month",
    "USD/GB-month": "per GB a month",
    "USD/TB": "per TB",
    "USD/switch": "per switch",
    "USD/link": "per link",
    "USD/FTE-yr": "a year",
    "USD/8-GPU server": "per 8-accelerator server",
}

# Words for enumerated output values, by output field name.
OUTPUT_VALUES: dict[str, dict[str, str]] = {
    "recommended_option": COST_OPTIONS,
    "recommended_model": VALUES["deployment.location"],
    "recompute": {
        "none": "None",
        "selective": "Selective (norms and activation functions)",
        "full": "Full (every layer)",
    },
}

# Where an input value came from (``sizing.adapters``) in words for the customer.
SOURCES: dict[str, str] = {
    "customer": "you told us",
    "override": "set by our engineer",
    "not_sure": "you were not sure: we assumed",
    "unusable": "we could not use your answer: we assumed",
    "derived": "worked out from your answers",
    # a set-up question the customer left to us on the short path (never shown to them)
    "delegated": "we chose it for you",
    "no_preference": "you told us you have no preference",
    # words the customer wrote that we read but could not take a figure from (their roadmap)
    "unread": "we read your words but could not take a figure from them: we assumed",
}

# Output fields by name, where the words of the name are not good enough.
OUTPUTS: dict[str, str] = {
    "training_flops": "Training compute (FLOPs)",
    "flops_per_token": "Compute per token (FLOPs)",
    "gpu_hours": "Accelerator-hours",
    "assumed_mfu": "Assumed efficiency (MFU)",
    "per_gpu_gb": "Peak memory per accelerator",
    "usable_gpu_gb": "Usable memory per accelerator",
    "min_gpus": "Fewest accelerators that fit the model",
    "fits": "Fits in memory",
    "zero_stage": "ZeRO / FSDP stage",
    "recompute": "Activation recomputation",
    "virtual_pipeline_stages": "Interleaved chunks per pipeline stage",
    "gpus": "Accelerators",
    "nodes": "Servers",
    "gpus_per_node": "Accelerators per server",
    "wall_clock_days": "Wall-clock time",
    "nic_gbps": "Network port speed",
    "cpu_cores_per_node": "CPU cores per server",
    "ram_gb_per_node": "RAM per server",
    "job_mtbf_hours": "Mean time between job failures",
    "goodput": "Productive share of time (goodput)",
    "facility_power_kw": "IT power",
    "facility_power_with_pue_kw": "Facility power incl. cooling",
    "break_even_utilisation": "Busy share above which owning is cheaper",
    "break_even_months": "Months until owned hardware pays for itself",
    "break_even_runs_per_month": "Runs a month above which owning is cheaper",
    "one_run_cloud_usd": "One run in the cloud",
    "owned_per_month_usd": "Owning the cluster per month, before any run",
    "utilisation": "Busy share of an owned cluster in year one",
    "capex_usd": "Spent on hardware",
    "running_usd": "Running costs",
    "all_experiments_gpu_hours": "Accelerator-hours, all planned runs",
    "all_experiments_flops": "Training compute, all planned runs (FLOPs)",
    "hardware_flops_per_token": "Hardware compute per token, incl. recomputation (FLOPs)",
    "rule_of_thumb_gpu_hours": "Rule-of-thumb check (6 × parameters × tokens)",
    "peak_tflops": "Peak speed per accelerator",
    "tokens_per_s": "Training throughput (tokens)",
    "accelerator_name": "Accelerator",
    "step_time_s": "Time per training step",
    "headroom_gpus": "Spare accelerators for other work",
    "full_size_runs": "Full-size runs at once",
    "gpus_per_job": "Accelerators per job",
    "spare_nodes": "Spare servers",
    "recommended_model": "Recommended way to run it",
    "recommended_option": "Recommended option",
    "tensor": "Tensor parallel (ways)",
    "pipeline": "Pipeline parallel (stages)",
    "data": "Data parallel (copies)",
    "expert": "Expert parallel (ways)",
    "scale_out_gbps_per_node_needed": "Network bandwidth each server needs",
    "dataset_capacity_tb": "Space for the dataset as it grows to the plan's last year",
    "scratch_capacity_tb": "Space for tokenised copies and scratch",
    "checkpoint_capacity_tb": "Space for the checkpoints kept",
    "total_capacity_tb": "Shared storage in all",
    "read_gb_per_s": "Read rate while training",
    "checkpoint_write_gb_per_s": "Write rate to save a checkpoint in time",
    "checkpoint_interval_hours": "Time between checkpoints",
    "expected_interruptions": "Interruptions",
    "expected_lost_hours": "Time lost to interruptions per run",
    "local_nvme_tb_per_node": "Local NVMe per server",
    "pcie_generation": "PCIe generation",
    "nodes_per_rack": "Servers per rack",
    "rack_power_kw": "Power per rack",
    "racks": "Racks",
    "servers": "Servers on the site",
    "cooling": "Cooling",
    "scheduler": "Scheduler",
    "checkpoints_retained": "Checkpoints kept",
}
# Output fields that are shares (0.45 → 45 %).
SHARES = frozenset(
    {"assumed_mfu", "goodput", "utilisation", "break_even_utilisation", "max_comm_share"}
)
_SHARE_UNITS = ("x on-demand", "x colocation rate", "x hardware", "x compute", "1/yr")
# What each share is a share of, in words after the percentage.
_SHARE_BASES = {
    "x on-demand": " of the on-demand price",
    "x colocation rate": " of the colocation rate",
    "x hardware": " of the hardware bought",
    "x compute": " of the compute cost",
    "1/yr": " a year",
}
_PRICE_LIKE = frozenset({*_PRICE_UNITS, *_SHARE_UNITS, "GPUs/FTE", "USD/EUR"})
_MONEY_PLACES = 2  # cents for prices below this many dollars
_SMALL_PRICE = 100.0
# Unit tokens inside output field names → the unit shown (longest first).
_UNIT_TOKENS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("gb", "per", "s"), "GB/s"),
    (("per", "s"), "per second"),
    (("gbps",), "Gb/s"),
    (("tflops",), "TFLOPS"),
    (("gb",), "GB"),
    (("tb",), "TB"),
    (("usd",), "USD"),
    (("kw",), "kW"),
    (("hours",), "h"),
    (("days",), "days"),
    (("minutes",), "min"),
    (("s",), "s"),
)
_WORDS = {
    "cpu": "CPU",
    "gpu": "accelerator",
    "gpus": "accelerators",
    "ram": "RAM",
    "nvme": "NVMe",
    "pcie": "PCIe",
    "nics": "network ports",
    # a machine of the cluster is a server to a reader (module docstring)
    "node": "server",
    "nodes": "servers",
    "mfu": "MFU",
    "flops": "FLOPs",
    "pue": "PUE",
    "mtbf": "MTBF",
    "tb": "TB",
    "gb": "GB",
}
# The engine's unit symbols for assumptions → words after a value ("" when none is needed).
_UNIT_WORDS = {
    "-": "",
    "1": "",
    "x": "×",
    "d": "days",
    "h": "hours",
    "min": "minutes",
    "yr": "years",
    "tokens/epoch": "tokens",
    "epochs": "",
    "runs": "",
    "runs/month": "runs a month",
    "jobs": "",
}


def input_term(path: str) -> Term:
    """The label and unit of an engine input (or assumption) key; a readable fallback for keys
    with no entry (``eff_moe_factor`` → "Eff moe factor")."""
    term = INPUTS.get(path)
    if term is not None:
        return term
    if path in CONSTANTS:
        return Term(CONSTANTS[path])
    section, _, name = path.partition(".")
    label, unit = output_label_and_unit(name or section)
    return Term(f"{label} ({section})" if name else label, unit)


# Units a form cannot show after a label: the value is typed as a fraction or a ratio, which
# the field's help says ("a fraction between 0 and 1").
_TYPED_OTHERWISE = frozenset({"%", ": 1"})


def form_label(path: str) -> str:
    """An engine input's label with the unit its value is typed in, for a form an engineer
    fills: ``schedule.deadline_days`` → "Time you allow for one run (days)",
    ``prices.electricity_usd_per_kwh`` → "Electricity price (USD)", ``prices.pue`` → "Cooling
    and power overhead (PUE)"."""
    term = input_term(path)
    unit = "USD" if path.startswith("prices.") and "_usd_" in path else term.unit
    if not unit or unit in _TYPED_OTHERWISE:
        return term.label
    return f"{term.label} ({unit})"


def value_words(path: str, value: object) -> str:
    """An enumerated value in words (``training.method``, ``lora`` → "LoRA"); an unknown value
    of an enumerated field with its underscores as spaces; free text (a model's name, a
    residency rule) exactly as given."""
    if path not in VALUES:
        return str(value)
    words = VALUES[path].get(str(value))
    return words if words is not None else str(value).replace("_", " ")


def unit_words(unit: str) -> str:
    """An engine unit symbol as written after a value ("d" → "days", "-" → "")."""
    return _UNIT_WORDS.get(unit, unit)


def in_sentence(label: str) -> str:
    """A label inside a sentence: "Number precision" → "number precision"; acronyms and names
    ("LoRA rank", "CPU cores") keep their capitals."""
    if len(label) > 1 and label[1].isupper():
        return label
    return label[:1].lower() + label[1:]


def output_label_and_unit(name: str) -> tuple[str, str]:
    """An output field's label and unit: ``scale_up_gb_per_s_needed`` → ("Scale up needed",
    "GB/s"); ``OUTPUTS`` wins for the label. Units come from the name, as the contract
    promises, so a new output field reads sensibly without a change here."""
    tokens = name.split("_")
    unit = ""
    for pattern, shown in _UNIT_TOKENS:
        size = len(pattern)
        for start in range(len(tokens) - size + 1):
            if tuple(tokens[start : start + size]) == pattern:
                unit = shown
                tokens = tokens[:start] + tokens[start + size :]
                break
        if unit:
            break
    words = [_WORDS.get(token, token) for token in tokens if token]
    label = " ".join(words) or name
    label = label[0].upper() + label[1:]
    return OUTPUTS.get(name, label), unit


def describe_value(path: str, value: object, *, engine_unit: str = "") -> str:
    """An input or assumed value in words with its unit: ``model.total_params``, ``7e10`` →
    "70 billion parameters"; ``data.annual_growth``, ``0.3`` → "30 %"; ``training.method``,
    ``"lora"`` → "LoRA". ``engine_unit`` (an assumption's own unit symbol) is used for keys
    this vocabulary does not list."""
    if isinstance(value, bool) or value is None:
        return format_number(value)
    if isinstance(value, list | tuple):
        return ", ".join(value_words(path, item) for item in value)
    if isinstance(value, str):
        return value_words(path, value)
    if not isinstance(value, int | float):
        return str(value)
    if path not in INPUTS and engine_unit in _PRICE_LIKE:
        return describe_price(value, engine_unit)
    unit = INPUTS[path].unit if path in INPUTS else unit_words(engine_unit)
    if unit == "%":
        return format_percent(value)
    if unit == ": 1":
        return f"{format_number(value)}:1"
    return format_quantity(value, unit)


def describe_price(value: float, unit: str, money: Money = USD) -> str:
    """A price with its unit in words: (3.99, "USD/GPU-h") → "$3.99 per accelerator-hour";
    shares and ratios as percentages, other units after the number. ``money`` writes a price
    in the customer's currency (a table whose totals are in euros moves its prices in euros,
    never in dollars beside them); the default keeps the dollars a price was published in."""
    if unit in _PRICE_UNITS:
        amount, sign = money.local(value), currency_sign(money.currency)
        if abs(amount) < 1:
            written = f"{sign}{amount:.3g}"
        elif abs(amount) < _SMALL_PRICE:
            written = f"{sign}{amount:,.{_MONEY_PLACES}f}"
        else:
            written = f"{sign}{amount:,.0f}"
        return f"{written} {_PRICE_UNITS[unit]}"
    if unit in _SHARE_UNITS:  # a share says of what ("3 % of the hardware bought")
        return format_percent(value) + _SHARE_BASES.get(unit, "")
    if unit == "GPUs/FTE":
        return f"{format_number(value)} accelerators per engineer"
    if unit == "-":
        return format_number(value)
    if unit == "USD/EUR":
        return f"1 EUR = {value:g} USD"
    if unit == "runs/month":  # below one a month: "one run every 2 months", never "0.5 runs"
        if value >= 1 or value <= 0:
            return f"{format_number(value)} {noun_for_count(value, 'run')} a month"
        return f"one run every {format_number(1 / value)} months"
    return f"{format_number(value)} {unit_words(unit)}".strip()
