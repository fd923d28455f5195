"""The registry: fifteen questions in order, each with defined terms and a working form."""

import pytest
from django import forms

from questionnaire.glossary import GLOSSARY
from questionnaire.questions import QUESTIONS, SLUGS, get_question, plain

EXPECTED_SLUGS = (
    "model",
    "method",
    "precision",
    "data",
    "timeline",
    "batch",
    "teams",
    "software",
    "parallelism",
    "network",
    "storage",
    "preprocessing",
    "resilience",
    "deployment",
    "roadmap",
)

# The mission's glossary and the other terms issue 2 names: all must be defined.
REQUIRED_TERMS = {
    "accelerator", "parameter", "token", "dense", "moe", "node", "cluster", "flops",
    "fine-tuning", "lora", "peft", "checkpoint", "tco", "active-parameters", "precision",
    "optimizer", "gradient-checkpointing", "epoch", "sequence-length", "batch", "micro-batch",
    "gradient-accumulation", "data-parallel", "tensor-parallel", "pipeline-parallel",
    "expert-parallel", "sequence-parallel", "fsdp", "nvlink", "infiniband", "rdma",
    "oversubscription", "nvme", "throughput", "metadata", "numa", "pcie", "colocation",
    "data-residency", "scheduler", "slurm", "kubernetes", "cuda", "rocm",
}  # fmt: skip


def test_fifteen_questions_in_order():
    assert [q.number for q in QUESTIONS] == list(range(1, 16))
    assert SLUGS == EXPECTED_SLUGS
    assert get_question("batch").number == 6


def test_every_required_glossary_term_is_defined():
    assert set(GLOSSARY) >= REQUIRED_TERMS
    assert all(term.definition.endswith(".") for term in GLOSSARY.values())


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.slug)
def test_every_term_a_question_uses_is_listed_and_defined(question):
    assert question.marked_terms() <= set(question.glossary_terms)
    assert set(question.glossary_terms) <= set(GLOSSARY)
    for text in (question.title, question.text, question.why_it_matters, question.what_to_capture):
        assert text and "[[" not in plain(text)


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.slug)
def test_each_form_accepts_its_own_example(question):
    form = question.form_class(data=question.example.data)
    assert form.is_valid(), form.errors
    assert question.example.text
    answer = form.to_answer()
    assert answer["not_sure"] is False
    lines = question.answer_lines(answer)
    assert lines and not any(line.text == "Not answered" for line in lines)


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.slug)
def test_each_form_accepts_not_sure_for_the_whole_question(question):
    form = question.form_class(data={"not_sure": "on"})
    assert form.is_valid(), form.errors
    answer = form.to_answer()
    assert answer["not_sure"] is True
    assert [line.text for line in question.answer_lines(answer)] == ["Not sure yet"]


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.slug)
def test_each_choice_field_offers_not_sure_and_numbers_accept_it(question):
    form = question.form_class()
    data = {}
    for name in question.form_class.answer_field_names():
        field = form.fields[name]
        if getattr(field, "render_as", "") == "radios":
            assert ("not_sure", "Not sure yet") in list(field.choices)
            data[name] = "not_sure"
        elif hasattr(field, "kind"):
            data[name] = "not sure"
    if data:
        bound = question.form_class(data=data)
        assert bound.is_valid(), bound.errors


def test_an_empty_page_asks_for_an_answer_or_not_sure():
    form = get_question("model").form_class(data={})
    assert not form.is_valid()
    assert "“Not sure yet”" in form.errors["not_sure"][0]


def test_a_number_error_keeps_the_text_and_names_the_field():
    form = get_question("model").form_class(data={"total_params": "-7B"})
    assert not form.is_valid()
    assert form.errors["total_params"] == ["The total number of parameters cannot be negative."]
    assert form["total_params"].value() == "-7B"


def test_written_unit_fills_in_the_unit_question_and_contradictions_are_caught():
    form = get_question("batch").form_class(data={"global_batch": "4M tokens"})
    assert form.is_valid()
    assert form.to_answer()["global_batch_unit"] == "tokens"
    form = get_question("data").form_class(data={"dataset_size": "2 TB", "dataset_unit": "tokens"})
    assert not form.is_valid()
    assert "Change one of them" in form.errors["dataset_size"][0]


@pytest.mark.parametrize(
    ("slug", "data", "field", "message"),
    [
        ("data", {"dataset_size": "2 billion"}, "dataset_unit", "Choose what “2 billion” counts"),
        ("data", {"dataset_size": "90T"}, "dataset_unit", "(tokens, samples or storage size)"),
        ("batch", {"global_batch": "4 million"}, "global_batch_unit", "“4 million” counts"),
    ],
)
def test_a_size_without_its_unit_asks_what_it_counts_and_keeps_the_text(
    slug: str, data: dict[str, str], field: str, message: str
):
    form = get_question(slug).form_class(data=data)
    assert not form.is_valid()
    assert message in form.errors[field][0]
    name = next(iter(data))
    assert form[name].value() == data[name]
    # the customer may say they are not sure what it counts: that is an answer too
    form = get_question(slug).form_class(data={**data, field: "not_sure"})
    assert form.is_valid()


def test_active_parameters_cannot_exceed_total():
    form = get_question("model").form_class(
        data={"architecture": "moe", "total_params": "8B", "active_params": "12B"}
    )
    assert not form.is_valid()
    assert "cannot be more than the total" in form.errors["active_params"][0]


def test_model_names_are_suggested_from_the_engine_catalog():
    from sizing.engine import MODEL_CATALOG

    field = get_question("model").form_class().fields["model_name"]
    assert "Llama 3.1 8B" in field.suggestions
    assert len(field.suggestions) == len(MODEL_CATALOG)


def test_stored_answers_render_what_was_typed_and_flatten_for_csv():
    question = get_question("batch")
    form = question.form_class(data=question.example.data)
    assert form.is_valid()
    answer = form.to_answer()
    lines = {line.label: line.text for line in question.answer_lines(answer)}
    assert lines["Sequence length in tokens"] == "4k (read as 4,096 tokens)"
    flat = question.flatten(answer)
    assert flat["batch.sequence_length"] == "4096"
    assert flat["batch.sequence_length_text"] == "4k"
    assert flat["batch.not_sure"] == ""


@pytest.mark.parametrize(
    ("choice", "words"),
    [
        ("nvidia_only", "NVIDIA only"),
        ("amd_only", "AMD only"),
        ("intel_only", "Intel only"),
        ("amd_ok", "NVIDIA or AMD"),
        ("no_preference", "No preference: compare every maker"),
        ("not_sure", "Not sure yet"),
    ],
)
def test_accelerator_makers_are_asked_and_shown_in_words_everywhere(choice, words):
    question = get_question("software")
    form = question.form_class(data={"accelerator_vendor": choice})
    assert form.is_valid(), form.errors
    answer = form.to_answer()
    lines = {line.label: line.text for line in question.answer_lines(answer)}
    assert lines["Which accelerator makers can you use?"] == words  # review, admin and PDF
    assert question.flatten(answer)["software.accelerator_vendor"] == choice  # CSV


def test_a_mixture_of_experts_cannot_route_a_token_to_more_experts_than_it_has():
    form = get_question("model").form_class(
        data={"architecture": "moe", "experts": "8", "experts_per_token": "16"}
    )
    assert not form.is_valid()
    assert "cannot be more than the experts" in str(form.errors["experts_per_token"])
    form = get_question("model").form_class(
        data={"architecture": "moe", "experts": "64", "experts_per_token": "8"}
    )
    assert form.is_valid(), form.errors
    assert (form.to_answer()["experts"], form.to_answer()["experts_per_token"]) == (64, 8)
    # the review page, the admin and the PDF show them as answered
    lines = {line.label: line.text for line in get_question("model").answer_lines(form.to_answer())}
    assert lines["Experts (mixture of experts only)"] == "64"
    assert lines["Experts used per token (mixture of experts only)"] == "8"


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda question: question.slug)
def test_a_form_changing_its_choices_in_place_leaves_the_class_and_other_forms_alone(question):
    declared = {
        name: list(field.choices)
        for name, field in question.form_class.base_fields.items()
        if isinstance(field, forms.ChoiceField)
    }
    form, other = question.form_class(), question.form_class()
    for name in declared:
        assert form.fields[name].choices == declared[name]
        form.fields[name].choices.append(("changed", "Changed"))
        form.fields[name].widget.choices.append(("changed", "Changed"))
    for name, choices in declared.items():
        assert list(question.form_class.base_fields[name].choices) == choices
        assert other.fields[name].choices == choices
        assert list(other.fields[name].widget.choices) == choices
