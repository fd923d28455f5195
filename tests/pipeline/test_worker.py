"""The pipeline with a real worker process and Redis: nothing lost, nothing produced twice.

Each test starts ``celery -A config worker`` (see conftest.py) against the test database. Test
hooks: PIPELINE_TEST_FAULTS (pipeline/steps.py, read only by that worker) slows or crashes a
step; nothing else differs from production.
"""

import hashlib
import os
import signal
import socket
import subprocess
import time
from datetime import timedelta
from io import BytesIO
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from config.celery import registered_task
from pipeline import services as pipeline_services
from pipeline.models import Proposal
from pipeline.steps import MAX_ATTEMPTS, RENDERING
from questionnaire.models import Draft, Submission
from questionnaire.questions import QUESTIONS
from questionnaire.services import Contact, issue_resume_token, submit_answers
from reports.demo import DEMO_FORM_DATA
from tests.conftest import PUBLISHERS
from tests.pipeline.conftest import CELERY, DEAD_BROKER, use_broker

RENDER_TASK = RENDERING.task_name

pytestmark = pytest.mark.worker


def submit(company: str = "Example Research Ltd") -> tuple[Submission, Draft]:
    """Submit the demo answers the way the wizard does (questionnaire.services.submit_answers)."""
    step_data = {}
    for question in QUESTIONS:
        data = DEMO_FORM_DATA.get(question.slug, question.example.data)
        step_data[question.slug] = {
            f"{question.slug}-{k}": [str(i) for i in v] if isinstance(v, list | tuple) else [str(v)]
            for k, v in data.items()
        }
    draft = Draft.objects.create(step_data=step_data, current_step="review")
    contact = Contact(name="Ada Tester", email="ada@example.com", company=company)
    return submit_answers(draft=draft, contact=contact), draft


def ready(submission: Submission) -> bool:
    submission.refresh_from_db()
    return submission.pipeline_status in ("ready", "failed")


def stored_pdf(proposal: Proposal) -> bytes:
    with proposal.pdf.open("rb") as stored:
        return stored.read()


def publish_nothing(monkeypatch) -> None:
    for module in PUBLISHERS:
        monkeypatch.setattr(f"{module}.publish", lambda *args: True)


def pending_proposal() -> Proposal:
    """A sized submission whose proposal is pending and not yet published anywhere."""
    submission, _draft = submit()
    recommendation = pipeline_services.start_pipeline(submission_id=submission.pk)
    pipeline_services.run_sizing(recommendation_id=recommendation.pk)  # in this process
    proposal = Proposal.objects.get(recommendation=recommendation)
    assert proposal.status == "pending"
    return proposal


def assert_one_good_pdf(proposal: Proposal) -> bytes:
    proposal.refresh_from_db()
    assert proposal.status == "done", proposal.error
    pdf = stored_pdf(proposal)
    assert len(pdf) == proposal.size_bytes > 0
    assert hashlib.sha256(pdf).hexdigest() == proposal.sha256
    assert len(PdfReader(BytesIO(pdf)).pages) == proposal.page_count
    folder = Path(proposal.pdf.path).parent
    assert sorted(p.name for p in folder.iterdir()) == [f"v{proposal.version}-proposal.pdf"]
    assert Proposal.objects.filter(submission_id=proposal.submission_id).count() == 1
    return pdf


def test_submit_then_the_worker_sizes_and_renders_the_proposal(start_worker):
    worker = start_worker()
    submission, _draft = submit()
    worker.wait_for(lambda: ready(submission), 60, "the proposal")
    assert submission.pipeline_status == "ready", submission.pipeline_error
    recommendation = submission.recommendations.get()
    assert (recommendation.status, recommendation.attempts) == ("done", 1)
    proposal = Proposal.objects.get(recommendation=recommendation)
    assert proposal.attempts == 1
    assert_one_good_pdf(proposal)


def test_the_render_task_twice_at_once_makes_one_proposal(start_worker, monkeypatch):
    publish_nothing(monkeypatch)
    proposal = pending_proposal()
    worker = start_worker(concurrency=2, PIPELINE_TEST_FAULTS="sleep:render:*:3")
    registered_task(RENDER_TASK).apply_async(args=[proposal.pk])
    registered_task(RENDER_TASK).apply_async(args=[proposal.pk])
    worker.wait_for(
        lambda: f"Proposal {proposal.pk} is being worked on by another worker" in worker.output(),
        30,
        "the duplicate to find the lock taken",
    )
    worker.wait_for(lambda: Proposal.objects.get(pk=proposal.pk).status == "done", 60, "the PDF")
    assert Proposal.objects.get(pk=proposal.pk).attempts == 1
    assert_one_good_pdf(proposal)


def test_killing_the_worker_child_mid_render_redelivers_and_makes_one_proposal(
    start_worker, monkeypatch
):
    publish_nothing(monkeypatch)
    proposal = pending_proposal()
    worker = start_worker(PIPELINE_TEST_FAULTS="sleep:render:*:4")
    registered_task(RENDER_TASK).apply_async(args=[proposal.pk])
    worker.wait_for(
        lambda: Proposal.objects.get(pk=proposal.pk).status == "rendering",
        30,
        "the render to start",
    )
    children = worker.child_pids()
    assert len(children) == 1
    os.kill(children[0], signal.SIGKILL)
    worker.wait_for(
        lambda: Proposal.objects.get(pk=proposal.pk).status == "done", 60, "the redelivered render"
    )
    assert "WorkerLostError" in worker.output()
    assert Proposal.objects.get(pk=proposal.pk).attempts == 2
    assert_one_good_pdf(proposal)


def test_a_task_that_always_crashes_ends_failed_at_the_cap_while_others_finish(start_worker):
    doomed, _ = submit(company="Doomed Ltd")
    fine, _ = submit(company="Fine Ltd")
    worker = start_worker(PIPELINE_TEST_FAULTS=f"crash:render:{doomed.reference}")
    worker.wait_for(lambda: ready(doomed) and ready(fine), 90, "both pipelines to settle")
    assert fine.pipeline_status == "ready"
    assert doomed.pipeline_status == "failed"
    proposal = Proposal.objects.get(submission=doomed)
    assert (proposal.status, proposal.attempts) == ("failed", MAX_ATTEMPTS)
    assert "injected test fault" in proposal.error
    assert "injected test fault" in doomed.pipeline_error
    assert not proposal.pdf
    time.sleep(2)  # no retry loops on after the cap
    assert Proposal.objects.get(pk=proposal.pk).attempts == MAX_ATTEMPTS


def test_redis_down_at_submit_the_customer_still_gets_confirmation_and_the_sweeper_recovers(
    start_worker, broker
):
    use_broker(DEAD_BROKER)
    started = time.monotonic()
    submission, draft = submit()
    assert time.monotonic() - started < 5  # the customer is not kept waiting
    assert Submission.objects.filter(pk=submission.pk).exists()
    client = Client()
    token = issue_resume_token(draft=draft)
    page = client.post("/q/resume/", {"token": token}, follow=True)
    assert page.status_code == 200
    assert submission.reference in page.content.decode()
    assert "Waiting for sizing" in page.content.decode()

    use_broker(broker)  # Redis is back
    worker = start_worker()
    time.sleep(1)
    assert not submission.recommendations.exists()  # the start message was lost
    Submission.objects.filter(pk=submission.pk).update(
        submitted_at=timezone.now() - timedelta(hours=1)
    )
    registered_task(pipeline_services.SWEEP_TASK).apply_async()  # what celery beat sends
    worker.wait_for(lambda: ready(submission), 60, "the swept submission's proposal")
    assert submission.pipeline_status == "ready"
    assert_one_good_pdf(Proposal.objects.get(submission=submission))
    page = client.get(page.redirect_chain[-1][0])
    assert "Our first estimate" in page.content.decode()


def test_storage_write_failure_is_retried_then_failed_with_no_file_marked_done(
    start_worker, tmp_path
):
    not_a_directory = tmp_path / "full-disk"
    not_a_directory.write_text("a file where the storage directory should be")
    submission, _ = submit()
    worker = start_worker(PRIVATE_STORAGE_ROOT=str(not_a_directory / "private"))
    worker.wait_for(lambda: ready(submission), 90, "the pipeline to give up")
    assert submission.pipeline_status == "failed"
    proposal = Proposal.objects.get(submission=submission)
    assert (proposal.status, proposal.attempts) == ("failed", MAX_ATTEMPTS)
    assert (proposal.pdf.name, proposal.sha256, proposal.size_bytes) == ("", "", None)
    assert "Not a directory" in proposal.error


def test_the_compose_health_check_pings_this_worker_and_no_other(start_worker, broker):
    """docker-compose.yml's worker health check: ``celery inspect ping -d <name>@$HOSTNAME``."""
    start_worker()
    env = {**os.environ, "CELERY_BROKER_URL": broker}

    def ping(name: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(CELERY), "-A", "config", "inspect", "ping", "--timeout", "5", "-d", name],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    alive = ping(f"test-{os.getpid()}@{socket.gethostname()}")
    assert alive.returncode == 0, alive.stdout + alive.stderr
    assert "pong" in alive.stdout
    assert ping(f"nobody-{os.getpid()}@{socket.gethostname()}").returncode != 0
