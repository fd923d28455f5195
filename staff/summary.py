"""What staff read first about a submission: the recommendation and its cost in words, where it
stands, and the next action with who owns it (the list's columns, the summary panel, the CSV).

The customer's facts (model, method, deployment) come from ``pipeline.facts``; the figures from
``sizing.stored_result.read_result`` with the vocabulary's labels and the one number formatter.
"""

from dataclasses import dataclass

from django.utils import timezone

from pipeline.facts import Facts, facts, model_and_size
from pipeline.models import Recommendation
from pipeline.versions import latest_approved, latest_recommendation
from questionnaire.answers import AnswerLine
from questionnaire.models import Submission
from questionnaire.paths import SHORT_PATH_COUNT, customer_numbers, delegated_slugs
from questionnaire.questions import DISCOVERY, QUESTIONS, AnsweredQuestion, answered_questions
from reports.answer_trace import delegated_questions
from sizing.public import (
    cluster_short,
    cost_line,
    count_of,
    read_result,
    validity_words,
    value_words,
)
from staff.models import ShareLink
from staff.workflow import AWAITING_REVIEW, FINISHED, Status, full_name


def recommended_cluster(recommendation: Recommendation | None) -> str:
    """E.g. "64 × NVIDIA H100 SXM5 80GB"; "" while the version is not finished."""
    if recommendation is None or recommendation.status != Recommendation.Status.DONE:
        return ""
    return cluster_short(read_result(recommendation.result))


def prices_valid_until(recommendation: Recommendation | None) -> str:
    """ "3 January 2027": until when the version's proposal holds its prices (dated the day the
    version was sized, as ``pipeline.services`` dates the proposal); "" while not finished."""
    if recommendation is None or recommendation.finished_at is None:
        return ""
    if recommendation.status != Recommendation.Status.DONE:
        return ""
    return validity_words(timezone.localdate(recommendation.finished_at))


def recommended_cost(recommendation: Recommendation | None, *, short: bool = False) -> str:
    """The customer's cost headline and range in one line (``sizing.words.cost.cost_line``),
    or why nothing is recommended; "" while the version is not finished."""
    if recommendation is None or recommendation.status != Recommendation.Status.DONE:
        return ""
    return cost_line(read_result(recommendation.result), short=short)


def use_case(f: Facts) -> str:
    """E.g. "Llama 3.1 8B · LoRA · Cloud"; what the customer wants to train, and where."""
    parts = [
        model_and_size(f),
        value_words("training.method", f.method) if f.method else "",
        value_words("deployment.location", f.deployment) if f.deployment else "",
    ]
    return " · ".join(p for p in parts if p)


def typed_use_case(submission: Submission) -> str:
    """The use case in the customer's words (the discovery page); "" when not given."""
    discovery = (submission.answers or {}).get(DISCOVERY.slug)
    return str(discovery.get("use_case") or "").strip() if isinstance(discovery, dict) else ""


@dataclass(frozen=True)
class StaffQuestion:
    """One question on a submission's staff page, numbered as the customer saw it."""

    heading: str
    lines: list[AnswerLine]
    not_sure: bool
    delegated: bool  # never shown: the short path left it to us


# What a set-up question the customer never saw says instead of their "not sure".
NOT_ASKED = AnswerLine("Not asked (short path)", "we chose it for them")


def staff_questions(answers: dict) -> list[StaffQuestion]:
    """Every question with the customer's answer, headed with the number they saw ("3 of 8,
    question 4 in the full list" on the short path); a set-up question the short path left to
    us says so rather than showing our stored "not sure" as theirs."""
    numbers = customer_numbers(answers)
    delegated = delegated_slugs(answers)
    count = SHORT_PATH_COUNT if delegated else len(QUESTIONS)
    rows = []
    for answered in answered_questions(answers):
        row = _staff_question(
            answered, numbers.get(answered.slug), count, answered.slug in delegated
        )
        rows.append(row)
    return rows


def _staff_question(
    answered: AnsweredQuestion, seen: int | None, count: int, delegated: bool
) -> StaffQuestion:
    if not answered.number:  # the discovery page: unnumbered
        heading = answered.title
    elif delegated:
        heading = f"{answered.title} (question {answered.number} in the full list; not shown)"
    elif seen is None:  # a set-up answer given before switching to the short path: kept
        heading = (
            f"{answered.title} (question {answered.number} in the full list; answered before "
            "switching to the short path)"
        )
    elif count != len(QUESTIONS):  # the short path: "3 of 8", as the customer's pages said
        heading = f"{seen} of {count}. {answered.title}"
        if seen != answered.number:
            heading += f" (question {answered.number} in the full list)"
    else:
        heading = answered.heading
    if delegated:
        return StaffQuestion(heading, [NOT_ASKED], False, True)
    return StaffQuestion(heading, answered.lines, answered.not_sure, False)


def age(submission: Submission, now=None) -> str:
    """How long ago it was submitted: "today", "1 day", "12 days"."""
    days = ((now or timezone.now()) - submission.submitted_at).days
    if days <= 0:
        return "today"
    return count_of(days, "day")


@dataclass(frozen=True)
class NextAction:
    owner: str  # who acts: "An engineer", "Bob Tester (account manager)", "The customer" …
    text: str


@dataclass(frozen=True)
class Summary:
    """The panel at the top of a submission's page."""

    customer: str
    use_case: str  # in the customer's words
    training: str  # model, method and where, as we read them
    version: Recommendation | None  # the version described: approved, else the newest finished
    approved: bool
    recommendation: str
    cost: str
    status: str
    assignee: str
    next_action: NextAction
    customer_holds: str  # "" or a warning that a newer version exists than the one sent
    # the engine's questions about a set-up the customer left to us: for the engineer to
    # settle, not asked in the proposal
    settle: tuple[str, ...] = ()
    # until when the described version's prices hold, as its proposal says ("" before it is sized)
    prices_hold_until: str = ""


def last_sent_link(submission: Submission) -> ShareLink | None:
    return (
        ShareLink.objects.filter(proposal__submission=submission)
        .exclude(sent_to="")
        .select_related("proposal")
        .first()
    )


def summarise(submission: Submission) -> Summary:
    latest = latest_recommendation(submission)
    approved = latest_approved(submission)
    finished = (
        submission.recommendations.filter(status=Recommendation.Status.DONE)
        .order_by("-version")
        .first()
    )
    shown = approved or finished
    sent = last_sent_link(submission)
    holds = ""
    if sent is not None and latest is not None and latest.version > sent.proposal.version:
        state = "approved" if latest.is_approved else "not approved"
        holds = (
            f"The customer holds version {sent.proposal.version} (sent "
            f"{timezone.localtime(sent.created_at):%d %b %Y}); version {latest.version} is "
            f"newer and {state}."
        )
    customer = f"{submission.company}: {submission.contact_name} <{submission.contact_email}>"
    if submission.contact_role:
        customer += f", {submission.contact_role}"
    return Summary(
        customer=customer,
        use_case=typed_use_case(submission),
        training=use_case(facts(submission)),
        version=shown,
        approved=shown is not None and shown.is_approved,
        recommendation=recommended_cluster(shown),
        cost=recommended_cost(shown),
        prices_hold_until=prices_valid_until(shown),
        status=submission.get_status_display(),
        assignee=full_name(submission.assignee) if submission.assignee else "nobody yet",
        next_action=next_action(submission, latest=latest, approved=approved, sent=sent),
        customer_holds=holds,
        settle=tuple(
            delegated_questions(answers=submission.answers or {}, result=read_result(shown.result))
        )
        if shown is not None
        else (),
    )


def next_action(
    submission: Submission,
    *,
    latest: Recommendation | None,
    approved: Recommendation | None,
    sent: ShareLink | None,
) -> NextAction:
    """What should happen next, and who does it."""
    manager = (
        f"{full_name(submission.assignee)} (account manager)"
        if submission.assignee
        else "An account manager (nobody assigned yet)"
    )
    if submission.status in FINISHED:
        return NextAction("Nobody", f"{submission.get_status_display()}; reopen it to continue.")
    if submission.pipeline_status == Submission.PipelineStatus.FAILED:
        return NextAction("An engineer", "The last run failed: retry it, or adjust and re-run.")
    if latest is not None and latest.status != Recommendation.Status.DONE:
        return NextAction("The pipeline", f"Sizing and writing version {latest.version} now.")
    if (
        latest is not None
        and not latest.is_approved
        and (
            submission.status in AWAITING_REVIEW
            or latest.version > (approved.version if approved else 0)
        )
    ):
        return NextAction(
            "An engineer", f"Review version {latest.version}: approve it, or adjust and re-run."
        )
    if submission.status == Status.APPROVED and approved is not None:
        return NextAction(manager, f"Send version {approved.version} to the customer.")
    if submission.status == Status.PROPOSAL_SENT and sent is not None:
        return NextAction(
            "The customer",
            f"Open the proposal sent {timezone.localtime(sent.created_at):%d %b}; "
            "then the account manager follows up.",
        )
    if submission.status == Status.VIEWED:
        return NextAction(manager, "Follow up with the customer, then mark won or lost.")
    return NextAction("An engineer", "Wait for the first version to be sized.")
