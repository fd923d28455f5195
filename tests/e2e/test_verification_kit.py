"""The verification kit in a real browser (issue 30): the kit runs for real on this machine's CPU
(tiny sizes, two gloo processes), and its file is uploaded on the customer's hardware page; the
customer then records an actual run. The page passes axe and breaks no Content-Security-Policy.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from pipeline.models import ActualRun, HardwareMeasurement
from questionnaire import access
from questionnaire.services import start_draft
from tests.e2e.accessibility import CUSTOMER_TAGS, serious_violations
from tests.staff.factories import (
    access_cookie,
    make_proposal,
    make_recommendation,
    make_submission,
    sized_fields,
)

pytestmark = pytest.mark.e2e

KIT = Path(__file__).resolve().parents[2] / "kit" / "verify_hardware.py"


def test_the_kit_runs_on_the_cpu_and_its_file_is_uploaded_through_the_browser(
    browser, live_server, screenshot_dir, tmp_path
):
    draft = start_draft()
    submission = make_submission(draft=draft)
    make_proposal(make_recommendation(submission, **sized_fields("h100-sxm")))
    done = subprocess.run(
        [sys.executable, str(KIT), "--reference", submission.reference],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = tmp_path / f"kit-results-{submission.reference}.json"

    context = browser.new_context(
        bypass_csp=True, locale="en-GB", viewport={"width": 1280, "height": 900}
    )
    context.add_cookies(
        [
            {
                "name": access.COOKIE_NAME,
                "value": access_cookie(draft),
                "domain": urlsplit(live_server.url).hostname,
                "path": "/",
            }
        ]
    )
    csp_errors: list[str] = []
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on(
        "console",
        lambda m: csp_errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(live_server.url + reverse("questionnaire:confirmation", args=[draft.pk]))
    page.get_by_role("link", name="Measure your hardware, or tell us how training went").click()
    assert page.locator(".kit-command").inner_text().endswith(submission.reference)

    page.get_by_label("The kit's results file").set_input_files(str(results))
    page.get_by_role("button", name="Upload the results").click()
    page.wait_for_selector(".measured-figures")
    assert "which is no accelerator of our catalogue" in page.content()
    measurement = HardwareMeasurement.objects.get(submission=submission)
    assert measurement.accelerator_name == "CPU only"
    assert measurement.results["all_reduce_bus_gb_per_s_within_node"] > 0
    assert page.locator(".measured-figures tr").count() == 7

    page.get_by_label("Accelerator", exact=True).select_option("h100-sxm")
    page.get_by_label("Accelerators used").fill("16")
    page.get_by_label("Days, first step to last").fill("0.6")
    page.get_by_label("Accelerator-hours").fill("230")
    page.get_by_label("Tokens trained on").fill("6e8")
    page.get_by_label("Interruptions").fill("1")
    page.get_by_role("button", name="Record the run").click()
    page.wait_for_selector(".actual-runs")
    assert ActualRun.objects.get(submission=submission).gpu_hours == 230

    problems = serious_violations(page, CUSTOMER_TAGS)
    page.screenshot(path=str(screenshot_dir / "verification-kit-page.png"), full_page=True)
    context.close()
    assert problems == [], "\n".join(problems)
    assert csp_errors == []
