"""The first step of a staff sign-in: the password, with a cap on attempts per client address.

django-axes locks a username+address pair after ``AXES_FAILURE_LIMIT`` wrong passwords; that
alone lets one address try one password each for any number of usernames. Every sign-in POST
from an address counts here, whatever the username, and beyond
``STAFF_LOGIN_ATTEMPTS_PER_HOUR`` the address gets a 429 with ``Retry-After``.

A right password leads to the second step (``staff.sign_in.views``), never straight to a page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.cache import never_cache

from config.ratelimit import RateLimit, hit, too_many_requests
from staff.sign_in.middleware import before_second_factor, passed_second_factor


def to_second_factor(next_url: str) -> HttpResponseRedirect:
    """To the code page (which sends a user without an authenticator on to set one up)."""
    url = reverse("staff_sign_in:code")
    return HttpResponseRedirect(f"{url}?{urlencode({REDIRECT_FIELD_NAME: next_url})}")


@never_cache
@login_not_required
@before_second_factor
def staff_login(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    user = request.user
    if request.method != "POST" and user.is_authenticated and not passed_second_factor(user):
        # The password was given already: the admin's page would send them to the index,
        # which (to them, still nobody) sends them back here.
        return to_second_factor(request.GET.get(REDIRECT_FIELD_NAME, ""))
    if request.method == "POST":
        limit = RateLimit("staff-login", settings.STAFF_LOGIN_ATTEMPTS_PER_HOUR, 3600)
        decision = hit(limit, request)
        if not decision.allowed:
            return too_many_requests(
                request, decision, context={"what": "sign-in attempts", "staff": True}
            )
    response = admin.site.login(request, *args, **kwargs)
    if request.method == "POST" and isinstance(response, HttpResponseRedirect):
        # Signed in with the password: the admin chose (and checked) where to go next.
        return to_second_factor(response.url)
    return response
