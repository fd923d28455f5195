"""``manage.py check --deploy`` findings of this project's own (Django's cover the rest)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from config.embedded_services import SERVICES, VARIABLE


def embedded_services_in_production(app_configs: Any = None, **kwargs: Any) -> list[checks.Warning]:
    """One warning per development fallback in use with debug off (config/embedded_services.py).

    Start-up lets them through only when ``DJANGO_EMBEDDED_SERVICES`` names them; a deployment
    check still says what each costs, so a half-configured production is never green.
    """
    if settings.DEBUG:
        return []
    in_use = set(getattr(settings, "EMBEDDED_SERVICES_IN_USE", ()))
    return [
        checks.Warning(
            f"{s.variable} is not set, so the service runs on {s.fallback}.",
            hint=f"Set {s.variable} for production; {VARIABLE} only lets a one-host trial start.",
            id=f"config.W00{index}",
        )
        for index, s in enumerate(SERVICES, start=1)
        if s.name in in_use
    ]
