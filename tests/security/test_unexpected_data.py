"""Findings (medium, low): a step stored fields that do not exist (300 junk fields of 800 bytes
gave 247 kB per step), and file parts bypassed the 256 kB body limit (a 200 MB upload to
``/q/start/`` was read). A step now keeps only its form's fields, and multipart bodies are
refused where no upload is expected, from their headers when they are large.
"""

import io
import json
import logging

import pytest
from django.core.handlers.wsgi import WSGIRequest
from django.test import Client
from django.test.client import encode_multipart
from django.urls import reverse

from config.uploads import RefuseUnexpectedUploadsMiddleware
from questionnaire.models import Draft
from tests.security.conftest import count, post_raw, start, step_pairs, step_url

pytestmark = pytest.mark.django_db


def test_a_step_keeps_only_its_own_fields_and_logs_the_rest(client, caplog):
    draft_id = start(client)
    pairs = step_pairs(draft_id, "model", {"model_name": "Real answer"})
    pairs += [(f"model-junk{n}", "x" * 800) for n in range(300)]
    count("unknown fields posted to a step", 300)
    with caplog.at_level(logging.WARNING, logger="questionnaire.services"):
        response = post_raw(client, step_url(draft_id, "model"), pairs)
    assert response.status_code in (200, 302)
    stored = Draft.objects.get(pk=draft_id).step_data["model"]
    assert stored["model-model_name"] == ["Real answer"]
    assert not any("junk" in key for key in stored)
    assert len(json.dumps(stored)) < 2_000
    assert "dropped 300 unknown field(s) posted to step model" in caplog.text


def test_a_file_posted_where_none_is_expected_is_refused_and_changes_nothing(client):
    draft_id = start(client)
    boundary = "BoUnDaRy"
    body = encode_multipart(
        boundary,
        {
            f"questionnaire_{draft_id.hex}-current_step": "model",
            "model-model_name": "From a multipart post",
            "upload": io.BytesIO(b"x" * 1000),
        },
    )
    count("multipart bodies with a file part")
    response = client.post(
        step_url(draft_id, "model"), body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    assert response.status_code == 415
    assert "your saved answers are as they were" in response.content.decode()
    assert "model" not in Draft.objects.get(pk=draft_id).step_data


class NeverRead(io.RawIOBase):
    """A request body that fails the test if anything reads more than a few bytes of it."""

    read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.read_bytes += len(buffer)
        raise AssertionError("the body of an oversized upload was read")


def test_a_huge_upload_is_refused_from_its_headers_without_reading_the_body(settings):
    body = NeverRead()
    environ = {
        "REQUEST_METHOD": "POST",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "REMOTE_ADDR": "203.0.113.60",
        "wsgi.url_scheme": "http",
        "PATH_INFO": reverse("questionnaire:start"),
        "wsgi.input": body,
        "CONTENT_TYPE": "multipart/form-data; boundary=x",
        "CONTENT_LENGTH": str(200 * 1024 * 1024),
    }
    count("200 MB multipart bodies")
    refuse = RefuseUnexpectedUploadsMiddleware(lambda request: pytest.fail("reached the view"))
    response = refuse(WSGIRequest(environ))
    assert response.status_code == 413
    assert body.read_bytes == 0
    # It runs before anything that reads the body (the CSRF middleware reads it for its token).
    order = settings.MIDDLEWARE
    assert order.index("config.uploads.RefuseUnexpectedUploadsMiddleware") < order.index(
        "django.middleware.csrf.CsrfViewMiddleware"
    )


def test_a_plain_multipart_form_without_files_still_works():
    # What Django's test client sends by default; a browser form without a file input too.
    response = Client().post(reverse("questionnaire:start"), {"anything": "1"})
    assert response.status_code == 302


def test_unknown_fields_alone_do_not_mark_an_untouched_question_as_visited(client):
    draft_id = start(client)
    pairs = step_pairs(draft_id, "model", {}) + [("model-junk", "x" * 800)]
    post_raw(client, step_url(draft_id, "model"), pairs)
    assert "model" not in Draft.objects.get(pk=draft_id).step_data
