"""The built-in demo: every question's registry example, answered as a customer would.

Used by ``manage.py render_proposal --demo``, the benchmark and the tests, so all three look at
the same proposal without a database or a broker.
"""

from datetime import date
from typing import Any

from questionnaire.questions import QUESTIONS
from reports.document import ProposalData
from sizing.public import (
    size_answers,
)

DEMO_REFERENCE = "TQ-DEMO-00001"

# The registry's examples describe a small fine-tune; the demo scales a few answers up to a
# continued pre-training run, so every section (multi-node network, storage, cost) has something
# to show. Form data, exactly as a customer would type it.
DEMO_FORM_DATA: dict[str, dict[str, Any]] = {
    "model": {"model_name": "Llama 3.1 70B", "architecture": "dense", "total_params": "70B"},
    "method": {"method": "continued_pretrain", "phases": "1", "experiments": "3"},
    "data": {
        "dataset_size": "400B tokens",
        "dataset_unit": "tokens",
        "modality": "text",
        "epochs": "1",
        "annual_growth_pct": "30",
    },
    "timeline": {"run_time_hours": "21 days", "runs_per_month": "1"},
    "teams": {"teams": "2", "concurrent_jobs": "1"},
    # One such run a month once running, so the cost follows a usage that fits the run above.
    "roadmap": {
        "future_runs_per_month": "1",
        "future_hours_per_run": "3 weeks",
        "annual_growth_pct": "30 %",
        "future_model_sizes": "Similar models next year",
        "budget_years": "3",
        "operations": "some",
    },
    "storage": {"not_sure": "on"},
}


# Three more customers, each a change to the demo's form data, so the proposal is looked at (and
# checked) for a plan on one node, a large mixture-of-experts run and a sovereign fine-tune.
SCENARIOS: dict[str, dict[str, dict[str, Any]]] = {
    # A start-up fine-tunes an 8B model with LoRA in the cloud: one node, no fabric.
    "lora-one-node": {
        "model": {"model_name": "Llama 3.1 8B", "architecture": "dense", "total_params": "8B"},
        "method": {"method": "lora", "phases": "1", "experiments": "20"},
        "data": {
            "dataset_size": "400,000 documents",
            "dataset_unit": "samples",
            "modality": "text",
            "tokens_per_sample": "1,500",
            "epochs": "3",
            "annual_growth_pct": "50 %",
        },
        "timeline": {"run_time_hours": "12 hours", "runs_per_month": "10"},
        "teams": {"teams": "1", "concurrent_jobs": "1", "scheduler": "none"},
        "software": {
            "frameworks": ["pytorch", "huggingface"],
            "custom_kernels": "no",
            "containers": "yes",
            "accelerator_vendor": "no_preference",
        },
        "deployment": {"location": "cloud", "dedicated": "no", "internet": "full"},
        "roadmap": {
            "future_runs_per_month": "10",
            "future_hours_per_run": "12 hours",
            "annual_growth_pct": "50 %",
            "budget_years": "2",
            "operations": "none",
        },
    },
    # A lab pre-trains a 141B mixture-of-experts model on 2 trillion tokens in a rented hall, in
    # 66 days: one run on 64 servers (one layer of switches) while the fleet bought outgrows it.
    "moe-pretrain": {
        "model": {"model_name": "Mixtral 8x22B", "architecture": "moe", "total_params": "141B"},
        "method": {"method": "pretrain", "phases": "1", "experiments": "1"},
        "data": {
            "dataset_size": "2T tokens",
            "dataset_unit": "tokens",
            "modality": "text",
            "epochs": "1",
            "annual_growth_pct": "100 %",
        },
        "timeline": {"run_time_hours": "66 days", "runs_per_month": "1"},
        "teams": {"teams": "3", "concurrent_jobs": "1", "scheduler": "slurm"},
        "software": {
            "frameworks": ["pytorch", "megatron"],
            "custom_kernels": "yes",
            "containers": "yes",
            "accelerator_vendor": "nvidia_only",
        },
        "deployment": {"location": "colocation", "dedicated": "yes", "internet": "restricted"},
        "roadmap": {
            "future_runs_per_month": "0.5",
            "future_hours_per_run": "60 days",
            "annual_growth_pct": "100 %",
            "budget_years": "3",
            "operations": "in_house",
        },
    },
    # A bank fine-tunes a 14B model on premises in the EU, air-gapped, AMD allowed.
    "sovereign-eu": {
        "model": {"model_name": "Qwen2.5 14B", "architecture": "dense", "total_params": "14B"},
        "method": {"method": "full_finetune", "phases": "2", "experiments": "6"},
        "data": {
            "dataset_size": "20B tokens",
            "dataset_unit": "tokens",
            "modality": "text",
            "epochs": "2",
            "annual_growth_pct": "20 %",
        },
        "timeline": {"run_time_hours": "5 days", "runs_per_month": "2"},
        "teams": {"teams": "2", "concurrent_jobs": "2", "scheduler": "kubernetes"},
        "software": {
            "frameworks": ["pytorch", "deepspeed"],
            "custom_kernels": "no",
            "containers": "yes",
            "accelerator_vendor": "amd_ok",
        },
        "deployment": {
            "location": "on_premises",
            "data_residency": "EU only",
            "encryption": ["at_rest", "in_transit"],
            "dedicated": "yes",
            "internet": "none",
        },
        "roadmap": {
            "future_runs_per_month": "2",
            "future_hours_per_run": "5 days",
            "annual_growth_pct": "20 %",
            "budget_years": "4",
            "operations": "some",
        },
    },
}


def demo_answers(scenario: str = "") -> dict[str, Any]:
    """The stored answer shape for the registry's example of every question: the demo's, or one
    of the ``SCENARIOS`` (each question it names replaces the demo's answer whole)."""
    return answers_from({**DEMO_FORM_DATA, **(SCENARIOS[scenario] if scenario else {})})


def answers_from(form_data: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Stored answers from form data by question slug (the registry's example where missing),
    validated by each question's own form."""
    answers = {}
    for question in QUESTIONS:
        form = question.form_class(data=form_data.get(question.slug, question.example.data))
        if not form.is_valid():
            raise ValueError(f"the example of question {question.slug} is invalid: {form.errors}")
        answers[question.slug] = form.to_answer()
    return answers


# Each scenario's customer on the cover, so no two sample proposals can be mixed up.
CUSTOMERS: dict[str, tuple[str, str]] = {
    "": ("Example Research Ltd", DEMO_REFERENCE),
    "lora-one-node": ("Example Start-up Ltd", "TQ-DEMO-00002"),
    "moe-pretrain": ("Example Frontier Lab Ltd", "TQ-DEMO-00003"),
    "sovereign-eu": ("Example Bank SE", "TQ-DEMO-00004"),
}


def demo_data(
    *,
    answers: dict[str, Any] | None = None,
    today: date | None = None,
    scenario: str = "",
) -> ProposalData:
    """A sized demo proposal, computed in-process (no database, no broker): the demo's or one
    scenario's answers (``answers`` replaces them), with that customer's company and reference."""
    answers = demo_answers(scenario) if answers is None else answers
    today = today or date.today()
    sized = size_answers(answers=answers, today=today)
    company, reference = CUSTOMERS[scenario]
    return ProposalData(
        reference=reference,
        company=company,
        contact_name="Alex Example",
        contact_role="Head of Machine Learning",
        issued_on=today,
        version=1,
        answers=answers,
        engine_input=sized.engine_input,
        result=sized.result,
        input_sources=sized.sources,
        engine_version=sized.engine_version,
    )
