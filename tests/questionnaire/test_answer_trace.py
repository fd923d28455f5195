"""Every answer field declares what it does, docs/answers.md says it, and a declared feed is real.

A field that feeds the engine is tested through ``sizing/adapters.py`` with a real stored
answer: the engine input it names must change when the answer is given.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from typing import Any

import pytest

from questionnaire.fields import (
    CheckboxesAnswerField,
    DateAnswerField,
    QuantityField,
    RadioAnswerField,
)
from questionnaire.quantities import Kind
from questionnaire.questions import get_question
from questionnaire.roles import Feeds, Noted, Requirement
from questionnaire.trace_doc import DOC_PATH, answers_markdown, fields_with_roles
from sizing.adapters import CONTRACT_FIELDS, NOT_GIVEN, SHARED_INPUTS, build_engine_input

TODAY = datetime.date(2026, 12, 1)

# The fields issue 12 found dropped: each must now do something real. Seven that changed nothing
# (code base, quantisation-aware training, framework requirements, file formats, development
# share, framework versions, data-loading libraries) were taken off the pages instead (issue 26).
DROPPED_BEFORE = (
    "timeline.queue_time_hours",
    "batch.gradient_accumulation",
    "batch.max_global_batch",
    "teams.scheduler",
    "software.containers",
    "software.accelerator_vendor",
    "parallelism.strategies",
    "parallelism.existing_distributed_code",
    "parallelism.orchestration",
    "network.nvlink_needed",
    "network.link_speed_gbps",
    "network.rdma",
    "storage.read_rate_gb_per_s",
    "storage.checkpoint_size_gb",
    "storage.local_nvme",
    "storage.existing_storage",
    "storage.existing_storage_details",
    "storage.many_small_files",
    "preprocessing.cpu_threads_per_gpu",
    "preprocessing.ram_working_set_gb",
    "resilience.replication",
    "resilience.restart",
    "resilience.spare_nodes",
    "deployment.encryption",
    "deployment.export_policy",
    "roadmap.future_model_sizes",
    "roadmap.operations",
)

ROWS = fields_with_roles()
FIELDS = {f"{slug}.{name}": (slug, name) for slug, name, _label, _role in ROWS}
ROLES = {f"{slug}.{name}": role for slug, name, _label, role in ROWS}
FEEDING = {key: role for key, role in ROLES.items() if isinstance(role, Feeds)}

# A plausible stored value per kind of number (the unit each field name carries).
SAMPLE_NUMBER = {
    Kind.COUNT: 8,
    Kind.DATA: 1e9,
    Kind.SIZE: 40,
    Kind.DURATION: 12,
    Kind.PERCENT: 30,
    Kind.RATE: 5,
    Kind.LINK: 400,
    Kind.CONTEXT: 4096,
    Kind.POWER: 2000,
    Kind.MONEY: 4e7,
}
# Where the kind's sample is outside what the engine accepts for that field.
SAMPLE_OVERRIDES: dict[str, Any] = {
    "model.total_params": 8e9,
    "model.active_params": 2e9,
    "model.model_name": "Llama 3.1 8B",
    "deployment.data_residency": "EU only",
    "deployment.owned": "16 A100 80GB, HDR InfiniBand, a 200 TB NAS",
}


def _values(key: str) -> list[Any]:
    """Stored values to try for one field: every choice, or one plausible value."""
    slug, name = FIELDS[key]
    field = get_question(slug).form_class.base_fields[name]
    if key in SAMPLE_OVERRIDES:
        return [SAMPLE_OVERRIDES[key]]
    if isinstance(field, CheckboxesAnswerField):
        return [[choice] for choice, _ in field.choices]
    if isinstance(field, RadioAnswerField):
        return [choice for choice, _ in field.choices if choice != "not_sure"]
    if isinstance(field, DateAnswerField):
        return [(TODAY + datetime.timedelta(days=30)).isoformat()]
    if isinstance(field, QuantityField):
        return [SAMPLE_NUMBER[field.kind]]
    return ["as the customer typed it"]


def _flat(built: dict[str, Any]) -> dict[str, Any]:
    return {f"{s}.{n}": v for s, values in built.items() for n, v in values.items()}


def _reached(key: str) -> set[str]:
    """Engine inputs whose value changes when this one answer is given (with its companions)."""
    slug, name = FIELDS[key]
    role = FEEDING[key]
    reached: set[str] = set()
    for companions in role.when or ({},):
        for value in _values(key):
            without = {slug: dict(companions)}
            with_it = {slug: {**companions, name: value}}
            before = _flat(build_engine_input(answers=without, today=TODAY).engine_input)
            after = _flat(build_engine_input(answers=with_it, today=TODAY).engine_input)
            reached |= {path for path in after if after[path] != before.get(path)}
    return reached


def test_every_answer_field_declares_one_role() -> None:
    missing = [
        key for key, role in ROLES.items() if not isinstance(role, Feeds | Requirement | Noted)
    ]
    assert not missing, f"fields without a role (does=): {missing}"


def test_docs_answers_md_is_up_to_date() -> None:
    assert DOC_PATH.read_text() == answers_markdown(), (
        "docs/answers.md is stale: run python manage.py answers_doc"
    )


def test_docs_list_every_answer_field() -> None:
    text = DOC_PATH.read_text()
    assert all(f"`{key}`" in text for key in ROLES)


@pytest.mark.parametrize("key", DROPPED_BEFORE)
def test_each_answer_issue_12_found_dropped_now_has_a_role(key: str) -> None:
    assert key in ROLES and ROLES[key] is not None


@pytest.mark.parametrize("key", sorted(FEEDING))
def test_a_field_declared_as_feeding_the_engine_reaches_each_input_it_names(key: str) -> None:
    declared = set(FEEDING[key].inputs)
    assert declared <= {f"{s}.{n}" for s, names in CONTRACT_FIELDS.items() for n in names}
    missing = declared - _reached(key)
    assert not missing, f"{key} is declared to feed {sorted(missing)} but does not reach it"


def test_two_answers_feed_one_input_only_with_a_stated_rule() -> None:
    fed_by: dict[str, set[str]] = defaultdict(set)
    for key, role in FEEDING.items():
        for path in role.inputs:
            fed_by[path].add(key)
    shared = {path: keys for path, keys in fed_by.items() if len(keys) > 1}
    rules = {rule.path: set(rule.answers) for rule in SHARED_INPUTS}
    assert all(rule.rule for rule in SHARED_INPUTS)
    assert shared == rules, "each engine input fed by several answers needs one SHARED_INPUTS rule"


def test_not_given_answers_feed_nothing() -> None:
    answers: dict[str, dict[str, Any]] = defaultdict(dict)
    for slug, name in FIELDS.values():
        answers[slug][name] = "not_sure"
    assert "not_sure" in NOT_GIVEN
    built = build_engine_input(answers=dict(answers), today=TODAY)
    assert not any(value == "not_sure" for value in _flat(built.engine_input).values())
