"""The review page shows the first estimate's time-against-accelerators and cost charts, drawn
by the proposal's chart code (issue 28, "On screen too")."""

import re

import pytest

from tests.questionnaire.conftest import step_url, walk_to_review


@pytest.mark.django_db
def test_the_review_page_shows_the_timeline_and_cost_charts_of_the_first_estimate(client):
    draft_id = walk_to_review(client, {"timeline": {"run_time_hours": "72"}})
    response = client.get(step_url(draft_id, "review"))
    page = response.content.decode()
    section = page[page.index('class="first-estimate"') : page.index("</section>")]
    titles = re.findall(r'<svg [^>]*role="img" aria-label="([^"]+)"', section)
    assert titles == [
        "Wall-clock days against number of accelerators",
        "Total of each option over the horizon, with its likely range",
    ]
    assert "recommended: " in section  # the estimate's own size is marked on the timeline
    assert " style=" not in page and "unsafe-inline" not in response["Content-Security-Policy"]
