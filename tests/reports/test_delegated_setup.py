"""On the short path the set-up questions are never shown: the proposal says we chose them,
never that the customer was unsure of them, and does not ask the customer about them."""

from __future__ import annotations

import datetime
import html
import re
from io import BytesIO

import pytest
from django.test import Client
from pypdf import PdfReader

from questionnaire.glossary import GLOSSARY
from questionnaire.paths import recommended_answer
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, QUESTIONS, get_question
from reports.demo import demo_answers, demo_data
from reports.document import build_context, render_data, render_html
from sizing.public import ACCELERATORS, read_result
from tests.questionnaire.conftest import (
    CONTACT,
    past_sentence_check,
    post_step,
    start,
    step_url,
)
from tests.reports.stories import GAME_STUDIO, game_studio_answers, story_data

TODAY = datetime.date(2026, 12, 1)


def _short_path(setup_known: str = "no") -> dict:
    form = DISCOVERY.form_class(data={**DISCOVERY.example.data, "setup_known": setup_known})
    assert form.is_valid(), form.errors
    answers = {**demo_answers(), DISCOVERY.slug: form.to_answer()}
    for slug in EXPERT_SLUGS:
        answers[slug] = recommended_answer(get_question(slug))
    return answers


def _data(answers: dict):
    return demo_data(answers=answers, today=TODAY)


def test_set_up_rows_left_to_us_are_marked_we_chose_not_not_sure():
    context = build_context(_data(_short_path()))
    rows = {row["key"]: row for row in context["assumptions"]}
    precision = rows["training.precision"]
    assert precision["delegated"] and not precision["not_sure"]
    assert not any(row["not_sure"] for row in context["assumptions"])
    assert not context["assumptions_not_sure"]


def test_set_up_left_to_us_is_not_asked_of_the_customer():
    context = build_context(_data(_short_path()))
    asked = " ".join(context["open_questions"])
    for question in (
        "Which precision (BF16 is assumed)?",
        "What global batch size?",
        "InfiniBand or Ethernet (RoCE) between nodes?",
        "What sequence length (context) will you train at?",
    ):
        assert question not in asked
    # whether the data is ready is the customer's to say, set-up or not
    assert "Is the data ready and cleaned" in asked


def test_the_detailed_path_still_asks_about_the_set_up():
    answers = {**demo_answers(), "precision": recommended_answer(get_question("precision"))}
    context = build_context(_data(answers))
    assert "Which precision (BF16 is assumed)?" in context["open_questions"]
    rows = {row["key"]: row for row in context["assumptions"]}
    assert rows["training.precision"]["not_sure"]


def test_not_sure_who_knows_the_set_up_is_not_told_back_as_no_one():
    html = re.sub(r"\s+", " ", render_html(demo_data(answers=_short_path("not_sure"), today=TODAY)))
    assert "You told us no one on your team knows the training set-up" not in html
    assert "You were not sure whether anyone on your team knows the training set-up" in html


def test_the_global_batch_left_to_us_is_marked_like_the_rest_of_its_question():
    rows = {row["key"]: row for row in build_context(_data(_short_path()))["assumptions"]}
    assert rows["batch.global_batch_tokens"]["delegated"]


def _body(setup_known: str) -> str:
    """The proposal from its summary to the open questions (the engineer's tables follow)."""
    html = render_html(demo_data(answers=_short_path(setup_known), today=TODAY))
    body = html[html.index('id="summary"') : html.index('id="assumptions"')]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_told_no_one_knows_the_set_up_the_proposal_body_speaks_plainly():
    # customer 8 ("No idea about models or GPUs") read "ZeRO/FSDP sharding, 1 sequence per
    # micro-batch", "Scheduler Slurm", "Assumed efficiency (MFU)" and "Local NVMe per node"
    jargon = (
        "ZeRO",
        "FSDP",
        "micro-batch",
        "Scheduler Slurm",
        "Scheduling:",
        "MFU",
        "FLOPs",
        "Local NVMe per",
        "PCIe generation",
    )
    plain = _body("no")
    assert [word for word in jargon if word in plain] == []
    assert "“What we assumed” lists each choice" in plain
    # not sure who knows it: the engineering words stay, for whoever reads them
    assert "micro-batch" in _body("not_sure")


# Engineering words a customer who told us no one knows the set-up must not meet bare: each is
# replaced by plain words, or said plainly first with the term in brackets ("16-bit numbers
# (BF16)") and defined in the glossary, for the engineer or supplier who needs the term.
JARGON = (
    "BF16",
    "AdamW",
    "InfiniBand",
    "NVLink",
    "NVMe",
    "PCIe",
    "HGX",
    "ZeRO",
    "FSDP",
    "micro-batch",
    "MFU",
    "FLOPs",
    "GEMM",
    "NCCL",
    "Megatron",
    "busbw",
    "scale-out",
    "fabric",
    "Global batch",
    "Number precision",
    "PUE",
    "MLP",
)


def _bare_jargon(text: str, glossary: str) -> list[str]:
    """Each jargon word of ``text`` not said as "plain words (TERM)" with TERM in ``glossary``.
    Accelerator names ("NVIDIA H100 PCIe 80GB") are the products a supplier sells, kept."""
    for name in sorted((a.name for a in ACCELERATORS.values()), key=len, reverse=True):
        text = text.replace(name, "")
    text = re.sub(r"\([^()]*HGX[^()]*\)", "", text)  # "NVIDIA B200 (HGX, 1,000 W)", its name
    bare = []
    for term in JARGON:
        word = rf"(?<![\w-]){re.escape(term)}(?![\w-])"
        said_plainly = rf"\w[\w ,'-]* \({re.escape(term)}\)"
        left = re.sub(said_plainly, "", text, flags=re.I)
        if re.search(word, left, flags=re.I) or (
            re.search(word, text, flags=re.I) and not re.search(word, glossary, flags=re.I)
        ):
            bare.append(term)
    return bare


def test_told_no_one_knows_the_set_up_every_page_of_the_proposal_is_plain():
    # customer 8, the game studio ("No idea about models or GPUs"), read "Number precision
    # BF16", "Optimizer AdamW", "Global batch", "scale-out fabric" and Appendix B's GEMM, NCCL
    # and Megatron on the pages after the summary
    pdf = render_data(story_data("game-studio")).pdf
    text = " ".join(page.extract_text() or "" for page in PdfReader(BytesIO(pdf)).pages)
    text = re.sub(r"\s+", " ", text)
    start = text.rindex("Appendix A: Glossary")  # after the contents, which name it too
    end = text.index("Appendix B", start)
    glossary, pages = text[start:end], text[:start] + text[end:]
    assert _bare_jargon(pages, glossary) == []
    assert "16-bit numbers (BF16)" in pages  # the term their engineer needs is still there
    # the same story when the customer knows the set-up keeps the engineering words
    answers = {**game_studio_answers()}
    answers[DISCOVERY.slug] = {**answers[DISCOVERY.slug], "setup_known": "yes"}
    rows = build_context(demo_data(answers=answers, today=TODAY))["assumptions"]
    assert {row["label"]: row["value"] for row in rows}.get("Number precision") == "BF16"


@pytest.mark.django_db
def test_told_no_one_knows_the_set_up_the_review_page_is_plain():
    # the game studio's review page read "Number precision: BF16. Optimizer: AdamW. Global
    # batch: 262,144 tokens" under "Training set-up: we choose it for you"
    client = Client()
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    discovery = {**DISCOVERY.example.data, "setup_known": "no"}
    past_sentence_check(client, post_step(client, draft_id, DISCOVERY.slug, discovery))
    for question in QUESTIONS:
        if not question.expert:
            data = GAME_STUDIO.get(question.slug, question.example.data)
            post_step(client, draft_id, question.slug, data)
    post_step(client, draft_id, "contact", CONTACT)
    page = client.get(step_url(draft_id, "review")).content.decode()
    main = page[page.index("<main") : page.index("</main>")]
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))
    glossary = " ".join(f"{term.name} {term.definition}" for term in GLOSSARY.values())
    assert "we choose it for you" in text
    assert _bare_jargon(text, glossary) == []
    assert "16-bit numbers (BF16)" in text


def test_told_no_one_knows_the_set_up_the_summary_says_lora_in_plain_words():
    # customer 8 read "LoRA trains only small adapters, so one node is enough" among the
    # answers that drive the result: a term bare, and "node", in a novice's summary
    summary = build_context(story_data("game-studio"))["summary"]
    lines = [*summary["drivers"], *summary["why"], *summary["decisions"], summary["backing"]]
    text = " ".join(lines)
    assert re.findall(r"(?<![\w(])LoRA(?![\w)])", text) == []
    assert "small add-on pieces (LoRA)" in text
    assert " node" not in text


def test_a_reservations_tiny_use_is_said_without_about_less_than():
    # customer 8 read "your planned run would use about less than 1 % of ..."
    result = read_result(story_data("game-studio").result)
    reasons = " ".join(result.cost_reasons)
    assert "would use less than 1 % of" in reasons
    assert "about less than" not in reasons


def test_a_network_we_chose_for_a_plan_in_one_server_is_said_to_be_unused():
    # customer 8 read "Network between servers WE CHOSE InfiniBand: Sets the network between
    # servers" beside "No network between servers needed"
    rows = build_context(story_data("game-studio"))["assumptions"]
    network = [row for row in rows if row["key"].startswith("network.")]
    assert network
    assert all(row["rationale"].startswith("Not used by this plan") for row in network)
