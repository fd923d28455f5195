"""A half-configured production must not look healthy.

Without ``DATABASE_URL``, ``CACHE_URL``, ``CELERY_BROKER_URL`` or ``S3_BUCKET`` the service falls
back to what one developer's machine needs: an SQLite file, a cache inside each process (so each
process keeps its own rate-limit counters), Celery inside the web request (PDFs rendered while
the customer waits) and PDFs on this host's disk. That suits ``bin/run`` (debug on). With debug
off it is almost always a deployment that forgot a variable (issue 31), so start-up stops and
names each one, unless the operator says in ``DJANGO_EMBEDDED_SERVICES`` which fallbacks they
run knowingly (a one-host trial, the test suite). ``check --deploy`` still warns about each
fallback in use, so a production check is never green on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class EmbeddedService:
    name: str
    variable: str
    fallback: str


SERVICES = (
    EmbeddedService("database", "DATABASE_URL", "an SQLite file on this host"),
    EmbeddedService(
        "cache",
        "CACHE_URL",
        "a cache inside each process, so rate limits and the review page's sizing are per process",
    ),
    EmbeddedService(
        "broker",
        "CELERY_BROKER_URL",
        "Celery inside the web request, so every sizing and PDF is made while the customer waits",
    ),
    EmbeddedService("storage", "S3_BUCKET", "proposal PDFs on this host's disk"),
)
ALL = "all"
VARIABLE = "DJANGO_EMBEDDED_SERVICES"


def missing(environment: Mapping[str, str | None]) -> tuple[EmbeddedService, ...]:
    """The services whose variable is unset or empty in ``environment``."""
    return tuple(s for s in SERVICES if not (environment.get(s.variable) or "").strip())


def accepted(names: Iterable[str]) -> frozenset[str]:
    """The service names in ``DJANGO_EMBEDDED_SERVICES``; ``all`` stands for every one."""
    chosen = {n.strip().lower() for n in names if n.strip()}
    if ALL in chosen:
        return frozenset(s.name for s in SERVICES)
    known = {s.name for s in SERVICES}
    unknown = sorted(chosen - known)
    if unknown:
        raise ImproperlyConfigured(
            f"{VARIABLE} names {', '.join(unknown)}; it takes {', '.join(sorted(known))} or {ALL}."
        )
    return frozenset(chosen)


def refuse_unless_accepted(
    missing_services: Iterable[EmbeddedService], accepted_names: frozenset[str], *, debug: bool
) -> None:
    """Stop start-up when debug is off and a service falls back without the operator's say-so."""
    if debug:
        return
    unaccepted = [s for s in missing_services if s.name not in accepted_names]
    if not unaccepted:
        return
    lines = "\n".join(f"  - {s.variable} is not set: {s.fallback}." for s in unaccepted)
    names = ",".join(s.name for s in unaccepted)
    raise ImproperlyConfigured(
        "DJANGO_DEBUG is off but the service would run on its development fallbacks:\n"
        f"{lines}\n"
        "Set these variables (see .env.example and docs/scaling.md), or, for a one-host trial, "
        f"say you mean it with {VARIABLE}={names}."
    )
