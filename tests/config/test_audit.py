"""Finding (low, issue 25): ``bin/audit`` exited 0 when no advisory source could be reached,
so a run that checked nothing read like a clean audit. It now says which it was: audited and
clean (0), vulnerable (1), or not done (2, loudly), which passes only with a stated reason."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def audit(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "AUDIT_UNAVAILABLE_REASON"}
    return subprocess.run(
        ["bin/audit"], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=900
    )


def test_the_audit_never_passes_without_checking_unless_told_why():
    plain = audit()
    if plain.returncode == 0:  # an advisory source answered for every package
        assert "locked packages audited, no known vulnerabilities" in plain.stdout
        return
    if plain.returncode == 1:
        assert "known vulnerabilities in the locked dependencies" in plain.stderr
        return
    assert plain.returncode == 2, plain.stderr
    assert "DEPENDENCY AUDIT NOT DONE" in plain.stderr
    assert "AUDIT_UNAVAILABLE_REASON" in plain.stderr
    excused = audit(AUDIT_UNAVAILABLE_REASON="no internet on this test machine")
    assert excused.returncode == 0
    assert "DEPENDENCY AUDIT NOT DONE" in excused.stderr
    assert "no internet on this test machine" in excused.stderr
