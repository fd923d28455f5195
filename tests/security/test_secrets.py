"""Findings (low): ``load_demo`` created the superuser ``demo-staff`` with a printed password in
production mode; the ``.env.example`` key was accepted with debug off and, with debug on, the
key committed in the repository (with which another customer's draft cookie could be forged).
"""

import secrets

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from config.secret_key import KNOWN_PLACEHOLDERS, MIN_ESTIMATED_BITS, estimated_bits
from questionnaire.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME
from tests.config.test_settings import run_manage

STRONG = "a-long-random-production-secret-" + "x7Qp2Lm9" * 6
PRINT_KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


@pytest.mark.django_db
def test_load_demo_refuses_to_run_with_debug_off():
    with pytest.raises(CommandError, match="--allow-production"):
        call_command("load_demo")
    assert not get_user_model().objects.filter(username=DEMO_USERNAME).exists()


@pytest.mark.django_db
def test_load_demo_in_production_prints_no_password_and_sets_none(capsys):
    call_command("load_demo", "--allow-production")
    out = capsys.readouterr().out
    assert DEMO_PASSWORD not in out and "changepassword" in out
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert not user.has_usable_password()


@pytest.mark.parametrize(
    "key", ["change-me-to-a-long-random-string", "short-but-random-Qx81", "a" * 60, "abcde" * 10]
)
def test_a_placeholder_or_weak_key_stops_startup_with_debug_off(tmp_path, key):
    result = run_manage("check", DJANGO_SECRET_KEY=key, DJANGO_VAR_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.parametrize(
    "key", ["abcde" * 10, "0123456789" * 6, "Password123!" * 5, "abcdefghijklmnopqrstuvwxyz" * 2]
)
def test_a_key_that_repeats_itself_is_refused_with_a_message_that_says_why(tmp_path, key):
    """Finding (low, issue 25): ``"abcde" * 10`` passed (50 characters, 5 different ones:
    Django's own bar)."""
    result = run_manage("check", DJANGO_SECRET_KEY=key, DJANGO_VAR_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is too predictable: it repeats itself" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr


def test_generated_keys_pass_the_estimate_with_room_to_spare():
    for _ in range(200):
        assert estimated_bits(secrets.token_urlsafe(50)) > 2 * MIN_ESTIMATED_BITS
        assert estimated_bits(secrets.token_hex(32)) > 1.5 * MIN_ESTIMATED_BITS
    assert estimated_bits(STRONG) >= MIN_ESTIMATED_BITS


def test_the_once_committed_debug_key_is_refused_even_with_debug_on(tmp_path):
    assert "insecure-development-key-only-used-with-debug-on" in KNOWN_PLACEHOLDERS
    result = run_manage(
        "check",
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY="insecure-development-key-only-used-with-debug-on",
        DJANGO_VAR_DIR=str(tmp_path),
    )
    assert result.returncode != 0 and "published placeholder" in result.stderr


def test_with_debug_on_each_checkout_generates_its_own_key(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    keys = [
        run_manage("shell", "-c", PRINT_KEY, DJANGO_DEBUG="1", DJANGO_VAR_DIR=str(var))
        for var in (first, first, second)
    ]
    assert all(result.returncode == 0 for result in keys), keys[0].stderr
    values = [result.stdout.strip().splitlines()[-1] for result in keys]
    assert values[0] == values[1] != values[2]
    assert len(values[0]) >= 50 and values[0] not in KNOWN_PLACEHOLDERS
    assert (first / "secret_key").stat().st_mode & 0o077 == 0


def test_a_strong_key_is_accepted(tmp_path):
    result = run_manage("check", DJANGO_SECRET_KEY=STRONG, DJANGO_VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
