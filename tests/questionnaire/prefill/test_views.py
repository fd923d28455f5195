"""Upload, check, then use or cancel: nothing reaches the draft before the customer confirms."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from questionnaire.models import Draft
from questionnaire.prefill.reading import MAX_FILE_BYTES
from questionnaire.prefill.views import CANCELLED_MESSAGE
from questionnaire.services import collect_answers
from sizing.public import size_answers
from tests.questionnaire.conftest import post_step, start, step_url, walk_to_review
from tests.questionnaire.prefill.files import example

pytestmark = pytest.mark.django_db


def upload_url(draft_id) -> str:
    return reverse("questionnaire:fill_from_file", kwargs={"draft_id": draft_id})


def check_url(draft_id) -> str:
    return reverse("questionnaire:fill_from_file_check", kwargs={"draft_id": draft_id})


def upload(client: Client, draft_id, name: str, content: bytes | None = None, **extra):
    file = SimpleUploadedFile(name, example(name) if content is None else content)
    return client.post(upload_url(draft_id), {"file": file, "from": "model", **extra})


def use(client: Client, draft_id):
    return client.post(
        check_url(draft_id),
        {"action": "use", "revision": Draft.objects.get(pk=draft_id).revision},
    )


def test_upload_check_and_use_fills_the_model_question(client):
    draft_id = start(client)
    response = upload(client, draft_id, "mixtral_8x7b_config.json")
    assert response.status_code == 302 and response["Location"] == check_url(draft_id)
    assert Draft.objects.get(pk=draft_id).step_data == {}  # nothing saved yet
    page = client.get(check_url(draft_id)).content.decode()
    assert "as a <strong>Hugging Face model configuration</strong>." in page
    assert "46.7B" in page and "12.9B" in page
    assert "router_aux_loss_coef" in page  # listed as not used
    response = use(client, draft_id)
    assert response["Location"] == step_url(draft_id, "model")
    saved = Draft.objects.get(pk=draft_id).step_data["model"]
    assert saved == {
        "model-model_name": ["Mixtral 8x7B"],
        "model-architecture": ["moe"],
        "model-total_params": ["46.7B"],
        "model-active_params": ["12.9B"],
        "model-experts": ["8"],  # num_local_experts
        "model-experts_per_token": ["2"],  # num_experts_per_tok
        "model-notes": [
            "Shape from the file: 32 layers, hidden size 4,096, 32 attention heads, 8 KV heads, "
            "vocabulary 32,000."
        ],
    }
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert "We filled 7 answers from mixtral_8x7b_config.json" in page
    assert 'value="46.7B"' in page


def test_cancel_changes_nothing(client):
    draft_id = start(client)
    post_step(client, draft_id, "batch", {"sequence_length": "2048"})
    before = Draft.objects.get(pk=draft_id)
    upload(client, draft_id, "ds_zero3_offload.json")
    response = client.post(check_url(draft_id), {"action": "cancel"})
    assert response["Location"] == step_url(draft_id, "model")
    after = Draft.objects.get(pk=draft_id)
    assert (after.step_data, after.revision) == (before.step_data, before.revision)
    assert client.get(check_url(draft_id))["Location"] == upload_url(draft_id)
    assert CANCELLED_MESSAGE in client.get(step_url(draft_id, "model")).content.decode()


def test_an_answer_already_given_is_shown_old_to_new_and_replaced_only_on_use(client):
    draft_id = start(client)
    post_step(client, draft_id, "batch", {"sequence_length": "2048", "micro_batch_size": "8"})
    upload(client, draft_id, "megatron_70b_pretrain.sh")
    page = client.get(check_url(draft_id)).content.decode()
    assert "replaces your answer" in page
    assert Draft.objects.get(pk=draft_id).step_data["batch"]["batch-sequence_length"] == ["2048"]
    use(client, draft_id)
    batch = Draft.objects.get(pk=draft_id).step_data["batch"]
    assert batch["batch-sequence_length"] == ["8192"]
    assert batch["batch-global_batch_unit"] == ["samples"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "The file is empty."),
        (b"\x00\x01\x02binary", "This is not a text file."),
        (b"!!python/object/apply:os.system ['true']", "!!python"),
        (b"x" * (MAX_FILE_BYTES + 10), "larger than 256 KB"),
        (b"learning_rate: 0.1\n", "not one of the kinds we know"),
    ],
)
def test_a_bad_file_gets_a_message_on_the_page_and_changes_nothing(client, content, message):
    draft_id = start(client)
    revision = Draft.objects.get(pk=draft_id).revision
    response = upload(client, draft_id, "ds_zero3_offload.json", content)
    assert response.status_code == 200
    page = response.content.decode()
    assert "There is a problem" in page and message in page
    draft = Draft.objects.get(pk=draft_id)
    assert (draft.step_data, draft.revision) == ({}, revision)
    assert client.get(check_url(draft_id))["Location"] == upload_url(draft_id)


def test_a_body_far_above_the_limit_is_refused_unread(client):
    draft_id = start(client)
    response = upload(client, draft_id, "big.json", b"{" + b" " * (2 * 1024 * 1024) + b"}")
    assert response.status_code == 413


def test_a_value_the_question_refuses_is_listed_and_not_saved(client):
    draft_id = start(client)
    upload(client, draft_id, "args.txt", b"--micro-batch-size 99999999 --seq-length 4096 --bf16")
    page = client.get(check_url(draft_id)).content.decode()
    assert "Values we could not use" in page
    use(client, draft_id)
    batch = Draft.objects.get(pk=draft_id).step_data["batch"]
    assert batch == {"batch-sequence_length": ["4096"]}


def test_answers_changed_in_another_tab_meanwhile_are_checked_again(client):
    draft_id = start(client)
    upload(client, draft_id, "ds_zero3_offload.json")
    stale = Draft.objects.get(pk=draft_id).revision
    post_step(client, draft_id, "batch", {"micro_batch_size": "16"})
    response = client.post(check_url(draft_id), {"action": "use", "revision": stale})
    assert response.status_code == 200
    assert "changed in another tab" in response.content.decode()
    assert Draft.objects.get(pk=draft_id).step_data["batch"] == {"batch-micro_batch_size": ["16"]}


def test_another_browser_cannot_open_the_pages(client):
    draft_id = start(client)
    upload(client, draft_id, "ds_zero3_offload.json")
    stranger = Client()
    assert stranger.get(upload_url(draft_id)).status_code == 403
    assert stranger.get(check_url(draft_id)).status_code == 403
    file = SimpleUploadedFile("ds.json", example("ds_zero3_offload.json"))
    assert stranger.post(upload_url(draft_id), {"file": file}).status_code == 403


def test_the_upload_and_the_confirmation_need_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    draft_id = start_with_csrf(client)
    file = SimpleUploadedFile("ds.json", example("ds_zero3_offload.json"))
    assert client.post(upload_url(draft_id), {"file": file}).status_code == 403
    assert client.post(check_url(draft_id), {"action": "use"}).status_code == 403


def start_with_csrf(client: Client):
    client.get(reverse("questionnaire:home"))
    token = client.cookies["csrftoken"].value
    response = client.post(reverse("questionnaire:start"), {"csrfmiddlewaretoken": token})
    return response["Location"].split("/")[2]


def test_the_button_is_on_the_questions_a_file_answers_and_submits_their_form(client):
    draft_id = start(client)
    button = 'name="fill_from_file"'
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert button in page
    # inside the form, after "Save and continue": Enter in a field still saves and continues
    assert page.index("Save and continue") < page.index(button) < page.index("</form>")
    assert upload_url(draft_id) not in page  # not a link: that would drop what was typed
    assert button in client.get(step_url(draft_id, "batch")).content.decode()
    assert button not in client.get(step_url(draft_id, "data")).content.decode()


def test_what_waits_for_the_customer_stays_small_whatever_the_file(client):
    draft_id = start(client)
    long_key = "k" * 500  # YAML allows plain keys up to 1024 characters
    content = "base_model: meta-llama/Llama-2-7b-hf\n" + "".join(
        f"{long_key}{i}: 1\n" for i in range(45)
    )
    upload(client, draft_id, "x" * 300 + ".yaml", content.encode())
    pending = client.session[f"fill_from_file_{draft_id}"]
    assert len(pending["ignored"]) == 40 and pending["ignored_more"] == 5
    assert max(len(name) for name in pending["ignored"]) == 100
    assert len(pending["file"]) == 100


def test_fill_from_file_saves_what_was_typed_then_shows_it_as_the_answer_now(client):
    # The reader typed a name and a size, then opened "Fill from a file": both were lost.
    draft_id = start(client)
    typed = {"model_name": "Our clinical Llama", "total_params": "70B"}
    response = post_step(client, draft_id, "model", typed, fill_from_file="1")
    assert response["Location"] == upload_url(draft_id) + "?from=model"
    saved = Draft.objects.get(pk=draft_id).step_data["model"]
    assert saved["model-model_name"] == ["Our clinical Llama"]
    upload(client, draft_id, "llama31_8b_config.json")
    page = client.get(check_url(draft_id)).content.decode()
    assert "replaces your answer" in page and "70B" in page
    client.post(check_url(draft_id), {"action": "cancel"})
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert 'value="Our clinical Llama"' in page and 'value="70B"' in page


def test_a_405b_config_confirmed_on_the_full_path_keeps_its_shape_to_the_engine(client):
    # A customer's Llama 3.1 405B config.json (126 layers, 8 KV heads, vocabulary 128,256) was
    # confirmed, then sized on the full path as a generic 127 layers and 128 KV heads.
    draft_id = walk_to_review(client, {"model": {"not_sure": "on"}})  # the file answers it
    upload(client, draft_id, "llama31_405b_config.json")
    use(client, draft_id)
    review = client.get(step_url(draft_id, "review")).content.decode()
    assert "Llama 3.1 405B" in review and "406B" in review
    answers, missing = collect_answers(Draft.objects.get(pk=draft_id))
    assert not missing
    sized = size_answers(answers=answers)
    assert sized.engine_input["model"]["name"] == "Llama 3.1 405B"
    assert sized.result["parallelism"]["layers"] == 126


def test_a_name_guessed_from_the_shape_never_replaces_the_name_typed(client):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "discovery", {})
    post_step(client, draft_id, "model", {"model_name": "Our in-house Mixtral"})
    assert Draft.objects.get(pk=draft_id).step_data["model"]["model-model_name"]
    upload(client, draft_id, "mixtral_8x7b_config.json")
    use(client, draft_id)
    saved = Draft.objects.get(pk=draft_id).step_data["model"]
    assert saved["model-model_name"] == ["Our in-house Mixtral"]
    assert saved["model-total_params"] == ["46.7B"]
