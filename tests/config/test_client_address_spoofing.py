"""Finding (high, issue 25): a header ending in an unclosed quote picked the client's address.

``X-Forwarded-For: 10.8.0.5, "`` made the app key the request on 10.8.0.5: django-ipware's
lenient parse let the quote swallow the address nginx appended. With it one client opened 40 of
40 new questionnaires (limit 30), sent 18 resume emails to one address (limit 10), tried 45
usernames at staff sign-in (limit 30), made 12 wrong passwords for one staff account without
a lockout, and locked a real engineer out; with the two-proxy compose layout, two made-up
entries before the quote did the same. Each attempt is replayed here, behind one proxy and
behind two, with the limits as configured (config/settings.py).
"""

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

from questionnaire.models import Draft
from tests.config.proxy_layouts import EACH_LAYOUT, Layout
from tests.staff.factories import PASSWORD, make_user

pytestmark = [pytest.mark.django_db, EACH_LAYOUT]

ATTACKER = "198.51.100.66"
ENGINEER = "203.0.113.20"
LOCKED = (403, 429)


@pytest.fixture(autouse=True)
def quick_password_hashing(settings):
    # Every sign-in attempt hashes a password (even for an unknown username); the default
    # hasher's cost would make 45 attempts take a minute on a shared machine.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def spoofed(layout: Layout, invented: str) -> str:
    """The attack's header: as many made-up entries as there are proxies, then a lone quote."""
    return ", ".join([invented] * layout.count) + ', "'


def as_attacker(layout: Layout, attempt: int) -> dict[str, str]:
    """Request META of the attacker's ``attempt``-th request, each naming a new address."""
    return layout.meta(ATTACKER, spoofed(layout, f"10.8.{attempt // 250}.{attempt % 250 + 1}"))


def test_new_questionnaires_stop_at_the_limit(settings, layout):
    layout.apply(settings)
    limit = settings.DRAFTS_PER_HOUR
    client = Client()
    statuses = [
        client.post(reverse("questionnaire:start"), **as_attacker(layout, n)).status_code
        for n in range(limit + 10)
    ]
    assert statuses.count(302) == limit and statuses[limit:] == [429] * 10
    assert Draft.objects.count() == limit


def test_resume_emails_stop_at_the_limit(settings, layout, django_capture_on_commit_callbacks):
    layout.apply(settings)
    limit = settings.RESUME_EMAILS_PER_HOUR
    client = Client()
    for n in range(limit + 8):
        started = client.post(reverse("questionnaire:start"), **as_attacker(layout, n))
        draft_id = started["Location"].split("/")[2]
        with django_capture_on_commit_callbacks(execute=True):  # the mailer's outbox rows
            client.post(
                reverse("questionnaire:save", args=[draft_id]),
                {"email": "victim@example.com"},
                **as_attacker(layout, n),
            )
    assert len(mail.outbox) == limit


def test_staff_sign_in_stops_at_the_limit_across_usernames(settings, layout):
    layout.apply(settings)
    limit = settings.STAFF_LOGIN_ATTEMPTS_PER_HOUR
    client = Client()
    statuses = [
        client.post(
            "/admin/login/", {"username": f"user{n}", "password": "guess"}, **as_attacker(layout, n)
        ).status_code
        for n in range(limit + 15)
    ]
    assert statuses[:limit] == [200] * limit and statuses[limit:] == [429] * 15


def test_wrong_passwords_for_one_account_lock_the_attacker_out(settings, layout):
    layout.apply(settings)
    user = make_user("Engineers")
    client = Client()
    statuses = [
        client.post(
            "/admin/login/",
            {"username": user.username, "password": "wrong"},
            **as_attacker(layout, n),
        ).status_code
        for n in range(12)
    ]
    # Below the limit the form says "wrong"; from the limit on, the attacker is locked out.
    assert statuses.count(200) < settings.AXES_FAILURE_LIMIT
    assert all(status in LOCKED for status in statuses[settings.AXES_FAILURE_LIMIT :])
    # Every attempt was counted against the attacker's real address, so even the right
    # password no longer opens the account from there ...
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {ATTACKER}
    right = client.post(
        "/admin/login/",
        {"username": user.username, "password": PASSWORD},
        **as_attacker(layout, 99),
    )
    assert right.status_code in LOCKED and "_auth_user_id" not in client.session


def test_an_attacker_cannot_lock_out_an_engineer_at_another_address(settings, layout):
    layout.apply(settings)
    user = make_user("Engineers")
    attacker = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        attacker.post(
            "/admin/login/",
            {"username": user.username, "password": "wrong"},
            **layout.meta(ATTACKER, spoofed(layout, ENGINEER)),
        )
    engineer = Client()
    response = engineer.post(
        "/admin/login/",
        {"username": user.username, "password": PASSWORD, "next": "/admin/"},
        **layout.meta(ENGINEER),
    )
    assert response.status_code == 302
    assert engineer.session["_auth_user_id"] == str(user.pk)
