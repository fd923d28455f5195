"""Every engine module that holds a formula or a published number names its source in a
References section of its docstring (as pvlib does), so a new module cannot slip in without one.

The modules listed below hold no formula or published figure of their own: they compose other
modules, hold data classes, write sentences, or carry their sources per entry. A module that
gains a formula leaves this list and gains a References section.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "sizing" / "engine"

WITHOUT_A_FORMULA = {
    "__init__.py": "a package's list of names",
    "__main__.py": "the command line",
    "alternatives.py": "sizes other accelerators with the same modules; ranks them",
    "assumptions.py": "every entry carries its own source, date and rationale",
    "core.py": "composes the concerns into one result",
    "cost/__init__.py": "a package's docstring",
    "cost/explain.py": "sentences about figures worked out elsewhere",
    "cost/options.py": "prices every option with the option modules, side by side",
    "explain.py": "sentences about figures worked out elsewhere",
    "frozen_copies.py": "copies data classes with some fields changed; no formula",
    "inputs.py": "the input's data classes",
    "provenance.py": "the data classes of a sourced value",
    "reads.py": "notes which fields of an input a step reads; no formula",
    "resolve/__init__.py": "a package's docstring",
    "resolve/resolved.py": "composes the answers made concrete",
    "resolve/site.py": "defaults read from assumptions.py and the price modules",
    "text.py": "the plain-text summary of a result",
    "validation.py": "what an input may be, and the messages when it is not",
    "version.py": "the engine's version",
    "vocabulary.py": "labels and units of the fields",
}


def _docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text())) or ""


def test_every_module_with_a_formula_names_its_sources() -> None:
    missing = [
        path.relative_to(ENGINE).as_posix()
        for path in sorted(ENGINE.rglob("*.py"))
        if path.relative_to(ENGINE).as_posix() not in WITHOUT_A_FORMULA
        and "\nReferences\n----------\n" not in _docstring(path)
    ]
    assert not missing, f"no References section in the docstring of {missing}"


def test_the_list_of_modules_without_a_formula_names_only_modules_that_exist() -> None:
    for name in WITHOUT_A_FORMULA:
        assert (ENGINE / name).exists(), name
