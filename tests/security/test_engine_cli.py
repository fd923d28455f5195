"""The engine's command line against hostile JSON (docs/engine-contract.md).

Contract: exit 0 with a recommendation on stdout, or exit 2 with nothing on stdout and one line
per problem on stderr, each naming the field (``model.total_params: …``) or the input as a
whole (``input: …``). Never a traceback.

Every field of the engine's schema gets every garbage value through ``main()`` in-process (the
same code as ``python -m sizing.engine -``, minus 0.2 s of interpreter start per case); a
sample of each kind also goes through a real subprocess, including bytes that are not UTF-8.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sizing.engine.__main__ import main
from sizing.engine.validation import SCHEMA
from tests.security.conftest import count

ROOT = Path(__file__).resolve().parents[2]

# JSON literals, spliced into the document as written (so 1e400 and NaN reach the parser).
GARBAGE_LITERALS = {
    "minus-one": "-1",
    "zero": "0",
    "1e400": "1e400",
    "minus-1e400": "-1e400",
    "1e-400": "1e-400",
    "nan": "NaN",
    "infinity": "Infinity",
    "minus-infinity": "-Infinity",
    "1e30": "1e30",
    "5000-digits": "9" * 5000,
    "arabic-indic-three": '"٣"',
    "list-string": '"1,2,3"',
    "suffix-string": '"70BB"',
    "number-string": '"7e9"',
    "true": "true",
    "empty-list": "[]",
    "object": '{"a": 1}',
    "markup": '"<script>alert(1)</script>"',
    "template": '"{{ 7*7 }} {% debug %}"',
    "nul": '"\\u0000"',
    "lone-surrogate": '"\\ud800"',
    "rtl-escape": '"\\u202e\\u001b[31m"',
    "100-kb": json.dumps("A" * 100_000),
}
FIELDS = [(section, name) for section, fields in SCHEMA.items() for name in fields]
TOP_LEVEL = {
    "empty": "",
    "null": "null",
    "list": "[]",
    "number": "42",
    "string": '"model"',
    "deep-nesting": "[" * 100_000 + "]" * 100_000,
    "deep-objects": '{"model": ' * 5000 + "{}" + "}" * 5000,
    "unknown-section": '{"<script>": {}}',
    "unknown-field": '{"model": {"{{ 7*7 }}": 1}}',
    "section-not-object": '{"model": "8B"}',
    "trailing-garbage": '{"model": {}} xyz',
    "duplicate-keys": '{"model": {"total_params": 8e9, "total_params": -1}}',
    "1-mb-whitespace": " " * 1_000_000 + "{}",
}


def _run_in_process(document: str, monkeypatch, capsys, *, fmt: str = "json"):
    monkeypatch.setattr(sys, "stdin", io.StringIO(document))
    code = main(["-", "--format", fmt])
    out, err = capsys.readouterr()
    return code, out, err


def _assert_contract(
    code: int, out: str, err: str, *, field: str | None, fmt: str = "json"
) -> None:
    assert code in (0, 2), (code, err[-500:])
    assert "Traceback" not in err
    if code == 2:
        assert out == ""
        lines = err.splitlines()
        assert lines and all(line.strip() for line in lines), err
        assert all(len(line) < 2000 for line in lines), "a message echoes too much input"
        if field is not None:
            assert any(line.startswith((f"{field}:", "input:")) for line in lines), err
    elif fmt == "json":
        assert json.loads(out)["engine_version"], "exit 0 without a recommendation"
    else:
        assert out.strip(), "exit 0 without a recommendation"


@pytest.mark.parametrize("literal", list(GARBAGE_LITERALS.values()), ids=list(GARBAGE_LITERALS))
def test_every_engine_field_refuses_garbage_with_a_line_naming_it(literal, monkeypatch, capsys):
    for section, name in FIELDS:
        count("engine CLI field x garbage value (in-process)")
        document = f'{{"{section}": {{"{name}": {literal}}}}}'
        code, out, err = _run_in_process(document, monkeypatch, capsys)
        _assert_contract(code, out, err, field=f"{section}.{name}")


@pytest.mark.parametrize("document", list(TOP_LEVEL.values()), ids=list(TOP_LEVEL))
def test_malformed_documents_exit_2_with_one_line(document, monkeypatch, capsys):
    count("engine CLI malformed document (in-process)")
    code, out, err = _run_in_process(document, monkeypatch, capsys)
    _assert_contract(code, out, err, field=None)


NAMES = {
    "markup": '"<script>alert(1)</script>"',
    "lone-surrogate": '"\\ud800"',
    "rtl-template": '"\\u202e{{ 7*7 }}"',
    "ansi-escape": '"\\u001b[2J\\u001b[31m"',
}


@pytest.mark.parametrize(
    "fmt,literal",
    [
        pytest.param(fmt, literal, id=f"{fmt}-{name}")
        for fmt in ("json", "text")
        for name, literal in NAMES.items()
    ],
)
def test_hostile_names_are_refused_or_written_safely_in_both_formats(
    fmt, literal, monkeypatch, capsys
):
    count("engine CLI field x garbage value (in-process)")
    document = f'{{"model": {{"name": {literal}, "total_params": 8e9}}}}'
    code, out, err = _run_in_process(document, monkeypatch, capsys, fmt=fmt)
    _assert_contract(code, out, err, field="model.name", fmt=fmt)
    if code == 0 and fmt == "json":
        assert json.loads(out)["model"] == json.loads(literal)


SUBPROCESS_CASES = {
    "negative": b'{"model": {"total_params": -1}}',
    "1e400": b'{"data": {"tokens": 1e400}}',
    "nan": b'{"batch": {"sequence_length": NaN}}',
    "huge-digits": b'{"hardware": {"count": ' + b"9" * 5000 + b"}}",
    "string-number": b'{"schedule": {"deadline_days": "30"}}',
    "not-utf8": b'{"model": {"name": "\xff\xfe"}}',
    "nul-byte": b'{"model": {"name": "a\x00b"}}',
    "deep": b"[" * 100_000,
    "100-kb-name": b'{"model": {"name": "' + b"A" * 100_000 + b'"}}',
    "markup-enum": b'{"training": {"method": "<script>alert(1)</script>"}}',
}


@pytest.mark.parametrize("stdin", list(SUBPROCESS_CASES.values()), ids=list(SUBPROCESS_CASES))
def test_the_real_command_line_keeps_the_contract(stdin):
    count("engine CLI hostile stdin (real subprocess)")
    completed = subprocess.run(
        [sys.executable, "-m", "sizing.engine", "-"],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=30,
        check=False,
    )
    err = completed.stderr.decode("utf-8", "replace")
    assert completed.returncode == 2, (completed.returncode, err[-500:])
    assert completed.stdout == b""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines and all(line.strip() and len(line) < 2000 for line in lines), err
