"""Recommendation and Proposal moved from ``sizing``/``reports`` to ``pipeline``: rows written at
the old schema read back after the move, with their files' rows, links and role permissions."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from pipeline.models import Proposal, Recommendation
from staff.models import ShareLink

# Every app at the last migration before the move (pipeline not created yet).
BEFORE_THE_MOVE = [
    ("questionnaire", "0002_draft_revision"),
    ("sizing", "0001_initial"),
    ("reports", "0001_initial"),
    ("staff", "0002_roles"),
    ("pipeline", None),
]
# Further back, so the roles migration runs again (a transactional test's flush removes groups).
BEFORE_THE_ROLES = [
    ("questionnaire", "0002_draft_revision"),
    ("staff", "0001_initial"),
    ("pipeline", None),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    applied = [target for target in targets if target[1] is not None]
    return executor.loader.project_state(applied).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_read_back_through_the_pipeline_models():
    migrate(BEFORE_THE_ROLES)
    old = migrate(BEFORE_THE_MOVE)
    try:
        submission = old.get_model("questionnaire", "Submission").objects.create(
            reference="TQ-OLD-00001",
            contact_name="Ada",
            contact_email="ada@example.com",
            company="Old Schema Ltd",
            privacy_consent_at=timezone.now(),
            answers={"model": {"total_params": 7e10}},
        )
        recommendation = old.get_model("sizing", "Recommendation").objects.create(
            submission=submission,
            version=1,
            status="done",
            engine_input={"model": {"total_params": 7e10}},
            result={"cluster": {"gpus": 64}, "input_sources": {"model.total_params": "customer"}},
        )
        proposal = old.get_model("reports", "Proposal").objects.create(
            submission=submission,
            recommendation=recommendation,
            version=1,
            status="done",
            pdf="proposals/x/v1-proposal.pdf",
            sha256="a" * 64,
        )
        old.get_model("staff", "ShareLink").objects.create(
            proposal=proposal, expires_at=timezone.now()
        )
        engineers = old.get_model("auth", "Group").objects.get(name="Engineers")
        assert engineers.permissions.filter(
            content_type__app_label="sizing", codename="view_recommendation"
        ).exists()
    finally:
        migrate(latest())

    moved = Recommendation.objects.get(pk=recommendation.pk)
    assert moved.submission.reference == "TQ-OLD-00001"
    assert moved.result == {"cluster": {"gpus": 64}}  # the sources left the result …
    assert moved.input_sources == {"model.total_params": "customer"}  # … for their own column
    read_back = Proposal.objects.get(pk=proposal.pk)
    assert (read_back.recommendation_id, read_back.sha256) == (moved.pk, "a" * 64)
    assert read_back.pdf.name == "proposals/x/v1-proposal.pdf"
    assert ShareLink.objects.get(proposal=read_back).proposal.version == 1

    from django.contrib.auth.models import Group

    permissions = {
        f"{p.content_type.app_label}.{p.codename}"
        for p in Group.objects.get(name="Engineers").permissions.all()
    }
    assert {"pipeline.view_recommendation", "pipeline.view_proposal"} <= permissions
    assert not {p for p in permissions if p.startswith(("sizing.", "reports."))}


# Just before the approval gate and the email outbox.
BEFORE_THE_GATE = [
    ("questionnaire", "0002_draft_revision"),
    ("pipeline", "0002_recommendation_input_sources"),
    ("staff", "0003_proposals_live_in_pipeline"),
]


@pytest.mark.django_db(transaction=True)
def test_the_gate_approves_what_customers_were_already_sent_and_nothing_else():
    old = migrate(BEFORE_THE_GATE)
    try:
        Submission = old.get_model("questionnaire", "Submission")
        OldRecommendation = old.get_model("pipeline", "Recommendation")
        OldProposal = old.get_model("pipeline", "Proposal")

        def submission_with_versions(reference: str, status: str, proposals: list[str | None]):
            submission = Submission.objects.create(
                reference=reference,
                contact_name="Ada",
                contact_email="ada@example.com",
                company="Old Ltd",
                privacy_consent_at=timezone.now(),
                status=status,
            )
            for version, proposal_status in enumerate(proposals, start=1):
                row = OldRecommendation.objects.create(
                    submission=submission, version=version, status="done", result={}
                )
                if proposal_status:
                    OldProposal.objects.create(
                        submission=submission,
                        recommendation=row,
                        version=version,
                        status=proposal_status,
                    )
            return submission.pk

        sent = submission_with_versions("TQ-OLD-00010", "proposal_sent", ["done", "failed"])
        won = submission_with_versions("TQ-OLD-00011", "won", ["done"])
        fresh = submission_with_versions("TQ-OLD-00012", "new", ["done"])
    finally:
        migrate(latest())

    def approved(submission_id):
        return list(
            Recommendation.objects.filter(submission_id=submission_id, approved_at__isnull=False)
            .order_by("version")
            .values_list("version", flat=True)
        )

    assert approved(sent) == [1]  # v2's proposal failed: the customer holds v1
    assert approved(won) == [1]
    assert approved(fresh) == []  # waiting for review: only the preliminary estimate shows
