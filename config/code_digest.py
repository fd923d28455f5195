"""A short digest of the files of some folders: part of a cache key that a change of the code
(or of its tables) must never meet an entry of the old code under."""

from __future__ import annotations

import hashlib
from pathlib import Path


def files_digest(*roots: Path, seed: str = "") -> str:
    """12 hex digits of sha256 over ``seed``, then each file under ``roots`` (its path relative
    to its root's parent, then its bytes), in sorted order; compiled files left out."""
    digest = hashlib.sha256(seed.encode())
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root.parent)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
