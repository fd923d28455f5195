"""Finding: the direct dependencies were pinned, the transitive ones were neither locked nor
hashed, so two installs could differ. requirements/*.lock (made by bin/lock) now pin every
package with its hashes, and bin/setup, the Dockerfile and CI install only from them."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCKS = {"base": ROOT / "requirements" / "base.lock", "test": ROOT / "requirements" / "test.lock"}
_ENTRY = re.compile(r"^([A-Za-z0-9_.\-]+)==(\S+)((?:\s*\\\s*--hash=sha256:[0-9a-f]{64})*)", re.M)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(lock: Path) -> dict[str, tuple[str, int]]:
    """{package: (version, number of hashes)} of a lock file."""
    return {
        canonical(name): (version, hashes.count("--hash="))
        for name, version, hashes in _ENTRY.findall(lock.read_text())
    }


def pins(group: str) -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    if group == "test":
        requirements += project["optional-dependencies"]["test"]
    found = {}
    for requirement in requirements:
        name, version = requirement.split("==")
        found[canonical(name.split("[")[0])] = version
    return found


@pytest.mark.parametrize("group", LOCKS)
def test_every_locked_package_has_a_hash_and_every_pin_is_locked_at_its_version(group):
    entries = locked(LOCKS[group])
    assert len(entries) > len(pins(group)), "transitive dependencies are locked too"
    assert all(hashes >= 1 for _, hashes in entries.values()), "a package without a hash"
    for name, version in pins(group).items():
        assert entries.get(name, ("missing",))[0] == version, f"{name} not locked at {version}"


def test_setup_the_dockerfile_and_ci_install_only_from_the_locks():
    setup = (ROOT / "bin" / "setup").read_text()
    assert "--require-hashes" in setup and "requirements/test.lock" in setup
    assert "pip install --quiet -e" not in setup
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes" in dockerfile and "requirements/base.lock" in dockerfile
    assert "pip install ." not in dockerfile
    assert "bin/audit" in (ROOT / ".ci" / "run").read_text()
