"""The proposal's link targets sit on headings, not on the sections around them.

WeasyPrint turns each ``id`` into a declaration of that element alone, so the element and
everything inside it get styles of their own instead of sharing those of the same elements
elsewhere: an id on each section computed the styles of every table and paragraph in it anew
(issue 29). On its heading the link lands on the same page."""

import re
from datetime import date

import pytest

from reports.demo import demo_data
from reports.document import render_html
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of

# Elements that hold blocks: none of them may carry an id.
_BLOCKS = r"section|div|nav|table|thead|tbody|tr|td|ul|ol|li|dl|figure|h[1-6]|p"


def _proposals() -> list[str]:
    htmls = [render_html(demo_data(today=date(2026, 12, 2)))]
    htmls += [render_html(demo_data(answers=answers_of(s), today=TODAY)) for s in STORIES.values()]
    return htmls


@pytest.fixture(scope="module")
def proposals() -> list[str]:
    return _proposals()


def test_every_contents_link_lands_on_a_heading(proposals):
    for html in proposals:
        targets = re.findall(r'<a href="#([^"]+)">', html)
        assert len(targets) >= 14
        for target in targets:
            assert re.search(rf'<h[1-3][^>]* id="{re.escape(target)}"', html), target


def test_no_element_with_an_id_holds_a_block(proposals):
    for html in proposals:
        for tag, inner in re.findall(r'<(\w+)\b[^>]* id="[^"]*"[^>]*>(.*?)</\1>', html, re.S):
            assert not re.search(rf"<(?:{_BLOCKS})\b", inner), (tag, inner[:80])
