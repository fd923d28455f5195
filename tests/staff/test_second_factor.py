"""Staff sign in with a password and then a second factor (OWASP ASVS level 2, 2.7 and 2.8).

A staff member without an authenticator sets one up after the password (secret and QR code,
confirmed with a code, recovery codes shown once); with one, the code page asks for six digits
or a recovery code. Until then no staff page, download or workflow action is reachable, and
guessing codes is limited per address, per username+address (django-axes) and per device.
"""

import base64
import re
from datetime import timedelta
from html import unescape
from io import StringIO

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from staff.models import AuditEvent, Note
from staff.sign_in.devices import RECOVERY_CODE_COUNT
from tests.staff.factories import (
    PASSWORD,
    authenticator,
    authenticator_code,
    make_user,
    unused_authenticator_code,
)
from tests.staff.test_permissions import post_actions, ready, staff_urls  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

CODE_PAGE = "/admin/second-factor/"
SET_UP_PAGE = "/admin/second-factor/set-up/"


def password_only(user, next_url: str = "/admin/", client: Client | None = None) -> Client:
    """A browser that has typed the right password and nothing more."""
    client = client or Client()
    response = client.post(
        "/admin/login/", {"username": user.username, "password": PASSWORD, "next": next_url}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(CODE_PAGE), response["Location"]
    return client


def type_code(client: Client, code: str, page: str = CODE_PAGE, next_url: str = "/admin/"):
    return client.post(page, {"code": code, "next": next_url})


def is_signed_in(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def shown_secret(page: str) -> bytes:
    found = re.search(r'id="secret">([A-Z2-7 ]+)</code>', page)
    assert found, page
    return base64.b32decode(found.group(1).replace(" ", ""))


# --- Nothing before the second factor -----------------------------------------------------------


def test_after_the_password_every_staff_page_asks_to_sign_in(ready):  # noqa: F811
    superuser = make_user("superuser")
    authenticator(superuser)
    client = password_only(superuser)
    for name, url in staff_urls(ready).items():
        response = client.get(url)
        assert response.status_code == 302, (name, response.status_code)
        assert response["Location"].startswith("/admin/login/"), name
        # ...and the sign-in page sends them on to the code, not to the page.
        assert client.get(response["Location"])["Location"].startswith(CODE_PAGE), name


def test_after_the_password_no_workflow_action_runs(ready):  # noqa: F811
    superuser = make_user("superuser")
    authenticator(superuser)
    client = password_only(superuser)
    for name, (url, data) in post_actions(ready).items():
        response = client.post(url, data)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], name
    assert not AuditEvent.objects.exists() and not Note.objects.exists()


def test_customer_pages_still_open_between_the_two_steps():
    engineer = make_user("Engineers")
    client = password_only(engineer)
    assert client.get("/").status_code == 200
    assert client.get("/glossary/").status_code == 200


# --- First sign-in: setting up the authenticator ---------------------------------------------------


def test_the_first_sign_in_sets_up_an_authenticator_and_shows_recovery_codes_once():
    engineer = make_user("Engineers")
    client = password_only(engineer, next_url="/staff/overview/")
    response = client.get(f"{CODE_PAGE}?next=/staff/overview/")
    assert response["Location"] == f"{SET_UP_PAGE}?next=%2Fstaff%2Foverview%2F"
    page = client.get(response["Location"]).content.decode()
    assert 'src="data:image/svg+xml' in page  # the QR code: an image, no script
    assert "otpauth://totp/" in unescape(page)
    key = shown_secret(page)
    assert shown_secret(client.get(SET_UP_PAGE).content.decode()) == key  # same on reload

    wrong = type_code(client, "000000" if totp(key) != 0 else "111111", SET_UP_PAGE)
    assert "does not match" in wrong.content.decode()
    assert not is_signed_in(client)
    TOTPDevice.objects.filter(user=engineer).update(  # the one-second wait after a wrong code
        throttling_failure_timestamp=timezone.now() - timedelta(seconds=2)
    )

    done = type_code(client, f"{totp(key):06d}", SET_UP_PAGE, "/staff/overview/")
    assert done.status_code == 200
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", done.content.decode())
    assert len(codes) == RECOVERY_CODE_COUNT
    assert 'href="/staff/overview/"' in done.content.decode()
    assert is_signed_in(client)
    assert TOTPDevice.objects.get(user=engineer).confirmed
    # Shown once: afterwards the set-up page is gone for this account.
    assert client.get(SET_UP_PAGE).status_code == 302


def test_with_an_authenticator_set_up_the_set_up_page_is_refused():
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    client = password_only(engineer)
    assert client.get(SET_UP_PAGE)["Location"].startswith(CODE_PAGE)
    assert type_code(client, authenticator_code(device), SET_UP_PAGE).status_code == 302
    assert TOTPDevice.objects.filter(user=engineer).count() == 1
    assert not is_signed_in(client)


# --- Later sign-ins: the code page -----------------------------------------------------------------


def test_a_wrong_code_is_refused_and_the_right_one_admits():
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    client = password_only(engineer, next_url="/staff/overview/")
    before = client.session.session_key
    right = authenticator_code(device)
    wrong = type_code(client, f"{(int(right) + 1) % 1_000_000:06d}")
    assert wrong.status_code == 200 and "not right" in wrong.content.decode()
    # the code box is laid out by crispy, as one of the admin's form rows with its error
    assert "admin/crispy/form_row.html" in {template.name for template in wrong.templates}
    assert '<div class="form-row errors">' in wrong.content.decode()
    assert not is_signed_in(client)

    TOTPDevice.objects.filter(pk=device.pk).update(  # the one-second wait after a wrong code
        throttling_failure_timestamp=timezone.now() - timedelta(seconds=2)
    )
    admitted = type_code(client, right, next_url="/staff/overview/")
    assert admitted.status_code == 302 and admitted["Location"] == "/staff/overview/"
    assert client.session.session_key != before  # a new session key for the new privilege
    assert is_signed_in(client)


def test_a_code_is_accepted_once():
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    code = authenticator_code(device)
    assert type_code(password_only(engineer), code).status_code == 302
    replayed = type_code(password_only(engineer), code)
    assert replayed.status_code == 200 and "used already" in replayed.content.decode()


def test_a_recovery_code_admits_once():
    engineer = make_user("Engineers")
    authenticator(engineer)
    recovery_code = StaticToken.objects.filter(device__user=engineer).first().token
    spaced = f"{recovery_code[:4].upper()} {recovery_code[4:].upper()}"
    client = password_only(engineer)
    response = type_code(client, spaced)
    assert response.status_code == 302
    assert "recovery code" in client.get("/admin/").content.decode()  # how many are left
    assert StaticToken.objects.filter(device__user=engineer).count() == RECOVERY_CODE_COUNT - 1
    assert type_code(password_only(engineer), recovery_code).status_code == 200


def test_the_device_makes_its_owner_wait_after_wrong_codes():
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    type_code(password_only(engineer), f"{(int(authenticator_code(device)) + 1) % 1_000_000:06d}")
    device.refresh_from_db()
    assert device.throttling_failure_count == 1
    # As after five wrong codes in a row: 2**4 = 16 seconds before the next is read.
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=5)
    client = password_only(engineer)  # another browser, another address: the same wait
    refused = type_code(client, authenticator_code(device))
    assert refused.status_code == 200 and "try again after" in refused.content.decode()
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_timestamp=timezone.now() - timedelta(seconds=17)
    )
    assert type_code(client, authenticator_code(device)).status_code == 302


def test_a_foreign_next_address_is_ignored():
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    client = password_only(engineer)
    response = type_code(client, authenticator_code(device), next_url="https://evil.example/")
    assert response["Location"] == "/admin/"


def test_signing_out_between_the_steps_ends_the_session():
    engineer = make_user("Engineers")
    client = password_only(engineer)
    assert client.post("/admin/second-factor/sign-out/")["Location"] == "/admin/login/"
    assert SESSION_KEY not in client.session
    assert client.get(CODE_PAGE)["Location"].startswith("/admin/login/")


# --- Guessing codes is limited ------------------------------------------------------------------


def test_wrong_codes_lock_the_account_like_wrong_passwords(settings):
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    client = password_only(engineer)
    wrong = f"{(int(authenticator_code(device)) + 1) % 1_000_000:06d}"
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert type_code(client, wrong).status_code == 200
    locked = type_code(client, wrong)
    assert locked.status_code == settings.AXES_HTTP_RESPONSE_CODE
    assert SESSION_KEY not in client.session  # the password step must be done again...
    again = Client().post("/admin/login/", {"username": engineer.username, "password": PASSWORD})
    assert again.status_code == settings.AXES_HTTP_RESPONSE_CODE  # ...and is locked, too


def test_codes_are_limited_per_address(settings):
    settings.STAFF_CODE_ATTEMPTS_PER_HOUR = 3
    settings.AXES_FAILURE_LIMIT = 100
    engineer = make_user("Engineers")
    authenticator(engineer)
    client = password_only(engineer)
    for _ in range(3):
        assert type_code(client, "123456").status_code == 200
    refused = type_code(client, "123456")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_the_code_typed_is_not_stored_with_the_failed_attempt(settings):
    from axes.models import AccessAttempt

    engineer = make_user("Engineers")
    authenticator(engineer)
    type_code(password_only(engineer), "ab3d ef7h")
    attempt = AccessAttempt.objects.get(username=engineer.username)
    assert "ab3def7h" not in attempt.post_data and "ab3d" not in attempt.post_data


# --- Commands -----------------------------------------------------------------------------------


def test_resetting_a_lost_device_makes_the_next_sign_in_set_up_a_new_one():
    engineer = make_user("Engineers")
    authenticator(engineer)
    out = StringIO()
    call_command("reset_second_factor", engineer.username, stdout=out)
    assert "set up a new authenticator" in out.getvalue()
    assert not TOTPDevice.objects.filter(user=engineer).exists()
    assert not StaticDevice.objects.filter(user=engineer).exists()
    client = password_only(engineer)
    assert client.get(CODE_PAGE)["Location"].startswith(SET_UP_PAGE)
    with pytest.raises(CommandError, match="no user"):
        call_command("reset_second_factor", "nobody-here")


def test_a_script_signs_in_with_the_secret_the_set_up_command_prints():
    """The recipe for scripts (the production smoke test): print the secret, compute codes."""
    engineer = make_user("Engineers")
    out = StringIO()
    call_command("set_up_second_factor", engineer.username, "--secret-only", stdout=out)
    secret = out.getvalue().strip()
    client = password_only(engineer)
    assert type_code(client, f"{totp(base64.b32decode(secret)):06d}").status_code == 302
    assert is_signed_in(client)
    with pytest.raises(CommandError, match="reset_second_factor"):
        call_command("set_up_second_factor", engineer.username)


def test_the_test_sign_in_helper_types_a_fresh_code_each_time():
    engineer = make_user("Engineers")
    device = authenticator(engineer)
    first = unused_authenticator_code(device)
    assert type_code(password_only(engineer), first).status_code == 302
    second = unused_authenticator_code(device)
    assert second != first
    assert type_code(password_only(engineer), second).status_code == 302
