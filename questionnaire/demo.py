"""The four customer scenarios (docs: customer-scenarios.md) as form data, for demo and tests.

Deliberately uneven, as real customers are: some answers precise, some rough, some "not sure".
Each scenario is what the customer would type into the wizard, so loading it goes through the
same forms and the same ``submit_answers`` as a real questionnaire.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from questionnaire.services import Contact


def _weeks_ahead(weeks: int) -> str:
    """A date ``weeks`` from today: the scenarios' dates stay in the future, as the form asks."""
    return (datetime.date.today() + datetime.timedelta(weeks=weeks)).isoformat()


NOT_SURE = {"not_sure": "on"}


@dataclass(frozen=True)
class Scenario:
    key: str
    contact: Contact
    answers: dict[str, dict[str, Any]]


INSURANCE = Scenario(
    key="insurance",
    contact=Contact(
        "Dana Keller",
        "dana.keller@insurer.example",
        "Example Insurance Group",
        "Head of claims analytics",
        "Germany",
    ),
    answers={
        "model": {
            "model_name": "Llama 3.1 8B",
            "architecture": "dense",
            "total_params": "8B",
            "notes": "Standard Hugging Face code.",
        },
        "method": {
            "method": "lora",
            "phases": "2",
            "experiments": "20",
            "notes": "LoRA first; full fine-tuning later if LoRA is not good enough. Each experiment a few hours, over two months.",
        },
        "precision": {
            "precision": "bf16",
            "optimizer": "adamw",
            "gradient_checkpointing": "yes",
            "notes": "I think gradient checkpointing is on.",
        },
        "data": {
            "dataset_size": "400,000 documents",
            "dataset_unit": "samples",
            "modality": "text",
            "tokens_per_sample": "1,500",
            "epochs": "3",
            "annual_growth_pct": "30 %",
        },
        "timeline": {
            "run_time_hours": "12 hours",
            "deadline": _weeks_ahead(10),
            "notes": "Each run should finish overnight; results before the quarterly review in 10 weeks.",
        },
        "batch": {
            "sequence_length": "4,096",
            "not_sure": "on",
            "notes": "Documents are up to 4,096 tokens.",
        },
        "teams": {
            "teams": "1",
            "concurrent_jobs": "2",
            "scheduler": "not_sure",
            "notes": "Two data scientists.",
        },
        "software": {
            "frameworks": ["pytorch", "huggingface"],
            "custom_kernels": "no",
            "containers": "not_sure",
            "accelerator_vendor": "nvidia_only",
            "notes": "NVIDIA preferred.",
        },
        "parallelism": {"strategies": ["recommend"], "notes": "Whatever fits on one server."},
        "network": NOT_SURE,
        "storage": {
            "checkpoint_size_gb": "1 GB",
            "existing_storage_details": "About 2 TB of raw documents",
            "notes": "Checkpoints are small: adapters only.",
        },
        "preprocessing": {
            "online_steps": ["none"],
            "notes": "OCR and tokenisation happen before training, not during.",
        },
        "resilience": {
            "max_lost_hours": "12 hours",
            "notes": "Losing one night's run is acceptable.",
        },
        "deployment": {
            "location": "on_premises",
            "data_residency": "EU",
            "dedicated": "yes",
            "internet": "none",
            "export_policy": "Data cannot leave our own data centre.",
        },
        "roadmap": {
            "annual_growth_pct": "200 %",
            "future_model_sizes": "This use case plus two similar ones next year",
            "budget_years": "3",
        },
    },
)

STARTUP = Scenario(
    key="startup",
    contact=Contact(
        "Sam Okafor", "sam@lm-startup.example", "Example LM Labs", "CTO", "United States"
    ),
    answers={
        "model": {
            "model_name": "Own 7B decoder (Llama-like)",
            "architecture": "dense",
            "total_params": "7B",
            "notes": "32 layers, hidden 4096, 32 heads, vocabulary 32k.",
        },
        "method": {
            "method": "pretrain",
            "phases": "2",
            "experiments": "2",
            "notes": "From scratch, then a short continued pre-training phase on code; plus ablations at 1B scale.",
        },
        "precision": {
            "precision": "mixed",
            "optimizer": "adamw",
            "notes": "BF16 mixed precision; FP8 later if stable.",
        },
        "data": {
            "dataset_size": "2T tokens",
            "dataset_unit": "tokens",
            "modality": "text",
            "epochs": "1",
            "notes": "Web text and code; 8 TB tokenised.",
        },
        "timeline": {
            "run_time_hours": "30 days",
            "deadline": _weeks_ahead(17),
            "notes": "Investors' demo in 4 months.",
        },
        "batch": {
            "sequence_length": "4k",
            "global_batch": "4M tokens",
            "global_batch_unit": "tokens",
        },
        "teams": {
            "teams": "1",
            "concurrent_jobs": "3",
            "notes": "1 main run plus small ablations; 6 researchers.",
        },
        "software": {
            "frameworks": ["pytorch", "megatron"],
            "custom_kernels": "yes",
            "accelerator_vendor": "nvidia_only",
            "notes": "Fused attention variant.",
        },
        "parallelism": {
            "strategies": ["data", "tensor", "pipeline"],
            "existing_distributed_code": "yes",
            "notes": "Tensor + data parallel, maybe pipeline.",
        },
        "network": {
            "fabric": "infiniband",
            "oversubscription": "not_sure",
            "notes": "We don't know what oversubscription we can tolerate.",
        },
        "storage": {
            "existing_storage": "shared_fs",
            "existing_storage_details": "Tokenised shards on a shared file system",
        },
        "preprocessing": {"online_steps": ["none"], "notes": "Tokenisation done offline."},
        "resilience": {"max_lost_hours": "2 hours", "checkpoint_interval_hours": "2 hours"},
        "deployment": {"location": "cloud", "data_residency": "US region"},
        "roadmap": {
            "future_model_sizes": "30B next year, maybe 70B in year three",
            "budget_years": "3",
            "notes": "Utilisation as high as we can get.",
        },
    },
)

MEDIA = Scenario(
    key="media",
    contact=Contact(
        "Priya Shah",
        "priya.shah@media.example",
        "Example Media Studios",
        "Head of AI research",
        "United Kingdom",
    ),
    answers={
        "model": {
            "model_name": "Diffusion transformer",
            "architecture": "dense",
            "total_params": "3B",
            "active_params": "not sure",
        },
        "method": {
            "method": "continued_pretrain",
            "phases": "2",
            "notes": "Continued pre-training of an open model on our own footage, then fine-tuning.",
        },
        "precision": NOT_SURE,
        "data": {
            "dataset_size": "1.2 million clips",
            "dataset_unit": "samples",
            "modality": "video",
            "sample_size_gb": "40 MB",
            "epochs": "2",
            "annual_growth_pct": "50 %",
            "notes": "10-second clips, 48 TB in total.",
        },
        "timeline": {"not_sure": "on", "notes": "Weeks, not months."},
        "batch": NOT_SURE,
        "teams": {"teams": "3"},
        "software": {
            "frameworks": ["pytorch", "jax"],
            "accelerator_vendor": "amd_ok",
            "notes": "JAX for one team; AMD acceptable if the software works.",
        },
        "parallelism": {"strategies": ["fsdp"]},
        "network": NOT_SURE,
        "storage": {
            "existing_storage": "object",
            "many_small_files": "yes",
            "notes": "Millions of small files.",
        },
        "preprocessing": {"online_steps": ["video_decoding", "augmentation"]},
        "resilience": NOT_SURE,
        "deployment": {
            "location": "hybrid",
            "data_residency": "UK and EU only",
            "notes": "Colocation or cloud; footage licensed for the UK and EU only.",
        },
        "roadmap": {"future_runs_per_month": "1", "future_hours_per_run": "10 days"},
    },
)

RESEARCH = Scenario(
    key="research",
    contact=Contact(
        "Jonas Berg",
        "j.berg@university.example",
        "Example University AI Lab",
        "Principal investigator",
        "Sweden",
    ),
    answers={
        "model": {
            "model_name": "Mixtral 8x7B",
            "architecture": "moe",
            "total_params": "46.7B",
            "active_params": "12.9B",
        },
        "method": {
            "method": "continued_pretrain",
            "phases": "2",
            "notes": "Then instruction fine-tuning.",
        },
        "precision": {"precision": "bf16", "optimizer": "adamw", "gradient_checkpointing": "yes"},
        "data": {
            "dataset_size": "100B tokens",
            "dataset_unit": "tokens",
            "modality": "text",
            "epochs": "1",
            "notes": "Scientific text.",
        },
        "timeline": {"run_time_hours": "3 weeks"},
        "batch": {"sequence_length": "8,192"},
        "teams": {"teams": "1", "concurrent_jobs": "1", "notes": "4 people."},
        "software": {"frameworks": ["pytorch", "deepspeed", "megatron"]},
        "parallelism": {
            "strategies": ["data", "expert"],
            "existing_distributed_code": "yes",
            "notes": "Megatron-style expert parallelism.",
        },
        "network": {"fabric": "infiniband", "oversubscription": "1:1"},
        "storage": {
            "read_rate_gb_per_s": "20 GB/s",
            "existing_storage": "shared_fs",
            "existing_storage_details": "Lustre, about 20 GB/s",
        },
        "preprocessing": {"online_steps": ["none"], "notes": "Tokenisation offline."},
        "resilience": {"checkpoint_interval_hours": "1 hour", "spare_nodes": "yes"},
        "deployment": {
            "location": "on_premises",
            "notes": "University data centre, grant-funded hardware.",
        },
        "roadmap": {
            "future_runs_per_month": "0.17",
            "notes": "2 runs a year, possibly larger MoE models later.",
        },
    },
)

SCENARIOS: tuple[Scenario, ...] = (INSURANCE, STARTUP, MEDIA, RESEARCH)
