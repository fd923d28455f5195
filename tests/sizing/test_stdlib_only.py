"""The engine imports nothing outside the standard library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
sys.path.insert(0, ROOT_DIR)
before = set(sys.modules)
import sizing.engine
from sizing.engine import size_dict
size_dict({"model": {"name": "Llama 3.1 8B"}})
new = sorted(m.split(".")[0] for m in set(sys.modules) - before)
print(json.dumps(sorted(set(new))))
"""


def test_engine_imports_only_the_standard_library() -> None:
    proc = subprocess.run(
        [sys.executable, "-I", "-c", "ROOT_DIR = " + repr(str(ROOT)) + "\n" + PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    imported = set(json.loads(proc.stdout))
    third_party = {m for m in imported - {"sizing"} if m not in sys.stdlib_module_names}
    assert not third_party, third_party
    assert not imported & {"django", "celery", "numpy"}
