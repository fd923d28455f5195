"""The summary's rows say what the pages after it say."""

from reports.demo import demo_data
from reports.document import build_context
from reports.summary import decisions, network_line
from sizing.public import read_result
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def _result(story: str):
    return read_result(demo_data(answers=answers_of(STORIES[story]), today=TODAY).result)


def test_the_network_row_of_a_plan_on_their_own_fabric_says_it_is_theirs():
    # customer 5 read "Network: InfiniBand HDR (NVIDIA ConnectX-6), 8 × 200 Gb/s per server,
    # one non-blocking switch", as if bought, above "Your network ... none is bought"
    row = network_line(_result("5 robotics owns DGX"))
    assert row.startswith("Your network (HDR InfiniBand")
    assert "none is bought" in row
    assert "switch" not in row


def test_a_plan_with_no_network_between_servers_asks_nothing_about_one():
    # customer 3 (one server) was asked "InfiniBand or Ethernet (RoCE) between nodes?" and
    # what oversubscription they tolerate, beside "No network between servers needed"
    data = demo_data(answers=answers_of(STORIES["3 media video model"]), today=TODAY)
    questions = build_context(data)["open_questions"]
    assert not [q for q in questions if "InfiniBand" in q or "oversubscription" in q]
    # a plan that buys a network between servers still asks them
    start_up = demo_data(answers=answers_of(STORIES["2 start-up pre-training"]), today=TODAY)
    assert any("oversubscription" in q for q in build_context(start_up)["open_questions"])


def test_customer_7_is_asked_about_the_h200_that_is_faster_and_cheaper_at_the_same_scale():
    # customer 7 (MI325X preferred, H200 acceptable) read the H200's 28.5 days and $11.25
    # million beside their 40.6 days and $12.56 million, while the decisions named a B200
    result = _result("7 research centre power limit")
    asked = decisions(result)
    peer = result.section("peer")
    assert any(d.startswith(f"Whether to quote the {peer['name']} instead") for d in asked)
    assert not any("B200" in d for d in asked)


def test_the_h200_question_says_the_mi325x_price_is_our_estimate():
    # the MI325X has no public purchase price: the comparison says which price is estimated,
    # as the line it replaced did ("ours estimated, the other at list price")
    result = _result("7 research centre power limit")
    quote = next(d for d in decisions(result) if d.startswith("Whether to quote the"))
    assert quote.endswith("over 3 years (ours estimated, the other at list price).")
