"""Filling question 1 from a model's config.json in real headless Chromium."""

from __future__ import annotations

import pytest

from questionnaire.models import Draft
from tests.e2e.accessibility import serious_violations
from tests.questionnaire.prefill.files import FILES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(browser, live_server):
    # bypass_csp: only so that the axe-core scan can be injected (see accessibility.py)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    yield page
    context.close()


def test_upload_a_config_json_check_it_and_see_question_1_filled(page, screenshot_dir):
    page.goto(page.base_url + "/")
    page.get_by_role("button", name="Start now").click()
    page.get_by_role("button", name="Start the questions").click()
    page.get_by_role("button", name="Save and continue").click()  # the discovery page, left empty
    assert "Question 1 of 15" in page.locator(".progress-label").inner_text()
    # the model names the engine knows are suggested while typing
    options = page.locator("#id_model-model_name-suggestions option")
    assert options.count() > 20
    assert page.locator('#id_model-model_name-suggestions option[value="Llama 3.1 8B"]').count()

    # what was typed before opening the upload is saved, not lost (reader 2, finding 13)
    page.get_by_label("Model name").fill("Our in-house Mixtral")
    page.get_by_role("button", name="Fill from a file you already have").click()
    assert page.locator("h1").inner_text() == "Fill answers from a file"
    page.get_by_role("button", name="Read the file").click()  # no file chosen
    assert "Choose a file to read." in page.locator("[data-error-summary]").inner_text()
    assert serious_violations(page) == []

    page.get_by_label("Your file").set_input_files(str(FILES / "mixtral_8x7b_config.json"))
    page.get_by_role("button", name="Read the file").click()
    assert page.locator("h1").inner_text() == "Check the answers from your file"
    table = page.locator("section.file-answers").first.inner_text()
    assert "Mixture of experts" in table and "46.7B" in table and "12.9B" in table
    assert serious_violations(page) == []
    page.screenshot(path=str(screenshot_dir / "fill-from-file-check.png"), full_page=True)
    # only what was typed is saved before "Use these answers", nothing from the file
    assert Draft.objects.get().step_data["model"]["model-total_params"] == [""]

    page.get_by_role("button", name="Use these answers").click()
    assert "Question 1 of 15" in page.locator(".progress-label").inner_text()
    # the name they typed stays: the file gives none (its shape is Mixtral 8x7B's, a guess)
    # (and its shape goes into the notes, so the engine sizes the file's layers and heads)
    # its experts and routing too (8 experts, 2 per token)
    assert "We filled 6 answers" in page.locator(".messages").inner_text()
    assert "Shape from the file: 32 layers" in page.locator("#id_model-notes").input_value()
    assert page.locator(".prefilled-note").all_inner_texts() == ["From your file"] * 6
    assert page.locator("#id_model-total_params").input_value() == "46.7B"
    assert page.locator("#id_model-active_params").input_value() == "12.9B"
    assert page.locator("#id_model-experts").input_value() == "8"
    assert page.locator("#id_model-experts_per_token").input_value() == "2"
    assert page.locator("#id_model-architecture_1").is_checked()  # MoE
    assert page.locator("#id_model-model_name").input_value() == "Our in-house Mixtral"
    page.screenshot(path=str(screenshot_dir / "fill-from-file-done.png"), full_page=True)
