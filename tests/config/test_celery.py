"""Task names follow one style: the app, a dot, and the one service the task calls."""

from config.celery import app, registered_task

OUR_APPS = ("questionnaire", "pipeline", "staff")


def _our_tasks():
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


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
