"""Command line: ``python -m sizing.engine INPUT.json|- [--format json|text]``.

Exit 0 with the recommendation on stdout; exit 2 with one line per problem
on stderr (and nothing on stdout) for invalid input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from .core import size
from .output import sizing_result_to_dict
from .text import sizing_result_to_text
from .validation import InvalidInput, parse_input


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed")


def _fail(lines: list[str]) -> int:
    for line in lines:
        sys.stderr.write(line + "\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sizing.engine", description="Size AI-training infrastructure."
    )
    parser.add_argument("input", help="input JSON file, or - for stdin")
    parser.add_argument("--format", choices=("json", "text"), default="json")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) and 2
    try:
        if args.input == "-":
            raw = sys.stdin.read()
        else:
            with open(args.input, encoding="utf-8") as fh:
                raw = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail([f"input: cannot read {args.input!r} ({exc.__class__.__name__})"])
    try:
        data: Any = json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        return _fail(["input: JSON nested too deeply"])
    except ValueError as exc:
        return _fail([f"input: malformed JSON ({exc})"])
    try:
        rec = size(parse_input(data))
    except InvalidInput as exc:
        return _fail(exc.messages)
    if args.format == "text":
        sys.stdout.write(sizing_result_to_text(rec))
    else:
        sys.stdout.write(json.dumps(sizing_result_to_dict(rec), indent=2, allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
