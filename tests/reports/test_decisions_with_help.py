"""What the customer decides names the whole plan: the help rented beside their own
accelerators is part of it (customer 9 read "$10.25 million over 3 years" alone, with $28
million of renting left out)."""

from reports.demo import demo_data
from reports.summary import decisions
from sizing.public import read_result
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def test_going_ahead_with_the_owned_cluster_names_the_rented_help_beside_it():
    data = demo_data(answers=answers_of(STORIES["9 AI lab budget ceiling"]), today=TODAY)
    first = decisions(read_result(data.result))[0]
    assert "the accelerators you own" in first
    assert "a run for the 512 NVIDIA H100 SXM5 80GB rented beside them" in first
    assert first.count("including about $") == 1  # inside the total, never added to it
    assert "H100" in first


def test_a_plan_without_help_says_only_its_own_cost():
    data = demo_data(answers=answers_of(STORIES["6 Frankfurt bank adapters"]), today=TODAY)
    assert "beside them" not in decisions(read_result(data.result))[0]
