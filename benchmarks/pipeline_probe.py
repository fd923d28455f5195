"""The Celery app of ``benchmarks/pipeline.py``'s worker, with clocks on what the pipeline does.

Started as ``celery -A benchmarks.pipeline_probe worker …`` (the project's app, unchanged), it
appends one JSON line per event to the file named by ``PIPELINE_PROBE_FILE``: each task's
publish, start and end (wall clock, ``time.time()``, shared by every process on the machine),
and, inside the tasks, how long the engine, the render and the storage write took. The
benchmark reads the file back to split "send" → PDF into its segments. Nothing here changes
what a task does; it only wraps the calls with a clock.
"""

import json
import os
import time
from functools import wraps

from celery.signals import after_task_publish, task_postrun, task_prerun

from config.celery import app

__all__ = ["app", "install", "record"]

PROBE_FILE = os.environ.get("PIPELINE_PROBE_FILE", "")


def record(event: str, task: str, row_id: object, **fields: float) -> None:
    if not PROBE_FILE:
        return
    line = json.dumps(
        {
            "event": event,
            "task": task,
            "id": row_id,
            "pid": os.getpid(),
            "at": time.time(),
            **fields,
        }
    )
    # One short write per line in append mode: lines of several processes never interleave.
    with open(PROBE_FILE, "a", encoding="utf-8") as probe:
        probe.write(line + "\n")


def _first_arg(args: object) -> object:
    return args[0] if isinstance(args, list | tuple) and args else None


@after_task_publish.connect(weak=False)
def _published(sender: str | None = None, body: object = None, **_: object) -> None:
    # The message protocol 2 body is (args, kwargs, embed).
    args = body[0] if isinstance(body, list | tuple) and body else None
    record("published", sender or "", _first_arg(args))


@task_prerun.connect(weak=False)
def _started(task: object = None, args: object = None, **_: object) -> None:
    record("started", getattr(task, "name", ""), _first_arg(args))


@task_postrun.connect(weak=False)
def _ended(task: object = None, args: object = None, **_: object) -> None:
    record("ended", getattr(task, "name", ""), _first_arg(args))


def _timed(module: object, name: str, label: str, row_of) -> None:
    """Wrap ``module.name`` so each call records its duration under ``label``."""
    original = getattr(module, name)

    @wraps(original)
    def timed(*args, **kwargs):
        started, started_cpu = time.perf_counter(), time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            record(
                label,
                "",
                row_of(args, kwargs),
                seconds=time.perf_counter() - started,
                cpu=time.process_time() - started_cpu,
            )

    setattr(module, name, timed)


def install() -> None:
    """Clocks on the engine, the render and the storage write, as the pipeline calls them."""
    from pipeline import services

    _timed(services, "size_answers_once", "engine", lambda args, kwargs: None)
    _timed(services.document, "render_data", "render", lambda args, kwargs: args[0].reference)
    _timed(services, "_store_pdf", "store", lambda args, kwargs: args[0].pk)


if PROBE_FILE:
    import django

    django.setup()
    install()
