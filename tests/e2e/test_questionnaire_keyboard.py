"""The whole questionnaire in real headless Chromium, with the keyboard only."""

from __future__ import annotations

import pytest

from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def focused(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
    )


def tab_to(page, selector: str, limit: int = 150) -> None:
    """Press Tab until the element matching ``selector`` has focus, as a keyboard user would."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page, selector):
            return
    raise AssertionError(f"could not reach {selector} with the Tab key")


def continue_(page) -> None:
    tab_to(page, "button.btn-primary")
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_complete_the_questionnaire_with_the_keyboard_only(browser_page, screenshot_dir):
    page = browser_page
    page.goto(page.base_url + "/")
    tab_to(page, "button.btn-primary")  # Start now
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("h1").inner_text() == "Before you start"
    continue_(page)
    continue_(page)  # the discovery page, left empty: the detailed questions

    # Question 1: "More about this" opens from the keyboard; a glossary tooltip in it opens on
    # keyboard focus.
    assert "Question 1 of 15" in page.locator(".progress-label").inner_text()
    tab_to(page, "details.more-about > summary")
    page.keyboard.press("Enter")
    tab_to(page, ".term-link")
    tip = page.locator(".term:focus-within .term-tip")
    assert tip.is_visible()
    assert "numbers inside a model" in tip.inner_text()
    page.screenshot(path=str(screenshot_dir / "question-1-tooltip.png"), full_page=True)
    page.keyboard.press("Escape")
    assert not tip.is_visible()

    # A typing mistake: the error summary takes focus and the typed text stays.
    tab_to(page, "#id_model-model_name")
    page.keyboard.type("Llama 3.1 8B")
    tab_to(page, "#id_model-architecture_0")
    page.keyboard.press("Space")
    tab_to(page, "#id_model-total_params")
    page.keyboard.type("-8B")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.title().startswith("Error: ")
    assert focused(page, "[data-error-summary]")
    assert page.locator("#id_model-total_params").input_value() == "-8B"
    assert page.locator("#id_model-model_name").input_value() == "Llama 3.1 8B"
    page.screenshot(path=str(screenshot_dir / "question-1-error.png"), full_page=True)
    tab_to(page, "[data-error-summary] a")
    page.keyboard.press("Enter")  # the summary link jumps to the field
    assert focused(page, "#id_model-total_params")
    page.keyboard.press("Control+A")
    page.keyboard.type("8B")
    with page.expect_navigation():
        page.keyboard.press("Enter")

    # Questions 2 to 15: a few typed answers, "Not sure yet" for the rest.
    for question in QUESTIONS[1:]:
        assert f"Question {question.number} of 15" in page.locator(".progress-label").inner_text()
        if question.slug == "data":
            tab_to(page, "#id_data-dataset_size")
            page.keyboard.type("1.2T tokens")
        else:
            tab_to(page, f"#id_{question.slug}-not_sure")
            page.keyboard.press("Space")
        continue_(page)

    # Contact details.
    assert page.locator("h1").inner_text() == "Your contact details"
    for field, text in (
        ("name", "Dana Keller"),
        ("email", "dana@insurer.example"),
        ("company", "Example Insurance Group"),
    ):
        tab_to(page, f"#id_contact-{field}")
        page.keyboard.type(text)
    tab_to(page, "#id_contact-consent")
    page.keyboard.press("Space")
    continue_(page)

    # Check your answers, then send.
    assert page.locator("h1").inner_text() == "Check your answers before sending"
    assert "1.2T tokens" in page.content()
    page.screenshot(path=str(screenshot_dir / "review.png"), full_page=True)
    tab_to(page, "button[data-submit-once]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("h1").inner_text() == "Your answers have been sent"
    submission = Submission.objects.get()
    assert submission.reference in page.locator(".reference").inner_text()
    assert submission.answers["model"]["total_params"] == 8_000_000_000
    assert submission.answers["data"]["dataset_size_text"] == "1.2T tokens"
    assert submission.answers["data"]["dataset_unit"] == "tokens"
    page.screenshot(path=str(screenshot_dir / "confirmation.png"), full_page=True)
    assert page.js_errors == []


def test_a_question_page_fits_a_phone_and_a_tooltip_opens_on_tap(browser_page, screenshot_dir):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(page.base_url + "/")
    page.keyboard.press("Tab")
    tab_to(page, "button.btn-primary")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.goto(page.url.replace("/welcome/", "/network/"))
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 390
    page.locator("details.more-about > summary").click()  # the explanations, folded by default
    term = page.locator(".term-link").first
    term.click()  # a tap: JS toggles instead of leaving the page
    assert page.locator(".term.is-open .term-tip").is_visible()
    assert term.get_attribute("aria-expanded") == "true"
    assert "/network/" in page.url
    page.screenshot(path=str(screenshot_dir / "phone-question-10.png"), full_page=True)
    term.click()  # a second tap closes it, although the button keeps focus
    tip_id = term.get_attribute("aria-controls")
    assert not page.locator(f"#{tip_id}").is_visible()
    assert term.get_attribute("aria-expanded") == "false"
    assert page.js_errors == []


def _contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """WCAG 2.2 contrast ratio of two sRGB colours."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        channels = [c / 255 for c in rgb]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _darkest_focus_colour(page) -> tuple[int, int, int]:
    """The darkest colour the focused element draws around itself (outline or box shadow)."""
    page.wait_for_timeout(400)  # Bootstrap's buttons ease their focus shadow in over 0.15 s
    colours = page.evaluate(
        """() => {
            const style = getComputedStyle(document.activeElement);
            const text = style.outlineStyle !== 'none' ? style.outlineColor + ' ' : '';
            return (text + style.boxShadow).match(/rgba?\\([^)]*\\)/g) || [];
        }"""
    )
    parsed = []
    for colour in colours:
        parts = [float(p) for p in colour[colour.index("(") + 1 : -1].split(",")]
        if len(parts) == 3 or parts[3] > 0:
            parsed.append(tuple(int(p) for p in parts[:3]))
    assert parsed, "the focused element draws no focus indicator"
    return min(parsed, key=sum)


def test_focus_indicators_stand_out_at_least_three_to_one(browser_page, screenshot_dir):
    page = browser_page
    page.goto(page.base_url + "/")
    tab_to(page, "button.btn-primary")
    white = (255, 255, 255)
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a button
    with page.expect_navigation():
        page.keyboard.press("Enter")
    continue_(page)
    continue_(page)  # the discovery page, left empty
    tab_to(page, "#id_model-model_name")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a text box
    tab_to(page, "#id_model-architecture_0")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a radio button
    page.screenshot(path=str(screenshot_dir / "focus-radio.png"))
    tab_to(page, "details.more-about > summary")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # "More about this"
    page.keyboard.press("Enter")
    tab_to(page, ".term-link")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a glossary term
    page.screenshot(path=str(screenshot_dir / "focus-term.png"))
    tab_to(page, "details.example summary")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a "details" summary
    tab_to(page, ".unsure-shortcut a")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a link
    tab_to(page, "#id_model-not_sure")
    assert _contrast(_darkest_focus_colour(page), white) >= 3.0  # a checkbox
    page.screenshot(path=str(screenshot_dir / "focus-checkbox.png"))


def test_a_radio_picked_by_mistake_is_cleared_from_the_keyboard(browser_page, screenshot_dir):
    # Issue 26: a radio group cannot be emptied by the radios themselves.
    page = browser_page
    page.goto(page.base_url + "/")
    tab_to(page, "button.btn-primary")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.goto(page.url.replace("/welcome/", "/model/"))
    clear = page.locator("button[data-clear-answer][value='model-architecture']")
    assert not clear.is_visible()  # nothing picked yet: nothing to clear
    tab_to(page, "#id_model-architecture_0")
    page.keyboard.press("Space")
    assert page.locator("#id_model-architecture_0").is_checked()
    tab_to(page, "button[data-clear-answer][value='model-architecture']")
    assert _contrast(_darkest_focus_colour(page), (255, 255, 255)) >= 3.0
    page.screenshot(path=str(screenshot_dir / "clear-answer.png"))
    page.keyboard.press("Enter")
    assert "/model/" in page.url  # cleared in place: nothing was sent
    assert page.locator("input[name='model-architecture']:checked").count() == 0
    assert focused(page, "#id_model-architecture_0")
    assert not clear.is_visible()
    assert page.js_errors == []
