"""The public customer stories as questionnaire form data: customers 1 to 9 of the shared
customer scenarios (``customer-scenarios.md``: four first customers, five more for the situations
real buyers bring), each answered as that customer would type it, by question slug. A question
a story leaves out is answered with the registry's example; "not sure" is ticked where the
customer says so. The demo's four scenarios are in ``reports.demo``.

Hardware already owned, a power limit and a budget ceiling go in question 14's own fields
(``owned``, ``power_kw``, ``budget_usd``), as the customer would type them there, besides the
discovery sentence and the notes where they first said it.
"""

from typing import Any

NOT_SURE = {"not_sure": "on"}

STORIES: dict[str, dict[str, dict[str, Any]]] = {
    # 1. Insurance group: a document classifier, LoRA, regulated data on premises in the EU.
    "1 insurance classifier": {
        "discovery": {
            "use_case": "Route incoming claim documents to the right specialist team",
            "constraint": "data_location",
            "setup_known": "yes",
        },
        "model": {"model_name": "Llama 3.1 8B", "architecture": "dense", "total_params": "8B"},
        "method": {"method": "lora", "phases": "1", "experiments": "20"},
        "precision": {"precision": "bf16", "optimizer": "adamw", "gradient_checkpointing": "yes"},
        "data": {
            "dataset_size": "400,000",
            "dataset_unit": "samples",
            "modality": "text",
            "tokens_per_sample": "1,500",
            "epochs": "3",
            "annual_growth_pct": "30 %",
        },
        "timeline": {"run_time_hours": "12 hours", "runs_per_month": "10"},
        "batch": {"sequence_length": "4096"},
        "teams": {"teams": "1", "concurrent_jobs": "2"},
        "software": {
            "frameworks": ["pytorch", "huggingface"],
            "custom_kernels": "no",
            "accelerator_vendor": "nvidia_only",
        },
        "parallelism": NOT_SURE,
        "network": NOT_SURE,
        "storage": NOT_SURE,
        "preprocessing": {"online_steps": ["none"]},
        "resilience": {"max_lost_hours": "12 hours"},
        "deployment": {
            "location": "on_premises",
            "data_residency": "EU only, our own data centre",
            "dedicated": "yes",
            "internet": "none",
        },
        "roadmap": {
            "future_model_sizes": "Two similar use cases next year",
            "budget_years": "3",
            "future_runs_per_month": "10",
            "future_hours_per_run": "12 hours",
        },
    },
    # 2. Language-model start-up: a 7B model pre-trained from scratch in the cloud, US.
    "2 start-up pre-training": {
        "model": {
            "model_name": "Our own 7B decoder",
            "architecture": "dense",
            "total_params": "7B",
        },
        "method": {"method": "pretrain", "phases": "2", "experiments": "1"},
        "precision": {"precision": "bf16", "optimizer": "adamw"},
        "data": {
            "dataset_size": "2T",
            "dataset_unit": "tokens",
            "modality": "text",
            "epochs": "1",
        },
        "timeline": {"run_time_hours": "30 days", "runs_per_month": "1"},
        "batch": {"sequence_length": "4096", "global_batch": "4M", "global_batch_unit": "tokens"},
        "teams": {"teams": "1", "concurrent_jobs": "1", "scheduler": "slurm"},
        "software": {
            "frameworks": ["pytorch", "megatron"],
            "custom_kernels": "yes",
            "accelerator_vendor": "nvidia_only",
        },
        "parallelism": {"strategies": ["data", "tensor", "pipeline"]},
        "network": {"fabric": "infiniband", "oversubscription": "not_sure"},
        "preprocessing": {"online_steps": ["none"]},
        "resilience": {"max_lost_hours": "2", "checkpoint_interval_hours": "2"},
        "deployment": {"location": "cloud", "data_residency": "US region"},
        "roadmap": {
            "future_model_sizes": "30B next year, maybe 70B in year three",
            "budget_years": "3",
        },
    },
    # 3. Media company: a 3B video diffusion transformer, colocation or cloud, UK and EU.
    "3 media video model": {
        "model": {"model_name": "Video diffusion transformer", "total_params": "3B"},
        "method": {"method": "continued_pretrain", "phases": "2"},
        "precision": NOT_SURE,
        "data": {
            "dataset_size": "1.2M",
            "dataset_unit": "samples",
            "modality": "video",
            "sample_size_gb": "40 MB",
            "epochs": "2",
            "annual_growth_pct": "50 %",
        },
        "timeline": NOT_SURE,
        "batch": NOT_SURE,
        "teams": {"teams": "3"},
        "software": {"frameworks": ["pytorch", "jax"], "accelerator_vendor": "amd_ok"},
        "parallelism": {"strategies": ["fsdp"]},
        "network": NOT_SURE,
        "storage": {"existing_storage": "object", "many_small_files": "yes"},
        "preprocessing": {"online_steps": ["video_decoding", "augmentation"]},
        "resilience": NOT_SURE,
        "deployment": {"location": "colocation", "data_residency": "UK and EU only"},
        "roadmap": {"future_runs_per_month": "1", "future_hours_per_run": "10 days"},
    },
    # 4. Research lab: Mixtral 8x7B continued pre-training on premises.
    "4 research lab MoE": {
        "model": {
            "model_name": "Mixtral 8x7B",
            "architecture": "moe",
            "total_params": "46.7B",
            "active_params": "12.9B",
        },
        "method": {"method": "continued_pretrain", "phases": "2", "experiments": "1"},
        "precision": {"precision": "bf16", "optimizer": "adamw", "gradient_checkpointing": "yes"},
        "data": {"dataset_size": "100B", "dataset_unit": "tokens", "epochs": "1"},
        "timeline": {"run_time_hours": "3 weeks", "runs_per_month": "0.17"},
        "batch": {"sequence_length": "8192"},
        "teams": {"teams": "1", "concurrent_jobs": "1"},
        "software": {"frameworks": ["pytorch", "deepspeed", "megatron"]},
        "parallelism": {"strategies": ["expert", "data"]},
        "network": {"fabric": "infiniband", "oversubscription": "1:1"},
        "storage": {"existing_storage": "shared_fs", "read_rate_gb_per_s": "20"},
        "preprocessing": {"online_steps": ["none"]},
        "resilience": {"checkpoint_interval_hours": "1", "spare_nodes": "yes"},
        "deployment": {"location": "on_premises"},
        "roadmap": {
            "future_runs_per_month": "0.17",
            "future_model_sizes": "Possibly larger MoE models later",
        },
    },
    # 5. Robotics start-up that owns two DGX A100 servers (said in words: no question holds it).
    "5 robotics owns DGX": {
        "discovery": {
            "use_case": (
                "We own two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS) and "
                "want to fully fine-tune our 34B vision-language model on 30 billion tokens "
                "within three weeks; we would rent extra only if we must."
            ),
            "constraint": "hardware_owned",
            "setup_known": "not_sure",
        },
        "model": {"model_name": "Our 34B vision-language model", "total_params": "34B"},
        "method": {"method": "full_finetune", "phases": "1", "experiments": "1"},
        "data": {"dataset_size": "30B", "dataset_unit": "tokens", "modality": "multimodal"},
        "timeline": {"run_time_hours": "3 weeks", "runs_per_month": "0.33"},
        "teams": {"scheduler": "slurm"},
        "software": {"frameworks": ["pytorch"], "accelerator_vendor": "nvidia_only"},
        "deployment": {
            "location": "hybrid",
            "owned": "two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS)",
            "notes": "Our own server room; cloud for overflow",
        },
        "roadmap": {"future_runs_per_month": "0.33", "future_hours_per_run": "3 weeks"},
    },
    # 6. Bank in Frankfurt with recurring LoRA adapters.
    "6 Frankfurt bank adapters": {
        "model": {"model_name": "Llama 3.1 8B", "total_params": "8B"},
        "method": {"method": "lora", "phases": "1", "experiments": "1"},
        "data": {"dataset_size": "200M", "dataset_unit": "tokens", "modality": "text"},
        "timeline": {"runs_per_month": "4"},
        "software": {"accelerator_vendor": "nvidia_only", "custom_kernels": "yes"},
        "deployment": {
            "location": "not_sure",
            "data_residency": "Germany",
            "dedicated": "yes",
        },
        "roadmap": {"future_runs_per_month": "4", "budget_years": "3"},
    },
    # 7. National research centre: a 30B MoE on 4T tokens in 45 days, AMD preferred, 2 MW.
    "7 research centre power limit": {
        "model": {
            "model_name": "30B mixture of experts, 64 experts, 8 per token",
            "architecture": "moe",
            "total_params": "30B",
            "active_params": "3B",
            "experts": "64",
            "experts_per_token": "8",
        },
        "method": {"method": "pretrain", "phases": "1", "experiments": "1"},
        "data": {"dataset_size": "4T", "dataset_unit": "tokens", "epochs": "1"},
        "timeline": {"run_time_hours": "45 days", "runs_per_month": "1"},
        "software": {"accelerator_vendor": "amd_ok", "preferred_accelerator": "mi325x"},
        "deployment": {
            "location": "on_premises",
            "power_kw": "2 MW",
            "notes": "The hall has 2 MW for IT and cooling. AMD MI325X preferred, H200 acceptable.",
        },
    },
    # 8. Game studio that knows nothing about training: the short path.
    "8 game studio tickets": {
        "discovery": {
            "use_case": (
                "We want our own assistant for player support tickets. We have about 50,000 "
                "past tickets. No idea about models or GPUs."
            ),
            "setup_known": "no",
        },
        "model": NOT_SURE,
        "method": NOT_SURE,
        "data": {"dataset_size": "50,000", "dataset_unit": "samples", "modality": "text"},
        "timeline": NOT_SURE,
        "teams": NOT_SURE,
        "software": NOT_SURE,
        "resilience": NOT_SURE,
        "deployment": NOT_SURE,
        "roadmap": NOT_SURE,
    },
    # 9. AI lab with a $40 million ceiling and 512 H100 of its own (said in words).
    "9 AI lab budget ceiling": {
        "discovery": {
            "use_case": (
                "120B dense pre-train on 8 trillion tokens, as fast as we can but at most "
                "$40 million. We own 512 H100 already and could rent more."
            ),
            "constraint": "budget",
            "setup_known": "yes",
        },
        "model": {"model_name": "Our 120B model", "architecture": "dense", "total_params": "120B"},
        "method": {"method": "pretrain", "phases": "1", "experiments": "1"},
        "data": {"dataset_size": "8T", "dataset_unit": "tokens", "epochs": "1"},
        "timeline": NOT_SURE,
        "teams": NOT_SURE,
        "software": {"accelerator_vendor": "nvidia_only"},
        "deployment": {"location": "hybrid", "owned": "512 H100", "budget_usd": "$40 million"},
        "roadmap": NOT_SURE,
    },
}
