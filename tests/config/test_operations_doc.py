"""docs/operations.md: every command it gives an operator names a test that runs it."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `([^`]+)` \| `(tests/[^`:]+)::(test_\w+)` \|$", re.MULTILINE)
LAUNCHERS = {"python", "manage.py", "-m", "celery", "-A", "config"}


def _rows() -> list[tuple[str, str, str]]:
    return ROW.findall((ROOT / "docs" / "operations.md").read_text())


def _word_that_names(command: str) -> str:
    """The word a test must use to run ``command``: what follows the launcher, no flags."""
    words = [w for w in command.split() if w not in LAUNCHERS and not w.startswith("-")]
    return words[0].rsplit("/", 1)[-1]


def test_the_operations_guide_lists_its_commands_with_their_tests():
    commands = {command for command, _, _ in _rows()}
    for expected in ("bin/backup", "bin/restore", "python -m config.beat_health"):
        assert expected in commands
    assert len(_rows()) >= 10


def test_every_command_is_run_by_the_test_named_beside_it():
    for command, path, name in _rows():
        source = (ROOT / path).read_text()
        functions = {
            node.name: ast.get_source_segment(source, node)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef)
        }
        assert name in functions, f"{path} has no {name} (docs/operations.md: {command})"
        word = _word_that_names(command)
        assert word in source, f"{path} never uses {word!r} ({command})"
