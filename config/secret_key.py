"""Choosing ``SECRET_KEY``: fail closed on a weak or published key.

With debug off the key must come from ``DJANGO_SECRET_KEY``, be at least 50 characters (Django's
own ``security.W009`` bar), hold an estimated 128 bits of randomness, and not be one that was
ever published: the placeholder in ``.env.example`` or the development key once committed here.
Anyone who knows the key can forge the signed draft-access cookie and open another customer's
answers. Django's own check asks for only 5 different characters, so ``"abcde" * 10`` passed
it (issue 25); the estimate below refuses a key that repeats itself.

With debug on and no key set, each checkout gets its own random key, generated once into
``var/secret_key`` (never committed), so a key read in the repository opens nothing.
"""

from __future__ import annotations

import math
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

MIN_LENGTH = 50
# The security strength NIST deems acceptable for keys beyond 2030: SP 800-57 Part 1 Rev. 5
# (May 2020), table 4. Django signs with HMAC-SHA256, whose key should hold at least this much.
MIN_ESTIMATED_BITS = 128
GENERATE = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
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
            f"DJANGO_SECRET_KEY is a published placeholder; generate one with `{GENERATE}`."
        )
    if debug:
        return
    if len(key) < MIN_LENGTH:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY must be at least {MIN_LENGTH} random characters when "
            f"DJANGO_DEBUG is off (it has {len(key)}); generate one with `{GENERATE}`."
        )
    bits = estimated_bits(key)
    if bits < MIN_ESTIMATED_BITS:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is too predictable: it repeats itself or uses few different "
            f"characters (about {bits:.0f} bits of randomness, at least {MIN_ESTIMATED_BITS} "
            f"needed); generate one with `{GENERATE}`."
        )


def estimated_bits(key: str) -> float:
    """A rough estimate of the randomness in ``key`` [bit].

    log2(distinct characters) for each distinct run of three characters: a random key scores
    about its length times log2 of its alphabet (``secrets.token_urlsafe(50)``: over 300,
    ``secrets.token_hex(32)``: over 200), a key that repeats a short block scores that block
    (``"abcde" * 10``: 5 runs of 2.3 bits, 12). Keyboard walks and words still score high:
    this refuses carelessness, it does not prove randomness.
    """
    alphabet = len(set(key))
    if alphabet < 2:
        return 0.0
    runs = {key[i : i + 3] for i in range(len(key) - 2)}
    return math.log2(alphabet) * len(runs)


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
