"""Staff sign-in in the browser, as a person does it: the password, then the code page."""

from __future__ import annotations

from tests.staff.factories import PASSWORD, authenticator, unused_authenticator_code


def type_password(page, base_url: str, user) -> None:
    page.goto(f"{base_url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.locator("input[type=submit]").click()


def sign_in_in_browser(page, base_url: str, user) -> None:
    """Password, then a code from the user's authenticator app (set up for them if none)."""
    device = authenticator(user)
    type_password(page, base_url, user)
    assert "/admin/second-factor/" in page.url, page.url
    page.fill("#id_code", unused_authenticator_code(device))
    with page.expect_navigation():
        page.locator("#code-form input[type=submit]").click()
    assert "/admin/second-factor/" not in page.url and "/admin/login/" not in page.url, page.url
