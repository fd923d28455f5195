"""The proposal's print stylesheet (``static/reports/proposal.css``) as WeasyPrint gets it:
parsed once per process, with its custom properties written out.

Named by a ``<link>`` the stylesheet was fetched and parsed on every layout: 14 ms of CPU, 2 %
of a demo layout (issue 29). WeasyPrint also resolves each ``var()`` anew for every element a
rule matches (the cells' ``border-bottom: … var(--rule)`` 600 times a proposal): writing the
``:root`` values in once, when the file is read, cut 120,000 of a layout's 2.5 million Python
calls, 26 ms (4 %). The file keeps its custom properties, the one place to rebrand.

References
----------
.. [1] WeasyPrint 70 documentation, "Stylesheet origins" (a ``stylesheets=`` sheet is a user
   stylesheet) and ``weasyprint/css/__init__.py`` (``Pending`` values, computed per element).
.. [2] CSS Custom Properties for Cascading Variables Level 1, §3 "Using cascading variables".
"""

import functools
from collections.abc import Iterator
from pathlib import Path

import tinycss2  # WeasyPrint's own CSS parser, pinned in pyproject.toml
from tinycss2.ast import FunctionBlock, Node
from weasyprint import CSS

from reports.fetcher import STATIC_PREFIX, BlockedResource, ProposalURLFetcher

PROPOSAL_STYLESHEET = "reports/proposal.css"


def proposal_stylesheet() -> CSS:
    """The proposal's stylesheet, parsed again only when the file changes (a new modification
    time). Read through the locked-down fetcher's rules: from ``static/reports/`` or its
    collected copy (``STATIC_MANIFEST=1``) only."""
    path = ProposalURLFetcher.static_file(STATIC_PREFIX + PROPOSAL_STYLESHEET)
    if path is None:
        raise BlockedResource(f"the proposal's stylesheet is missing: {PROPOSAL_STYLESHEET}")
    return _parsed(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=1)
def _parsed(path: Path, modified_ns: int) -> CSS:
    return CSS(
        string=custom_properties_written_out(path.read_text(encoding="utf-8")),
        base_url=STATIC_PREFIX + PROPOSAL_STYLESHEET,
        url_fetcher=ProposalURLFetcher(),
    )


def custom_properties_written_out(css: str) -> str:
    """``css`` with each ``var(--name)`` replaced by the value ``:root`` gives ``--name``.

    Only where that is what the cascade would give anyway: a property set in any other rule
    (an element could then see another value), a ``var()`` with a fallback or one naming a
    property ``:root`` does not set is left for WeasyPrint to resolve."""
    values: dict[str, list[Node]] = {}
    set_elsewhere: set[str] = set()
    for in_root, declaration in _custom_property_declarations(tinycss2.parse_stylesheet(css)):
        if in_root and declaration.name not in values:
            values[declaration.name] = declaration.value
        else:
            set_elsewhere.add(declaration.name)
    known = {name: value for name, value in values.items() if name not in set_elsewhere}
    return tinycss2.serialize(_written_out(tinycss2.parse_component_value_list(css), known))


def _custom_property_declarations(rules: list[Node]) -> Iterator[tuple[bool, Node]]:
    """Each ``--name: …`` declaration of ``rules`` and of the rules nested in them (``@page``'s
    margin boxes, ``@media``), with whether it is in a ``:root`` rule."""
    for rule in rules:
        if rule.type not in ("qualified-rule", "at-rule") or rule.content is None:
            continue
        prelude = tinycss2.serialize(rule.prelude).strip()
        in_root = rule.type == "qualified-rule" and prelude == ":root"
        contents = tinycss2.parse_blocks_contents(rule.content)
        for item in contents:
            if item.type == "declaration" and item.name.startswith("--"):
                yield in_root, item
        nested = [item for item in contents if item.type in ("qualified-rule", "at-rule")]
        if rule.type == "at-rule" and rule.lower_at_keyword == "media":
            nested = tinycss2.parse_rule_list(rule.content)
        yield from _custom_property_declarations(nested)


def _written_out(nodes: list[Node], values: dict[str, list[Node]]) -> list[Node]:
    written: list[Node] = []
    for node in nodes:
        if isinstance(node, FunctionBlock) and node.lower_name == "var":
            arguments = [a for a in node.arguments if a.type not in ("whitespace", "comment")]
            name = (
                arguments[0].value if len(arguments) == 1 and arguments[0].type == "ident" else ""
            )
            if name in values:
                written.extend(_stripped(values[name]))
                continue
        if hasattr(node, "content") and isinstance(node.content, list):  # a {} [] () block
            node.content = _written_out(node.content, values)
        elif isinstance(node, FunctionBlock):
            node.arguments = _written_out(node.arguments, values)
        written.append(node)
    return written


def _stripped(value: list[Node]) -> list[Node]:
    """A declaration's value without the whitespace around it."""
    start, end = 0, len(value)
    while start < end and value[start].type in ("whitespace", "comment"):
        start += 1
    while end > start and value[end - 1].type in ("whitespace", "comment"):
        end -= 1
    return value[start:end]
