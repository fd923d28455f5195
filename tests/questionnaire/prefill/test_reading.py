"""Malformed, empty, binary, too large and hostile files are refused with a clear message."""

import json

import pytest
import yaml

from questionnaire.prefill.formats import NOT_RECOGNISED, read_answers
from questionnaire.prefill.reading import MAX_FILE_BYTES, SAFE_LOADER, UnreadableFile


def refusal(content: bytes) -> str:
    with pytest.raises(UnreadableFile) as refused:
        read_answers(content)
    return str(refused.value)


def billion_laughs() -> bytes:
    lines = ['a0: &a0 {x: "lol", y: "lol"}']
    for level in range(1, 30):
        lines.append(f"a{level}: &a{level} {{x: *a{level - 1}, y: *a{level - 1}}}")
    return "\n".join(lines).encode()


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
        ("micro_batch_size: 1\n".encode("utf-16"), "not a text file"),
        (b"\xff\xfe\xfa not utf-8", "not UTF-8"),
        (b'{"train_batch_size": 8,', "not valid JSON"),
        (b"base_model: [unclosed\n", "as YAML on line"),
        (b"- just\n- a list\n", "named settings"),
        (b"plain words, no settings", "named settings"),
        (b"!!python/object/apply:os.system ['echo pwned']\n", "!!python"),
        (b"base_model: !!python/name:os.system\n", "!!python"),
        (b"a: !!binary aGVsbG8=\nb: !!python/object:collections.OrderedDict {}\n", "!!python"),
        (("[" * 50_000 + "]" * 50_000).encode(), "nested too deeply"),
        (("{" + '"a":{' * 30_000 + "}" * 30_001).encode(), "nested too deeply"),
        (("a:\n" + "".join(" " * i + "b:\n" for i in range(1, 400))).encode(), "nested too"),
        (billion_laughs(), "far more settings"),
        (json.dumps({f"k{i}": i for i in range(6000)}).encode(), "far more settings"),
        (b"x" * (MAX_FILE_BYTES + 1), "larger than 256 KB"),
        (b'{"learning_rate": 0.1}', NOT_RECOGNISED),
        (b"--micro-batch-size 'unclosed", "could not split"),
    ],
)
def test_a_file_we_cannot_use_is_refused_with_a_message(content, says):
    assert says in refusal(content)


def test_yaml_python_tags_are_never_constructed(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    content = f"!!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ['{marker}']]"
    refusal(content.encode())
    assert not marker.exists()


def test_a_file_just_under_the_limit_is_read():
    padding = b"# " + b"x" * (MAX_FILE_BYTES - 200) + b"\n"
    found = read_answers(padding + b"base_model: meta-llama/Llama-2-7b-hf\n")
    assert found.values[0].value == "Llama 2 7B"


def test_a_byte_order_mark_and_windows_line_ends_are_fine():
    found = read_answers(
        b"\xef\xbb\xbfbase_model: mistralai/Mistral-7B-v0.1\r\nsequence_len: 2048\r\n"
    )
    assert [v.value for v in found.values][:1] == ["Mistral 7B"]


def test_yaml_is_read_by_a_safe_loader_only():
    # FullConstructor (and UnsafeConstructor below it) can build Python objects; SafeConstructor
    # builds plain values only.
    assert issubclass(SAFE_LOADER, yaml.constructor.SafeConstructor)
    assert not issubclass(SAFE_LOADER, yaml.constructor.FullConstructor)
