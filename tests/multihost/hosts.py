"""Hosts that share nothing but PostgreSQL, Redis and S3: gunicorn and Celery in processes of
their own, each with its own empty ``var/``, and a browser that talks to them over HTTP."""

from __future__ import annotations

import http.cookiejar
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def web_command(port: int) -> list[str]:
    return [
        str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
        "--workers", "1", "--timeout", "60", "--log-level", "warning",
    ]  # fmt: skip


def worker_command(name: str) -> list[str]:
    return [
        str(BIN / "celery"), "-A", "config", "worker", "--pool=prefork", "--concurrency=1",
        "--loglevel=INFO", "--without-gossip", "--without-mingle", "-n", f"{name}@%h",
    ]  # fmt: skip


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Cookies kept across hosts (a cookie is not tied to a port), redirects not followed, so
    each request can go to any web host."""

    def __init__(self) -> None:
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects()
        )

    def request(self, url: str, data: dict | None = None) -> tuple[int, dict[str, str], bytes]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        try:
            with self.opener.open(url, data=body, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as answer:  # 3xx (not followed), 4xx, 5xx
            return answer.code, dict(answer.headers), answer.read()

    def answers(self, url: str) -> int:
        """The status of a GET, or 0 while nothing listens."""
        try:
            return self.get(url)[0]
        except urllib.error.URLError:
            return 0

    def get(self, url: str) -> tuple[int, dict[str, str], bytes]:
        return self.request(url)

    def post(self, url: str, data: dict) -> tuple[int, dict[str, str], bytes]:
        return self.request(url, data)

    @staticmethod
    def csrf(page: bytes) -> str:
        match = CSRF_RE.search(page.decode())
        assert match, page.decode()[:2000]
        return match.group(1)
