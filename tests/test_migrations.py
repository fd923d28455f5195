"""Every model change ships with its migration (issue 31: CI had no `makemigrations --check`)."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_is_left_without_a_migration(capsys):
    try:
        call_command("makemigrations", "--check", "--dry-run", verbosity=1)
    except SystemExit as exit_:  # --check exits 1 when a migration would be written
        pytest.fail(f"models changed without a migration:\n{capsys.readouterr().out}")
        raise AssertionError from exit_
