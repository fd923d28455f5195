"""The PDF's fonts are subset by HarfBuzz, and a machine without it says so once, loudly.

Without ``libharfbuzz-subset0`` WeasyPrint subsets fonts with fontTools (about 0.5 s more CPU
per demo proposal), warns once per font per render and fontTools logs each table it subsets
at INFO: reports/checks.py warns at start-up and in ``manage.py check``, and LOGGING
(config/settings.py) keeps one WeasyPrint warning per process and none of fontTools' lines.
"""

import logging

import pytest
from django.core import checks
from weasyprint import HTML
from weasyprint.pdf import fonts as pdf_fonts
from weasyprint.text import ffi

from config.log_filters import OncePerProcess
from reports.checks import harfbuzz_subsetter_loaded, log_missing_subsetter


@pytest.fixture
def without_subsetter(monkeypatch):
    """WeasyPrint as on a machine without libharfbuzz-subset0 (it looks the library up once,
    at import, and both modules keep their own name for it)."""
    monkeypatch.setattr(ffi, "harfbuzz_subset", None)
    monkeypatch.setattr(pdf_fonts, "harfbuzz_subset", None)


@pytest.fixture
def fresh_once_filter():
    """The configured once-per-process filter of WeasyPrint's logger, as in a new process.
    (Each ``dictConfig`` adds the logger's filters again; a test that configures logging once
    more leaves two, which let a message through only together, once.)"""
    filters = [f for f in logging.getLogger("weasyprint").filters if isinstance(f, OncePerProcess)]
    assert filters
    kept = [f.seen for f in filters]
    for each in filters:
        each.seen = set()
    yield filters[0]
    for each, seen in zip(filters, kept, strict=True):
        each.seen = seen


def _subsetter_warnings():
    return [e for e in checks.run_checks() if e.id == "reports.W001"]


def test_this_machine_subsets_fonts_with_harfbuzz():
    assert harfbuzz_subsetter_loaded()
    assert _subsetter_warnings() == []


def test_check_warns_when_harfbuzz_subsetter_is_missing(without_subsetter):
    (warning,) = _subsetter_warnings()
    assert warning.level == checks.WARNING
    assert "libharfbuzz-subset0" in warning.msg
    assert "apt-get install libharfbuzz-subset0" in warning.hint


def test_start_up_logs_one_line_when_harfbuzz_subsetter_is_missing(without_subsetter, caplog):
    log_missing_subsetter()
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert "libharfbuzz-subset0" in record.getMessage()


def test_start_up_logs_nothing_when_harfbuzz_subsetter_is_there(caplog):
    log_missing_subsetter()
    assert caplog.records == []


HTML_IN_TWO_FONTS = "<p>Subset me <b>twice</b>, in two fonts.</p>"


def test_fonttools_fallback_logs_no_line_per_font_table(without_subsetter, caplog):
    assert HTML(string=HTML_IN_TWO_FONTS).write_pdf().startswith(b"%PDF")
    assert [r.name for r in caplog.records if r.name.startswith("fontTools")] == []


def test_fonttools_fallback_warns_once_per_process(without_subsetter, fresh_once_filter, caplog):
    for _ in range(2):
        HTML(string=HTML_IN_TWO_FONTS).write_pdf()
    fallback = [r for r in caplog.records if "Using fontTools instead" in r.getMessage()]
    assert len(fallback) == 1


def test_once_filter_passes_other_records():
    once = OncePerProcess(prefixes=["Using fontTools"])

    def record(message):
        return logging.LogRecord("weasyprint", logging.WARNING, __file__, 1, message, (), None)

    assert once.filter(record("Using fontTools instead of HarfBuzz-Subset for font %s"))
    assert not once.filter(record("Using fontTools instead of HarfBuzz-Subset for font %s"))
    assert once.filter(record("Unable to subset %s with HarfBuzz"))
    assert once.filter(record("Unable to subset %s with HarfBuzz"))
