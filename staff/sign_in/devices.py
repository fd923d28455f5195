"""A staff member's second factor: one authenticator app (TOTP) and a set of recovery codes.

django-otp keeps both: a ``TOTPDevice`` (RFC 6238, 30-second steps, six digits, one step of
clock drift either way, each code accepted once) and a ``StaticDevice`` whose tokens are the
recovery codes, each removed when used. Both throttle themselves: after n wrong codes in a row,
the next is refused for 2**(n-1) seconds, from any address.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from datetime import datetime

import segno
from django.db import transaction
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.util import random_hex

# Ten codes, as most services give: enough for a lost phone and a few sign-ins after it.
RECOVERY_CODE_COUNT = 10
AUTHENTICATOR_NAME = "Authenticator app"
RECOVERY_CODES_NAME = "Recovery codes"
# 20-byte keys, the size RFC 4226 recommends for HMAC-SHA1 (section 4, requirement R6).
TOTP_KEY_BYTES = 20

_TOTP_CODE = re.compile(r"[0-9]{6}")
# What StaticToken.random_token() makes: eight characters of lower-case base32.
_RECOVERY_CODE = re.compile(r"[a-z2-7]{8}")


@dataclass(frozen=True)
class CodeCheck:
    """The outcome of one code typed at sign-in."""

    device: Device | None  # the device that accepted the code; None when refused
    wait_until: datetime | None = None  # refused unread: too many wrong codes just before
    recovery_codes_left: int | None = None  # after a recovery code was accepted


def normalize_code(typed: str) -> str:
    """What the person meant: no spaces or dashes, lower case (authenticators show "123 456")."""
    return re.sub(r"[\s-]", "", typed).lower()


def is_code_shaped(code: str) -> bool:
    return bool(_TOTP_CODE.fullmatch(code) or _RECOVERY_CODE.fullmatch(code))


def has_second_factor(user) -> bool:
    """Whether ``user`` has set up an authenticator (and so signs in with its codes)."""
    return TOTPDevice.objects.devices_for_user(user, confirmed=True).exists()


def pending_authenticator(user) -> TOTPDevice:
    """The authenticator being set up: the same secret on every visit until it is confirmed."""
    device = TOTPDevice.objects.devices_for_user(user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(
            user=user, name=AUTHENTICATOR_NAME, confirmed=False, key=random_hex(TOTP_KEY_BYTES)
        )
    return device


@transaction.atomic
def confirm_authenticator(device: TOTPDevice) -> list[str]:
    """Mark ``device`` as the user's authenticator and return a new set of recovery codes.

    Any other authenticator of the user's is removed, so one secret is in force at a time.
    """
    TOTPDevice.objects.filter(user_id=device.user_id).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return replace_recovery_codes(device.user)


@transaction.atomic
def replace_recovery_codes(user) -> list[str]:
    """New recovery codes for ``user``; the old ones stop working."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_CODES_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def check_code(*, user, code: str) -> CodeCheck:
    """Check ``code`` (already normalized) against the user's authenticator or recovery codes.

    Six digits go to the authenticator, anything else to the recovery codes, so a mistyped
    code counts against one device only.
    """
    model = TOTPDevice if _TOTP_CODE.fullmatch(code) else StaticDevice
    with transaction.atomic():
        # Locked while checking, so two requests cannot both use one code (django-otp's advice).
        device = model.objects.devices_for_user(user, confirmed=True).select_for_update().first()
        if device is None:
            return CodeCheck(device=None)
        allowed, details = device.verify_is_allowed()
        if not allowed:
            return CodeCheck(device=None, wait_until=(details or {}).get("locked_until"))
        if not device.verify_token(code):
            return CodeCheck(device=None)
    if isinstance(device, StaticDevice):
        return CodeCheck(device=device, recovery_codes_left=device.token_set.count())
    return CodeCheck(device=device)


def remove_second_factor(user) -> int:
    """Remove every authenticator and recovery code of ``user``: the next sign-in sets one up.

    Returns how many devices were removed.
    """
    with transaction.atomic():
        devices = [*TOTPDevice.objects.filter(user=user), *StaticDevice.objects.filter(user=user)]
        for device in devices:
            device.delete()
    return len(devices)


def secret_for_typing(device: TOTPDevice) -> str:
    """The secret in base32, as authenticator apps ask for it, in groups of four."""
    secret = base64.b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def qr_code_data_uri(device: TOTPDevice) -> str:
    """The device's ``otpauth://`` address as a QR code, an SVG in a ``data:`` URI.

    An image, not markup or script, so the page's Content-Security-Policy (``img-src 'self'
    data:``) allows it and nothing else.
    """
    return segno.make(device.config_url, error="m").svg_data_uri(scale=5, border=4)
