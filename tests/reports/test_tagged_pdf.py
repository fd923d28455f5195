"""The proposal PDF is tagged for screen readers (issue 28, "On screen too": PDF/UA).

A tagged PDF carries a structure tree (headings, lists, tables, figures in reading order), so a
screen reader reads it as a document rather than as loose glyphs; PDF/UA-1 (ISO 14289-1) also
asks for the document's title shown as its name, its language, and alternative text on every
figure (each chart's SVG <title>).
"""

import shutil
import subprocess

import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from reports.demo import demo_data
from reports.document import render_data
from tests.conftest import require

MAX_PAGES = 14


@pytest.fixture(scope="module")
def rendered():
    return render_data(demo_data(scenario="moe-pretrain"))


@pytest.fixture(scope="module")
def pdf_path(rendered, tmp_path_factory):
    path = tmp_path_factory.mktemp("tagged") / "proposal.pdf"
    path.write_bytes(rendered.pdf)
    return path


def pdfinfo(path) -> dict[str, str]:
    require("pdfinfo (poppler-utils)", shutil.which("pdfinfo") is not None)
    out = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    return {
        key.strip(): value.strip()
        for key, _, value in (line.partition(":") for line in out.stdout.splitlines())
    }


def structure_elements(node, found: list[DictionaryObject]) -> list[DictionaryObject]:
    """Every structure element under ``node`` (the /StructTreeRoot's /K tree)."""
    node = node.get_object()
    if isinstance(node, list):
        for child in node:
            structure_elements(child, found)
    elif isinstance(node, DictionaryObject):
        if "/S" in node:
            found.append(node)
        if "/K" in node:
            structure_elements(node["/K"], found)
    return found


def test_pdfinfo_reports_the_demo_proposal_as_tagged_with_its_title(pdf_path, rendered):
    info = pdfinfo(pdf_path)
    assert info["Tagged"] == "yes"
    assert info["Title"] == "Training infrastructure proposal TQ-DEMO-00003"
    assert int(info["Pages"]) == rendered.page_count <= MAX_PAGES


def test_it_is_pdf_ua_with_a_language_and_a_title_shown_as_its_name(pdf_path):
    reader = PdfReader(pdf_path)
    catalog = reader.trailer["/Root"]
    assert catalog["/Lang"] == "en"
    assert catalog["/MarkInfo"]["/Marked"]
    assert catalog["/ViewerPreferences"]["/DisplayDocTitle"]
    assert b"pdfuaid:part" in catalog["/Metadata"].get_object().get_data()


def test_the_structure_has_headings_tables_and_every_chart_has_alternative_text(pdf_path):
    root = PdfReader(pdf_path).trailer["/Root"]["/StructTreeRoot"]
    elements = structure_elements(root["/K"], [])
    kinds = {str(element["/S"]) for element in elements}
    assert {"/H1", "/H2", "/H3", "/Table", "/TH", "/TD", "/L", "/LI", "/P"} <= kinds
    figures = [element for element in elements if element["/S"] == "/Figure"]
    alts = {str(figure.get("/Alt", "")) for figure in figures}
    assert "Wall-clock days against number of accelerators" in alts
    assert "Memory per accelerator by component" in alts
    assert "Total of each option over the horizon, with its likely range" in alts
    assert all(alts), "a figure without alternative text"


def test_the_tagged_proposal_still_passes_the_checker(rendered):
    assert rendered.findings == ()
