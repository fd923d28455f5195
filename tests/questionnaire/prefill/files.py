"""The example files: public formats, written for these tests (no file was copied)."""

from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def example(name: str) -> bytes:
    return (FILES / name).read_bytes()
