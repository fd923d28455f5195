"""The only way a proposal render may load anything: our own static files, nothing else.

WeasyPrint fetches every URL a document names (stylesheets, images, fonts, ``<link
rel=attachment>``). Customer text is autoescaped and never becomes markup, but as a second wall
this fetcher serves only files under ``static/reports/`` (the print stylesheet and its assets,
or their hashed copies collected with ``STATIC_MANIFEST=1``),
and any other URL — ``file://``, ``http(s)://``, ``data:``, anything — stops the render with
``FatalURLFetchingError`` instead of being logged and skipped (WeasyPrint's default).

References
----------
.. [1] WeasyPrint 70 documentation, "Security" and "URL fetchers"; ``weasyprint/urls.py``.
.. [2] GHSA-983w-rhvv-gwmv (SSRF via redirect), PYSEC-2026-2610 (injection and SSRF).
"""

import mimetypes
from pathlib import Path

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

# The document's base URL: relative URLs such as "/static/reports/proposal.css" resolve under
# it. The ".invalid" top-level domain can never resolve (RFC 2606), so nothing here can reach a
# network even if a URL slipped past the checks below.
BASE_URL = "https://proposal-assets.invalid/"
STATIC_PREFIX = BASE_URL + "static/"
ALLOWED_DIRECTORY = "reports/"
ALLOWED_SUFFIXES = {".css", ".svg", ".png", ".woff", ".woff2", ".ttf", ".otf"}


class BlockedResource(Exception):
    """A render asked for a resource outside our own static files."""


class ProposalURLFetcher(URLFetcher):
    """Serves ``static/reports/*`` from disk; any other URL aborts the render."""

    def __init__(self) -> None:
        # No protocol at all for the parent class: we never call its network code.
        super().__init__(
            timeout=1, allowed_protocols=set(), allow_redirects=False, fail_on_errors=True
        )
        self.requested: list[str] = []

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        self.requested.append(url)
        path = self.static_file(url)
        if path is None:
            raise FatalURLFetchingError(f"blocked resource in proposal: {url[:120]!r}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    @staticmethod
    def static_file(url: str) -> Path | None:
        """The file under ``static/reports/`` that ``url`` names; None for any other URL."""
        if not url.startswith(STATIC_PREFIX) or any(c in url for c in "?#%\\"):
            return None
        relative = url.removeprefix(STATIC_PREFIX)
        if not relative.startswith(ALLOWED_DIRECTORY) or ".." in relative.split("/"):
            return None
        if Path(relative).suffix.lower() not in ALLOWED_SUFFIXES:
            return None
        found = finders.find(relative)
        if found:
            return Path(found)
        # With STATIC_MANIFEST=1 `{% static %}` names the hashed copy collectstatic wrote
        # (reports/proposal.<hash>.css), which only the collected files hold.
        if staticfiles_storage.exists(relative):
            return Path(staticfiles_storage.path(relative))
        return None
