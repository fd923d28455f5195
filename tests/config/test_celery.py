"""Task names follow one style: the app, a dot, and the one service the task calls."""

from config.celery import (
    HOUSEKEEPING_QUEUE,
    MAIL_QUEUE,
    QUEUES,
    RENDER_QUEUE,
    SIZING_QUEUE,
    app,
    registered_task,
)
from tests.config.test_deployment_files import load_compose

OUR_APPS = ("questionnaire", "pipeline", "staff")


def _our_tasks():
    app.loader.import_default_modules()
    # Celery's own, and the tests' (tests/config/failing.py), are not ours.
    return {
        name: task for name, task in app.tasks.items() if not name.startswith(("celery.", "tests."))
    }


def test_every_task_is_named_after_its_app_and_the_service_it_calls():
    tasks = _our_tasks()
    assert len(tasks) >= 7  # start, size, render, sweep, email, two purges
    for name, task in tasks.items():
        app_label = task.run.__module__.split(".")[0]
        service = task.run.__name__.removesuffix("_task")
        assert app_label in OUR_APPS, name
        assert name == f"{app_label}.{service}", (
            f"{name} is defined as {task.run.__module__}.{task.run.__name__}"
        )


def test_every_scheduled_job_names_a_registered_task():
    for entry in app.conf.beat_schedule.values():
        assert registered_task(entry["task"]).name == entry["task"]


def test_renders_mail_and_housekeeping_each_have_a_queue_of_their_own():
    router = app.amqp.router
    queue_of = {name: router.route({}, name)["queue"].name for name in _our_tasks()}
    assert queue_of["pipeline.render_proposal"] == RENDER_QUEUE
    assert queue_of["pipeline.deliver_email"] == MAIL_QUEUE
    assert queue_of["pipeline.run_sizing"] == queue_of["pipeline.start_pipeline"] == SIZING_QUEUE
    for name in ("pipeline.sweep_pipeline", "staff.purge_closed_submissions"):
        assert queue_of[name] == HOUSEKEEPING_QUEUE
    # A worker started without -Q (bin/run, the tests' workers) consumes every one of them.
    assert set(app.amqp.queues) == set(QUEUES) == set(queue_of.values())


def test_every_queue_is_consumed_by_a_compose_worker_and_mail_never_shares_with_renders():
    services = load_compose()["services"]
    consumed: dict[str, set[str]] = {}
    for name, service in services.items():
        command = service.get("command") or []
        if command[:4] == ["celery", "-A", "config", "worker"]:
            queues = set(command[command.index("-Q") + 1].split(","))
            consumed[name] = queues
            assert "inspect ping" in " ".join(service["healthcheck"]["test"]), name
            assert "stop_grace_period" in service, name
    assert set().union(*consumed.values()) == set(QUEUES)
    for queues in consumed.values():
        assert not (RENDER_QUEUE in queues and MAIL_QUEUE in queues), consumed
    assert "config.beat_health" in " ".join(services["beat"]["healthcheck"]["test"])


def test_a_scheduled_message_expires_before_the_next_one_is_due():
    for name, entry in app.conf.beat_schedule.items():
        assert 0 < entry["options"]["expires"] < entry["schedule"], name


def test_workers_recycle_their_children_and_shut_down_softly():
    from django.conf import settings

    assert app.conf.worker_max_memory_per_child == settings.CELERY_WORKER_MAX_MEMORY_PER_CHILD
    assert 100_000 <= app.conf.worker_max_memory_per_child <= 2_000_000  # KiB
    assert app.conf.worker_soft_shutdown_timeout > 0


class _Cycle:
    """An object in a reference cycle: only the garbage collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_worker_process_hides_its_start_up_objects_from_the_collector_but_not_garbage():
    """A pool process freezes what it holds when it starts (issue 29: the collector's time in a
    render), after collecting start-up garbage, which is not kept for the process's life."""
    import gc
    import weakref

    from celery.signals import worker_process_init

    from config.collector import YOUNG_GENERATION_THRESHOLD

    assert gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    cycle = _Cycle()
    freed = weakref.ref(cycle)
    del cycle
    try:
        worker_process_init.send(sender=None)
        assert gc.get_freeze_count() > 10_000  # Django, Celery, the apps: all held at start-up
        assert freed() is None
        # the youngest generation is collected less often; the older ones as Python does
        assert gc.get_threshold() == (YOUNG_GENERATION_THRESHOLD, *thresholds[1:])
        assert thresholds[0] < YOUNG_GENERATION_THRESHOLD
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
