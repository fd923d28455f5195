"""WSGI entry point for gunicorn."""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from config.collector import hold_start_up_objects

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
# Every URL's view imported now, not on the first request, so that the collector is told once
# what this worker keeps for its life (config/collector.py).
get_resolver().url_patterns  # noqa: B018
hold_start_up_objects()
