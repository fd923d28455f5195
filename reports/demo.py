"""The built-in demo: every question's registry example, answered as a customer would.

Used by ``manage.py render_proposal --demo``, the benchmark and the tests, so all three look at
the same proposal without a database or a broker.
"""

from datetime import date
from typing import Any

from questionnaire.questions import QUESTIONS
from reports.document import ProposalData
from sizing import adapters

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


def demo_answers() -> dict[str, Any]:
    """The stored answer shape for the registry's example of every question."""
    answers = {}
    for question in QUESTIONS:
        form = question.form_class(data=DEMO_FORM_DATA.get(question.slug, question.example.data))
        if not form.is_valid():
            raise ValueError(f"the example of question {question.slug} is invalid: {form.errors}")
        answers[question.slug] = form.to_answer()
    return answers


def demo_data(*, answers: dict[str, Any] | None = None, today: date | None = None) -> ProposalData:
    """A sized demo proposal, computed in-process (no database, no broker)."""
    answers = demo_answers() if answers is None else answers
    today = today or date.today()
    sized = adapters.size_answers(answers=answers, today=today)
    return ProposalData(
        reference=DEMO_REFERENCE,
        company="Example Research Ltd",
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
