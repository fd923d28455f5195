"""A small reverse proxy on 127.0.0.1 that does what nginx's ``$proxy_add_x_forwarded_for``
does: it appends the address of whoever connected to it to ``X-Forwarded-For`` and forwards the
request. Clients bind to other loopback addresses (127.0.0.2, 127.0.0.3, ...) to be distinct.
"""

from __future__ import annotations

import http.client
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "upgrade", "proxy-connection"}


def start_proxy(upstream_url: str) -> tuple[ThreadingHTTPServer, int]:
    upstream = urlparse(upstream_url)

    class Handler(BaseHTTPRequestHandler):
        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            sent = self.headers.get("X-Forwarded-For")
            peer = self.client_address[0]
            headers["X-Forwarded-For"] = f"{sent}, {peer}" if sent else peer
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
            connection.request(self.command, self.path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            self.send_response(response.status)
            for key, value in response.getheaders():
                if key.lower() not in HOP_BY_HOP | {"content-length"}:
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            connection.close()

        do_GET = do_POST = _forward

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


class LoopbackBrowser:
    """Talks HTTP from its own loopback address, keeping cookies like a browser; HTTPS to
    ``https://localhost:<port>`` when given an SSL ``context`` (tests/production/stack.py)."""

    def __init__(
        self,
        port: int,
        source: str,
        forwarded_for: str | None = None,
        context: ssl.SSLContext | None = None,
    ):
        self.port = port
        self.source = source
        self.forwarded_for = forwarded_for
        self.context = context
        self.cookies: dict[str, str] = {}

    def _connect(self) -> tuple[http.client.HTTPConnection, dict[str, str]]:
        """A connection and the headers a browser sends on it: over HTTPS, the port in
        ``Host`` and a same-origin ``Referer`` (Django's CSRF check asks for one)."""
        address = {"timeout": 30, "source_address": (self.source, 0)}
        if self.context is None:
            return http.client.HTTPConnection("127.0.0.1", self.port, **address), {
                "Host": "localhost"
            }
        origin = f"localhost:{self.port}"
        connection = http.client.HTTPSConnection(
            "127.0.0.1", self.port, context=self.context, **address
        )
        return connection, {"Host": origin, "Referer": f"https://{origin}/"}

    def answers(self, path: str) -> int:
        """The status of a GET, or 0 while nothing listens."""
        try:
            return self.request("GET", path).status
        except OSError:
            return 0

    def request(
        self,
        method: str,
        path: str,
        body: str | bytes = "",
        content_type: str = "application/x-www-form-urlencoded",
    ) -> http.client.HTTPResponse:
        connection, headers = self._connect()
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.forwarded_for:
            headers["X-Forwarded-For"] = self.forwarded_for
        if body:
            headers["Content-Type"] = content_type
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        response.text = response.body.decode(errors="replace")  # type: ignore[attr-defined]
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        connection.close()
        return response

    def start_questionnaire(self) -> int:
        if "csrftoken" not in self.cookies:
            self.request("GET", "/")
        return self.request(
            "POST", "/q/start/", f"csrfmiddlewaretoken={self.cookies['csrftoken']}"
        ).status
