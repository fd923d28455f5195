"""The second step of a staff sign-in: a code, or setting up the authenticator that makes them.

Every code typed here counts three ways: against the client address
(``STAFF_CODE_ATTEMPTS_PER_HOUR``, a 429 beyond it), against the username+address pair with
the wrong passwords (django-axes: after ``AXES_FAILURE_LIMIT`` the session ends and the account
is locked from that address, password and all), and against the device itself (django-otp's
growing wait after each wrong code, from any address).
"""

from __future__ import annotations

from urllib.parse import urlencode

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME, logout, user_login_failed
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.models import Device

from config.ratelimit import RateLimit, hit, too_many_requests
from staff.sign_in.devices import (
    check_code,
    confirm_authenticator,
    has_second_factor,
    pending_authenticator,
    qr_code_data_uri,
    secret_for_typing,
)
from staff.sign_in.forms import CodeForm
from staff.sign_in.middleware import View, before_second_factor, passed_second_factor


def _next_url(request: HttpRequest) -> str:
    """Where to go once signed in: the page first asked for, if it is one of ours."""
    wanted = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME, "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("admin:index")


def _with_next(url_name: str, next_url: str) -> str:
    return f"{reverse(url_name)}?{urlencode({REDIRECT_FIELD_NAME: next_url})}"


def _page(request: HttpRequest, template: str, context: dict) -> TemplateResponse:
    return TemplateResponse(
        request,
        f"staff/sign_in/{template}",
        {
            **admin.site.each_context(request),
            # Not signed in yet: no staff navigation, no user tools.
            "has_permission": False,
            "is_nav_sidebar_enabled": False,
            "next": _next_url(request),
            **context,
        },
    )


def _too_many_codes(request: HttpRequest) -> HttpResponse | None:
    limit = RateLimit("staff-sign-in-code", settings.STAFF_CODE_ATTEMPTS_PER_HOUR, 3600)
    decision = hit(limit, request)
    if decision.allowed:
        return None
    return too_many_requests(request, decision, context={"what": "sign-in codes", "staff": True})


def _complete_sign_in(request: HttpRequest, device: Device) -> None:
    # A new session key for the new privilege, as after the password (OWASP ASVS 3.2.1).
    request.session.cycle_key()
    otp_login(request, device)


def _locked_out(request: HttpRequest, credentials: dict[str, str]) -> HttpResponse:
    logout(request)
    return get_lockout_response(request, None, credentials)


def sign_in_step(view: View) -> View:
    """A page between the password and the code: never cached, open to the password-only."""
    return never_cache(login_not_required(before_second_factor(view)))


def _elsewhere(request: HttpRequest, next_url: str) -> HttpResponse | None:
    """Where someone not between the two steps belongs: the password page, or on."""
    if not request.user.is_authenticated:
        return redirect_to_login(next_url)
    if passed_second_factor(request.user):
        return redirect(next_url)
    return None


@sign_in_step
def code(request: HttpRequest) -> HttpResponse:
    """The code page: six digits from the authenticator app, or a recovery code."""
    user = request.user
    next_url = _next_url(request)
    if (elsewhere := _elsewhere(request, next_url)) is not None:
        return elsewhere
    if not has_second_factor(user):
        return redirect(_with_next("staff_sign_in:set_up", next_url))
    form = CodeForm(request.POST if request.method == "POST" else None)
    wait_until = None
    if request.method == "POST":
        if (refused := _too_many_codes(request)) is not None:
            return refused
        credentials = {settings.AXES_USERNAME_FORM_FIELD: user.get_username()}
        if AxesProxyHandler.is_locked(request, credentials):
            return _locked_out(request, credentials)
        if form.is_valid():
            checked = check_code(user=user, code=form.cleaned_data["code"])
            if checked.device is not None:
                _complete_sign_in(request, checked.device)
                if checked.recovery_codes_left is not None:
                    messages.warning(
                        request,
                        f"You signed in with a recovery code; {checked.recovery_codes_left} "
                        "left. Each works once.",
                    )
                return redirect(next_url)
            wait_until = checked.wait_until
            if wait_until is None:
                form.add_error("code", "That code is not right, or has been used already.")
        # Wrong codes count with wrong passwords towards django-axes' lockout.
        user_login_failed.send(sender=__name__, credentials=credentials, request=request)
        if getattr(request, "axes_locked_out", False):
            return _locked_out(request, credentials)
    return _page(request, "code.html", {"form": form, "wait_until": wait_until})


@sign_in_step
def set_up(request: HttpRequest) -> HttpResponse:
    """First sign-in: add the secret to an authenticator app, confirm with a code from it."""
    user = request.user
    next_url = _next_url(request)
    if (elsewhere := _elsewhere(request, next_url)) is not None:
        return elsewhere
    if has_second_factor(user):
        # Set up already: a second authenticator needs the first (or a reset by an admin).
        return redirect(_with_next("staff_sign_in:code", next_url))
    device = pending_authenticator(user)
    form = CodeForm(request.POST if request.method == "POST" else None)
    wait_until = None
    if request.method == "POST":
        if (refused := _too_many_codes(request)) is not None:
            return refused
        allowed, throttled = device.verify_is_allowed()
        if not allowed:
            wait_until = (throttled or {}).get("locked_until")
        elif form.is_valid():
            if device.verify_token(form.cleaned_data["code"]):
                recovery_codes = confirm_authenticator(device)
                _complete_sign_in(request, device)
                # Shown in this response only: nothing keeps them to show again.
                return _page(request, "recovery_codes.html", {"recovery_codes": recovery_codes})
            form.add_error(
                "code",
                "That code does not match this secret. Check that the app added the secret "
                "shown here and that your device's clock is right, then type the newest code.",
            )
    return _page(
        request,
        "set_up.html",
        {
            "form": form,
            "wait_until": wait_until,
            "secret": secret_for_typing(device),
            "qr_code": qr_code_data_uri(device),
            "otpauth_url": device.config_url,
        },
    )


@require_POST
@login_not_required
@before_second_factor
def sign_out(request: HttpRequest) -> HttpResponseRedirect:
    """Signing out between the two steps (the admin's own page is beyond the second)."""
    logout(request)
    return HttpResponseRedirect(reverse("admin:login"))
