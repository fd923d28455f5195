"""After approval the proposal's cover says who checked it, when, and what changed from the
first estimate (issue 28: the approved cover still said "A first sizing")."""

from io import BytesIO

import pytest
from pypdf import PdfReader

from pipeline import services
from pipeline.models import Proposal
from staff import workflow
from tests.reports.factories import make_submission
from tests.staff.factories import make_user

pytestmark = pytest.mark.django_db


def _sized_and_rendered(recommendation) -> Proposal:
    services.run_sizing(recommendation_id=recommendation.pk)
    proposal = Proposal.objects.get(recommendation_id=recommendation.pk)
    services.render_proposal(proposal_id=proposal.pk)
    return Proposal.objects.get(pk=proposal.pk)


def _cover(proposal: Proposal) -> str:
    with proposal.pdf.open("rb") as stored:
        return " ".join(PdfReader(BytesIO(stored.read())).pages[0].extract_text().split())


@pytest.fixture
def approved_rerun(published, notified, django_capture_on_commit_callbacks):
    """Version 1 as sized, version 2 on another accelerator, approved by Erin Engineer."""
    erin = make_user("Engineers", first_name="Erin", last_name="Engineer")
    submission = make_submission(pipeline_status="ready")
    first = _sized_and_rendered(services.schedule_sizing(submission=submission))
    rerun = services.rerun_sizing(
        submission=submission, overrides={"hardware.accelerator": "a100-80gb"}, user=erin
    )
    second = _sized_and_rendered(rerun)
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        workflow.approve_version(submission=submission, recommendation=rerun, user=erin)
    return first, second, published


def test_approving_rewrites_the_cover_with_who_checked_it_and_what_changed(approved_rerun):
    first, second, published = approved_rerun
    assert (services.CHECKED_RENDER_TASK, second.pk) in published
    before = second.sha256
    assert "A first sizing" in _cover(second)

    assert services.render_checked_proposal(proposal_id=second.pk)

    second.refresh_from_db()
    cover = _cover(second)
    assert second.status == Proposal.Status.DONE and second.sha256 != before
    assert "A first sizing" not in cover
    assert "Checked by our engineer Erin Engineer on" in cover
    assert "moved from" in cover
    assert "because our engineer changed the accelerator from" in cover
    assert "NVIDIA A100 SXM4 80GB" in cover
    # the first estimate's own PDF is left as it was
    assert "A first sizing" in _cover(first)


def test_an_unapproved_version_is_never_stamped_as_checked(published, notified):
    submission = make_submission(pipeline_status="ready")
    proposal = _sized_and_rendered(services.schedule_sizing(submission=submission))
    assert not services.render_checked_proposal(proposal_id=proposal.pk)
    assert "A first sizing" in _cover(proposal)
