"""The proposal checker: reads a rendered proposal back and reports what a careful reader would
stumble over, before anyone sends it.

It reads the laid-out document (WeasyPrint's boxes: each line of text with its position on its
page, exactly what the PDF draws) and the HTML it came from (the figures the template tags with
``data-figure`` and the charts' labels). Reading the PDF back with pypdf would give the same
text and positions but costs seconds per proposal (pypdf parses content streams in pure
Python), and the checker runs on every render.

The rules (``RULES``) and what each catches:

``figure``
    A figure shown twice with different values: every element tagged ``data-figure="gpus"``
    must say the same, and sentences that restate a tagged figure ("39 nodes of 8", "sets the
    cluster at 312 accelerators") must agree with it; "single node" beside more than one node.
``machine``
    Machine words: snake_case ("on_prem"), a raw enumerated value ("bf16", "h100-sxm"), Python's
    ``None`` in a sentence, "0 × 0", a template tag left unrendered.
``plural``
    A count and its noun that disagree: "1 nodes", "2 node".
``unit``
    A unit the reader has to convert: a fraction of a unit ("0.314 MB/s", "0.012 TB", "0.948
    hours"), a fraction of a thing ("0.00785 interruptions per run"), a share written as a bare
    fraction ("Annual growth 0.5"), ten thousand or more GB or MB/s.
``off-page``
    Text outside the printable area: left or right of the page's margins, or above or below
    the page.

``range``, ``sum``, ``network``, and ``figure`` across precisions
    The arithmetic a reader re-does on the figures as printed: a likely range that does not
    contain its headline, a year table or bill of materials that does not add up, a network
    bought beside words saying none is needed, one figure printed on two pages ("$1.81M"
    beside "$1.82 million"): ``reports.check_arithmetic``, over the elements the template tags
    (``data-amount``, ``data-range-of``, ``data-addend``, ``data-sum``, ``data-bought``).

Text inside an element with the class ``verbatim`` (what the customer typed, a source's own
title) is exempt from the word rules: it is quoted, not written by us.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from weasyprint.formatting_structure import boxes

from reports.chart_markup import CHART_LABEL_CLASS
from reports.check_arithmetic import arithmetic_findings
from reports.check_html import parse_html, read_elements, read_tagged
from sizing.public import (
    COST_OPTIONS,
    OUTPUT_VALUES,
    REGIONS,
    VALUES,
    count_of,
)
from sizing.public import (
    RULES as CUSTOMER_RULES,
)

RULES: dict[str, str] = {
    "figure": "a figure that appears twice with different values",
    "machine": "a raw enumerated value, snake_case word or other machine phrasing",
    "plural": "a count and its noun disagree",
    "unit": "a unit the reader has to convert",
    "off-page": "text outside the printable area",
    "range": "a likely range that does not contain its headline figure",
    "sum": "parts that do not add up, as printed, to their printed total",
    "network": "a network bought while the text says none is needed",
}

# How far text may stray past the margins before it counts as off the page [CSS px]: a glyph's
# side bearing, not a word.
TOLERANCE_PX = 1.5
VERBATIM_CLASS = "verbatim"

# --- what the rules look for --------------------------------------------------------------------

_NUMBER = r"\d[\d,]*(?:\.\d+)?"
# Nouns counted in the proposal: (singular, plural).
_NOUNS = (
    ("node", "nodes"),
    ("accelerator", "accelerators"),
    ("GPU", "GPUs"),
    ("run", "runs"),
    ("day", "days"),
    ("hour", "hours"),
    ("job", "jobs"),
    ("rack", "racks"),
    ("switch", "switches"),
    ("team", "teams"),
    ("interruption", "interruptions"),
    ("checkpoint", "checkpoints"),
    ("month", "months"),
    ("year", "years"),
    ("minute", "minutes"),
    ("core", "cores"),
    ("engineer", "engineers"),
    ("server", "servers"),
    ("link", "links"),
    ("sequence", "sequences"),
    ("port", "ports"),
    ("experiment", "experiments"),
)
_SINGULARS = "|".join(s for s, _p in _NOUNS)
_PLURALS = "|".join(p for _s, p in _NOUNS)
# "1 nodes"; not "1.5 nodes", "21 nodes" or "0.1 nodes".
# A product ("3 × 1 accelerators") counts the total, which is plural.
_ONE_PLURAL = re.compile(rf"(?<![\w.,–-])(?<!x )(?<!× )1 ({_PLURALS})\b")
# "2 node"; not "8-accelerator server", "2 node-hours" or "21-day".
_MANY_SINGULAR = re.compile(
    rf"(?<![\w.,-])(?:0|[2-9]|\d{{2,}}|\d{{1,3}}(?:,\d{{3}})+) ({_SINGULARS})\b(?![-\w])"
)
# A fraction of a unit that has a smaller one ("0.314 MB/s" → "314 kB/s").
_UNITS_WITH_A_SMALLER_ONE = r"TB|GB|MB|TB/s|GB/s|MB/s|kW|MW|h|hours|days|weeks|months|years"
_FRACTION_OF_UNIT = re.compile(rf"(?<![\d.,$€])0\.\d+ ({_UNITS_WITH_A_SMALLER_ONE})(?![\w/])")
# A fraction of a thing that comes whole ("0.00785 interruptions per run").
_FRACTION_OF_THING = re.compile(rf"(?<![\d.,$€])0\.\d+ ({_PLURALS}|{_SINGULARS})\b")
# Ten thousand or more of a unit that has a larger one ("12,400 GB" → "12.4 TB").
_TOO_MANY_OF_UNIT = re.compile(
    r"(?<![\d.,$€])\d{2,3},\d{3}(?:,\d{3})*(?:\.\d+)? (GB|MB|MB/s|GB/s)(?![\w/])"
)
# A share written as a bare fraction beside its label ("Annual growth 0.5").
_BARE_SHARE = re.compile(
    r"\b(growth|share|utili[sz]ation|efficiency|MFU|goodput)\b[^\n.;]{0,40}?(?<![\d.,])"
    r"(0\.\d+|1\.0+)(?![\d%]| ?%)",
    re.IGNORECASE,
)
_SNAKE = re.compile(r"(?<![\w./@:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/@.:-])")
_MACHINE_PHRASES = (
    re.compile(r"\bNone (?:with|of|per|in|×)\b"),
    re.compile(r"\b0 × 0\b"),
    re.compile(r"\{\{|\}\}|\{%|%\}"),
    re.compile(r"(?<![\w.])(?:nan|inf|NaN|null|True|False)(?![\w.])"),
    re.compile(r"\bengine (?:default|estimate|target|choice)\b", re.IGNORECASE),  # say "our"
)
# Raw enumerated values that read as machine words: with an underscore, a digit or a hyphen
# ("continued_pretrain", "bf16", "h100-sxm"), or a name written in lower case ("adamw" for
# AdamW, "infiniband"). Plain words ("dense", "buy", "global") pass even where the proposal
# words them differently.


def _raw_values() -> frozenset[str]:
    raw: set[str] = set()
    tables: list[dict[str, str]] = [*VALUES.values(), *OUTPUT_VALUES.values()]
    tables += [COST_OPTIONS, CUSTOMER_RULES, REGIONS]
    for table in tables:
        for key, words in table.items():
            if key == words or len(key) < 3:
                continue
            if not key.isalpha() and key.lower() == key:
                raw.add(key)
            elif key.lower() == words.lower() and words[1:] != words[1:].lower():
                raw.add(key)  # a name or acronym: "AdamW", "LoRA", "NVIDIA"
    return frozenset(raw)


_RAW_VALUES = _raw_values()
_RAW_VALUE = re.compile(
    r"(?<![\w./@:-])("
    + "|".join(sorted(map(re.escape, _RAW_VALUES), key=len, reverse=True))
    + r")(?![\w/@:-])"
)
# Sentences that restate a tagged figure: (pattern, the figure keys of its groups).
_CLAIMS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"(?<![\d.,])(\d[\d,]*) nodes? of (\d+)\b"), ("nodes", "gpus_per_node")),
    (re.compile(r"sets the cluster at (\d[\d,]*) accelerators"), ("gpus_per_job",)),
    # one run's count, said in a sentence or a table row: never the cluster's
    (re.compile(r"\b(?:[Oo]ne|[Ee]ach) run uses (\d[\d,]*) accelerators?\b"), ("gpus_per_job",)),
    (re.compile(r"(?<![\d.,])(\d[\d,]*) × [A-Z][\w ]*? in (\d[\d,]*) nodes?\b"), ("gpus", "nodes")),
)
# Words that say the plan fits in one server (wrong beside a plan of several).
_SINGLE_NODE = re.compile(
    r"\bsingle node\b|\bone node is enough\b|\bthe run fits in one (?:server|node)\b"
    r"|\beverything runs in one (?:server|cloud instance)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Finding:
    """One thing the checker found: which rule, where ("page 3", "chart"), and the words."""

    rule: str
    where: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.rule}: {self.text}"


@dataclass(frozen=True)
class Block:
    """The text of one block (a paragraph, a table row) on one page; ``checked`` has the
    verbatim parts blanked out."""

    page: int
    text: str
    checked: str


# --- reading the laid-out document ------------------------------------------------------------


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    if element is None or not hasattr(element, "get"):
        return []
    return (element.get("class") or "").split()


def _is_verbatim(box: Any, inherited: bool) -> bool:
    return inherited or VERBATIM_CLASS in _classes(box)


def _line_text(box: Any, verbatim: bool) -> tuple[str, str, list[Any]]:
    """(text, text with verbatim parts blanked, the text boxes) of one line. A chart's label
    (in a printed chart, on the line of its figure) is read from the HTML with the others, as
    SVG text was: its text boxes are kept to be held inside the page, its words left out."""
    verbatim = _is_verbatim(box, verbatim)
    if isinstance(box, boxes.TextBox):
        return box.text, (" … " if verbatim else box.text), [box]
    text, checked, found = [], [], []
    for child in getattr(box, "children", ()):
        t, c, f = _line_text(child, verbatim)
        text.append(t)
        checked.append(c)
        found.extend(f)
    if CHART_LABEL_CLASS in _classes(box):
        return "", "", found
    return "".join(text), "".join(checked), found


def _blocks(box: Any, verbatim: bool, page: int, text_boxes: list[Any]) -> Iterator[Block]:
    """The blocks of a box tree in reading order; a table row is one block, its cells joined
    with " | "."""
    verbatim = _is_verbatim(box, verbatim)
    children = list(getattr(box, "children", ()))
    if isinstance(box, boxes.TableRowBox):
        cells = [list(_blocks(cell, verbatim, page, text_boxes)) for cell in children]
        yield Block(
            page,
            " | ".join(" ".join(b.text for b in cell) for cell in cells),
            " | ".join(" ".join(b.checked for b in cell) for cell in cells),
        )
        return
    if children and all(isinstance(child, boxes.LineBox) for child in children):
        lines = [_line_text(child, verbatim) for child in children]
        for _t, _c, found in lines:
            text_boxes.extend(found)
        yield Block(
            page,
            " ".join(t.strip() for t, _c, _f in lines).strip(),
            " ".join(c.strip() for _t, c, _f in lines).strip(),
        )
        return
    for child in children:
        yield from _blocks(child, verbatim, page, text_boxes)


def read_pages(pages: Sequence[Any]) -> tuple[list[Block], list[Finding]]:
    """The text blocks of laid-out WeasyPrint pages, and any text outside the printable area."""
    blocks: list[Block] = []
    outside: list[Finding] = []
    for number, page in enumerate(pages, start=1):
        page_box = page._page_box  # WeasyPrint 70 (pinned): the laid-out tree of the page
        text_boxes: list[Any] = []
        blocks.extend(b for b in _blocks(page_box, False, number, text_boxes) if b.text)
        left = page_box.content_box_x() - TOLERANCE_PX
        right = page_box.content_box_x() + page_box.width + TOLERANCE_PX
        for text_box in text_boxes:
            if not text_box.text.strip():
                continue
            x0, x1 = text_box.position_x, text_box.position_x + text_box.width
            y0, y1 = text_box.position_y, text_box.position_y + text_box.height
            if x0 < left or x1 > right or y0 < 0 or y1 > page.height:
                outside.append(Finding("off-page", f"page {number}", text_box.text.strip()))
    return blocks, outside


# --- the rules ----------------------------------------------------------------------------------


def _figure_value(text: str) -> str:
    return text.replace(",", "").replace("\u202f", "").strip()


def figure_findings(figures: dict[str, list[str]], blocks: Iterable[Block]) -> list[Finding]:
    """Tagged figures that disagree with each other, and sentences that disagree with them."""
    findings = []
    shown: dict[str, str] = {}
    for key, values in figures.items():
        distinct = list(dict.fromkeys(_figure_value(v) for v in values if v.strip()))
        if len(distinct) > 1:
            findings.append(Finding("figure", key, " vs ".join(distinct)))
        if distinct:
            shown[key] = distinct[0]
    for block in blocks:
        for pattern, keys in _CLAIMS:
            for match in pattern.finditer(block.checked):
                for key, value in zip(keys, match.groups(), strict=True):
                    if key in shown and _figure_value(value) != shown[key]:
                        findings.append(
                            Finding(
                                "figure",
                                f"page {block.page}",
                                f"{match.group(0)!r} but {key} is {shown[key]}",
                            )
                        )
        nodes = shown.get("nodes", "")
        if nodes.isdigit() and int(nodes) > 1:
            for match in _SINGLE_NODE.finditer(block.checked):
                findings.append(
                    Finding(
                        "figure",
                        f"page {block.page}",
                        f"{_context(block.checked, match)} but nodes is {nodes}",
                    )
                )
    return findings


def _context(text: str, match: re.Match[str], width: int = 30) -> str:
    start, end = max(0, match.start() - width), min(len(text), match.end() + width)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def text_findings(text: str, where: str) -> list[Finding]:
    """The word rules (machine, plural, unit) over one piece of text we wrote."""
    findings = []
    checks: tuple[tuple[str, Iterable[re.Pattern[str]]], ...] = (
        ("machine", (_SNAKE, _RAW_VALUE, *_MACHINE_PHRASES)),
        ("plural", (_ONE_PLURAL, _MANY_SINGULAR)),
        ("unit", (_FRACTION_OF_UNIT, _FRACTION_OF_THING, _TOO_MANY_OF_UNIT, _BARE_SHARE)),
    )
    for rule, patterns in checks:
        for pattern in patterns:
            for match in pattern.finditer(text):
                findings.append(Finding(rule, where, _context(text, match)))
    return findings


def check_proposal(*, html: str, pages: Sequence[Any]) -> list[Finding]:
    """Every finding on one rendered proposal: its HTML and its laid-out WeasyPrint pages."""
    blocks, findings = read_pages(pages)
    # The HTML as WeasyPrint parsed it for the layout (the first page's root box holds the
    # <html> element); parsed here only if there is no page to take it from.
    root = _root_element(pages)
    parser = read_elements(root) if root is not None else parse_html(html)
    figures, chart_labels = dict(parser.tagged["data-figure"]), parser.chart_labels
    findings = figure_findings(figures, blocks) + findings
    findings += [
        Finding(*found)
        for found in arithmetic_findings(
            read_tagged(parser), ((f"page {b.page}", b.checked) for b in blocks)
        )
    ]
    for block in blocks:
        findings.extend(text_findings(block.checked, f"page {block.page}"))
    for label in chart_labels:
        findings.extend(text_findings(label, "chart"))
    return list(dict.fromkeys(findings))


def _root_element(pages: Sequence[Any]) -> Any:
    """The ``<html>`` element WeasyPrint laid ``pages`` out from, or None."""
    for page in pages[:1]:
        for box in page._page_box.children:  # WeasyPrint 70 (pinned), as in read_pages
            element = getattr(box, "element", None)
            if element is not None and element.tag == "html":
                return element
    return None


# How the findings told to staff begin (a failed render's error starts so).
CHECK_FAILED = "The proposal failed its check"


def describe_findings(findings: Sequence[Finding], *, limit: int = 20) -> str:
    """The findings for staff, in plain words: how many, then one a line (the first ``limit``),
    each saying where, what the rule means and the words found: 'page 2, a count and its noun
    disagree: "1 nodes of 8"'."""
    lines = [f"{CHECK_FAILED} ({count_of(len(findings), 'finding')}):"]
    lines += [explain_finding(finding) for finding in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"… and {len(findings) - limit} more")
    return "\n".join(lines)


def explain_finding(finding: Finding) -> str:
    """One finding as a sentence for staff (the rule's meaning from ``RULES``)."""
    meaning = RULES.get(finding.rule, finding.rule)
    return f"{finding.where}, {meaning}: \u201c{finding.text}\u201d"
