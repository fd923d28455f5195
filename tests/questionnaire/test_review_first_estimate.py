"""The review page shows the first estimate, the answer that set its size, and a link to change
that answer (issue 13: "show the customer why the first estimate is what it is")."""

import pytest

from questionnaire.questions import get_question
from tests.questionnaire.conftest import post_step, step_url, walk_to_review


@pytest.mark.django_db
def test_the_review_page_names_the_answer_that_set_the_size_and_links_to_it(client):
    draft_id = walk_to_review(client, {"timeline": {"run_time_hours": "72"}})
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "Our first estimate, before an engineer checks it" in page
    assert "What sets this size:" in page
    timeline = get_question("timeline")
    change = f'href="{step_url(draft_id, "timeline")}?change=1"'
    assert change in page
    assert f"Change your answer to question {timeline.number}, {timeline.title}" in page


@pytest.mark.django_db
def test_a_new_deadline_changes_the_estimate_shown(client):
    draft_id = walk_to_review(client, {"timeline": {"run_time_hours": "720"}})
    slow = client.get(step_url(draft_id, "review")).content.decode()
    post_step(client, draft_id, "timeline", {"run_time_hours": "24"})
    fast = client.get(step_url(draft_id, "review")).content.decode()
    assert "What sets this size:" in fast

    def figures(page: str) -> str:
        start = page.index('class="first-estimate-figures"')
        return page[start : page.index("</p>", start)]

    assert figures(slow) != figures(fast)


@pytest.mark.django_db
def test_the_review_page_shows_what_is_bought_the_time_and_the_cost_as_the_confirmation_will(
    client,
):
    # the cost first appeared after sending; the count was one run's, not what is bought
    draft_id = walk_to_review(client, {"timeline": {"run_time_hours": "72"}})
    page = client.get(step_url(draft_id, "review")).content.decode()
    start = page.index('class="first-estimate-figures"')
    figures = page[start : page.index("</p>", start)]
    # the example answers keep the data in the EU: the cost is in euros, as in the proposal
    assert "Cost: about €" in figures and " over " in figures
    assert "One run takes about " in figures and "(likely " in figures
    assert "bought in year 1" in figures or "rented" in figures
