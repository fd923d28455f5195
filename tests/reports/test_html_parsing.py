"""WeasyPrint's HTML parser with its cache of character patterns working
(reports.html_parsing): the same tree as tinyhtml5 builds on its own, each pattern built once."""

import re
from datetime import date
from xml.etree import ElementTree

import tinyhtml5
import tinyhtml5.inputstream

from reports.demo import demo_data
from reports.document import render_html
from reports.html_parsing import _CharacterPatterns


def _parsed(html: str, cache: dict) -> bytes:
    saved = tinyhtml5.inputstream.characters_until_regex
    tinyhtml5.inputstream.characters_until_regex = cache
    try:
        return ElementTree.tostring(tinyhtml5.parse(html, namespace_html_elements=False))
    finally:
        tinyhtml5.inputstream.characters_until_regex = saved


def test_the_proposal_parses_to_the_tree_tinyhtml5_builds_on_its_own():
    html = render_html(demo_data(today=date(2026, 12, 2)))
    assert _parsed(html, _CharacterPatterns()) == _parsed(html, {})


def test_each_pattern_is_kept_under_its_stop_characters_and_built_once():
    html = render_html(demo_data(today=date(2026, 12, 2)))
    patterns = _CharacterPatterns()
    _parsed(html, patterns)
    kept = dict(patterns)
    assert kept and all(not isinstance(key[0], re.Pattern) for key in kept)
    _parsed(html, patterns)
    assert patterns == kept  # a second proposal finds every pattern it needs
    # tinyhtml5 on its own stores each pattern under the pattern: never found again
    own: dict = {}
    _parsed(html, own)
    assert all(isinstance(key[0], re.Pattern) for key in own)


def test_reports_document_gives_the_parser_the_working_cache():
    assert isinstance(tinyhtml5.inputstream.characters_until_regex, _CharacterPatterns)
