"""Run the questionnaire load scenarios against gunicorn + PostgreSQL + Redis on 127.0.0.1.

    .venv/bin/python benchmarks/load/run.py                  # a, b and c at full size (~20 min)
    .venv/bin/python benchmarks/load/run.py --quick          # CI-sized versions (~5 min)
    .venv/bin/python benchmarks/load/run.py --scenario b     # one scenario

Scenarios (issue 6, reliability checklist test 35 and 36):

a. 200 customers, 5–30 s think time per step, one questionnaire each (~6 min).
b. 20 customers, no think time, questionnaires back to back for ``--duration-b`` seconds.
c. 100 finished questionnaires in one minute, twice: first with no Celery worker (the web
   baseline; the work queues up in Redis), then with a real worker rendering the backlog and
   the new burst while customers keep coming. Afterwards every submission must have exactly
   one Recommendation and one Proposal, both done, with a PDF on disk.

Every run is bounded (locust ``--run-time``, subprocess timeouts, a drain deadline) and only
talks to 127.0.0.1. It recreates the database ``--database`` (default ``loadtest``), flushes
Redis DB ``--redis-db`` (default 9) before and after, starts gunicorn (and the worker for c) in their own process
groups, and stops them in a ``finally``. Results: ``<out>/<scenario>_stats.csv`` (locust),
``<out>/<scenario>-markers.jsonl`` (what was posted), ``<out>/summary.json`` and a table on
stdout from ``check.py``; exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.machine_speed import speed_line  # noqa: E402
from config.celery import QUEUES  # noqa: E402 - the worker consumes every queue
from tests.s3 import SeaweedServer  # noqa: E402 - the object store of --s3

VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
# The Redis database of a run (cache, sessions, rate limits, broker), flushed before and after;
# ``--redis-db`` picks another when several people share one Redis.
REDIS_DB = 9
LOAD_SAMPLE_SECONDS = 5


@dataclass(frozen=True)
class Phase:
    """One locust run: how many customers, how fast they arrive, how long they think."""

    name: str
    users: int
    spawn_rate: float
    think: tuple[float, float]
    questionnaires: int  # per customer; 0 = start new ones for loop_s seconds
    run_time_s: int  # upper bound; the phase ends when every customer is done
    loop_s: int = 0
    answers: str = "mixed"


def phases_for(scenario: str, args: argparse.Namespace) -> list[Phase]:
    quick = args.quick
    if scenario == "a":
        users = args.users_a or (40 if quick else 200)
        think = (0.5, 2.0) if quick else (5.0, 30.0)
        # 19 pages x mean think + spawn time + slack for the slowest customer.
        bound = int(19 * think[1] + users / 10 + 60)
        return [Phase("a", users, 10, think, 1, min(bound, 720))]
    if scenario == "b":
        duration = args.duration_b or (30 if quick else 120)
        return [Phase("b", 20, 20, (0.0, 0.0), 0, duration + 60, loop_s=duration)]
    if scenario == "c":
        count = args.burst or (10 if quick else 100)
        # ``count`` customers arrive over 60 s (12 s when quick) and each finishes one
        # questionnaire with a short think time, so ``count`` submissions land within the minute.
        window = 12 if quick else 60
        phase = Phase("c-baseline", count, count / window, (0.1, 0.5), 1, window + 120)
        return [phase, Phase("c-burst", count, count / window, (0.1, 0.5), 1, window + 120)]
    raise ValueError(scenario)


# --- processes --------------------------------------------------------------------------------


class Processes:
    """Processes started here, each in its own process group; all stopped by ``stop_all``."""

    def __init__(self) -> None:
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, command: list[str], env: dict[str, str], log: Path) -> None:
        handle = log.open("ab")
        self.running[name] = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def stop(self, name: str, timeout: float = 30) -> None:
        process = self.running.pop(name, None)
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)  # our own group only
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def stop_all(self) -> None:
        for name in list(self.running):
            self.stop(name)


def server_env(args: argparse.Namespace, out: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        # A throwaway key for a throwaway database on 127.0.0.1.
        DJANGO_SECRET_KEY="load-test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",  # noqa: S106
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_VAR_DIR=str(out / "var"),
        DJANGO_EMBEDDED_SERVICES="storage",  # one host: the PDFs on its disk
        SITE_URL=f"http://{HOST}:{args.port}",
        DATABASE_URL=f"postgres://root@{HOST}:5432/{args.database}",
        CACHE_URL=f"redis://{HOST}:6379/{args.redis_db}",
        CELERY_BROKER_URL=f"redis://{HOST}:6379/{args.redis_db}",
        # Every locust customer comes from 127.0.0.1: lift the per-address limits it meets.
        SUBMISSIONS_PER_HOUR="1000000",
        DRAFTS_PER_HOUR="1000000",
        RESUME_EMAILS_PER_HOUR="1000000",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        LOG_LEVEL="WARNING",
    )
    (out / "var" / "staticfiles").mkdir(parents=True, exist_ok=True)
    return env


def use_object_store(env: dict[str, str], out: Path) -> SeaweedServer:
    """--s3: a SeaweedFS of this run on 127.0.0.1, with a bucket the servers keep PDFs in."""
    (out / "s3").mkdir(exist_ok=True)
    server = SeaweedServer(out / "s3")
    bucket = server.service.create_bucket()
    env.update(server.service.settings_env(bucket))
    return server


def busiest_processes(count: int = 6) -> list[str]:
    """What else is using the shared cores (the machine is shared with other test runs)."""
    listing = subprocess.run(
        ["ps", "-eo", "pcpu,etime,args", "--sort=-pcpu"],
        capture_output=True, text=True, timeout=10, check=False,
    ).stdout.splitlines()  # fmt: skip
    return [line[:160] for line in listing[1 : count + 1]]


def recreate_database(name: str) -> None:
    with psycopg.connect(f"postgresql://root@{HOST}:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis_db(db: int) -> None:
    redis.Redis(host=HOST, port=6379, db=db, socket_timeout=5).flushdb()


def wait_for_http(url: str, deadline_s: float) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - 127.0.0.1
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer 200 within {deadline_s:.0f} s")


def run_locust(phase: Phase, args: argparse.Namespace, out: Path, env: dict[str, str]) -> None:
    command = [
        args.locust,
        "-f", str(ROOT / "benchmarks" / "load" / "locustfile.py"),
        "--headless", "--only-summary",
        "--host", f"http://{HOST}:{args.port}",
        "-u", str(phase.users), "-r", f"{phase.spawn_rate:.3f}",
        "--run-time", f"{phase.run_time_s}s", "--stop-timeout", "10",
        "--csv", str(out / phase.name),
        "--think-min", str(phase.think[0]), "--think-max", str(phase.think[1]),
        "--questionnaires", str(phase.questionnaires), "--loop-seconds", str(phase.loop_s),
        "--answers", phase.answers,
        "--scenario", phase.name.replace("-", ""),
        "--marker-log", str(out / f"{phase.name}-markers.jsonl"),
        "--loglevel", "WARNING", "--logfile", str(out / f"{phase.name}-locust.log"),
    ]  # fmt: skip
    print(f"[{_now()}] {phase.name}: {phase.users} customers, think {phase.think} s, "
          f"bound {phase.run_time_s} s", flush=True)  # fmt: skip
    started = time.monotonic()
    # The locust process itself is bounded: its own --run-time plus a margin. The machine's
    # 1-minute load average is sampled while it runs: the cores are shared, and a figure is
    # only comparable with one measured under the same load.
    # The customers' HTTP client (locustfile.CLIENTS): python-requests unless --client fast.
    locust = subprocess.Popen(command, cwd=ROOT, env={**env, "LOAD_CLIENT": args.client})
    samples: list[float] = []
    try:
        while locust.poll() is None:
            if time.monotonic() - started > phase.run_time_s + 90:
                locust.kill()
                break
            samples.append(os.getloadavg()[0])
            time.sleep(LOAD_SAMPLE_SECONDS)
    finally:
        locust.wait()
    print(f"[{_now()}] {phase.name}: locust ran {time.monotonic() - started:.0f} s", flush=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    during = {
        "min": round(min(samples, default=0.0), 2),
        "mean": round(sum(samples) / len(samples), 2) if samples else 0.0,
        "max": round(max(samples, default=0.0), 2),
    }
    (out / f"{phase.name}-machine.json").write_text(
        json.dumps(
            {
                "load_average": load,
                "load_average_1min_while_running": during,
                "busiest_processes": busiest_processes(),
            },
            indent=2,
        )
    )
    print(
        f"[{_now()}] {phase.name}: load average {load} at the end; 1-minute load while "
        f"running min {during['min']}, mean {during['mean']}, max {during['max']}",
        flush=True,
    )


def run_checker(phases: list[Phase], args, out: Path, env, *, proposals: bool) -> dict:
    command = [
        str(VENV_BIN / "python"), str(ROOT / "benchmarks" / "load" / "check.py"),
        "--out", str(out), "--phases", ",".join(p.name for p in phases),
        "--json", str(out / f"check-{phases[0].name[0]}.json"),
    ]  # fmt: skip
    if proposals:
        command += ["--proposals", "--drain-timeout", str(args.drain_timeout)]
    if phases[0].name.startswith("c"):
        command += ["--baseline", phases[0].name, "--compare", phases[-1].name]
    completed = subprocess.run(command, cwd=ROOT, env=env, timeout=args.drain_timeout + 120)
    result_file = out / f"check-{phases[0].name[0]}.json"
    if not result_file.exists():  # the checker itself failed; its traceback is on stderr
        return {"ok": False, "exit": completed.returncode or 1}
    return json.loads(result_file.read_text()) | {"exit": completed.returncode}


def _now() -> str:
    return datetime.now(UTC).strftime("%H:%M:%S")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=("a", "b", "c", "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="short CI-sized variants")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers (2-4)")
    parser.add_argument(
        "--client",
        choices=("requests", "fast"),
        default="requests",
        help="the customers' HTTP client: locust's HttpUser (python-requests, the default) or "
        "FastHttpUser (geventhttpclient: less of the shared cores for the client)",
    )
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery, scenario c")
    # Renders share the two cores with gunicorn here; production gives the worker its own host.
    parser.add_argument("--worker-nice", type=int, default=10, help="nice level of the worker")
    parser.add_argument("--database", default="loadtest")
    parser.add_argument("--redis-db", type=int, default=REDIS_DB, help="Redis database number")
    parser.add_argument(
        "--locust",
        default=str(VENV_BIN / "locust"),
        help="the locust command, when it is not installed in the project's venv",
    )
    parser.add_argument("--users-a", type=int, default=0, help="override the customers in a")
    parser.add_argument("--duration-b", type=int, default=0, help="seconds of scenario b")
    parser.add_argument("--burst", type=int, default=0, help="submissions per minute in c")
    parser.add_argument("--drain-timeout", type=int, default=900, help="c: wait for PDFs [s]")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--s3", action="store_true", help="keep the PDFs in a SeaweedFS bucket of this run"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 8:
        parser.error("--workers must be between 1 and 8")

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = (args.out or ROOT / "var" / "load" / stamp).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = server_env(args, out)
    busiest_at_start = busiest_processes()
    machine_speed = speed_line()  # before anything starts: the machine as it is
    scenarios = ["a", "b", "c"] if args.scenario == "all" else [args.scenario]
    processes = Processes()
    object_store = use_object_store(env, out) if args.s3 else None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the finally below
    results: dict[str, dict] = {}
    try:
        print(f"[{_now()}] results in {out}", flush=True)
        print(f"[{_now()}] {machine_speed}", flush=True)
        recreate_database(args.database)
        flush_redis_db(args.redis_db)
        subprocess.run(
            [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=env, check=True, timeout=300,
        )  # fmt: skip
        processes.start(
            "gunicorn",
            [
                str(VENV_BIN / "gunicorn"), "config.wsgi:application",
                "--bind", f"{HOST}:{args.port}", "--workers", str(args.workers),
                "--timeout", "30", "--graceful-timeout", "10", "--log-level", "warning",
            ],
            env, out / "gunicorn.log",
        )  # fmt: skip
        wait_for_http(f"http://{HOST}:{args.port}/healthz", 60)
        for scenario in scenarios:
            phases = phases_for(scenario, args)
            for phase in phases:
                if phase.name == "c-burst":
                    worker = [
                        "nice", "-n", str(args.worker_nice),
                        str(VENV_BIN / "celery"), "-A", "config", "worker", "-Q", ",".join(QUEUES),
                        "-c", str(args.worker_concurrency), "--loglevel", "WARNING",
                        "-n", f"load-{os.getpid()}@%h", "--without-gossip", "--without-mingle",
                    ]  # fmt: skip
                    processes.start("worker", worker, env, out / "worker.log")
                run_locust(phase, args, out, env)
            results[scenario] = run_checker(phases, args, out, env, proposals=scenario == "c")
            processes.stop("worker")
    finally:
        processes.stop_all()
        if object_store is not None:
            object_store.stop()
        try:
            flush_redis_db(args.redis_db)
        except Exception as error:  # noqa: BLE001 - cleanup must not hide the real error
            print(f"could not flush Redis DB {args.redis_db}: {error}", file=sys.stderr)
    summary = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": _machine(),
        "busiest_processes_at_start": busiest_at_start,
        "busiest_processes_at_end": busiest_processes(),
        "machine_speed_at_start": machine_speed,
        "args": {k: str(v) for k, v in vars(args).items()},
        "results": results,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    ok = all(result.get("exit") == 0 for result in results.values())
    print(f"[{_now()}] overall: {'PASS' if ok else 'FAIL'} (summary: {out / 'summary.json'})")
    return 0 if ok else 1


def _machine() -> dict[str, str]:
    load = os.getloadavg()
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpus": str(os.cpu_count()),
        "cpu_model": model,
        "load_average_at_end": " ".join(f"{x:.2f}" for x in load),
        "python": sys.version.split()[0],
    }


if __name__ == "__main__":
    sys.exit(main())
