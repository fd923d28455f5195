"""Answers that feed one engine input follow a stated rule, and the new answers reach the plan.

Shared inputs (``sizing.adapters.SHARED_INPUTS``): runs a month (questions 5 and 15) and the
deadline (run time and first-results date) never silently take the last answer; a disagreement
is listed for the proposal to ask about. The checkpoint interval is asked once (question 13).
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from questionnaire.questions import get_question
from sizing.adapters import answer_conflicts, build_engine_input, size_answers

TODAY = datetime.date(2026, 12, 1)
BASE: dict[str, Any] = {
    "model": {"model_name": "Llama 3.1 8B"},
    "method": {"method": "full_finetune"},
}


def _answers(**questions: dict[str, Any]) -> dict[str, Any]:
    return {**BASE, **questions}


def _input(**questions: dict[str, Any]) -> dict[str, Any]:
    return build_engine_input(answers=_answers(**questions), today=TODAY).engine_input


def _conflict_paths(**questions: dict[str, Any]) -> list[str]:
    return [c.path for c in answer_conflicts(answers=_answers(**questions), today=TODAY)]


def test_the_checkpoint_interval_is_asked_once_and_planned_as_given() -> None:
    # issue 26: storage asked it too, and the proposal then asked which of the two held
    assert "checkpoint_every_hours" not in get_question("storage").form_class.base_fields
    questions = {"resilience": {"checkpoint_interval_hours": 4}}
    assert _input(**questions)["resilience"]["checkpoint_interval_hours"] == 4
    assert _conflict_paths(**questions) == []


def test_runs_once_up_and_running_price_the_years_and_are_no_conflict() -> None:
    # question 15 asks for them only where they differ from now: a plan to grow, not a clash
    questions = {"timeline": {"runs_per_month": 4}, "roadmap": {"future_runs_per_month": 10}}
    assert _input(**questions)["roadmap"]["runs_per_month"] == 10
    assert _conflict_paths(**questions) == []


def test_runs_a_month_of_question_5_stand_in_when_question_15_is_empty() -> None:
    assert _input(timeline={"runs_per_month": 4})["roadmap"]["runs_per_month"] == 4
    assert _conflict_paths(timeline={"runs_per_month": 4}) == []


def test_a_first_results_date_before_one_run_could_finish_is_asked() -> None:
    soon = (TODAY + datetime.timedelta(days=2)).isoformat()
    questions = {"timeline": {"run_time_hours": 24 * 7, "deadline": soon}}
    assert _input(**questions)["schedule"]["deadline_days"] == 7
    assert _conflict_paths(**questions) == ["schedule.deadline_days"]


def test_the_first_results_date_sizes_the_run_when_no_run_time_is_given() -> None:
    later = (TODAY + datetime.timedelta(days=30)).isoformat()
    assert _input(timeline={"deadline": later})["schedule"]["deadline_days"] == 30


def _sized(**questions: dict[str, Any]) -> dict[str, Any]:
    return size_answers(answers=_answers(**questions), today=TODAY).result


def test_a_customer_who_chose_slurm_is_given_slurm_not_kubernetes() -> None:
    result = _sized(teams={"teams": 3, "concurrent_jobs": 4, "scheduler": "slurm"})
    assert result["concurrency"]["scheduler"] == "Slurm"
    assert "Kubernetes" not in json.dumps(result["concurrency"])


def test_without_a_choice_several_teams_are_suggested_kubernetes() -> None:
    result = _sized(teams={"teams": 3, "concurrent_jobs": 4})
    assert result["concurrency"]["scheduler"].startswith("Kubernetes")


def test_a_customer_who_chose_kubernetes_keeps_it_even_where_we_would_suggest_slurm() -> None:
    assert _sized(method={"method": "pretrain"})["concurrency"]["scheduler"] == "Slurm"
    result = _sized(method={"method": "pretrain"}, teams={"scheduler": "kubernetes"})
    assert result["concurrency"]["scheduler"].startswith("Kubernetes")
    assert "Slurm" not in json.dumps(result["concurrency"])


def test_tokenising_during_training_is_not_called_pre_tokenised() -> None:
    result = _sized(data={"modality": "text"}, preprocessing={"online_steps": ["tokenisation"]})
    assert "pre-tokenised" not in result["hosts"]["rationale"]
    assert "during training" in result["hosts"]["rationale"]


def test_answered_operations_and_preprocessing_are_not_asked_again() -> None:
    asked = _sized(roadmap={"operations": "some"}, preprocessing={"online_steps": ["none"]})[
        "open_questions"
    ]
    assert not any("operates the cluster" in q for q in asked)
    assert not any("Is the data ready" in q for q in asked)
    unanswered = _sized()["open_questions"]
    assert any("operates the cluster" in q for q in unanswered)


def test_who_runs_the_cluster_is_part_of_the_deployment_plan() -> None:
    reasons = _sized(roadmap={"operations": "none"})["deployment"]["reasons"]
    assert any("managed service" in reason for reason in reasons)


def test_existing_storage_takes_the_capacity_tier() -> None:
    tiers = _sized(storage={"existing_storage": "shared_fs"})["storage"]["tiers"]
    assert tiers[-1] == {
        "tier": "your existing shared file system",
        "use": "raw data and datasets at rest",
    }


def test_the_customers_checkpoint_size_and_read_rate_are_sized() -> None:
    storage = _sized(storage={"checkpoint_size_gb": 2, "read_rate_gb_per_s": 50})["storage"]
    assert storage["checkpoint_size_gb"] == 2
    assert storage["read_gb_per_s"] >= 50


def test_many_small_files_get_the_sharding_advice() -> None:
    assert _sized(storage={"many_small_files": "yes"})["storage"]["small_files_advice"]
    assert not _sized(storage={"many_small_files": "no"})["storage"]["small_files_advice"]


def test_the_link_speed_answer_reaches_the_network_plan() -> None:
    engine_input = _input(network={"link_speed_gbps": 200})
    assert engine_input["network"]["nic_gbps_per_gpu"] == 200
