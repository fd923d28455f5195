"""A model's shape from an uploaded config.json reaches the engine on both paths.

A customer confirmed a config.json of 126 layers, 8 KV heads and a vocabulary of 128,256 on the
upload page; the engine then sized a generic shape worked out from the parameter count alone
(127 layers, 128 KV heads, 32,000). The file's figures are the customer's: whatever the model is
called, and on the detailed and the short path alike, they are what the engine sizes.
"""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from questionnaire.models import Draft
from questionnaire.paths import shows_step
from questionnaire.questions import QUESTIONS
from questionnaire.services import collect_answers
from reports.demo import demo_data
from reports.document import render_html
from sizing.public import size_answers
from tests.questionnaire.conftest import CONTACT, post_step, start, step_url
from tests.questionnaire.prefill.files import example
from tests.questionnaire.prefill.test_views import check_url, upload_url, use

pytestmark = pytest.mark.django_db

SHORT, DETAILED = "no", "yes"


def config(name: str | None) -> bytes:
    """The Llama 3.1 405B example, under the name a customer's own copy would have."""
    data = json.loads(example("llama31_405b_config.json"))
    if name is not None:
        data["_name_or_path"] = name
    return json.dumps(data).encode()


def walk_with_upload(
    client, *, setup: str, content: bytes, typed_name: str = ""
) -> tuple[dict, str]:
    """Discovery with the path chosen, the file confirmed on question 1, every other question
    as a customer on that path answers it; the answers as they are sent, and the review page."""
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "discovery", {"setup_known": setup})
    typed = {"model_name": typed_name} if typed_name else {}
    post_step(client, draft_id, "model", typed, fill_from_file="1")
    file = SimpleUploadedFile("config.json", content)
    response = client.post(upload_url(draft_id), {"file": file, "from": "model"})
    assert response["Location"] == check_url(draft_id)
    use(client, draft_id)
    draft = Draft.objects.get(pk=draft_id)
    for question in QUESTIONS:
        if not shows_step(question.slug, draft.step_data):
            continue
        if question.slug == "model":
            response = post_step(
                client, draft_id, "model", _raw_model(Draft.objects.get(pk=draft_id))
            )
        else:
            response = post_step(client, draft_id, question.slug, question.example.data)
        assert response.status_code == 302, response.content.decode()[:3000]
    post_step(client, draft_id, "contact", CONTACT)
    review = client.get(step_url(draft_id, "review"))
    assert review.status_code == 200
    answers, missing = collect_answers(Draft.objects.get(pk=draft_id))
    assert not missing
    return answers, review.content.decode()


def _raw_model(draft: Draft) -> dict:
    """Question 1 posted again as its page shows it (the customer presses Continue)."""
    return {key.removeprefix("model-"): values for key, values in draft.step_data["model"].items()}


@pytest.mark.parametrize("setup", [DETAILED, SHORT])
@pytest.mark.parametrize(
    "name, typed",
    [
        ("meta-llama/Llama-3.1-405B", ""),  # the catalog's model
        ("our-org/atlas-400b", ""),  # the customer's own copy, under its own name
        (None, ""),  # no name in the file
        (None, "Atlas"),  # a name typed on the page before the upload
    ],
)
def test_the_files_shape_is_what_the_engine_sizes(client, setup, name, typed):
    answers, review = walk_with_upload(client, setup=setup, content=config(name), typed_name=typed)
    sized = size_answers(answers=answers)
    model = sized.engine_input["model"]
    assert sized.result["parallelism"]["layers"] == 126
    # given by the file, or (its catalog name) the catalog's published shape
    assert model.get("kv_heads", 8) == 8
    assert model.get("vocab_size", 128_256) == 128_256
    assert model.get("layers", 126) == 126
    assert "126 layers" in review and "8 KV heads" in review
    proposal = re.sub(r"\s+", " ", render_html(demo_data(answers=answers)))
    assert "127 layers" not in proposal and "32,000" not in proposal
    assert re.search(r"layers\W+126\b|126 layers", proposal), "the proposal names 126 layers"
