"""A gunicorn worker hides what it loaded at start-up from the garbage collector (issue 29)."""

import os
import subprocess
import sys
from pathlib import Path

from config.collector import YOUNG_GENERATION_THRESHOLD

ROOT = Path(__file__).resolve().parents[2]

# What the worker's process holds once gunicorn has loaded config.wsgi, and whether the views
# were imported before the collector was told (a view module imported later is not frozen).
PROBE = """
import gc, sys
import config.wsgi
print(gc.get_freeze_count(), gc.get_threshold()[0], 'questionnaire.views' in sys.modules)
"""


def test_loading_the_wsgi_application_freezes_django_and_every_view_and_collects_young_objects_less_often():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "1"}
    finished = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 0, finished.stderr
    frozen, young_threshold, views_loaded = finished.stdout.split()
    assert int(frozen) > 50_000  # Django, the apps, their views: held for the worker's life
    assert int(young_threshold) == YOUNG_GENERATION_THRESHOLD
    assert views_loaded == "True"
