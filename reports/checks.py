"""What the PDF needs from the system, said at start-up rather than found in a slow render.

WeasyPrint subsets each embedded font with HarfBuzz's subsetter (``libharfbuzz-subset0`` on
Debian) when the library loads, and otherwise falls back to fontTools in pure Python: the same
PDF, but writing it took 1.09 s of CPU instead of 0.61 s for the demo proposal (measured
2026-12-05, docs/load-results.md), and WeasyPrint logs a warning for every font of every render.
WeasyPrint 70 needs HarfBuzz 4.1.0 or newer for it (``weasyprint/pdf/fonts.py``,
``Font.subset``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core import checks
from weasyprint.text import ffi

logger = logging.getLogger(__name__)

MISSING_SUBSETTER = (
    "HarfBuzz's font subsetter (libharfbuzz-subset0, HarfBuzz 4.1.0 or newer) is not installed: "
    "WeasyPrint subsets the proposal's fonts with fontTools instead, which makes every PDF "
    "render slower (writing the demo proposal: 0.6 s of CPU becomes 1.1 s)."
)
INSTALL_HINT = (
    "Install it with the system's package manager (Debian/Ubuntu: apt-get install "
    "libharfbuzz-subset0; the Dockerfile and .ci/run do)."
)


def harfbuzz_subsetter_loaded() -> bool:
    """Whether WeasyPrint found HarfBuzz's subsetter, in the version it uses it from."""
    return ffi.harfbuzz_subset is not None and bool(ffi.harfbuzz.hb_version_atleast(4, 1, 0))


def harfbuzz_subsetter(app_configs: Any = None, **kwargs: Any) -> list[checks.Warning]:
    """A warning when PDFs would subset their fonts with fontTools (``manage.py check``,
    ``migrate``, ``runserver``)."""
    if harfbuzz_subsetter_loaded():
        return []
    return [checks.Warning(MISSING_SUBSETTER, hint=INSTALL_HINT, id="reports.W001")]


def log_missing_subsetter() -> None:
    """One warning line at start-up, for the processes that run no checks (gunicorn's workers,
    Celery's): WeasyPrint's own warning is repeated for each font of each render and is let
    through once per process (config.log_filters.OncePerProcess)."""
    if not harfbuzz_subsetter_loaded():
        logger.warning("%s %s", MISSING_SUBSETTER, INSTALL_HINT)
