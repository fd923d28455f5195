"""What the customer decides names the whole plan: the help rented beside their own
accelerators is part of it (customer 9 read "$10.25 million over 3 years" alone, with $28
million of renting left out)."""

from django.template.loader import render_to_string

from reports.cost_page import cost_page
from reports.demo import demo_data
from reports.summary import decisions, executive_summary
from reports.wording import recommendation_sentence
from sizing.public import estate_lines, read_result
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


def test_the_cost_page_says_the_rented_help_is_inside_its_running_cost():
    """Customer 9's cost page gave "$18.45 million is running cost (power, space, support and
    staff)" while $8.39 million of it is accelerator time rented beside theirs: it says so,
    and its total is the one the budget line gives over the years."""
    data = demo_data(answers=answers_of(STORIES["9 AI lab budget ceiling"]), today=TODAY)
    result = read_result(data.result)
    page = cost_page(result)
    assert page["rents_help"] is True
    html = render_to_string("reports/_cost.html", {"cost": page})
    assert "and the accelerator time rented beside yours for each run" in html
    budget = next(line for line in estate_lines(result) if line.startswith("Your budget"))
    assert page["total"] in budget


def test_a_plan_without_help_has_no_rented_help_on_its_cost_page():
    data = demo_data(answers=answers_of(STORIES["6 Frankfurt bank adapters"]), today=TODAY)
    assert cost_page(read_result(data.result))["rents_help"] is False


def test_the_line_of_accelerators_one_run_uses_counts_the_rented_help_too():
    """The summary said "One run uses 512 accelerators" beside a headline of "all 1,024
    accelerators together": the rented ones are counted beside theirs."""
    data = demo_data(answers=answers_of(STORIES["9 AI lab budget ceiling"]), today=TODAY)
    summary = executive_summary(read_result(data.result))
    assert (
        summary["help_beside"] == "with 512 NVIDIA H100 SXM5 80GB rented beside them, 1,024 in all"
    )


def test_the_compute_chapter_gives_the_time_on_theirs_alone_and_with_the_help():
    # it said "443 days on the recommended cluster" under a headline of 229 days with the help
    data = demo_data(answers=answers_of(STORIES["9 AI lab budget ceiling"]), today=TODAY)
    sentence = recommendation_sentence("compute", read_result(data.result))
    assert "on the recommended cluster" not in sentence
    assert "days) on the accelerators you own alone, or about " in sentence
    assert "with 512 NVIDIA H100 SXM5 80GB rented beside them." in sentence


def test_a_plan_without_help_takes_its_time_on_the_recommended_cluster():
    data = demo_data(answers=answers_of(STORIES["6 Frankfurt bank adapters"]), today=TODAY)
    sentence = recommendation_sentence("compute", read_result(data.result))
    assert sentence.endswith("on the recommended cluster.")


def test_the_rented_help_moves_with_the_cloud_price_in_the_sensitivity_table():
    """Customer 9's help (512 H100 rented beside their 512 for each run) was held at the
    central cloud price while the other prices moved, so the cloud price did not move their
    owned option's total at all; it moves the rent of the help, in proportion."""
    data = demo_data(answers=answers_of(STORIES["9 AI lab budget ceiling"]), today=TODAY)
    result = read_result(data.result)
    assert result.recommended_option == "buy"
    cloud = next(item for item in result.cost_sensitivity if item["price"] == "gpu_cloud")
    total = result.recommended_cost.total_usd
    assert cloud["total_low_usd"] < total < cloud["total_high_usd"]
    # the help's rent moves by the cloud price's ratio: at least its share of the total
    assert result.estate is not None and result.estate.add == "rent"
    note = cost_page(result)["sensitivity_note"]
    assert "rented beside yours are priced at the cloud's price" in note
