"""The discovery sentence read into answers: every customer of the scenarios, and hostile text.

Customers 5 to 9 are quoted verbatim from ``../shared/reference/customer-scenarios.md``;
customers 1 to 4 have stories there, told here in one sentence of their own words.
"""

from __future__ import annotations

import pytest

from questionnaire.models import Draft
from questionnaire.prefill.changes import prefill_changes
from questionnaire.prefill.sentence import MAX_SENTENCE_CHARACTERS, read_sentence
from sizing.public import read_owned

CUSTOMERS = {
    # 1. insurance group: document classifier, regulated data
    "insurer": (
        "LoRA first, full fine-tuning later, of Llama 3.1 8B on 400,000 labelled documents of "
        "about 1,500 tokens each; each run overnight, results within 10 weeks; the data must "
        "stay in the EU, on-premises, no internet access from training machines; NVIDIA "
        "preferred."
    ),
    # 2. language-model start-up
    "startup": (
        "Pre-train our own 7B dense decoder from scratch on 2 trillion tokens; a full run must "
        "finish in about 30 days; cloud is fine, US region; custom CUDA kernels."
    ),
    # 3. media company: video generation
    "media": (
        "Continued pre-training of a 3B diffusion transformer on 1.2 million video clips; AMD "
        "would be acceptable beside NVIDIA; footage licensed for use in the UK and EU only; "
        "training every month."
    ),
    # 4. research lab: mixture-of-experts continued pre-training
    "lab": (
        "Continued pre-training of Mixtral 8x7B on 100 billion tokens of scientific text, "
        "3 weeks per run, on-premises in our university data centre, 2 runs a year."
    ),
    5: (
        "We own two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS) and want to "
        "fully fine-tune our 34B vision-language model on 30 billion tokens within three weeks; "
        "we would rent extra only if we must."
    ),
    6: (
        "NVIDIA only (our code is CUDA). Data must stay in Germany, no shared tenancy. LoRA "
        "adapters on an 8B model, 200 million tokens, retrained every week."
    ),
    7: (
        "Pre-train a 30B mixture-of-experts model (3B active, 64 experts, 8 per token) on "
        "4 trillion tokens within 45 days. AMD MI325X preferred, NVIDIA H200 acceptable. The "
        "hall has 2 MW for IT and cooling."
    ),
    8: (
        "We want our own assistant for player support tickets. We have about 50,000 past "
        "tickets. No idea about models or GPUs."
    ),
    9: (
        "120B dense pre-train on 8 trillion tokens, as fast as we can but at most $40 million. "
        "We own 512 H100 already and could rent more."
    ),
}

EXPECTED: dict[object, dict[tuple[str, str], object]] = {
    "insurer": {
        ("model", "model_name"): "Llama 3.1 8B",
        ("method", "method"): "lora",  # the first phase: "LoRA first"
        ("data", "dataset_size"): "400,000",
        ("data", "dataset_unit"): "samples",
        ("data", "tokens_per_sample"): "1,500",
        # one run overnight; "results within 10 weeks" is a date for the results, not a run
        ("timeline", "run_time_hours"): "overnight",
        ("deployment", "data_residency"): "the EU",
        ("deployment", "location"): "on_premises",
        ("deployment", "internet"): "none",
        # "NVIDIA preferred" is a preference, not a rule: no maker answer
    },
    "startup": {
        ("model", "total_params"): "7B",
        ("model", "architecture"): "dense",
        ("method", "method"): "pretrain",
        ("data", "dataset_size"): "2 trillion",
        ("data", "dataset_unit"): "tokens",
        ("timeline", "run_time_hours"): "about 30 days",
        ("software", "custom_kernels"): "yes",
        ("deployment", "country"): "US",
    },
    "media": {
        ("model", "total_params"): "3B",
        ("method", "method"): "continued_pretrain",
        ("data", "dataset_size"): "1.2 million",
        ("data", "dataset_unit"): "samples",
        ("timeline", "runs_per_month"): "1",
        ("software", "accelerator_vendor"): "amd_ok",
        ("deployment", "data_residency"): "UK and EU",
    },
    "lab": {
        ("model", "model_name"): "Mixtral 8x7B",
        ("method", "method"): "continued_pretrain",
        ("data", "dataset_size"): "100 billion",
        ("data", "dataset_unit"): "tokens",
        ("timeline", "run_time_hours"): "3 weeks",
        ("timeline", "runs_per_month"): "0.17",  # two a year
        ("deployment", "location"): "on_premises",
    },
    5: {
        ("model", "total_params"): "34B",
        ("method", "method"): "full_finetune",
        ("data", "dataset_size"): "30 billion",
        ("data", "dataset_unit"): "tokens",
        ("timeline", "run_time_hours"): "three weeks",
        ("deployment", "location"): "hybrid",  # what they own, and "rent extra only if we must"
        (
            "deployment",
            "owned",
        ): "two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS)",
    },
    6: {
        ("model", "total_params"): "8B",
        ("method", "method"): "lora",
        ("data", "dataset_size"): "200 million",
        ("data", "dataset_unit"): "tokens",
        ("timeline", "runs_per_month"): "4.3",  # 52 weeks / 12 months
        ("software", "accelerator_vendor"): "nvidia_only",
        ("deployment", "data_residency"): "Germany",
        ("deployment", "dedicated"): "yes",
    },
    7: {
        ("model", "total_params"): "30B",
        ("model", "active_params"): "3B",
        # "64 experts, 8 per token": the routing reaches the engine (expert layout, all-to-all)
        ("model", "experts"): "64",
        ("model", "experts_per_token"): "8",
        ("model", "architecture"): "moe",
        ("method", "method"): "pretrain",
        ("data", "dataset_size"): "4 trillion",
        ("data", "dataset_unit"): "tokens",
        ("timeline", "run_time_hours"): "45 days",
        ("software", "accelerator_vendor"): "amd_ok",
        ("software", "preferred_accelerator"): "mi325x",
        ("deployment", "power_kw"): "2 MW",
        ("deployment", "location"): "on_premises",  # "The hall has 2 MW": their building
    },
    8: {
        ("data", "dataset_size"): "50,000",
        ("data", "dataset_unit"): "samples",
        ("discovery", "setup_known"): "no",  # "No idea about models or GPUs": the short path
    },
    9: {
        ("model", "total_params"): "120B",
        ("model", "architecture"): "dense",
        ("method", "method"): "pretrain",
        ("data", "dataset_size"): "8 trillion",
        ("data", "dataset_unit"): "tokens",
        ("discovery", "constraint"): "time",  # "as fast as we can", never over their choice
        ("deployment", "owned"): "512 H100",
        ("deployment", "location"): "hybrid",  # what they own, and "could rent more"
        ("deployment", "budget_usd"): "$40 million",
    },
}


def findings(sentence: str) -> dict[tuple[str, str], object]:
    return {(v.slug, v.field): v.value for v in read_sentence(sentence).values}


@pytest.mark.parametrize("customer", list(CUSTOMERS), ids=str)
def test_each_customers_sentence_gives_what_it_says(customer):
    assert findings(CUSTOMERS[customer]) == EXPECTED[customer]


@pytest.mark.parametrize("customer", list(CUSTOMERS), ids=str)
def test_every_finding_quotes_the_words_it_came_from(customer):
    sentence = " ".join(CUSTOMERS[customer].split())
    for value in read_sentence(CUSTOMERS[customer]).values:
        assert value.source.startswith("Your words “") and value.source.endswith("”")
        assert value.source.removeprefix("Your words “")[:-1] in sentence


@pytest.mark.parametrize("customer", list(CUSTOMERS), ids=str)
def test_the_questions_own_forms_accept_every_finding(customer):
    """Nothing found is a value the question would refuse, nor contradicts another finding."""
    changes = prefill_changes(read_sentence(CUSTOMERS[customer]).values, Draft())
    assert changes.refused == ()
    filled = {(q.slug, c.label) for q in changes.questions for c in q.changes}
    assert len(filled) == len(EXPECTED[customer])


def test_what_they_own_is_read_by_the_engines_own_reader():
    owned = read_owned(str(EXPECTED[5][("deployment", "owned")]))
    assert owned is not None and (owned.accelerator, owned.count) == ("a100-80gb", 16)
    owned = read_owned(str(EXPECTED[9][("deployment", "owned")]))
    assert owned is not None and (owned.accelerator, owned.count) == ("h100-sxm", 512)


def test_what_they_own_is_not_read_as_the_model_or_the_data():
    # "512 H100" is no model of 512 anything, and the tickets of customer 8 are not hardware
    assert ("model", "total_params") not in findings("We own 512 H100 already.")
    assert ("deployment", "owned") not in findings(CUSTOMERS[8])


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Fine-tune Llama 3.1 70B within a semester", {("timeline", "run_time_hours"): "4 months"}),
        ("Our team in Frankfurt fine-tunes Qwen2.5 7B", {("deployment", "country"): "Germany"}),
        ("Everything air-gapped", {("deployment", "internet"): "none"}),
        ("Budget of USD 250k", {("deployment", "budget_usd"): "$250k"}),
        ("Results as soon as possible", {("discovery", "constraint"): "time"}),
        ("A QLoRA run on Mistral 7B", {("method", "method"): "qlora"}),
        ("AMD only, data may not leave Sweden", {("software", "accelerator_vendor"): "amd_only"}),
        ("AMD only, data may not leave Sweden", {("deployment", "data_residency"): "Sweden"}),
        ("On-premises, with the cloud for overflow", {("deployment", "location"): "hybrid"}),
        ("We know nothing about training", {("discovery", "setup_known"): "no"}),
        ("We are new to machine learning", {("discovery", "setup_known"): "no"}),
        # no idea of something else says nothing about who knows the set-up
        ("No idea yet which of our 5 products first", {("discovery", "setup_known"): None}),
    ],
)
def test_more_ways_of_saying_it(sentence, expected):
    found = findings(sentence)
    for key, value in expected.items():
        assert found.get(key) == value, found


@pytest.mark.parametrize(
    "sentence",
    [
        "",
        "   ",
        "x" * 100_000,
        "9" * 40 + " tokens within " + "9" * 40 + " days on a " + "9" * 40 + "B model",
        "$" + "9" * 40 + " at most, " + "1" * 40 + " MW",
        "Ünïcödé 🤖 训练 ７０Ｂ モデル ٣٠ مليار tokens \u202e\u200b\ud7ff within ３ weeks",
        "within " * 5000,
        "we own " * 3000 + "512 H100",
        "1," * 5000 + "000 tokens",
        "NVIDIA only " * 500 + "AMD only",
        "Data must stay in " + "Germany and " * 400,
    ],
    ids=[
        "empty",
        "blank",
        "huge",
        "40-digit numbers",
        "40-digit money and power",
        "unicode",
        "repeated trigger",
        "repeated own",
        "endless thousands",
        "two makers only",
        "endless places",
    ],
)
def test_hostile_sentences_give_no_error_and_nothing_absurd(sentence):
    found = read_sentence(sentence)
    changes = prefill_changes(found.values, Draft())
    for value in found.values:
        text = " ".join(value.value) if isinstance(value.value, list) else value.value
        assert len(text) <= 200, value
        # no figure of more than fifteen digits is ever read
        assert not any(
            len(run) > 15 for run in "".join(c if c.isdigit() else " " for c in text).split()
        )
    assert len(changes.step_data) <= 8


def test_only_the_first_part_of_a_long_text_is_read():
    sentence = "x " * MAX_SENTENCE_CHARACTERS + "NVIDIA only"
    assert findings(sentence) == {}


def test_the_same_words_give_the_same_answers_every_time():
    assert [findings(CUSTOMERS[7]) for _ in range(3)] == [EXPECTED[7]] * 3


@pytest.mark.parametrize(
    ("sentence", "experts", "per_token"),
    [
        ("A 30B MoE (3B active, 64 experts, 8 per token)", "64", "8"),
        ("A 16B MoE with top-2 routing over 64 experts", "64", "2"),
        ("A mixture of experts sending each token to 2 of its 8 experts", "8", "2"),
        ("128 routed experts, eight experts per token", "128", "8"),
        ("A 30B MoE with 64 experts", "64", None),
        # more experts a token than the model has is no routing: left to the question
        ("A MoE with 8 experts, 16 per token", "8", None),
    ],
)
def test_the_experts_and_the_experts_each_token_uses_are_read(sentence, experts, per_token):
    found = findings(sentence)
    assert found[("model", "experts")] == experts
    assert found.get(("model", "experts_per_token")) == per_token
    assert found[("model", "architecture")] == "moe"
