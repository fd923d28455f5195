"""The first estimate on the review page names the answer that set the size."""

from sizing.words.estimate import first_estimate


def test_a_deadline_the_customer_gave_sets_the_size_and_points_to_question_5():
    answers = {
        "model": {"model_name": "Llama 3.1 70B"},
        "method": {"method": "full_finetune"},
        "data": {"dataset_size": 2e10, "dataset_unit": "tokens"},
        "timeline": {"run_time_hours": 72},
    }
    estimate = first_estimate(answers)
    assert estimate is not None
    assert estimate.reason == "your deadline of 3 days for one run"
    assert estimate.question == "timeline"
    assert estimate.gpus > 8  # more than the memory alone needs


def test_without_a_deadline_it_says_the_size_rests_on_the_one_we_assumed():
    answers = {
        "model": {"model_name": "Llama 3.1 8B"},
        "method": {"method": "full_finetune"},
        "data": {"dataset_size": 2e11, "dataset_unit": "tokens"},
        "timeline": {"not_sure": True},
    }
    estimate = first_estimate(answers)
    assert estimate is not None
    assert estimate.reason.startswith("the deadline we assumed for one run (")
    assert "because you did not give one" in estimate.reason
    assert estimate.question == "timeline"


def test_a_small_run_of_a_large_model_goes_past_its_memory_minimum_when_that_is_cheaper():
    """70B full fine-tune: the 24 accelerators memory needs take more accelerator-hours than
    32 (recomputation and ZeRO traffic), so 32 are recommended and the reason says why."""
    answers = {
        "model": {"model_name": "Llama 3.1 70B"},
        "method": {"method": "full_finetune"},
        "data": {"dataset_size": 1e6, "dataset_unit": "tokens"},
        "timeline": {"run_time_hours": 240},
    }
    estimate = first_estimate(answers)
    assert estimate is not None
    assert estimate.reason.startswith("the fewest accelerator-hours: ")
    assert "than the 24 your model's memory needs" in estimate.reason
    assert estimate.question == "timeline"


def test_a_deadline_no_size_meets_is_said_plainly():
    answers = {
        "model": {"model_name": "Llama 3.1 405B"},
        "method": {"method": "pretrain"},
        "data": {"dataset_size": 1.5e13, "dataset_unit": "tokens"},
        "timeline": {"run_time_hours": 24},
    }
    estimate = first_estimate(answers)
    assert estimate is not None
    assert estimate.reason.startswith("no size finishes within your deadline of 24 hours")
    assert estimate.question == "timeline"


def test_a_size_memory_sets_is_within_the_deadline_not_sized_to_it():
    """Review, confirmation and status pages said "sized to the deadline we assumed" where the
    memory set the size (the review page's own reason said memory): one relation, one reader."""
    answers = {
        "model": {"model_name": "Llama 3.1 70B"},
        "method": {"method": "lora"},
        "data": {"dataset_size": 1e6, "dataset_unit": "tokens"},
        "timeline": {"not_sure": True},
    }
    estimate = first_estimate(answers)
    assert estimate is not None
    assert estimate.reason.startswith("the memory your model needs")
    assert estimate.figures.against_deadline == "within"


def test_a_size_the_deadline_sets_is_sized_to_it():
    answers = {
        "model": {"model_name": "Llama 3.1 70B"},
        "method": {"method": "full_finetune"},
        "data": {"dataset_size": 2e10, "dataset_unit": "tokens"},
        "timeline": {"run_time_hours": 72},
    }
    estimate = first_estimate(answers)
    assert estimate is not None
    assert estimate.figures.against_deadline == "sized to"


def test_the_review_pages_estimate_is_in_the_currency_the_proposal_will_use():
    """The contact step's country prices a customer whose answers name no place, on the review
    page as in the proposal the pipeline makes (issue 28: a Swedish customer shown dollars)."""
    answers = {
        "model": {"model_name": "Llama 3.1 8B"},
        "method": {"method": "full_finetune"},
        "data": {"dataset_size": 2e10, "dataset_unit": "tokens"},
        "timeline": {"run_time_hours": 72},
    }
    swedish = first_estimate(answers, contact_country="Sweden")
    assert swedish is not None and swedish.figures.cost_amount.startswith("SEK\u00a0")
    unknown = first_estimate(answers)
    assert unknown is not None and unknown.figures.cost_amount.startswith("$")
