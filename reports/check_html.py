"""The proposal checker's reading of the HTML: the text of every element the template tags
(``data-figure`` and the arithmetic's ``data-amount``, ``data-range-of``, ``data-addend``,
``data-sum``, ``data-bought``) and of every chart label (``reports.proposal_check``): SVG
``<text>`` on screen, an element of class ``chart-label`` in print (``reports.chart_markup``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from reports.chart_markup import CHART_LABEL_CLASS
from reports.check_arithmetic import Tagged

# The data attributes the arithmetic rules read (``reports.check_arithmetic``), each a key or
# space-separated group names.
_TAGS = ("data-figure", "data-amount", "data-range-of", "data-addend", "data-sum", "data-bought")


class _Figures(HTMLParser):
    """Collects the text of every tagged element (``data-figure`` and the arithmetic's tags)
    and of every chart label."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tagged: dict[str, dict[str, list[str]]] = {tag: defaultdict(list) for tag in _TAGS}
        self.chart_labels: list[str] = []
        # (tag, its data attributes, whether it is a chart label, text)
        self._open: list[tuple[str, dict[str, str], bool, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "meta", "link", "hr", "input", "col"):
            return
        marks = {name: value for name, value in attrs if name in _TAGS and value}
        classes = next((value or "" for name, value in attrs if name == "class"), "").split()
        self._open.append((tag, marks, tag == "text" or CHART_LABEL_CLASS in classes, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            open_tag, marks, is_label, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            for name, value in marks.items():
                for key in value.split():
                    self.tagged[name][key].append(text)
            if is_label:
                self.chart_labels.append(text)
            if self._open:
                self._open[-1][3].append("".join(parts))
            if open_tag == tag:
                return

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][3].append(data)


@dataclass(frozen=True)
class ReadHTML:
    """What the checker reads from a proposal's HTML: tag → key → the text of each element so
    tagged, and the text of each chart label (SVG ``<text>`` or HTML), in the document's order."""

    tagged: dict[str, dict[str, list[str]]]
    chart_labels: list[str]


def parse_html(html: str) -> ReadHTML:
    """Read HTML text (parsed here with the standard library)."""
    parser = _Figures()
    parser.feed(html)
    parser.close()
    return ReadHTML(parser.tagged, parser.chart_labels)


def read_elements(root: Any) -> ReadHTML:
    """Read an element tree WeasyPrint has already parsed (``ElementTree`` elements): the same
    as :func:`parse_html` of the HTML it came from, without parsing 80 KB again (about 20 ms of
    CPU a demo render, issue 29)."""
    tagged: dict[str, dict[str, list[str]]] = {tag: defaultdict(list) for tag in _TAGS}
    chart_labels: list[str] = []
    for element in _elements(root):
        marks = [(name, element.get(name)) for name in _TAGS if element.get(name)]
        is_label = (
            element.tag.rpartition("}")[2] == "text"  # SVG's, in its namespace
            or CHART_LABEL_CLASS in (element.get("class") or "").split()
        )
        if not (marks or is_label):
            continue
        text = " ".join("".join(element.itertext()).split())
        for name, value in marks:
            for key in value.split():
                tagged[name][key].append(text)
        if is_label:
            chart_labels.append(text)
    return ReadHTML(tagged, chart_labels)


def _elements(root: Any) -> Iterable[Any]:
    """Every element of the tree below ``root``, itself first; no comments."""
    return (element for element in root.iter() if isinstance(element.tag, str))


def read_html(html: str) -> tuple[dict[str, list[str]], list[str]]:
    """The tagged figures (key → each text shown) and the charts' labels of a proposal's HTML."""
    parser = parse_html(html)
    return dict(parser.tagged["data-figure"]), parser.chart_labels


def read_tagged(parser: ReadHTML) -> Tagged:
    """What the arithmetic rules check: a figure's printings (``data-figure`` and
    ``data-amount``), ranges, addends and sums, and the lines that buy a network."""
    tagged = parser.tagged
    amounts: dict[str, list[str]] = defaultdict(list)
    for name in ("data-figure", "data-amount"):
        for key, texts in tagged[name].items():
            amounts[key].extend(texts)
    return Tagged(
        amounts=dict(amounts),
        ranges=dict(tagged["data-range-of"]),
        addends=dict(tagged["data-addend"]),
        sums=dict(tagged["data-sum"]),
        bought_network=list(tagged["data-bought"].get("network", ())),
    )
