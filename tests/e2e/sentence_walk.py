"""Helpers for walking a customer of the shared scenarios from their discovery sentence to the
proposal the pipeline renders (issue 26): what the check page offers, and the stored PDF.
"""

from __future__ import annotations

import time

from pipeline.models import Proposal
from questionnaire.models import Submission

CHECK_TITLE = "Check the answers from your words"


def type_sentence(page, sentence: str, setup_known: str | None) -> dict[str, str]:
    """Types the sentence on the discovery page (and the set-up answer, if they give one),
    continues, and returns what the check page offers: each answer's label with the value
    from their words (``"Total parameters": "34 billion"``)."""
    # the walk's steps live with the non-expert walk, which imports this module in turn
    from tests.e2e.test_non_expert_path import continue_to_next, open_discovery

    open_discovery(page)
    page.fill("#id_discovery-use_case", sentence)
    if setup_known is not None:
        page.check(f"input[name='discovery-setup_known'][value='{setup_known}']")
    continue_to_next(page)
    assert page.locator("h1").inner_text() == CHECK_TITLE
    offered = {}
    for row in page.locator("table.file-answers-table tbody tr").all():
        label = row.locator("th").inner_text().strip()
        after = row.locator("td").nth(2).inner_text().split("\n")[0].strip()
        offered[label] = after
    return offered


def use_the_answers(page) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name="Use these answers").click()


def rendered_proposal(submission: Submission, timeout: float = 120) -> bytes:
    """The PDF the pipeline rendered and stored for the submission's latest version."""
    deadline = time.monotonic() + timeout
    while True:
        proposal = submission.proposals.order_by("-version").first()
        if proposal is not None and proposal.status == Proposal.Status.DONE:
            with proposal.pdf.open("rb") as stored:
                return stored.read()
        assert time.monotonic() < deadline, list(submission.proposals.values("status", "error"))
        time.sleep(0.5)
