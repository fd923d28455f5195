"""The detailed path within 20 minutes with prefill (issue 26): an engineer who knows the set-up
answers all fifteen questions, as the registry's example answers them, in a real browser.

Words, fields and typing are counted page by page as on the short path
(``tests/e2e/test_non_expert_path.py``, 10 minutes) and turned into minutes by the same sourced
rates (``tests/e2e/answering_time.py``).

With prefill: the discovery sentence gives answers, read and kept on its check page (each
answer's box a decision); the engineer fills the pages that offer "Fill from a file" (the model,
how you will train, the number format, the batch, splitting the work) from their training recipe,
uploaded once in the walk (the upload page and the check page are read and counted); on those
pages each answer is then read and checked (its decision, counted with the fields seen), not
typed or clicked. The same walk with every answer typed (the sentence's check page still read)
is counted too: both within 20 minutes. An answer in a closed "More detail" is opened first
(a click), and what it holds is read.

Measured when the limit was first met (issue 26): 19.7 minutes with the recipe, 18.9 typed;
before, with the sentence's check page counted, 24.0 and 22.8.
"""

from __future__ import annotations

import pytest

from questionnaire.questions import DISCOVERY, QUESTIONS
from tests.e2e.answering_time import PathTime, check_page_decisions, visible_fields
from tests.e2e.test_non_expert_path import continue_to_next, send_contact_to_review, visible_words
from tests.questionnaire.prefill.files import FILES

pytestmark = pytest.mark.e2e

MINUTES_LIMIT = 20  # the detailed path's promise (issue 26)
RECIPE = FILES / "torchtune_llama3_1_8b_lora.yaml"  # a public torchtune recipe


def fill_example(page, slug: str, data: dict, timed: PathTime | None) -> None:
    """Answer one page with form data, as a person would: click each choice, type each text
    (counted in ``timed``; ``None`` for answers a file filled)."""
    for name, value in data.items():
        if value in ("", None, []):
            continue
        inputs = page.locator(f"main form [name='{slug}-{name}']")
        kind = inputs.first.get_attribute("type")
        if kind in ("radio", "checkbox"):
            for chosen in value if isinstance(value, list) else [value]:
                box = inputs.locator(f"xpath=self::*[@value='{chosen}']")
                if kind == "checkbox" and box.count() == 0:  # a lone box ("on")
                    box = inputs
                box.first.check()
                if timed:
                    timed.chose()
        else:
            inputs.first.fill(str(value))
            if timed:
                timed.typed(str(value))


def test_an_engineer_answers_the_detailed_path_within_20_minutes_with_prefill(browser, live_server):
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    timed, typed_all = PathTime(), PathTime()  # with prefill; everything typed

    def read(name: str) -> None:
        for walk in (timed, typed_all):
            walk.words[name] = visible_words(page)
            walk.fields[name] = visible_fields(page)

    def open_fold_for(slug: str, data: dict, name: str) -> None:
        """An answer in the closed "More detail": the engineer opens it (a click), then reads
        and weighs what it holds (its fold, counted as one decision, is now open)."""
        hidden = [
            key
            for key, value in data.items()
            if value not in ("", None, [])
            and not page.locator(f"main form [name='{slug}-{key}']").first.is_visible()
        ]
        if not hidden:
            return
        page.locator("main form details.more-fields > summary").click()
        for walk in (timed, typed_all):
            walk.chose()
            walk.words[name] = visible_words(page)
            walk.fields[name] = visible_fields(page) + 1

    def answer(slug: str, data: dict, prefilled: bool = False) -> None:
        open_fold_for(slug, data, slug)
        fill_example(page, slug, data, None if prefilled else timed)
        counting = PathTime()
        fill_example(page, slug, data, counting)  # the same answers, counted as typed
        typed_all.filled_fields += counting.filled_fields
        typed_all.typed_fields += counting.typed_fields
        typed_all.typed_characters += counting.typed_characters

    page.goto(live_server.url + "/")
    read("start page")
    continue_to_next(page)
    read("welcome")
    continue_to_next(page)
    read(DISCOVERY.slug)
    answer(DISCOVERY.slug, {**DISCOVERY.example.data, "setup_known": "yes"})
    continue_to_next(page)
    # the answers the sentence gives ("an open 70B model on 2 billion tokens"), checked and used
    assert "/your-words/check/" in page.url, page.url
    read("check your words")
    for walk in (timed, typed_all):
        walk.fields["check your words"] = check_page_decisions(page)
    continue_to_next(page)
    uploaded = False
    for question in QUESTIONS:
        assert page.url.rstrip("/").endswith(f"/{question.slug}"), page.url
        read(question.slug)
        from_file = page.locator("button[name='fill_from_file']").count() > 0
        if from_file and not uploaded:  # the engineer's recipe, once: upload, check, use
            with page.expect_navigation():
                page.locator("button[name='fill_from_file']").click()
            timed.words["upload"] = visible_words(page)
            timed.fields["upload"] = visible_fields(page)
            page.get_by_label("Your file").set_input_files(str(RECIPE))
            timed.chose()
            with page.expect_navigation():
                page.get_by_role("button", name="Read the file").click()
            timed.words["check the file"] = visible_words(page)
            timed.fields["check the file"] = check_page_decisions(page)
            with page.expect_navigation():
                page.get_by_role("button", name="Use these answers").click()
            assert page.url.rstrip("/").endswith(f"/{question.slug}"), page.url
            uploaded = True
        answer(question.slug, question.example.data, prefilled=from_file)
        continue_to_next(page)
    read("contact")
    for text in ("Sam Engineer", "sam@lab.example", "Example Lab"):
        timed.typed(text)
        typed_all.typed(text)
    timed.chose()
    typed_all.chose()
    send_contact_to_review(page, "Sam Engineer", "sam@lab.example", "Example Lab")
    read("review")
    assert page.locator(".error-summary").count() == 0
    context.close()

    print("the detailed path, everything typed:", typed_all.report())
    print("the detailed path with prefill:", timed.report())
    assert timed.minutes <= MINUTES_LIMIT, timed.report()
    assert typed_all.minutes <= MINUTES_LIMIT, typed_all.report()
