"""The proposal on screen and the estimate's charts pass axe with 0 issues (issue 28, "On screen
too"), in a real browser: the customer's own proposal page, the share link's page, and the
review and confirmation pages with their charts. No Content-Security-Policy violation either
(the charts are inline SVG; no script or style is inline). Page screenshots are written for a
person to look at.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from questionnaire import access
from questionnaire.services import start_draft
from staff import sharing
from tests.e2e.accessibility import CUSTOMER_TAGS, serious_violations
from tests.questionnaire.conftest import step_url, walk_to_review
from tests.staff.factories import (
    access_cookie,
    make_proposal,
    make_recommendation,
    make_submission,
    make_user,
    sized_fields,
)

pytestmark = pytest.mark.e2e


def open_page(context, url: str, csp_errors: list[str]):
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on(
        "console",
        lambda message: (
            csp_errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(url)
    return page


def test_the_proposal_on_screen_and_the_estimate_charts_pass_axe(
    browser, live_server, screenshot_dir
):
    base = live_server.url
    draft = start_draft()
    submission = make_submission(draft=draft, company="Example Insurance Group")
    recommendation = make_recommendation(submission, **sized_fields())
    proposal = make_proposal(recommendation)
    link = sharing.create_share_link(
        proposal=proposal, user=make_user("Engineers"), note="As promised on Tuesday."
    )

    # the review page of a questionnaire walked to its end (its cookie handed to the browser)
    walker = Client()
    review_draft = walk_to_review(walker, {"timeline": {"run_time_hours": "72"}})

    # bypass_csp only lets axe's own script in; the page's console still reports a violation
    context = browser.new_context(
        bypass_csp=True, locale="en-GB", viewport={"width": 1280, "height": 900}
    )
    host = urlsplit(base).hostname
    context.add_cookies(
        [
            {
                "name": access.COOKIE_NAME,
                "value": access_cookie(draft),
                "domain": host,
                "path": "/",
            },
        ]
    )
    found: dict[str, list[str]] = {}
    csp_errors: list[str] = []
    pages = {
        "customer": base + reverse("proposals:customer_web", args=[draft.pk]),
        "share-link": base + urlsplit(sharing.share_url(link)).path,
        "confirmation": base + reverse("questionnaire:confirmation", args=[draft.pk]),
    }
    for what, url in pages.items():
        page = open_page(context, url, csp_errors)
        assert page.locator("svg.chart").count() >= 2, what
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        found[what] = serious_violations(page, CUSTOMER_TAGS)
        page.screenshot(
            path=str(screenshot_dir / f"on-screen-{what}.png"),
            full_page=True,
        )
        page.close()
    context.close()

    reviewer = browser.new_context(bypass_csp=True, locale="en-GB")
    reviewer.add_cookies(
        [
            {
                "name": access.COOKIE_NAME,
                "value": walker.cookies[access.COOKIE_NAME].value,
                "domain": host,
                "path": "/",
            }
        ]
    )
    page = open_page(reviewer, base + step_url(review_draft, "review"), csp_errors)
    assert page.locator(".first-estimate svg.chart").count() == 2
    found["review"] = serious_violations(page, CUSTOMER_TAGS)
    page.screenshot(path=str(screenshot_dir / "on-screen-review.png"), full_page=True)
    reviewer.close()

    problems = [line for lines in found.values() for line in lines]
    assert problems == [], "\n".join(problems)
    assert csp_errors == []
