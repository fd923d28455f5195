"""The import contracts (pyproject.toml, docs/architecture.md) hold, and they do catch an upward
import: a copy of the code with one added import from a lower app to a higher one fails."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("config", "sizing", "questionnaire", "reports", "pipeline", "staff")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture
def copy_of_the_code(tmp_path: Path) -> Path:
    for app in APPS:
        shutil.copytree(ROOT / app, tmp_path / app, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_code_as_it_is_keeps_every_contract(copy_of_the_code):
    outcome = lint_imports(copy_of_the_code)
    assert outcome.returncode == 0, outcome.stdout + outcome.stderr
    assert "2 kept, 0 broken" in outcome.stdout


@pytest.mark.parametrize(
    ("module", "upward_import", "contract"),
    [
        ("sizing/adapters.py", "import staff.models", "Apps import only downward"),
        ("questionnaire/services.py", "import pipeline.services", "Apps import only downward"),
        ("reports/document.py", "import pipeline.models", "Apps import only downward"),
        ("config/celery.py", "import questionnaire.models", "Apps import only downward"),
        ("sizing/engine/core.py", "import django.conf", "The sizing engine is plain Python"),
    ],
)
def test_an_upward_import_breaks_a_contract(copy_of_the_code, module, upward_import, contract):
    path = copy_of_the_code / module
    path.write_text(path.read_text() + f"\n{upward_import}  # deliberately upward\n")
    outcome = lint_imports(copy_of_the_code)
    assert outcome.returncode != 0
    broken = outcome.stdout[outcome.stdout.index("Broken contracts") :]
    assert contract in broken
    assert upward_import.split()[1].split(".")[0] in broken
