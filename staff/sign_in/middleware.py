"""Until the second factor, a signed-in account is nobody to every page but the sign-in steps.

After the password a session holds the user, but only the views marked
:func:`before_second_factor` (the password page, the code and set-up pages, signing out) see
them. Every other view sees an anonymous visitor, so every staff page refuses or asks to sign
in by its own check (the admin's, ``staff_member_required``, the download's) and a view added
later is covered without a line here. This is default-deny: nothing lists the staff URLs.

Install after ``django_otp.middleware.OTPMiddleware``, which tells whether the session's
device verified the user.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

View = Callable[..., HttpResponse]


def before_second_factor(view: View) -> View:
    """Mark ``view`` as a sign-in step: it sees a user who has given only their password."""
    view.before_second_factor = True  # type: ignore[attr-defined]
    return view


def passed_second_factor(user: Any) -> bool:
    """Whether ``user`` (as django-otp's middleware leaves ``request.user``) gave both factors."""
    return bool(user.is_authenticated and user.is_verified())


def _nobody() -> AnonymousUser:
    anonymous = AnonymousUser()
    # The attributes django-otp's middleware gives every user, for code that asks.
    anonymous.otp_device = None  # type: ignore[attr-defined]
    anonymous.is_verified = lambda: False  # type: ignore[attr-defined]
    return anonymous


class SecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: View, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if getattr(view, "before_second_factor", False):
            return None
        user = request.user

        def seen_user() -> Any:
            return user if not user.is_authenticated or user.is_verified() else _nobody()

        # Lazy, as Django's own: a customer's page that never asks costs no query.
        request.user = SimpleLazyObject(seen_user)  # type: ignore[assignment]
        request.auser = sync_to_async(seen_user)  # type: ignore[attr-defined]
        return None
