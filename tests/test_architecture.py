"""The import contracts (pyproject.toml, docs/architecture.md) hold, and they do catch a wrong
import: a copy of the code with one added import from a lower app to a higher one, or from
another app into sizing's inside past its front door (sizing/public.py), fails."""

import shutil
import subprocess
import sys
import tomllib
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
    assert "3 kept, 0 broken" in outcome.stdout


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


@pytest.mark.parametrize(
    ("module", "inside_import"),
    [
        ("reports/bill.py", "from sizing.engine.network import fabric_layout"),
        ("questionnaire/review.py", "import sizing.engine.core"),
        ("pipeline/services.py", "from sizing import adapters"),
        ("staff/summary.py", "from sizing.stored_result import read_result"),
        ("reports/summary.py", "from sizing.words.counts import read_counts"),
    ],
)
def test_an_import_past_the_front_door_breaks_a_contract(copy_of_the_code, module, inside_import):
    path = copy_of_the_code / module
    path.write_text(path.read_text() + f"\n{inside_import}  # deliberately past the front door\n")
    outcome = lint_imports(copy_of_the_code)
    assert outcome.returncode != 0
    broken = outcome.stdout[outcome.stdout.index("Broken contracts") :]
    assert "Other apps use only the public face of sizing" in broken
    assert module.replace("/", ".").removesuffix(".py") in broken


def test_the_front_door_contract_names_every_module_behind_the_door():
    """A new module in sizing/ is behind the door unless it is added to the contract's list."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (door,) = [
        contract
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["id"] == "sizing-front-door"
    ]
    behind = {
        f"sizing.{path.stem}"
        for path in (ROOT / "sizing").iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists())
        and path.stem not in {"__init__", "public", "apps", "migrations"}
    }
    assert behind == set(door["forbidden_modules"])
