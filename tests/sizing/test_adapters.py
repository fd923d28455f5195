"""sizing/adapters.py: the one mapping from questionnaire answers to engine input."""

from datetime import date

import pytest

from reports.demo import answers_from, demo_answers
from reports.figures import input_rows
from sizing import adapters
from sizing.engine import parse_input, size_dict
from tests.reports.customer_stories import STORIES
from tests.reports.factories import edited_answers
from tests.reports.test_generated_proposals import answers_of


def test_demo_answers_map_to_input_the_engine_accepts():
    built = adapters.build_engine_input(answers=demo_answers(), today=date(2026, 1, 1))
    parse_input(built.engine_input)  # raises if the engine would refuse it
    assert built.engine_input["model"]["total_params"] == 70e9
    assert built.engine_input["data"]["tokens"] == 400e9
    assert built.engine_input["training"]["method"] == "continued_pretrain"
    assert built.engine_input["schedule"]["deadline_days"] == pytest.approx(21)


def test_every_engine_field_set_records_where_it_came_from():
    built = adapters.build_engine_input(answers=demo_answers())
    for section, values in built.engine_input.items():
        for name in values:
            assert built.sources[f"{section}.{name}"] in {"customer", "derived"}
    assert built.sources["model.total_params"] == "customer"
    assert built.sources["schedule.deadline_days"] == "derived"  # hours → days


def test_not_sure_leaves_the_field_to_the_engine_and_says_so():
    answers = edited_answers(
        precision={"precision": "not_sure", "optimizer": "", "not_sure": True},
        model={"total_params": None, "total_params_text": "", "not_sure": True},
    )
    built = adapters.build_engine_input(answers=answers)
    assert "precision" not in built.engine_input.get("training", {})
    assert built.sources["training.precision"] == "not_sure"
    assert built.sources["model.total_params"] == "not_sure"


def test_an_answer_the_engine_refuses_is_dropped_and_marked_unusable():
    answers = edited_answers(data={"epochs": 5000})  # the form allows it; the engine caps at 1000
    built = adapters.build_engine_input(answers=answers)
    assert "epochs" not in built.engine_input["data"]
    assert built.sources["data.epochs"] == "unusable"
    parse_input(built.engine_input)


def test_samples_times_tokens_per_sample_gives_tokens():
    answers = edited_answers(
        data={"dataset_size": 1000, "dataset_unit": "samples", "tokens_per_sample": 2000}
    )
    built = adapters.build_engine_input(answers=answers)
    assert built.engine_input["data"]["tokens"] == 2_000_000
    assert built.sources["data.tokens"] == "derived"


def test_overrides_win_and_are_marked_as_overrides():
    built = adapters.build_engine_input(
        answers=demo_answers(),
        overrides={"model.total_params": 8e9, "hardware": {"accelerator": "a100-80gb"}},
    )
    assert built.engine_input["model"]["total_params"] == 8e9
    assert built.engine_input["hardware"]["accelerator"] == "a100-80gb"
    assert built.sources["model.total_params"] == "override"


def test_unknown_override_fields_are_named():
    nested = adapters.nest_overrides({"model.total_params": 1e9, "model.colour": "red"})
    assert adapters.unknown_override_paths(nested) == ["model.colour"]


def test_empty_answers_give_an_input_the_engine_sizes_with_its_defaults():
    built = adapters.build_engine_input(answers={})
    assert built.engine_input == {}
    parse_input(built.engine_input)  # the engine takes it as it is
    sized = adapters.size_answers(answers={})
    assert sized.result["cluster"]["gpus"] >= 1
    assert "customer" not in {a["provided_by"] for a in sized.result["assumptions"]}
    assert sized.result["open_questions"]


@pytest.mark.parametrize(
    ("choice", "vendors"),
    [
        ("nvidia_only", ["nvidia"]),
        ("amd_only", ["amd"]),
        ("intel_only", ["intel"]),
        ("amd_ok", ["nvidia", "amd"]),
    ],
)
def test_the_accelerator_makers_the_customer_allows_reach_the_engine(choice, vendors):
    built = adapters.build_engine_input(
        answers=edited_answers(software={"accelerator_vendor": choice})
    )
    assert built.engine_input["hardware"]["vendors"] == vendors
    assert built.sources["hardware.vendors"] == "customer"
    assert built.question_of["hardware.vendors"] == "software"
    parse_input(built.engine_input)


@pytest.mark.parametrize("choice", ["no_preference", "not_sure", ""])
def test_no_preference_or_not_sure_about_makers_compares_every_maker(choice):
    built = adapters.build_engine_input(
        answers=edited_answers(software={"accelerator_vendor": choice})
    )
    assert "vendors" not in built.engine_input.get("hardware", {})


def test_amd_only_is_sized_on_amd_and_says_why_others_are_left_out():
    sized = adapters.size_answers(
        answers=edited_answers(software={"accelerator_vendor": "amd_only", "custom_kernels": "no"})
    )
    assert sized.result["cluster"]["accelerator_name"].startswith("AMD")
    assert (
        "NVIDIA H100 SXM5 80GB: made by NVIDIA; you asked for AMD accelerators only"
        in (sized.result["excluded_accelerators"])
    )


def test_fine_tuning_of_an_undecided_kind_is_sized_as_full_fine_tuning_and_asked():
    """Issue 13: "we want to fine-tune, don't know if full or LoRA" must not become pre-training."""
    today = date(2026, 12, 2)
    method = {"method": "finetune_unsure", "not_sure": False}
    unsure = adapters.size_answers(answers=edited_answers(method=method), today=today).result
    full = adapters.size_answers(
        answers=edited_answers(method={**method, "method": "full_finetune"}), today=today
    ).result
    lora = adapters.size_answers(
        answers=edited_answers(method={**method, "method": "lora"}), today=today
    ).result
    assert unsure["memory"]["min_gpus"] == full["memory"]["min_gpus"] > lora["memory"]["min_gpus"]
    assert unsure["compute"]["gpu_hours"] == full["compute"]["gpu_hours"]
    used = {a["key"]: a for a in unsure["assumptions"]}
    assert used["training.method"]["value"] == "full_finetune"
    assert used["training.method"]["provided_by"] != "customer"
    assert any("LoRA" in q for q in unsure["open_questions"])


def test_a_preferred_accelerator_is_sized_on_and_the_rival_maker_set_beside_it():
    # customer 7: "AMD MI325X preferred, NVIDIA H200 acceptable"; before, no answer could say
    # it and the engine chose an H100
    sized = adapters.size_answers(
        answers=edited_answers(
            software={"accelerator_vendor": "amd_ok", "preferred_accelerator": "mi325x"}
        )
    )
    assert sized.engine_input["hardware"]["accelerator"] == "mi325x"
    assert sized.sources["hardware.accelerator"] == "customer"
    assert sized.question_of["hardware.accelerator"] == "software"
    assert sized.result["cluster"]["accelerator_name"] == "AMD Instinct MI325X 256GB"


def test_the_maker_rule_wins_over_a_preferred_accelerator_it_excludes():
    built = adapters.build_engine_input(
        answers=edited_answers(
            software={"accelerator_vendor": "nvidia_only", "preferred_accelerator": "mi325x"}
        )
    )
    assert "accelerator" not in built.engine_input.get("hardware", {})
    assert built.engine_input["hardware"]["vendors"] == ["nvidia"]


def test_a_fine_tune_without_epochs_reads_its_data_three_times_and_says_so():
    # customer 8 (50,000 tickets, LoRA on a small open model): one pass priced a run at about
    # $6 where a fine-tuning recipe (the Hugging Face Trainer's default) makes three
    from sizing.engine import size_dict

    def epochs(method: str) -> dict:
        out = size_dict({"training": {"method": method}, "data": {"samples": 50000}})
        return next(a for a in out["assumptions"] if a["key"] == "data.epochs")

    assert epochs("lora")["value"] == 3.0
    assert epochs("lora")["provided_by"] == "assumed"
    assert "num_train_epochs" in epochs("lora")["source"]
    assert epochs("pretrain")["value"] == 1.0


def test_a_fine_tune_on_data_already_at_pre_training_scale_reads_it_once():
    # customer 5 fully fine-tunes a 34B model on 30 billion tokens: three passes made it 90
    # billion, 103 days on their 16 A100, and the proposal then warned that 90 billion tokens
    # is pre-training scale; read once, as pre-training reads its data
    from sizing.engine import size_dict

    def epochs(tokens: float) -> float:
        out = size_dict({"training": {"method": "full_finetune"}, "data": {"tokens": tokens}})
        return next(a for a in out["assumptions"] if a["key"] == "data.epochs")["value"]

    assert epochs(30e9) == 1.0
    assert epochs(200e6) == 3.0  # customer 6's weekly adapters: a small set, read three times


def test_the_experts_and_routing_the_customer_states_reach_the_engine_and_the_proposal():
    # customer 7: "a 30B mixture-of-experts model (3B active, 64 experts, 8 per token)"; before,
    # no answer carried the experts, and the engine sized 8 experts with top-2 routing and asked
    answers = answers_from(STORIES["7 research centre power limit"])
    built = adapters.build_engine_input(answers=answers, today=date(2026, 12, 4))
    model = built.engine_input["model"]
    assert (model["experts"], model["experts_per_token"]) == (64, 8)
    assert built.sources["model.experts"] == built.sources["model.experts_per_token"] == "customer"
    told = {label: value for label, value, _ in input_rows(built.engine_input, ("model",), {})}
    assert (told["Experts"], told["Experts used per token"]) == ("64", "8")
    stated = size_dict(built.engine_input)
    assumed = size_dict({**built.engine_input, "model": {**model, "experts": None}})
    assert not any("experts" in q for q in stated["open_questions"])
    assert any("How many experts" in q for q in assumed["open_questions"])
    # each token's activations are dispatched to its 8 experts, not 2: more memory per GPU
    activations = [o["memory"]["breakdown_gb"]["activations"] for o in (stated, assumed)]
    assert activations[0] > activations[1]


def test_experts_of_a_dense_model_do_not_reach_the_engine():
    answers = edited_answers(model={"architecture": "dense", "experts": 64, "experts_per_token": 8})
    built = adapters.build_engine_input(answers=answers)
    assert "experts" not in built.engine_input["model"]
    parse_input(built.engine_input)


def test_not_sure_of_the_run_time_the_length_of_each_future_run_sets_the_deadline():
    # customer 3 ("weeks, not months"; each run about 10 days once running) was sized to a
    # 30-day deadline we assumed, then priced for "1 run a month, each of 10 days" at 17.6 days
    answers = answers_of(STORIES["3 media video model"])
    built = adapters.build_engine_input(answers=answers, today=date(2026, 12, 4))
    assert built.engine_input["schedule"]["deadline_days"] == pytest.approx(10)
    assert built.sources["schedule.deadline_days"] == "derived"
    # a time for one run of their own still wins over the runs they plan later
    answers["timeline"] = {**answers["timeline"], "run_time_hours": 21 * 24.0, "not_sure": False}
    built = adapters.build_engine_input(answers=answers, today=date(2026, 12, 4))
    assert built.engine_input["schedule"]["deadline_days"] == pytest.approx(21)
