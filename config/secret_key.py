"""Choosing ``SECRET_KEY``: fail closed on a weak or published key.

With debug off the key must come from ``DJANGO_SECRET_KEY``, be at least 50 characters with
some variety (Django's own ``security.W009`` bar), and not be one that was ever published: the
placeholder in ``.env.example`` or the development key once committed here. Anyone who knows
the key can forge the signed draft-access cookie and open another customer's answers.

With debug on and no key set, each checkout gets its own random key, generated once into
``var/secret_key`` (never committed), so a key read in the repository opens nothing.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

MIN_LENGTH = 50
MIN_UNIQUE_CHARACTERS = 5
# Keys that were published and must never sign anything.
KNOWN_PLACEHOLDERS = frozenset(
    {
        "change-me-to-a-long-random-string",
        "insecure-development-key-only-used-with-debug-on",
        "collectstatic-only",
    }
)
DEBUG_KEY_FILE = "secret_key"


def check_secret_key(key: str, *, debug: bool) -> None:
    """Raise ImproperlyConfigured for a published key, or for a weak one with debug off."""
    if key.strip() in KNOWN_PLACEHOLDERS:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is a published placeholder; generate one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
        )
    if debug:
        return
    if len(key) < MIN_LENGTH or len(set(key)) < MIN_UNIQUE_CHARACTERS:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY must be at least {MIN_LENGTH} random characters when "
            "DJANGO_DEBUG is off."
        )


def debug_secret_key(var_dir: Path) -> str:
    """This checkout's own development key, created on first use under ``var_dir``."""
    path = var_dir / DEBUG_KEY_FILE
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        try:
            # O_EXCL: two processes starting at once agree on the first key written.
            with path.open("x", encoding="utf-8") as handle:
                handle.write(secrets.token_urlsafe(50))
            path.chmod(0o600)
        except FileExistsError:
            pass
    return path.read_text(encoding="utf-8").strip()
