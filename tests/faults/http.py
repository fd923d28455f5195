"""A small cookie-keeping HTTP client for driving a live server the way a browser would."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Page:
    status: int
    url: str
    body: str


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class BrowserLikeClient:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect()
        )
        self.csrf_token = ""

    def _open(self, request: urllib.request.Request) -> Page:
        try:
            with self.opener.open(request, timeout=30) as response:
                page = Page(response.status, response.headers.get("Location") or "", "")
                page.body = response.read().decode()
        except urllib.error.HTTPError as error:
            page = Page(error.code, error.headers.get("Location") or "", error.read().decode())
        if match := CSRF_INPUT.search(page.body):
            self.csrf_token = match.group(1)
        return page

    def get(self, path: str) -> Page:
        return self._open(urllib.request.Request(self.base_url + path))

    def post(self, path: str, data: dict[str, str | list[str]]) -> Page:
        fields = {"csrfmiddlewaretoken": self.csrf_token, **data}
        body = urllib.parse.urlencode(fields, doseq=True).encode()
        return self._open(urllib.request.Request(self.base_url + path, data=body, method="POST"))
