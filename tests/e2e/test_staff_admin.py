"""An engineer, in headless Chromium, overrides the accelerator, re-runs and downloads the PDF.

Tasks run in-process here (no broker in tests): the re-run's sizing and render happen when the
override is saved, so the new version's PDF is there when the page comes back.
"""

import pytest

from pipeline.models import Proposal, Recommendation
from pipeline.services import schedule_sizing
from tests.e2e.staff_sign_in import sign_in_in_browser
from tests.staff.factories import make_submission, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_engineer_overrides_the_accelerator_reruns_and_downloads_the_new_pdf(
    browser_page, screenshot_dir, tmp_path
):
    page = browser_page
    failed_requests: list[str] = []
    page.on(
        "response",
        lambda r: (
            failed_requests.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    engineer = make_user("Engineers", username="erin", first_name="Erin", last_name="Engineer")
    submission = make_submission(company="Northwind Robotics")
    schedule_sizing(submission=submission)  # v1 through the real pipeline (tasks in-process)
    assert Proposal.objects.get(submission=submission, version=1).status == Proposal.Status.DONE
    make_submission(company="Contoso AI", status="in_review")
    make_submission(company="Fabrikam Labs", pipeline_status="failed", pipeline_error="timeout")

    page.set_viewport_size({"width": 1600, "height": 1000})  # staff work on desktops
    sign_in_in_browser(page, page.base_url, engineer)
    assert page.url == f"{page.base_url}/admin/"
    page.goto(f"{page.base_url}/admin/questionnaire/submission/")
    page.screenshot(path=screenshot_dir / "staff-submission-list.png", full_page=True)
    page.click(f"text={submission.reference}")
    page.wait_for_selector("#answers")
    page.screenshot(path=screenshot_dir / "staff-submission-change.png", full_page=True)

    page.click("a.override-link")
    page.select_option("select[name='hardware.accelerator']", "h100-sxm")
    page.fill("input[name='reason']", "Customer can get H100s sooner")
    page.screenshot(path=screenshot_dir / "staff-override-form.png", full_page=True)
    page.click("input[name='_rerun']")
    page.wait_for_selector("text=Sizing again as version 2")

    new = Recommendation.objects.get(submission=submission, version=2)
    assert new.overrides == {"hardware": {"accelerator": "h100-sxm"}}
    assert new.status == Recommendation.Status.DONE, new.error
    assert Proposal.objects.get(recommendation=new).status == Proposal.Status.DONE
    assert Recommendation.objects.filter(submission=submission).count() == 2  # v1 kept

    page.reload()
    page.screenshot(path=screenshot_dir / "staff-submission-after-rerun.png", full_page=True)
    with page.expect_download() as info:
        page.click("a.download-pdf:has-text('Download PDF v2')")
    download = info.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert download.suggested_filename == f"proposal-{submission.reference}-v2.pdf"
    assert saved.read_bytes().startswith(b"%PDF")
    assert failed_requests == []
    # The browser logs the favicon 404 as a console error; anything else (CSP!) is a failure.
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []
