"""The user-agent rules the proposal leaves out (reports.document._lean_user_agent_css) are
whole rules on attributes no proposal has."""

from datetime import date
from html.parser import HTMLParser

from weasyprint.html import UA

from reports.demo import demo_data
from reports.document import _NEVER_IN_A_PROPOSAL, render_html
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def test_each_rule_left_out_is_whole_on_its_line():
    dropped = [line for line in UA.splitlines() if line.startswith(_NEVER_IN_A_PROPOSAL)]
    assert len(dropped) == 20  # WeasyPrint 70: 18 on dir, one on rules and frame, one on hidden
    for line in dropped:
        assert line.count("{") == 1 and line.rstrip().endswith("}"), line


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.names.update(name for name, _ in attrs)


def test_no_proposal_has_the_attributes_those_rules_match():
    proposals = [demo_data(today=date(2026, 12, 2))]
    proposals += [demo_data(answers=answers_of(story), today=TODAY) for story in STORIES.values()]
    for data in proposals:
        attributes = _Attributes()
        attributes.feed(render_html(data))
        assert attributes.names.isdisjoint({"dir", "hidden", "rules", "frame"}), data.company
