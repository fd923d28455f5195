"""The proposal checker's reading of the HTML: the text of every element the template tags
(``data-figure`` and the arithmetic's ``data-amount``, ``data-range-of``, ``data-addend``,
``data-sum``, ``data-bought``) and of every chart label (``reports.proposal_check``)."""

from __future__ import annotations

from collections import defaultdict
from html.parser import HTMLParser

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
        # (tag, its data attributes, text)
        self._open: list[tuple[str, dict[str, str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "meta", "link", "hr", "input", "col"):
            return
        marks = {name: value for name, value in attrs if name in _TAGS and value}
        self._open.append((tag, marks, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            open_tag, marks, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            for name, value in marks.items():
                for key in value.split():
                    self.tagged[name][key].append(text)
            if open_tag == "text":
                self.chart_labels.append(text)
            if self._open:
                self._open[-1][2].append("".join(parts))
            if open_tag == tag:
                return

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def parse_html(html: str) -> _Figures:
    parser = _Figures()
    parser.feed(html)
    parser.close()
    return parser


def read_html(html: str) -> tuple[dict[str, list[str]], list[str]]:
    """The tagged figures (key → each text shown) and the charts' labels of a proposal's HTML."""
    parser = parse_html(html)
    return dict(parser.tagged["data-figure"]), parser.chart_labels


def read_tagged(parser: _Figures) -> Tagged:
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
