"""Security headers on every HTML page (OWASP ASVS 5.0 3.4.x; Django deployment checklist)."""

import re

import pytest

# Customer-facing pages are added here as they appear; each must carry the full set of headers.
HTML_PAGES = ["/", "/glossary/", "/admin/login/"]

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def csp_directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.django_db
@pytest.mark.parametrize("path", HTML_PAGES)
def test_every_html_page_sends_the_security_headers(client, path):
    response = client.get(path)
    assert response.status_code == 200
    directives = csp_directives(response)
    assert directives["script-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
@pytest.mark.parametrize("path", HTML_PAGES)
def test_pages_contain_no_inline_script(client, path):
    html = client.get(path).content.decode()
    assert not INLINE_SCRIPT.search(html)
    assert not EVENT_HANDLER.search(html)


@pytest.mark.django_db
def test_hsts_is_sent_over_https_in_production(client, settings):
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    response = client.get("/", secure=True)
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "includeSubDomains" in response["Strict-Transport-Security"]


@pytest.mark.django_db
def test_every_questionnaire_step_and_the_confirmation_send_the_headers(client):
    from questionnaire.questions import QUESTIONS
    from tests.questionnaire.conftest import post_step, step_url, walk_to_review

    draft_id = walk_to_review(client)
    paths = [step_url(draft_id, step) for step in ("welcome", "contact", "review")]
    paths += [step_url(draft_id, question.slug) for question in QUESTIONS]
    paths.append(f"/q/{draft_id}/save/")
    responses = [(path, client.get(path)) for path in paths]
    confirmation = post_step(client, draft_id, "review", {})["Location"]
    responses.append((confirmation, client.get(confirmation)))
    for path, response in responses:
        assert response.status_code == 200, path
        assert csp_directives(response)["script-src"] == ["'self'"], path
        assert response["X-Frame-Options"] == "DENY", path
        assert response["X-Content-Type-Options"] == "nosniff", path
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), path
        assert not EVENT_HANDLER.search(html), path
