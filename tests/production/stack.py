"""The production start, on this machine: what the Dockerfile and docker-compose.yml run.

``ProductionStack`` builds the static files as the Dockerfile does (``STATIC_MANIFEST=1
collectstatic``), migrates a PostgreSQL database of its own, and starts gunicorn, a Celery
worker and Celery beat with production settings (DEBUG off, a random key from the environment,
Redis for the queue, cache and sessions, ``DJANGO_BEHIND_TLS_PROXY=1``, HTTPS redirects and
secure cookies) behind Debian's nginx: a TLS server with a certificate made for this run stands
in for your TLS proxy, in front of the repository's own ``deploy/nginx/web.conf.template`` (the
compose ``proxy``), filled in from its documented variables. Two proxies, as in the compose
layout, so ``DJANGO_TRUSTED_PROXIES=127.0.0.1`` and ``DJANGO_TRUSTED_PROXY_COUNT=2``; clients
connect from other loopback addresses (127.0.0.2 and up) to be told apart.

Used by the smoke test (``tests/production/test_smoke.py``) and by
``benchmarks/hostile_requests.py``. Every process runs in a process group of its own and is
stopped with it; the database is dropped and the Redis database flushed on the way out.
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis

from tests.s3 import free_ports
from tests.security.proxy import LoopbackBrowser
from tests.server_process import ROOT, ServerProcess

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
BIN = Path(sys.executable).parent
WEB_TEMPLATE = ROOT / "deploy" / "nginx" / "web.conf.template"
HOST = "localhost"  # the certificate's name and the site's
# The Dockerfile's build step; the smoke test checks the Dockerfile still says so.
COLLECTSTATIC = ["manage.py", "collectstatic", "--noinput"]
# Only these of the caller's variables reach the servers: never a test's DJANGO_* defaults.
PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TZ")


def fill_template(template: str, values: dict[str, str]) -> str:
    """What the nginx image does to a template at start (envsubst limited to the variables it
    is given): ``${NAME}`` becomes its value; a name not given is an error here, not a blank."""

    def value(match: re.Match[str]) -> str:
        return values[match.group(1)]

    return re.sub(r"\$\{([A-Z_][A-Z0-9_]*)\}", value, template)


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


class ProductionStack:
    """Start with ``with ProductionStack(...) as stack:``; ``stack.url`` is the https site."""

    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        work_dir: Path,
        database_name: str | None = None,
        web_workers: int = 2,
    ) -> None:
        # CREATE and DROP DATABASE are sent from the server's maintenance database.
        self.admin_database_url = with_database(database_url, "postgres")
        # Each stack its own database: two runs on one server never drop each other's.
        base = urlsplit(database_url).path.strip("/")
        self.database_name = database_name or f"{base}_stack_{os.getpid()}"
        self.database_url = with_database(database_url, self.database_name)
        self.redis_url = redis_url
        self.work_dir = work_dir
        self.web_workers = web_workers
        self.secret_key = secrets.token_urlsafe(50)  # this run's own, thrown away
        self.tls_port, self.inner_port, self.web_port = free_ports(3)
        self.url = f"https://{HOST}:{self.tls_port}"
        self.processes: dict[str, ServerProcess] = {}
        self.timings: dict[str, float] = {}
        self.nginx_temp: Path | None = None

    # --- the environment every process shares (.env in a deployment) -----------------------

    def env(self) -> dict[str, str]:
        var = self.work_dir / "var"
        return {
            **{k: os.environ[k] for k in PASSED_THROUGH if k in os.environ},
            "PYTHONUNBUFFERED": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": self.secret_key,
            "DJANGO_ALLOWED_HOSTS": HOST,
            # The browser's origin carries the port; a deployment on 443 names none.
            "DJANGO_CSRF_TRUSTED_ORIGINS": self.url,
            "SITE_URL": self.url,
            "DJANGO_VAR_DIR": str(var),
            # One host: the PDFs on its disk, as docs/scaling.md allows; the rest is shared.
            "DJANGO_EMBEDDED_SERVICES": "storage",
            "DATABASE_URL": self.database_url,
            "CACHE_URL": self.redis_url,
            "CELERY_BROKER_URL": self.redis_url,
            "DJANGO_BEHIND_TLS_PROXY": "1",
            "DJANGO_TRUSTED_PROXIES": "127.0.0.1",
            "DJANGO_TRUSTED_PROXY_COUNT": "2",
            "STATIC_MANIFEST": "1",
            "PRIVATE_STORAGE_ROOT": str(var / "private"),
            # Emails are written to the log of the process that sends them.
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
            "LOG_LEVEL": "INFO",
        }

    # --- start and stop ---------------------------------------------------------------------

    def __enter__(self) -> ProductionStack:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        (self.work_dir / "var").mkdir(parents=True, exist_ok=True)
        self._timed("database", self._create_database)
        self._flush_redis()
        # Independent of each other (the image's build and compose's one-shot `migrate`): at once.
        with ThreadPoolExecutor(3) as pool:
            started = time.monotonic()
            steps = [
                pool.submit(self.manage, *COLLECTSTATIC[1:]),
                pool.submit(self.manage, "migrate", "--noinput"),
                pool.submit(self._make_certificate),
            ]
            for step in steps:
                step.result()
            self.timings["collectstatic, migrate"] = time.monotonic() - started
        self._timed("servers", self._start_servers)

    def stop(self) -> None:
        for process in reversed(list(self.processes.values())):
            process.stop()
        self.processes.clear()
        if self.nginx_temp is not None:
            shutil.rmtree(self.nginx_temp, ignore_errors=True)
        self._flush_redis()
        self._drop_database()

    def _timed(self, what: str, step) -> None:
        started = time.monotonic()
        step()
        self.timings[what] = time.monotonic() - started

    def manage(self, *args: str, env: dict[str, str] | None = None) -> str:
        """``python manage.py ...`` with the stack's settings; its output, or an error with it."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**self.env(), **(env or {})},
            capture_output=True,
            text=True,
            timeout=180,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def _create_database(self) -> None:
        with psycopg.connect(self.admin_database_url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.database_name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{self.database_name}"')

    def _drop_database(self) -> None:
        try:
            with psycopg.connect(self.admin_database_url, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{self.database_name}" WITH (FORCE)')
        except psycopg.Error:
            pass  # the server is gone: nothing to drop

    def _flush_redis(self) -> None:
        redis.Redis.from_url(self.redis_url, socket_timeout=5).flushdb()

    def _make_certificate(self) -> None:
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST},IP:127.0.0.1",
                "-keyout", str(self.work_dir / "tls.key"), "-out", str(self.certificate),
            ],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip

    @property
    def certificate(self) -> Path:
        return self.work_dir / "tls.crt"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this run's certificate and nothing else."""
        return ssl.create_default_context(cafile=str(self.certificate))

    # --- the processes ----------------------------------------------------------------------

    def _start(self, name: str, command: list[str]) -> ServerProcess:
        process = ServerProcess(name, command, self.env(), self.work_dir / f"{name}.log")
        self.processes[name] = process
        return process

    def _start_servers(self) -> None:
        # As docker-compose.yml's web, worker and beat commands; gunicorn reads
        # gunicorn.conf.py from the repository root as it does from /app in the image.
        web = self._start(
            "gunicorn",
            [
                str(BIN / "gunicorn"), "config.wsgi:application",
                "--bind", f"127.0.0.1:{self.web_port}", "--workers", str(self.web_workers),
                "--access-logfile", "-",
            ],
        )  # fmt: skip
        worker = self._start(
            "worker",
            [
                str(BIN / "celery"), "-A", "config", "worker", "--loglevel", "INFO",
                "--concurrency", "1", "-n", f"smoke-{os.getpid()}@%h",
            ],
        )  # fmt: skip
        beat = self._start(
            "beat",
            [
                str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "INFO",
            ],
        )  # fmt: skip
        # gunicorn first, straight: nginx then never answers 502 while it boots.
        direct = LoopbackBrowser(self.web_port, "127.0.0.1")
        web.wait_for(lambda: direct.answers("/healthz") == 200, 90, "gunicorn")
        self._write_nginx_config()
        nginx = self._start(
            "nginx",
            [NGINX, "-p", str(self.work_dir), "-c", "nginx.conf", "-e", "stderr"],
        )
        site = LoopbackBrowser(self.tls_port, "127.0.0.1", context=self.ssl_context())
        nginx.wait_for(lambda: site.answers("/healthz") == 200, 30, "/healthz through nginx")
        worker.wait_for(lambda: " ready." in worker.output(), 60, "the worker")
        beat.wait_for(lambda: "beat: Starting..." in beat.output(), 60, "beat")

    def _write_nginx_config(self) -> None:
        # Request bodies over 16 kB are buffered here; outside work_dir, which may sit in a
        # folder only root can enter, while nginx's workers drop root.
        temp = self.nginx_temp = Path(tempfile.mkdtemp(prefix="nginx-temp-"))
        inner = fill_template(
            WEB_TEMPLATE.read_text(),
            {
                "NGINX_LISTEN": f"127.0.0.1:{self.inner_port}",
                "NGINX_RESOLVER": "127.0.0.1",  # never asked: the upstream is an address
                "NGINX_WEB": f"http://127.0.0.1:{self.web_port}",
            },
        )
        (self.work_dir / "web.conf").write_text(inner)
        user = ""
        if os.geteuid() == 0:
            # nginx's workers drop root; they must still write their buffers here.
            user = "user nobody nogroup;"
            nobody = pwd.getpwnam("nobody")
            os.chown(temp, nobody.pw_uid, nobody.pw_gid)
            temp.chmod(0o700)
        (self.work_dir / "nginx.conf").write_text(
            f"""
{user}
daemon off;
pid {self.work_dir}/nginx.pid;
error_log stderr warn;
worker_processes 1;
events {{ worker_connections 1024; }}
http {{
  client_body_temp_path {temp}/body;
  proxy_temp_path {temp}/proxy;
  fastcgi_temp_path {temp}/fastcgi;
  uwsgi_temp_path {temp}/uwsgi;
  scgi_temp_path {temp}/scgi;
  # The repository's proxy (docker-compose.yml's `proxy`).
  include {self.work_dir}/web.conf;
  # Stands in for your TLS proxy, doing what the README asks of it: TLS, the client appended
  # to X-Forwarded-For, X-Forwarded-Proto https.
  server {{
    listen 127.0.0.1:{self.tls_port} ssl;
    ssl_certificate {self.certificate};
    ssl_certificate_key {self.work_dir / "tls.key"};
    client_max_body_size 1m;
    access_log off;
    location / {{
      proxy_pass http://127.0.0.1:{self.inner_port};
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
    }}
  }}
}}
"""
        )
