"""Every staff sign-in asks for the second factor, in headless Chromium.

The first sign-in sets up the authenticator from the secret the page shows (the test computes
the codes from it, as an app would), the recovery codes are shown once; every later sign-in
stops at the code page, where a wrong code is refused, the right one admits and a recovery code
admits once. No staff page opens in between, and the pages break no Content-Security-Policy.
"""

import base64
import time

import pytest
from django_otp.oath import totp

from tests.e2e.staff_sign_in import type_password
from tests.staff.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def submit_code(page, code: str) -> None:
    page.fill("#id_code", code)
    with page.expect_navigation():
        page.locator("#code-form input[type=submit]").click()


def sign_out(page) -> None:
    with page.expect_navigation():
        page.locator("#logout-form button").click()


def test_every_staff_sign_in_asks_for_the_second_factor(browser_page, screenshot_dir):
    page = browser_page
    base = page.base_url
    engineer = make_user("Engineers", username="erin", first_name="Erin")

    # First sign-in: after the password, set up the authenticator.
    type_password(page, base, engineer)
    assert page.url.startswith(f"{base}/admin/second-factor/set-up/"), page.url
    assert page.locator("img.second-factor-qr").evaluate("img => img.naturalWidth") > 0
    page.screenshot(path=screenshot_dir / "staff-second-factor-set-up.png", full_page=True)
    key = base64.b32decode(page.inner_text("#secret").replace(" ", ""))
    submit_code(page, f"{totp(key):06d}")
    recovery_codes = page.locator("#recovery-codes code").all_inner_texts()
    assert len(recovery_codes) == 10
    page.screenshot(path=screenshot_dir / "staff-second-factor-recovery-codes.png")
    with page.expect_navigation():
        page.click("#continue")
    assert page.url == f"{base}/admin/" and page.locator("#logout-form").count() == 1
    sign_out(page)

    # Second sign-in: the code page, and no staff page before it.
    type_password(page, base, engineer)
    assert page.url.startswith(f"{base}/admin/second-factor/?"), page.url
    for staff_page in ("/admin/", "/admin/questionnaire/submission/", "/staff/overview/"):
        page.goto(base + staff_page)
        assert page.url.startswith(f"{base}/admin/second-factor/?"), (staff_page, page.url)
    page.screenshot(path=screenshot_dir / "staff-second-factor-code.png", full_page=True)

    right = totp(key, drift=1)  # the next step's code: this step's was used to set up
    submit_code(page, f"{(right + 1) % 1_000_000:06d}")
    assert "That code is not right" in page.inner_text("#content-main")
    assert page.url.startswith(f"{base}/admin/second-factor/")
    time.sleep(1.1)  # the device's wait after one wrong code
    submit_code(page, f"{totp(key, drift=1):06d}")
    assert page.url == f"{base}/staff/overview/", page.url  # the page last asked for
    sign_out(page)

    # A recovery code instead of the app admits once.
    type_password(page, base, engineer)
    submit_code(page, recovery_codes[0])
    assert page.url == f"{base}/admin/"
    assert "recovery code; 9 left" in page.inner_text("body")
    sign_out(page)
    type_password(page, base, engineer)
    submit_code(page, recovery_codes[0])
    assert "That code is not right" in page.inner_text("#content-main")
    assert page.url.startswith(f"{base}/admin/second-factor/")

    # The browser logs the favicon 404 as a console error; anything else (CSP!) is a failure.
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []
