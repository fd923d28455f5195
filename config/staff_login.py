"""The staff sign-in page, with a cap on attempts per client address across usernames.

django-axes locks a username+address pair after ``AXES_FAILURE_LIMIT`` wrong passwords; that
alone lets one address try one password each for any number of usernames. Every sign-in POST
from an address counts here, whatever the username, and beyond
``STAFF_LOGIN_ATTEMPTS_PER_HOUR`` the address gets a 429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache

from config.ratelimit import RateLimit, hit, too_many_requests


@never_cache
@login_not_required
def staff_login(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    if request.method == "POST":
        limit = RateLimit("staff-login", settings.STAFF_LOGIN_ATTEMPTS_PER_HOUR, 3600)
        decision = hit(limit, request)
        if not decision.allowed:
            return too_many_requests(
                request, decision, context={"what": "sign-in attempts", "staff": True}
            )
    return admin.site.login(request, *args, **kwargs)
