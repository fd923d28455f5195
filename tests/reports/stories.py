"""Every proposal a test looks at as a customer would: the four demo scenarios, the four
customers of questionnaire/demo.py and the game studio that knows nothing about training
(customer 8 of the customer scenarios), on the short path."""

from __future__ import annotations

from datetime import date
from typing import Any

from questionnaire.demo import SCENARIOS as CUSTOMERS
from questionnaire.paths import recommended_answer
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, get_question
from reports.demo import SCENARIOS, answers_from, demo_answers, demo_data
from reports.document import ProposalData
from tests.reports.customer_stories import STORIES as CUSTOMER_STORIES

TODAY = date(2026, 12, 4)

# Customer 8's answers (tests/reports/customer_stories.py), without their discovery page: the
# short path's discovery is set below.
GAME_STUDIO: dict[str, dict[str, Any]] = {
    slug: answers
    for slug, answers in CUSTOMER_STORIES["8 game studio tickets"].items()
    if slug != "discovery"
}


def game_studio_answers() -> dict[str, Any]:
    discovery = DISCOVERY.form_class(
        data={
            "use_case": "Our own assistant for player support tickets",
            "success": "About 50,000 past tickets answered well",
            "setup_known": "no",
        }
    )
    assert discovery.is_valid(), discovery.errors
    answers = answers_from(GAME_STUDIO)
    for slug in EXPERT_SLUGS:
        answers[slug] = recommended_answer(get_question(slug))
    return {**answers, DISCOVERY.slug: discovery.to_answer()}


STORIES = ("", *SCENARIOS, *(c.key for c in CUSTOMERS), "game-studio")


def story_data(story: str) -> ProposalData:
    """The proposal data of one story, by the name in :data:`STORIES` ("" is the demo)."""
    customers = {c.key: c for c in CUSTOMERS}
    if story in customers:
        answers = answers_from(customers[story].answers)
    elif story == "game-studio":
        answers = game_studio_answers()
    else:
        answers = demo_answers(story)
    return demo_data(answers=answers, today=TODAY)
