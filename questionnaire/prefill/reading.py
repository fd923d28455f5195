"""Turning an uploaded file into plain data, refusing anything that is not a small text file.

Nothing in a file is ever run: JSON is read with ``json.loads`` (no object hooks; one that
bounds integers), YAML with ``yaml.safe_load``'s safe loader (plain values only: a ``!!python``
tag is refused), and a Megatron-LM argument list is split into words with ``shlex`` (a
tokeniser, no shell). The file stays in memory.

Limits bound the work on a hostile file: ``MAX_FILE_BYTES`` bounds the parsing (an argument
list, split more slowly, ``MAX_ARGUMENTS_CHARACTERS``);
:func:`flatten` walks at most ``MAX_SETTINGS`` values and ``MAX_DEPTH`` levels, so YAML aliases
that expand a few lines into billions of values (the "billion laughs") are refused, not walked;
a number longer than ``MAX_NUMBER_DIGITS`` digits refuses the file (Python will not even read
an integer of more than 4,300 digits). A YAML date is kept as the text it was written as: no
setting we read is a date, and a date that is none (``2001-13-45``) is then no error.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

MAX_FILE_BYTES = 256 * 1024
# shlex splits an argument list one character at a time in Python (about 15 s a megabyte on
# the CI machine); a launch script is a few kilobytes, so a quarter of the file limit is plenty.
MAX_ARGUMENTS_CHARACTERS = 64 * 1024
# Real configurations have at most a few hundred settings, nested a few levels deep.
MAX_SETTINGS = 5000
MAX_DEPTH = 20
# The largest whole number a training framework stores, 2**64 - 1, has 20 digits; no setting of
# a model or a recipe is longer than that, so a third more is a generous limit.
MAX_NUMBER_DIGITS = 30
# yaml.safe_load's loader, with libyaml's C parser when PyYAML has it: the same safe constructor
# (plain values only), and a 256 KB file parses in well under a second instead of up to ten.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# A Megatron-LM argument: "--tensor-model-parallel-size" (words of letters joined by dashes).
MEGATRON_ARGUMENT = re.compile(
    r"(?:^|\s)--(?:tensor-model-parallel-size|num-layers|hidden-size|"
    r"micro-batch-size|global-batch-size|seq-length)\b"
)
_FLAG = re.compile(r"^--[a-z][a-z0-9-]*$")


class UnreadableFile(ValueError):
    """The file cannot be used; the message says why, in words for the customer."""


_TOO_LONG_NUMBER = (
    f"The file holds a number of more than {MAX_NUMBER_DIGITS} digits. No setting of a model or "
    "a training recipe is that long, so we did not read the file: check that it is the right one."
)


def _bounded_int(written: str) -> int:
    """A JSON integer, refused past ``MAX_NUMBER_DIGITS`` digits (``int()`` would raise past
    4,300, and anything past 30 is no setting)."""
    if len(written.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise UnreadableFile(_TOO_LONG_NUMBER)
    return int(written)


class _ConfigLoader(SAFE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, with integers bounded as in JSON and dates kept as text."""

    def bounded_int(self, node: yaml.ScalarNode) -> int:
        written = str(self.construct_scalar(node))
        if sum(character.isalnum() for character in written) > MAX_NUMBER_DIGITS:
            raise UnreadableFile(_TOO_LONG_NUMBER)
        value: int = self.construct_yaml_int(node)
        if abs(value) >= 10**MAX_NUMBER_DIGITS:  # "1:2:3:...": base 60, a few digits a part
            raise UnreadableFile(_TOO_LONG_NUMBER)
        return value

    def date_as_text(self, node: yaml.ScalarNode) -> str:
        return str(self.construct_scalar(node))


_ConfigLoader.add_constructor("tag:yaml.org,2002:int", _ConfigLoader.bounded_int)
_ConfigLoader.add_constructor("tag:yaml.org,2002:timestamp", _ConfigLoader.date_as_text)


@dataclass(frozen=True)
class Document:
    """A parsed file: ``syntax`` is "json", "yaml" or "arguments"; ``data`` a mapping."""

    syntax: str
    data: Mapping[str, Any]


def read_document(content: bytes) -> Document:
    """The file's settings as a mapping, or :class:`UnreadableFile` saying what is wrong."""
    text = _text(content)
    if text.lstrip().startswith("{"):
        return Document("json", _mapping(_json(text)))
    if MEGATRON_ARGUMENT.search(text):
        return Document("arguments", _arguments(text))
    return Document("yaml", _mapping(_yaml(text)))


def _text(content: bytes) -> str:
    if len(content) > MAX_FILE_BYTES:
        raise UnreadableFile(
            f"The file is larger than {MAX_FILE_BYTES // 1024} KB. Configuration files and "
            "recipes are much smaller: check that you chose the right file."
        )
    if not content.strip():
        raise UnreadableFile("The file is empty.")
    if b"\x00" in content:
        raise UnreadableFile("This is not a text file. Choose a .json or .yaml file.")
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UnreadableFile(
            "This is not a text file we can read (it is not UTF-8 text). "
            "Choose a .json or .yaml file."
        ) from error


def _json(text: str) -> Any:
    try:
        return json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        raise UnreadableFile(
            f"This is not valid JSON: {error.msg.lower()} on line {error.lineno}."
        ) from error
    except RecursionError as error:
        raise UnreadableFile(_TOO_DEEP) from error


def _yaml(text: str) -> Any:
    if _deepest_brackets(text) > MAX_DEPTH:
        raise UnreadableFile(_TOO_DEEP)
    try:
        return yaml.load(text, Loader=_ConfigLoader)  # noqa: S506 - a safe loader, see above
    except UnreadableFile:
        raise
    except yaml.MarkedYAMLError as error:
        where = f" on line {error.problem_mark.line + 1}" if error.problem_mark else ""
        raise UnreadableFile(
            f"We could not read this file as YAML{where}. It may be damaged, or use a feature "
            "plain configuration files do not (such as a !!python tag)."
        ) from error
    except yaml.YAMLError as error:
        raise UnreadableFile("We could not read this file as YAML or JSON.") from error
    except (ValueError, KeyError) as error:
        # A tagged value its text does not fit ("!!int abc", "!!bool maybe"): the safe
        # constructor raises these plain errors instead of a YAMLError.
        raise UnreadableFile(
            "We could not read this file as YAML: a value does not match its type tag (such as "
            "!!int or !!bool)."
        ) from error
    except RecursionError as error:
        raise UnreadableFile(_TOO_DEEP) from error


_TOO_DEEP = "The file is nested too deeply to be a configuration file."


def _deepest_brackets(text: str) -> int:
    """How deep ``[`` and ``{`` nest (quotes ignored: a real configuration stays shallow)."""
    depth = deepest = 0
    for character in text:
        if character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}" and depth:
            depth -= 1
    return deepest


def _mapping(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise UnreadableFile(
            "The file does not hold named settings (such as “micro_batch_size: 1”), so it is "
            "not a configuration or recipe we can read."
        )
    return data


def _arguments(text: str) -> dict[str, Any]:
    """``--name value`` pairs and ``--flag`` switches of an argument list or launch script."""
    if len(text) > MAX_ARGUMENTS_CHARACTERS:
        raise UnreadableFile(
            f"This looks like a list of Megatron-LM arguments, but it is longer than "
            f"{MAX_ARGUMENTS_CHARACTERS // 1024} KB. Launch scripts are much shorter: upload "
            "the one that starts training."
        )
    try:
        words = shlex.split(text.replace("\\\n", " "), comments=True)
    except ValueError as error:  # an unclosed quote
        raise UnreadableFile(f"We could not split the arguments: {error}.") from error
    arguments: dict[str, Any] = {}
    for position, word in enumerate(words):
        name, _, inline = word.partition("=")
        if not _FLAG.match(name):
            continue
        if len(arguments) >= MAX_SETTINGS:
            raise UnreadableFile(_TOO_MANY)
        following = words[position + 1] if position + 1 < len(words) else ""
        if inline:
            arguments[name] = inline
        elif following and not following.startswith("--"):
            arguments[name] = following
        else:
            arguments[name] = True
        if _too_long_number(arguments[name]):
            raise UnreadableFile(_TOO_LONG_NUMBER)
    return arguments


def _too_long_number(value: Any) -> bool:
    """An argument's word of digits past ``MAX_NUMBER_DIGITS`` (in an argument list every value
    is a word: a number is one of decimal digits)."""
    return (
        isinstance(value, str)
        and value.lstrip("+-").isdecimal()
        and (len(value.lstrip("+-")) > MAX_NUMBER_DIGITS)
    )


_TOO_MANY = "The file has far more settings than a configuration file, so we did not read it."


def flatten(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every setting under its dotted path (``zero_optimization.stage``); lists stay whole;
    names and text are valid Unicode (:func:`_text_of`).

    Raises :class:`UnreadableFile` past ``MAX_SETTINGS`` values or ``MAX_DEPTH`` levels.
    """
    leaves: dict[str, Any] = {}
    pending: list[tuple[str, Any, int]] = [("", data, 0)]
    visited = 0
    while pending:
        path, value, depth = pending.pop()
        visited += 1
        if visited > MAX_SETTINGS:
            raise UnreadableFile(_TOO_MANY)
        if depth > MAX_DEPTH:
            raise UnreadableFile(_TOO_DEEP)
        if isinstance(value, Mapping) and (value or not path):
            children = [
                (f"{path}.{_text_of(key)}" if path else _text_of(key), inner)
                for key, inner in value.items()
            ]
            # reversed onto the stack, so the settings come out in the file's order
            pending.extend((child, inner, depth + 1) for child, inner in reversed(children))
        else:
            leaves[path] = _text_of(value) if isinstance(value, str) else value
    return leaves


def _text_of(value: object) -> str:
    """A name or a value as text a page can show. JSON and YAML can escape a lone surrogate
    ("\\ud800"), which UTF-8 cannot hold: it becomes U+FFFD, as Django decodes a posted form's
    bytes that are not UTF-8."""
    text = str(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text
