"""The production static files (STATIC_MANIFEST=1): every file collects, and the proposal's
stylesheet is found under its hashed name (issue 25: both failed, so every page was a 500 and
every PDF render failed)."""

import hashlib
from pathlib import Path

import pytest
from django.core.management import call_command
from django.templatetags.static import static

from reports.document import html_to_pdf

ROOT = Path(__file__).resolve().parents[2]
BOOTSTRAP = ROOT / "static" / "vendor" / "bootstrap"
PRODUCTION_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"
# static/vendor/bootstrap/README.md: the npm package's file, and the source-map line removed.
UPSTREAM = {
    "bootstrap.bundle.min.js": (
        "4ad2ad30a7df1fa0a615c4cfeb1aeffbe92019a8dff0262c99464acbd56dca5c",
        b"\n//# sourceMappingURL=bootstrap.bundle.min.js.map",
    ),
    "bootstrap.min.css": (
        "9caac977a0af0c2229abd397eee3345899c4020da2a1a0b711c1cc543fe3719d",
        b"\n/*# sourceMappingURL=bootstrap.min.css.map */",
    ),
}


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_vendored_bootstrap_is_the_upstream_file_less_its_source_map_line(name):
    sha256, removed = UPSTREAM[name]
    vendored = (BOOTSTRAP / name).read_bytes()
    assert hashlib.sha256(vendored + removed).hexdigest() == sha256
    assert b"sourceMappingURL" not in vendored


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("staticfiles")


@pytest.fixture
def production_static(settings, collected):
    """Every static file collected with the production storage (hashed names, a manifest),
    once per module."""
    settings.STATIC_ROOT = collected
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": PRODUCTION_STORAGE}}
    if not (collected / "staticfiles.json").exists():
        call_command("collectstatic", "--noinput", verbosity=0)
    return collected


def test_every_static_file_collects_under_a_hashed_name(production_static):
    # Post-processing follows each url(), @import and sourceMappingURL to hash what it names;
    # a reference to a file that is not there aborts it.
    assert (production_static / "staticfiles.json").exists()
    hashed = static("vendor/bootstrap/bootstrap.bundle.min.js")
    assert hashed != "/static/vendor/bootstrap/bootstrap.bundle.min.js"
    assert (production_static / hashed.removeprefix("/static/")).exists()


def test_the_proposal_renders_with_its_hashed_stylesheet(production_static):
    stylesheet = static("reports/proposal.css")
    assert stylesheet != "/static/reports/proposal.css"
    html = f'<html><head><link rel="stylesheet" href="{stylesheet}"></head><body>ok</body></html>'
    assert html_to_pdf(html).pdf.startswith(b"%PDF")
