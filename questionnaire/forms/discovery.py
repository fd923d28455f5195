"""The discovery page, before question 1: the project in the customer's own words.

The use case, the people involved, the one constraint that matters most and what success looks
like open the proposal; the constraint also steers the defaults (``sizing/adapters.py``), and
the last answer chooses the path: the detailed set-up questions, or "recommend it for us"
(``questionnaire/paths.py``).
"""

from __future__ import annotations

from typing import Any

from crispy_forms.layout import Div

from questionnaire.fields import RadioAnswerField, TextAnswerField
from questionnaire.forms.base import QuestionForm
from questionnaire.layouts import answer_fields
from questionnaire.roles import Feeds, Noted

__all__ = ["DiscoveryForm", "SETUP_KNOWN", "SETUP_RECOMMEND"]

_OPENS_THE_PROPOSAL = (
    "The proposal opens with it, in your words, so everyone who reads it starts from the same "
    "goal; it does not change the sizing."
)
SETUP_KNOWN = "yes"
SETUP_RECOMMEND = "no"


class DiscoveryForm(QuestionForm):
    """Every part is optional: a page left empty keeps today's detailed questions."""

    # Each part has its own "not sure"; the whole-page box and the note would only add words.
    not_sure = None
    notes = None

    use_case = TextAnswerField(
        does=Noted(
            "The proposal opens with it, quoted, so everyone who reads it starts from the same "
            "goal. What it says that a question asks (a model or its size, the method, tokens, "
            "the time for a run, a maker rule, where the data stays, what you own and whether "
            "you would rent beside it, power, a budget, that no one knows the set-up) is offered as answers for you to check (questionnaire/prefill/sentence.py); "
            "only the answers you confirm change the sizing."
        ),
        label="What do you want to train, in one sentence?",
        help_text="For example “Fine-tune an open 70B model on our clinical notes”.",
    )
    decider = TextAnswerField(
        does=Noted(_OPENS_THE_PROPOSAL),
        label="Who decides on the purchase?",
        width="medium",
        max_length=200,
    )
    runs_training = TextAnswerField(
        does=Noted(_OPENS_THE_PROPOSAL),
        label="Who will run the training?",
        width="medium",
        max_length=200,
    )
    constraint = RadioAnswerField(
        does=Feeds(("resilience.spare_nodes", "network.oversubscription")),
        label="What matters most?",
        choices=(
            ("time", "Time: results soon"),
            ("budget", "Budget: the lowest cost"),
            ("data_location", "Where the data is kept"),
            ("hardware_owned", "Using hardware we already own"),
        ),
    )
    success = TextAnswerField(
        does=Noted(_OPENS_THE_PROPOSAL),
        label="What does success look like?",
        help_text="For example “summaries our doctors trust, by June”.",
    )
    setup_known = RadioAnswerField(
        does=Feeds(
            ("software.team_knows_setup",),
            also="With “no”, the range of accelerator-hours reaches as slow as published runs "
            "by teams outside the largest labs and the frameworks' makers (the estimate itself "
            "stays). It also chooses the questions: with “no”, we skip the six set-up "
            "questions (number format, batch, splitting the work, network, storage, data "
            "preparation), recommend them for you, and the review page and the proposal say "
            "what we chose and why.",
        ),
        label="Does someone on your team know the training set-up (number format, batch size, "
        "splitting the work)?",
        choices=(
            (SETUP_KNOWN, "Yes: ask us the detailed questions"),
            (SETUP_RECOMMEND, "No: recommend the set-up for us"),
        ),
    )

    def layout_items(self) -> list:
        # Each part keeps its own "Not sure yet"; the last one, which chooses the path, is set
        # apart (the review page links to it).
        others = [name for name in self.fields if name != "setup_known"]
        return [
            *answer_fields(self, others, clearable=True),
            Div(
                *answer_fields(self, ["setup_known"], clearable=True),
                css_class="path-choice",
                css_id="discovery-setup-known",
            ),
        ]

    def clean(self) -> dict[str, Any]:
        # Skip QuestionForm's "answer at least one part": an empty page is a valid answer here.
        return super(QuestionForm, self).clean()
