"""Send hostile requests to the production-like stack and count the outcomes.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/hostile_requests.py [--rounds N]
           [--database-url postgres://root@127.0.0.1:5432/hostile] [--redis-url redis://.../11]

It starts what tests/production/stack.py starts (the production smoke test's stack): static
files built as the Dockerfile does, gunicorn, a Celery worker and beat with production settings
(DEBUG off, a random key, PostgreSQL, Redis for the queue, cache and sessions), behind Debian's
nginx with TLS in front of the repository's own nginx configuration, the trusted-proxy settings
as documented for two proxies. Twenty customers on their own loopback addresses
(127.0.0.10-29) each save a marker answer; then every kind of hostile input of issues 15 and 25
is sent, over TLS through both proxies, and some straight to gunicorn (claiming https, as a
caller inside the proxies' network could), and at the end each customer's marker is read back.
It prints one line per kind (count, status codes) and the totals: the figures quoted in
docs/reliability.md. Everything goes to 127.0.0.1 only, bounded in count; the stack's processes
are stopped by their process groups, its database dropped and its Redis database flushed.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import socket
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

from tests.production.stack import ProductionStack
from tests.security.proxy import LoopbackBrowser

HOST = "127.0.0.1"
DRAFTS_LIMIT = 30  # DRAFTS_PER_HOUR's default; the stack does not set it
CUSTOMERS = [f"127.0.0.{n}" for n in range(10, 30)]
HOSTILE_NUMBERS = [
    "1e-400", "1e400", "NaN", "-inf", "٣", "１２", "½", "70BB", "9" * 400, "0x1F", "8-16",
    "1.2 to 2", "＝1+1", "\x00", "\u202e7", "<script>x</script>", "{{ 7*7 }}", "-0",
]  # fmt: skip


class Tally:
    def __init__(self) -> None:
        self.by_kind: dict[str, Counter[int]] = defaultdict(Counter)
        self._lock = threading.Lock()
        self.drafts_by_customer: Counter[str] = Counter()

    def add(self, kind: str, status: int) -> int:
        with self._lock:
            self.by_kind[kind][status] += 1
        return status

    def add_draft(self, source: str) -> None:
        with self._lock:
            self.drafts_by_customer[source] += 1

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

    @classmethod
    def to(cls, stack: ProductionStack, source: str, forwarded_for: str | None = None) -> Browser:
        """A customer of the site: over TLS through both proxies."""
        return cls(stack.tls_port, source, forwarded_for, context=stack.ssl_context())

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


class DirectBrowser(Browser):
    """Straight to gunicorn, past both proxies, claiming https (Django believes
    X-Forwarded-Proto from anyone: gunicorn must be reachable only through the proxies)."""

    def _connect(self):
        connection, headers = super()._connect()
        headers.update({"X-Forwarded-Proto": "https", "Referer": "https://localhost/"})
        return connection, headers


def step_pairs(draft: str, step: str, fields: dict[str, str]) -> list[tuple[str, str]]:
    management = f"questionnaire_{draft.replace('-', '')}-current_step"
    return [(management, step), *((f"{step}-{k}", v) for k, v in fields.items())]


def oversized_upload(port: int, source: str) -> int:
    """Declare a 200 MB multipart body, send 1 kB of it, and read the answer."""
    with socket.create_connection((HOST, port), timeout=30, source_address=(source, 0)) as sock:
        sock.sendall(
            b"POST /q/start/ HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n"
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


# "Fill from a file" with the inputs issue 25 found crashing it, and ones it must refuse.
HOSTILE_FILES = [
    ("config.json", json.dumps({"model_type": "llama", "num_hidden_layers": 1}).replace(
        "1}", "9" * 5000 + "}"
    )),
    ("config.yaml", "model_type: llama\nnum_hidden_layers: " + "9" * 5000 + "\n"),
    ("config.json", json.dumps({"model_type": "llama", "num_hidden_layers": "²"})),
    ("recipe.yaml", "base_model: meta-llama/Llama-3.1-8B\nsequence_len: 2001-13-45\n"),
    ("config.json", json.dumps({
        "model_type": "llama", "num_hidden_layers": 10**30, "hidden_size": 10**30,
        "intermediate_size": 10**30, "vocab_size": 10**30, "num_attention_heads": 8,
    })),
    ("config.json", json.dumps({"model_type": "llama", "hidden_size": 1e308,
                                "num_hidden_layers": 1e308, "vocab_size": 1e308})),
    ("args.txt", "--num-layers " + "9" * 5000 + " --hidden-size 4096 --seq-length 2001-13-45"),
    ("config.json", "{" * 5000),
    ("config.yaml", "a: &a [*a, *a]\n" + "b: " + "[" * 2000),
    ("config.bin", "\x00\xff" * 100),
]  # fmt: skip


def file_upload(draft: str, name: str, content: str, csrf: str) -> tuple[bytes, str]:
    boundary = "hostileFileBoundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f'{csrf}\r\n--{boundary}\r\nContent-Disposition: form-data; name="from"\r\n\r\n'
            f'model\r\n--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        ).encode()
        + content.encode("utf-8", "surrogatepass")
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def hostile_round(
    stack: ProductionStack,
    tally: Tally,
    rng: random.Random,
    round_: int,
    source: str,
    browser: Browser,
    drafts: dict[str, str],
) -> None:
    """One round of every kind of hostile request from the customer at ``source``."""
    draft = drafts[source]
    url = f"/q/{draft}/model/"
    marker = {"model_name": f"marker-{source}"}
    # 1. Spoofed X-Forwarded-For values, through the proxy and straight to gunicorn.
    for kind in ("via proxy", "via proxy", "direct"):
        spoof = rng.choice(
            ["198.51.100.7", "::1", "unknown", "1.1.1.1, 2.2.2.2", "x" * 2000, "", "\t",
             '10.8.0.5, "', '10.0.0.1, 10.0.0.2, "', '"', "1.1.1.1:80, [::1]:8"]
        )  # fmt: skip
        if kind == "direct":
            other = DirectBrowser(stack.web_port, source, forwarded_for=spoof)
        else:
            other = Browser.to(stack, source, forwarded_for=spoof)
        status, _ = other.start_draft()
        tally.add(f"spoofed X-Forwarded-For, new questionnaire ({kind})", status)
        if status == 302:
            tally.add_draft(source)
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
    tally.add("multipart body with a file part", browser.send("POST", url, body, content_type))
    # (straight to gunicorn: nginx refuses it first, 413 from client_max_body_size)
    tally.add("200 MB declared multipart upload", oversized_upload(stack.web_port, source))
    name, content = HOSTILE_FILES[(round_ + CUSTOMERS.index(source)) % len(HOSTILE_FILES)]
    body, content_type = file_upload(draft, name, content, browser.csrf())
    tally.add(
        "fill from a file: hostile file",
        browser.send("POST", f"/q/{draft}/fill-from-file/", body, content_type),
    )
    # 5. Resume tokens: guessed, overlong, control characters, the old URL shape.
    for token in (
        base64.urlsafe_b64encode(os.urandom(32)).decode(),
        "A" * 5000,
        "\x00\x1b",
        "",
    ):
        tally.add("resume token guess (posted)", browser.form("/q/resume/", [("token", token)]))
    tally.add("resume token in the old URL shape", browser.send("GET", f"/q/resume/{'B' * 43}/"))
    # 6. Another customer's questionnaire with this browser's cookie; a forged cookie.
    victim = drafts[rng.choice([s for s in CUSTOMERS if s != source])]
    tally.add("another customer's draft", browser.send("GET", f"/q/{victim}/model/"))
    forger = Browser.to(stack, source)
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
        tally.add("staff sign-in, a new username each", browser.form("/admin/login/", credentials))


def run(stack: ProductionStack, rounds: int) -> int:
    tally = Tally()
    customers = {source: Browser.to(stack, source) for source in CUSTOMERS}
    drafts = {}
    for source, browser in customers.items():
        status, draft = browser.start_draft()
        assert status == 302, status
        drafts[source] = draft
        status = browser.form(
            f"/q/{draft}/model/", step_pairs(draft, "model", {"model_name": f"marker-{source}"})
        )
        assert status == 302, status

    def customer(source: str) -> None:
        rng = random.Random(f"{source}-15")  # each customer its own sequence: threads interleave
        for round_ in range(rounds):
            hostile_round(stack, tally, rng, round_, source, customers[source], drafts)

    # Four customers at a time, so the three gunicorn workers are all kept busy.
    with ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(customer, source) for source in CUSTOMERS]:
            done.result()

    lost = 0
    for source, browser in customers.items():
        page = browser.read(f"/q/{drafts[source]}/model/")
        lost += f'value="marker-{source}"' not in page
    total, errors = tally.report()
    print(f"server errors (5xx): {errors}; answers lost: {lost} of {len(customers)} customers")
    # Each customer's first questionnaire (the marker's) counts against the same limit.
    most = max(tally.drafts_by_customer[source] + 1 for source in CUSTOMERS)
    print(f"new questionnaires one customer got: at most {most} (DRAFTS_PER_HOUR {DRAFTS_LIMIT})")
    return 1 if errors or lost or most > DRAFTS_LIMIT else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=22, help="hostile rounds per customer")
    parser.add_argument(
        "--database-url",
        default="postgres://root@127.0.0.1:5432/hostile",
        help="a PostgreSQL server; the stack makes (and drops) the database <name>_stack_<pid>",
    )
    parser.add_argument(
        "--redis-url", default="redis://127.0.0.1:6379/11", help="flushed before and after"
    )
    args = parser.parse_args(argv)
    work_dir = Path(tempfile.mkdtemp(prefix="hostile-"))
    started = time.monotonic()
    with ProductionStack(
        database_url=args.database_url, redis_url=args.redis_url, work_dir=work_dir, web_workers=3
    ) as stack:
        print(f"stack up in {time.monotonic() - started:.0f} s; logs in {work_dir}")
        started = time.monotonic()
        status = run(stack, args.rounds)
        elapsed = time.monotonic() - started
        # Console email: the web process sends the resume emails, each one in its log.
        web_log = stack.processes["gunicorn"].output()
        mails = web_log.count("Subject: Your link to continue the questionnaire")
        print(f"resume emails actually sent: {mails}; {elapsed:.0f} s")
        for name in ("gunicorn", "worker"):
            tracebacks = stack.processes[name].output().count("Traceback (most recent call last)")
            print(f"tracebacks in the {name} log: {tracebacks}")
        return status


if __name__ == "__main__":
    sys.exit(main())
