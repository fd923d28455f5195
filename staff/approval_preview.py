"""What approving a version changes for the customer, said before the engineer confirms it.

Approving is the one workflow step the customer sees at once: their status page switches to the
approved version, with who checked it and what changed from the first estimate, and the PDF is
written again with that on its cover. No email goes to the customer (they hear from us when the
proposal is sent); the account manager is told it is ready to send. The confirmation page
(``staff.admin.submission_views``) shows this :class:`ApprovalPreview`.
"""

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from pipeline.models import Recommendation
from pipeline.notifications import account_manager_addresses, headline_figures
from pipeline.people import full_name
from pipeline.versions import checked_as, customer_version
from questionnaire.models import Submission
from sizing.public import Figures


@dataclass(frozen=True)
class ApprovalPreview:
    version: int
    shown_now: str  # what the customer's page shows before: "the first estimate, marked …"
    checked: str  # "Checked by our engineer Erin Engineer on 4 December 2026. The 3-year …"
    figures: Figures | None  # the figures the customer's page will show
    customer_email: str  # whether the customer is emailed now, in words
    staff_told: list[str]  # who is emailed that it is ready to send


def approval_preview(
    *, submission: Submission, recommendation: Recommendation, user: AbstractBaseUser
) -> ApprovalPreview:
    """What the customer sees once ``user`` approves ``recommendation``, and who is emailed."""
    shown = customer_version(submission)
    if shown.recommendation is None:
        shown_now = "nothing yet (no finished estimate)"
    elif shown.preliminary:
        shown_now = (
            f"the first estimate (version {shown.recommendation.version}), marked preliminary"
        )
    else:
        shown_now = f"version {shown.recommendation.version}, approved earlier"
    return ApprovalPreview(
        version=recommendation.version,
        shown_now=shown_now,
        checked=checked_as(
            recommendation, engineer=full_name(user), on=timezone.localdate()
        ).sentence,
        figures=headline_figures(recommendation),
        customer_email=(
            f"No email goes to the customer now: {submission.contact_email} is emailed only "
            "when someone sends the proposal."
        ),
        staff_told=account_manager_addresses(submission),
    )
