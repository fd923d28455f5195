"""Send hostile requests to gunicorn behind a reverse proxy on 127.0.0.1 and count the outcomes.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/hostile_requests.py [--rounds N]

It starts gunicorn (production settings: DEBUG off, a strong key, DJANGO_TRUSTED_PROXIES set,
an SQLite database and Redis DB 11 for the rate-limit counters, flushed before and after) and the
small nginx-like proxy of tests/security/proxy.py in front of it. Twenty customers on their own
loopback addresses (127.0.0.10-29) each save a marker answer; then every kind of hostile input of
issue 15 is sent, through the proxy and straight to gunicorn, and at the end each customer's
marker is read back. It prints one line per kind (count, status codes) and the totals: the
figures quoted in docs/reliability.md. Everything goes to 127.0.0.1 only, bounded in count, and
the processes it started are stopped by their process group.
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

import redis

from benchmarks.load.run import HOST, ROOT, Processes, wait_for_http
from tests.security.proxy import LoopbackBrowser, start_proxy

REDIS_DB = 11
KEY = base64.urlsafe_b64encode(os.urandom(48)).decode()  # this run's own, thrown away
CUSTOMERS = [f"127.0.0.{n}" for n in range(10, 30)]
HOSTILE_NUMBERS = [
    "1e-400", "1e400", "NaN", "-inf", "٣", "１２", "½", "70BB", "9" * 400, "0x1F", "8-16",
    "1.2 to 2", "＝1+1", "\x00", "\u202e7", "<script>x</script>", "{{ 7*7 }}", "-0",
]  # fmt: skip


class Tally:
    def __init__(self) -> None:
        self.by_kind: dict[str, Counter[int]] = defaultdict(Counter)

    def add(self, kind: str, status: int) -> int:
        self.by_kind[kind][status] += 1
        return status

    def report(self) -> tuple[int, int]:
        total = errors = 0
        for kind, statuses in self.by_kind.items():
            n = sum(statuses.values())
            total += n
            errors += sum(c for s, c in statuses.items() if s >= 500)
            codes = ", ".join(f"{s}×{c}" for s, c in sorted(statuses.items()))
            print(f"{kind:<58}{n:>6}   {codes}")
        print(f"{'total':<58}{total:>6}")
        return total, errors


class Browser(LoopbackBrowser):
    """A LoopbackBrowser that can also send raw bodies, content types and cookies."""

    def send(self, method: str, path: str, body: bytes = b"", content_type: str = "") -> int:
        if content_type:
            return self.request(method, path, body, content_type).status
        return self.request(method, path, body).status

    def csrf(self) -> str:
        if "csrftoken" not in self.cookies:
            self.request("GET", "/")
        return self.cookies["csrftoken"]

    def form(self, path: str, pairs: list[tuple[str, str]]) -> int:
        pairs = [("csrfmiddlewaretoken", self.csrf()), *pairs]
        body = "&".join(f"{quote(k)}={quote(v)}" for k, v in pairs)
        return self.send("POST", path, body.encode(), "application/x-www-form-urlencoded")

    def start_draft(self) -> tuple[int, str]:
        """(status, draft id or "") of POST /q/start/."""
        self.csrf()
        response = self.request(
            "POST", "/q/start/", f"csrfmiddlewaretoken={self.cookies['csrftoken']}"
        )
        location = response.headers.get("Location") or "/q//"
        return response.status, location.split("/")[2]

    def read(self, path: str) -> str:
        return self.request("GET", path).text  # type: ignore[attr-defined]


def step_pairs(draft: str, step: str, fields: dict[str, str]) -> list[tuple[str, str]]:
    management = f"questionnaire_{draft.replace('-', '')}-current_step"
    return [(management, step), *((f"{step}-{k}", v) for k, v in fields.items())]


def oversized_upload(port: int, source: str) -> int:
    """Declare a 200 MB multipart body, send 1 kB of it, and read the answer."""
    with socket.create_connection((HOST, port), timeout=30, source_address=(source, 0)) as sock:
        sock.sendall(
            b"POST /q/start/ HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 209715200\r\n\r\n" + b"x" * 1024
        )
        return int(sock.recv(64).split()[1])


def multipart_with_file(draft: str, step: str) -> tuple[bytes, str]:
    boundary = "hostileBoundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in step_pairs(draft, step, {"model_name": "overwritten?"})
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n{'A' * 4096}\r\n--{boundary}--\r\n"
    )
    return "".join(parts).encode(), f"multipart/form-data; boundary={boundary}"


def run(port: int, app_port: int, rounds: int) -> int:
    tally = Tally()
    rng = random.Random(15)
    customers = {source: Browser(port, source) for source in CUSTOMERS}
    drafts = {}
    for source, browser in customers.items():
        status, draft = browser.start_draft()
        assert status == 302, status
        drafts[source] = draft
        status = browser.form(
            f"/q/{draft}/model/", step_pairs(draft, "model", {"model_name": f"marker-{source}"})
        )
        assert status == 302, status

    for round_ in range(rounds):
        for source, browser in customers.items():
            draft = drafts[source]
            url = f"/q/{draft}/model/"
            marker = {"model_name": f"marker-{source}"}
            # 1. Spoofed X-Forwarded-For values, through the proxy and straight to gunicorn.
            for target, kind in ((port, "via proxy"), (port, "via proxy"), (app_port, "direct")):
                spoof = rng.choice(
                    ["198.51.100.7", "::1", "unknown", "1.1.1.1, 2.2.2.2", "x" * 2000, "", "\t"]
                )
                other = Browser(target, source, forwarded_for=spoof)
                status, _ = other.start_draft()
                tally.add(f"spoofed X-Forwarded-For, new questionnaire ({kind})", status)
            # 2. A step with 300 unknown fields (the marker posted again alongside).
            junk = {f"junk{n}": "j" * 800 for n in range(300)}
            tally.add(
                "step post with 300 unknown fields",
                browser.form(url, step_pairs(draft, "model", {**marker, **junk})),
            )
            # 3. Hostile numbers in a quantity field (the marker kept).
            for value in rng.sample(HOSTILE_NUMBERS, 6):
                fields = {**marker, "total_params": value}
                tally.add(
                    "hostile number in a quantity field",
                    browser.form(url, step_pairs(draft, "model", fields)),
                )
            # 4. A file posted where none is expected; a 200 MB declared upload.
            body, content_type = multipart_with_file(draft, "model")
            tally.add(
                "multipart body with a file part", browser.send("POST", url, body, content_type)
            )
            # (straight to gunicorn: the test proxy, like nginx, would buffer the body first)
            tally.add("200 MB declared multipart upload", oversized_upload(app_port, source))
            # 5. Resume tokens: guessed, overlong, control characters, the old URL shape.
            for token in (
                base64.urlsafe_b64encode(os.urandom(32)).decode(),
                "A" * 5000,
                "\x00\x1b",
                "",
            ):
                tally.add(
                    "resume token guess (posted)", browser.form("/q/resume/", [("token", token)])
                )
            tally.add(
                "resume token in the old URL shape", browser.send("GET", f"/q/resume/{'B' * 43}/")
            )
            # 6. Another customer's questionnaire with this browser's cookie; a forged cookie.
            victim = drafts[rng.choice([s for s in CUSTOMERS if s != source])]
            tally.add("another customer's draft", browser.send("GET", f"/q/{victim}/model/"))
            forger = Browser(port, source)
            forger.cookies["tq_drafts"] = f"{victim}::1xYuNF:{'f' * 43}"
            tally.add("forged draft-access cookie", forger.send("GET", f"/q/{victim}/model/"))
            # 7. "Email me a link" floods, to someone else's address.
            tally.add(
                "resume email request",
                browser.form(f"/q/{draft}/save/", [("email", f"victim{round_}@example.com")]),
            )
            # 8. Staff sign-in attempts across usernames.
            for n in range(3):
                credentials = [("username", f"user-{round_}-{n}"), ("password", "guess")]
                tally.add(
                    "staff sign-in, a new username each", browser.form("/admin/login/", credentials)
                )

    lost = 0
    for source, browser in customers.items():
        page = browser.read(f"/q/{drafts[source]}/model/")
        lost += f'value="marker-{source}"' not in page
    total, errors = tally.report()
    print(f"server errors (5xx): {errors}; answers lost: {lost} of {len(customers)} customers")
    return 1 if errors or lost else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=13, help="hostile rounds per customer")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    var = Path(tempfile.mkdtemp(prefix="hostile-var-"))
    (var / "staticfiles").mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": KEY,
        "DJANGO_ALLOWED_HOSTS": f"localhost,{HOST}",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_TRUSTED_PROXIES": HOST,
        "DJANGO_VAR_DIR": str(var),
        "CACHE_URL": f"redis://{HOST}:6379/{REDIS_DB}",
        # Console email: each resume email sent is counted in gunicorn's log.
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        "LOG_LEVEL": "ERROR",
    }
    env.pop("DATABASE_URL", None)
    env.pop("CELERY_BROKER_URL", None)
    bin_dir = Path(sys.executable).parent
    processes = Processes()
    store = redis.Redis(host=HOST, port=6379, db=REDIS_DB, socket_timeout=5)
    store.flushdb()
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        processes.start(
            "gunicorn",
            [
                str(bin_dir / "gunicorn"),
                "config.wsgi:application",
                "--bind",
                f"{HOST}:{args.port}",
                "--workers",
                "2",
            ],
            env,
            var / "gunicorn.log",
        )
        wait_for_http(f"http://{HOST}:{args.port}/healthz", 60)
        proxy, proxy_port = start_proxy(f"http://{HOST}:{args.port}")
        started = time.monotonic()
        try:
            status = run(proxy_port, args.port, args.rounds)
        finally:
            proxy.shutdown()
        log = (var / "gunicorn.log").read_text(errors="replace")
        mails = log.count("Subject: Your link to continue the questionnaire")
        print(f"resume emails actually sent: {mails}; {time.monotonic() - started:.0f} s")
        return status
    finally:
        processes.stop_all()
        store.flushdb()


if __name__ == "__main__":
    sys.exit(main())
