"""The four uploads that were server errors in the review of 2026-12 (issue 25): each now gets
a clear message, or is read with the odd value left unused, and never raises anything else.

- an integer of more than 4,300 digits (Python's limit for turning text into an int), in JSON
  and in YAML;
- "²" where a count is expected (``str.isdigit`` accepts it, ``int`` refuses it);
- a YAML date that is no date (``2001-13-45``);
- a shape so large that counting its parameters overflowed a float;

and two found since: an escaped lone surrogate (``"\\ud800"``) on the check page (by the
fuzz), and a model name of a quarter megabyte that took minutes to read.
"""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from questionnaire.prefill.formats import read_answers
from questionnaire.prefill.found import NAME_LENGTH, Found
from questionnaire.prefill.reading import MAX_NUMBER_DIGITS, UnreadableFile
from tests.questionnaire.conftest import start
from tests.questionnaire.prefill.test_views import check_url, upload_url

HUGE = "9" * 5000


def answers(found: Found) -> dict[tuple[str, str], object]:
    return {(v.slug, v.field): v.value for v in found.values}


@pytest.mark.parametrize(
    "content",
    [
        f'{{"train_batch_size": {HUGE}}}',
        f"sequence_len: {HUGE}\nmicro_batch_size: 1\n",
        f"--micro-batch-size {HUGE} --seq-length 4096",
        f'{{"train_batch_size": {"1" * (MAX_NUMBER_DIGITS + 1)}}}',
    ],
    ids=["json", "yaml", "megatron", "json-just-past-the-limit"],
)
def test_a_number_with_thousands_of_digits_is_refused_with_a_message(content):
    with pytest.raises(UnreadableFile) as refused:
        read_answers(content.encode())
    assert "digits" in str(refused.value)


def test_a_number_at_the_digit_limit_is_read_and_left_to_the_form():
    found = read_answers(f'{{"train_batch_size": {"1" * MAX_NUMBER_DIGITS}}}'.encode())
    assert answers(found)[("batch", "global_batch")] == "1" * MAX_NUMBER_DIGITS


@pytest.mark.parametrize("written", ["²", "1²", "½", "٣٣x", "1_000"])
def test_a_count_that_is_not_decimal_digits_is_left_unused(written):
    found = read_answers(
        f'{{"train_batch_size": "{written}", "bf16": {{"enabled": true}}}}'.encode()
    )
    assert ("batch", "global_batch") not in answers(found)
    assert "train_batch_size" in found.ignored


def test_a_count_in_other_decimal_digits_is_read_as_its_number():
    # Fullwidth and Arabic-Indic digits are decimal digits: "１２" is twelve.
    found = read_answers(
        '{"train_batch_size": "１２", "gradient_accumulation_steps": "٣"}'.encode()
    )
    assert answers(found)[("batch", "global_batch")] == "12"
    assert answers(found)[("batch", "gradient_accumulation")] == "3"


@pytest.mark.parametrize(
    "date", ["2001-13-45", "2001-02-30", "2001-12-14", "2001-12-14t21:59:43.10-05:00"]
)
def test_a_yaml_date_is_kept_as_text(date):
    found = read_answers(f"base_model: meta-llama/Llama-2-7b-hf\ncreated: {date}\n".encode())
    assert answers(found)[("model", "model_name")] == "Llama 2 7B"
    assert "created" in found.ignored


@pytest.mark.parametrize(
    "shape",
    [
        '"num_hidden_layers": 1e300, "hidden_size": 1e300, "num_attention_heads": 1, "vocab_size": 1',
        f'"num_hidden_layers": {"9" * 25}, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000',
        '"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000, "num_local_experts": 1e200',
    ],
    ids=["float-shape", "int-shape", "experts"],
)
def test_a_model_config_with_an_absurd_shape_says_so_and_counts_nothing(shape):
    found = read_answers(("{" + shape + "}").encode())
    assert ("model", "total_params") not in answers(found)
    assert any("we did not count its parameters" in remark for remark in found.remarks)


def test_megatron_arguments_with_an_absurd_shape_say_so_and_count_nothing():
    arguments = f"--num-layers {'9' * 25} --hidden-size 4096 --num-attention-heads 32 --bf16"
    found = read_answers(arguments.encode())
    assert ("model", "total_params") not in answers(found)
    assert answers(found)[("precision", "precision")] == "bf16"
    assert any("we did not count its parameters" in remark for remark in found.remarks)


# Found by the fuzz (tests/security/test_fuzz_uploads.py): an escaped lone surrogate was read
# into a name or a value that the check page then could not write as UTF-8 (a 500).
@pytest.mark.parametrize(
    "content",
    [
        b'{"_name_or_path": "org/\\ud800x", "num_hidden_layers": 32, "\\udfff": 1}',
        b'{"train_batch_size": 8, "zero_optimization": {"\\udfff\\ud800": {"x": 1}}}',
    ],
    ids=["model-name", "nested-setting-name"],
)
@pytest.mark.django_db
def test_an_escaped_lone_surrogate_is_read_as_a_replacement_character(client, content):
    draft_id = start(client)
    upload = SimpleUploadedFile("settings.json", content)
    response = client.post(upload_url(draft_id), {"file": upload, "from": "model"})
    assert response.status_code == 302
    page = client.get(check_url(draft_id))
    assert page.status_code == 200
    assert "\ufffd" in page.content.decode()


@pytest.mark.parametrize("suffixes", ["-it", "-v1", "_chat"])
def test_a_model_name_of_a_quarter_megabyte_is_read_in_well_under_a_second(suffixes):
    # Found reading the fuzz's slow examples: the tuned-variant suffix pattern retried from
    # every dash, so a name of 9 KB took 4 s and one of 250 KB would have taken about an hour.
    name = "m" + suffixes * (250_000 // len(suffixes)) + "x"
    started = time.perf_counter()
    found = read_answers(f"base_model: {name}\nsequence_len: 2048\n".encode())
    assert time.perf_counter() - started < 2
    assert len(answers(found)[("model", "model_name")]) == NAME_LENGTH


def test_an_argument_list_longer_than_any_launch_script_is_refused_unsplit():
    # shlex splits in Python, character by character: a 256 KB list took 4 s of a worker.
    arguments = "--num-layers 32 --bf16 '" + "-it" * 30_000 + "'\n"
    with pytest.raises(UnreadableFile) as refused:
        read_answers(arguments.encode())
    assert "longer than 64 KB" in str(refused.value)
