"""sizing/adapters.py: the discovery page's constraint and the short path ("recommend for me")."""

from __future__ import annotations

from datetime import date

import pytest

from questionnaire.paths import recommended_answer
from questionnaire.questions import EXPERT_SLUGS, get_question
from sizing import adapters

TODAY = date(2026, 12, 1)
LLAMA_70B_LORA = {
    "model": {"model_name": "Llama 3.1 70B", "total_params": 7e10},
    "method": {"method": "lora"},
}


def _built(constraint: str, **answers: dict) -> adapters.BuiltInput:
    return adapters.build_engine_input(
        answers={**answers, "discovery": {"constraint": constraint}}, today=TODAY
    )


def _input(built: adapters.BuiltInput, path: str):
    section, _, name = path.partition(".")
    return built.engine_input.get(section, {}).get(name)


def test_time_first_keeps_a_spare_server_when_the_customer_left_it_open():
    built = _built("time")
    assert _input(built, "resilience.spare_nodes") is True
    assert built.sources["resilience.spare_nodes"] == "derived"
    assert built.question_of["resilience.spare_nodes"] == "discovery"


def test_budget_first_keeps_no_spares_and_accepts_a_2_to_1_network():
    built = _built("budget")
    assert _input(built, "resilience.spare_nodes") is False
    assert _input(built, "network.oversubscription") == 2.0


def test_the_constraint_never_overrides_an_answer():
    built = _built(
        "budget",
        resilience={"spare_nodes": "yes"},
        network={"oversubscription": "1:1"},
    )
    assert _input(built, "resilience.spare_nodes") is True
    assert _input(built, "network.oversubscription") == 1.0
    assert built.sources["resilience.spare_nodes"] == "customer"


def test_data_location_first_never_rules_the_cloud_out_but_asks_where_the_data_must_stay():
    # keeping data in a region is met by a cloud region there as well as by hardware of one's
    # own: a hospital's one 30-hour fine-tune was priced as a $1.5M purchase when it ruled the
    # cloud out
    assert _input(_built("data_location"), "deployment.dedicated_hardware") is None
    asked = adapters.discovery_questions({"discovery": {"constraint": "data_location"}})
    assert asked and "cloud region there" in asked[0]
    answered = {
        "discovery": {"constraint": "data_location"},
        "deployment": {"data_residency": "EU only", "dedicated": "no"},
    }
    assert adapters.discovery_questions(answered) == []


@pytest.mark.parametrize("constraint", ["hardware_owned", "data_location", "not_sure", ""])
def test_other_constraints_change_no_engine_input(constraint):
    assert (
        _built(constraint).engine_input
        == adapters.build_engine_input(answers={}, today=TODAY).engine_input
    )


def test_hardware_already_owned_becomes_an_open_question():
    asked = adapters.discovery_questions({"discovery": {"constraint": "hardware_owned"}})
    assert asked and "already own" in asked[0]
    assert adapters.discovery_questions({"discovery": {"constraint": "budget"}}) == []
    assert adapters.discovery_questions({}) == []


def test_the_effects_of_the_constraint_are_said_in_words():
    effects = adapters.constraint_effects({"discovery": {"constraint": "budget"}})
    assert effects == ["we leave out spare servers", "we accept a cheaper network (2:1)"]
    assert adapters.constraint_effects(
        {"discovery": {"constraint": "budget"}, "resilience": {"spare_nodes": "yes"}}
    ) == ["we accept a cheaper network (2:1)"]


def test_a_time_first_customer_gets_a_spare_server_in_the_plan():
    answers = {**LLAMA_70B_LORA, "discovery": {"constraint": "time"}}
    sized = adapters.size_answers(answers=answers, today=TODAY)
    assert sized.engine_input["resilience"]["spare_nodes"] is True


def test_recommend_for_me_lets_the_engine_decide_and_says_what_and_why():
    answers = dict(LLAMA_70B_LORA)
    for slug in EXPERT_SLUGS:
        answers[slug] = recommended_answer(get_question(slug))
    decided = adapters.recommended_setup(answers, EXPERT_SLUGS)
    precision = " ".join(str(decision) for decision in decided["precision"])
    assert "Number precision: BF16" in precision
    assert "Optimizer: AdamW" in precision
    assert "the usual choice" in precision
    assert [d.what for d in decided["precision"]] == ["Number precision: BF16", "Optimizer: AdamW"]
    assert any(d.why.startswith("Fastest plan that fits") for d in decided["parallelism"])
    assert set(decided) <= set(EXPERT_SLUGS)


def test_recommend_for_me_says_nothing_about_questions_the_customer_answered():
    answers = {**LLAMA_70B_LORA, "precision": {"precision": "fp8", "optimizer": "adamw"}}
    decided = adapters.recommended_setup(answers, ("precision",))
    assert "precision" not in decided


@pytest.mark.parametrize("location", ["on_premises", "colocation"])
def test_a_region_and_hardware_of_their_own_answer_where_the_data_stays(location):
    # walk 2 of the fresh reader: "Germany only", on-premises, still asked "where must your
    # data stay … must the hardware be yours alone?" on the review page and in the proposal
    answered = {
        "discovery": {"constraint": "data_location"},
        "deployment": {"location": location, "data_residency": "Germany only", "dedicated": ""},
    }
    assert adapters.discovery_questions(answered) == []


def test_only_the_part_of_where_the_data_stays_left_open_is_asked():
    region_only = {
        "discovery": {"constraint": "data_location"},
        "deployment": {"location": "cloud", "data_residency": "Germany only"},
    }
    (asked,) = adapters.discovery_questions(region_only)
    assert asked.startswith("Your data must stay in “Germany only”: will a cloud region")
    own_only = {
        "discovery": {"constraint": "data_location"},
        "deployment": {"location": "on_premises", "data_residency": ""},
    }
    assert adapters.discovery_questions(own_only) == [
        "Where must your data stay (a country or a region)?"
    ]
