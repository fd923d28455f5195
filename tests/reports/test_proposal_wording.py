"""What the proposal says, read back from the rendered demo and scenarios: one consistent
statement per figure, in the customer's words."""

import re
from datetime import date
from functools import cache
from io import BytesIO

import pytest
from django.template.loader import render_to_string
from pypdf import PdfReader

from reports import charts
from reports.cost_page import cost_page
from reports.demo import SCENARIOS, demo_answers, demo_data
from reports.document import render_data
from reports.summary import OWNED, cheaper_to_buy, decisions
from reports.wording import alternative_rows, recommendation_sentence, why_sentences
from sizing.engine import size_dict
from sizing.engine.numbers import format_number, format_quantity
from sizing.stored_result import read_result
from sizing.words.rows import price_rows, risk_rows
from tests.reports.conftest import pdf_text, squash
from tests.reports.factories import edited_answers

TODAY = date(2026, 12, 2)


@cache
def text(scenario: str = "") -> str:
    """The proposal of one demo scenario as plain text, rendered once per test session."""
    return pdf_text(render_data(demo_data(scenario=scenario, today=TODAY)).pdf)


def test_the_network_says_one_thing_about_the_bandwidth_a_pcie_slot_caps():
    # the demo's plan would use 566 Gb/s per accelerator; a PCIe Gen5 slot carries 400
    page = squash(text())
    assert squash("your speed is enough") not in page
    assert squash("Network bandwidth each server needs") not in page
    assert squash("so the plan uses 400 Gb/s and communication takes about") in page
    assert squash("of each step instead.") in page


def test_the_headline_network_is_the_one_the_bill_buys():
    # the MoE lab's one run fits 8 rail switches; the 281 servers bought need a fat tree
    page = squash(text("moe-pretrain"))
    bought = squash("two-tier leaf-spine fat tree, non-blocking (1:1), for all 281 servers bought")
    one_run = squash("(one run alone: single-tier rail-optimised, non-blocking (8 rail switches))")
    assert page.count(bought) >= 3  # the summary box, the network page, the bill
    assert page.count(squash("8 rail switches")) == page.count(one_run)


def test_extra_accelerators_bought_are_headroom_for_maintenance_not_spares():
    # the MoE lab asked for no spare servers; 568 accelerators bought in year 1 for 512 a run
    page = squash(text("moe-pretrain"))
    assert squash("spares included") not in page
    assert squash("No spare servers, as you asked") in page
    assert (
        squash(
            "568 × NVIDIA H100 SXM5 80GB (71 servers of 8) bought in year 1, and 2,248 (281 "
            "servers) by year 3 as your training work grows; one run uses 512 accelerators in 64 "
            "servers; the rest is headroom for the year's planned runs, because an owned cluster "
            "runs jobs about 90 % of the year (the rest goes to maintenance and repairs)"
        )
        in page
    )


@pytest.mark.parametrize(
    ("scenario", "told"),
    [
        ("", ["Time you allow for one run 21 days", "Data growth per year 30 %"]),
        ("lora-one-node", ["Time you allow for one run 12 hours", "Data growth per year 50 %"]),
    ],
)
def test_values_the_customer_typed_are_theirs_in_their_own_unit(scenario, told):
    page = squash(text(scenario))
    for row in told:
        assert squash(row) in page
        assert squash(f"{row} (worked out from your answers)") not in page
    assert squash("air-gapped) yes (worked out") not in page
    assert squash("0.5 days") not in page


def test_a_value_worked_out_from_several_answers_still_says_so():
    # LoRA start-up: 400,000 documents of 1,500 tokens each
    page = squash(text("lora-one-node"))
    assert squash("600 million tokens (worked out from your answers)") in page


@pytest.mark.parametrize("scenario", ["", "moe-pretrain", "lora-one-node"])
def test_the_training_work_sentence_gives_a_rule_its_figure_follows_from(scenario):
    result = read_result(demo_data(answers=demo_answers(scenario), today=TODAY).result)
    compute = result.section("compute")
    (sentence,) = [s for s in why_sentences("compute", result) if "Training work" in s]
    assert "model size times the tokens" not in sentence
    per_token, total = compute["flops_per_token"], compute["training_flops"]
    # the figures printed multiply out: operations a token x tokens = the total
    assert f"about {format_number(per_token)} operations a token" in sentence
    assert f"times {format_quantity(total / per_token, 'tokens')}" in sentence
    assert f"about {format_number(total)} operations" in sentence
    rule = "4 operations per frozen parameter" if scenario == "lora-one-node" else "6 operations"
    assert rule in sentence


def test_the_moe_split_names_its_expert_parallelism():
    result = read_result(demo_data(answers=demo_answers("moe-pretrain"), today=TODAY).result)
    expert = result.section("parallelism")["expert"]
    assert expert > 1
    sentence = recommendation_sentence("parallelism", result)
    assert f"its experts spread {expert}-way across the copies (expert parallel)" in sentence


def test_the_slow_end_of_the_run_time_is_one_figure_and_said_plainly_when_well_past():
    # MoE lab: about 58.6 days against a 66-day deadline, likely 37–100 days (engine
    # 2026.12.15: DualPipe, FP8 casts, no dropout masks; ranges rebuilt on 101 published rows;
    # then the lab, which writes its own kernels, moves fewer memory-bound bytes: fused kernels)
    page = squash(text("moe-pretrain"))
    assert squash("(likely 37–100 days), within your deadline of 66 days") in page
    assert squash("the slow end of the range is 1.6 times your deadline") in page
    assert squash("A run is likely to take 37–100 days") in page


@pytest.mark.parametrize("scenario", ["", *SCENARIOS])
def test_every_risk_in_the_proposal_says_what_lowers_it(scenario):
    result = read_result(demo_data(answers=demo_answers(scenario), today=TODAY).result)
    rows = risk_rows(result)
    assert rows
    assert all(row["lower"] for row in rows), rows


def test_fine_tuning_of_an_undecided_kind_is_a_decision_in_the_executive_summary():
    # the hospital: "Fine-tuning, not sure yet whether full or LoRA"
    answers = edited_answers(method={"method": "finetune_unsure"})
    result = read_result(demo_data(answers=answers, today=TODAY).result)
    assert any(
        a.key == "training.method" and a.value == "full_finetune" for a in result.assumptions
    )
    said = decisions(result)
    assert any(
        "we sized full fine-tuning, the larger; adapters (LoRA) need far fewer accelerators" in d
        for d in said
    )
    assert sum("LoRA" in d for d in said) == 1  # not again as an open question beside it


def test_a_method_the_customer_chose_is_no_decision():
    said = decisions(read_result(demo_data(today=TODAY).result))
    assert not any("adapters (LoRA)" in d for d in said)


def test_the_appendix_speaks_to_the_customer_and_explains_its_notation():
    page = squash(text())
    assert squash("sizing engine") not in page
    assert squash("engine documentation") not in page
    assert squash("Prepared with sizing method") in page
    # notation kept for the method appendix comes with its legend
    for term in ("B/(s*b*h)", "GEMM", "busbw", "main_grad"):
        if squash(term) in page:
            assert squash(f"“{term}”" if "/" in term else f"{term} is") in page, term


@pytest.mark.parametrize(
    ("top", "axis"),
    [
        (105_902_000.0, 125_000_000.0),  # the demo's widest whisker: not an axis to $200M
        (58_461_300.0, 80_000_000.0),
        (7.3, 8.0),
    ],
)
def test_a_bar_chart_axis_ends_just_past_its_largest_value(top, axis):
    x_max, step = charts.axis_scale(top)
    assert x_max == pytest.approx(axis)
    assert top < x_max <= 1.5 * top
    assert x_max / step == round(x_max / step)  # the axis ends on a tick


@cache
def pages(scenario: str = "") -> list[str]:
    """The proposal of one demo scenario, page by page, squashed."""
    pdf = render_data(demo_data(scenario=scenario, today=TODAY)).pdf
    return [squash(page.extract_text() or "") for page in PdfReader(BytesIO(pdf)).pages]


@pytest.mark.parametrize("scenario", ["", "moe-pretrain"])
def test_the_table_of_every_option_is_not_split_from_its_header(scenario):
    # demo p9 had the header and one row, the other six overleaf
    (page,) = [p for p in pages(scenario) if squash("Why not chosen") in p]
    for option in ("GPU cloud, pay as you go", "Buy a base, rent the peaks"):
        assert squash(option) in page.split(squash("Why not chosen"), 1)[1]


def test_the_option_that_becomes_cheaper_sits_under_its_range_not_over_it():
    # the hospital's p8: "$1.43 million to $1.61 million" printed over the note beside it
    row = {
        "label": "Space in your own data centre",
        "range": "0 % to 100 %",
        "at_low": "$1.43 million",
        "at_high": "$1.61 million",
        "note": "then buy, in a rented data centre (colocation) is cheaper",
    }
    html = render_to_string("reports/_cost.html", {"cost": {"sensitivity": [row]}})
    table = html.split('class="figures sensitivity"', 1)[1].split("</table>", 1)[0]
    assert "<th></th>" not in table  # no fourth column for the range to overflow into
    assert (
        '$1.43 million to $1.61 million<span class="note">then buy, in a rented data centre '
        "(colocation) is cheaper</span></td>"
    ) in table


@pytest.mark.parametrize("scenario", ["", *SCENARIOS])
def test_the_heading_of_the_other_accelerators_stays_with_their_table(scenario):
    # the LoRA start-up's p4 ended on the heading and its paragraph, the table overleaf
    (page,) = [p for p in pages(scenario) if squash("Other accelerators we compared") in p]
    assert squash("Against ours") in page.split(squash("Other accelerators we compared"), 1)[1]


def test_a_buyer_is_shown_the_servers_another_accelerator_would_save():
    # the demo buys its servers: the other accelerators are compared on what their servers cost
    result = read_result(demo_data(answers=demo_answers("")).result)
    assert result.recommended_cost is not None and result.recommended_cost.key in OWNED
    cheaper = cheaper_to_buy(result)
    assert cheaper
    alt, ours = cheaper[0]
    assert float(alt["servers_usd"]) < ours
    line = next(d for d in decisions(result) if d.startswith("Whether to quote"))
    assert "in servers" in line and "in the cloud" not in line
    money = result.money  # the proposal's currency (the demo keeps its data in the EU: euros)
    assert money(alt["servers_usd"]) in line and money(ours) in line


def test_a_buyers_accelerator_table_gives_each_choice_its_servers_to_buy():
    result = read_result(demo_data(answers=demo_answers("")).result)
    rows = alternative_rows(result)
    ours = cheaper_to_buy(result)[0][1]
    assert rows[0]["servers"] == result.money.short(ours)
    b200 = next(row for row in rows if row["name"].startswith("NVIDIA B200"))
    assert "less in servers" in b200["note"]


def test_an_alternative_without_the_fp8_asked_is_noted_as_sized_in_bf16():
    run = {
        "model": {"name": "Llama 2 7B"},
        "training": {"method": "pretrain", "precision": "fp8"},
        "data": {"tokens": 1e11},
        "hardware": {"accelerator": "h100-sxm", "count": 64, "vendors": ["nvidia"]},
    }
    rows = alternative_rows(read_result(size_dict(run, today=TODAY)))
    a100 = next(row for row in rows if row["name"].startswith("NVIDIA A100"))
    assert "no FP8: sized in BF16" in a100["note"]
    h200 = next(row for row in rows if row["name"].startswith("NVIDIA H200"))
    assert "sized in" not in h200["note"]


def test_the_plan_says_how_many_whole_micro_batches_each_copy_runs_a_step():
    result = read_result(size_dict({"training": {"method": "pretrain"}}, today=TODAY))
    (sentence,) = [recommendation_sentence("parallelism", result)]
    p = result.section("parallelism")
    assert f"and {p['micro_batches']} micro-batches a step on each copy." in sentence


def test_a_run_shorter_than_the_checkpoint_interval_saves_one_checkpoint_at_its_end():
    """Reader finding A9: "Save a checkpoint every 2 hours" for a run of about an hour."""
    answers = {"model": {"name": "Llama 2 7B"}, "data": {"tokens": 5.12e7, "epochs": 1}}
    result = read_result(size_dict(answers, today=date(2026, 12, 3)))
    assert result.wall_clock_days * 24 < result.section("resilience")["checkpoint_interval_hours"]
    sentence = recommendation_sentence("resilience", result)
    assert sentence.startswith("Save one checkpoint at the end of each run"), sentence
    assert "every" not in sentence.split(";")[0]


@pytest.mark.parametrize(("residency", "assumed"), [(None, True), ("Germany", False)])
def test_the_price_table_says_which_region_was_assumed_when_none_was_given(residency, assumed):
    """Reader finding A10: North American power and rent prices, the region never stated."""
    answers = {"model": {"name": "Llama 2 7B"}, "data": {"tokens": 1e10}}
    if residency:
        answers["deployment"] = {"data_residency": residency}
    result = read_result(size_dict(answers, today=date(2026, 12, 3)))
    rows = price_rows(result, today=date(2026, 12, 3), region_given=bool(residency))
    region_rows = [r for r in rows if r["item"] == "Region assumed for power and space prices"]
    assert bool(region_rows) == assumed
    if assumed:
        assert region_rows[0]["value"] == "North America" and rows[0] is region_rows[0]


def test_the_price_table_marks_prices_older_than_a_year_as_dated():
    """Reader finding A10: "Public quote (2024-08)" in a December 2026 proposal, unmarked."""
    result = read_result(size_dict({"model": {"name": "Llama 2 7B"}, "data": {"tokens": 1e10}}))
    rows = price_rows(result, today=date(2026, 12, 3), region_given=False)
    purchase = next(r for r in rows if r["item"].startswith("Purchase price per accelerator"))
    assert "dated 2024-08, may have moved" in purchase["as_of"]
    fresh = next(r for r in rows if r["item"] == "GPU cloud price per accelerator-hour")
    assert "dated" not in fresh["as_of"]


def _dollars(text: str) -> float:
    """A figure as the year-by-year table prints it, in any currency: "$16.04M", "€640,000",
    "SEK 1.2B", "—"."""
    if text == "—":
        return 0.0
    scale = {"M": 1e6, "B": 1e9}.get(text[-1], 1.0)
    return float(re.sub(r"[^0-9.]", "", text.rstrip("MB"))) * scale


@pytest.mark.parametrize("scenario", ["", *SCENARIOS])
def test_the_year_by_year_table_adds_up_as_printed(scenario):
    """Reader finding A7: "Rented storage $6 | $6 | $11", years that do not add to the total."""
    result = read_result(demo_data(answers=demo_answers(scenario)).result)
    table = cost_page(result)["by_year"]
    for row in table["rows"]:
        assert sum(map(_dollars, row["years"])) == pytest.approx(_dollars(row["total"]))
    for year, total in enumerate(table["totals"]):
        column = sum(_dollars(row["years"][year]) for row in table["rows"])
        assert column == pytest.approx(_dollars(total))
    assert sum(map(_dollars, table["totals"])) == pytest.approx(_dollars(table["total"]))


def test_a_plan_of_one_copy_without_sharding_says_so_in_words():
    # reader finding A13: "copy it 1 times (data parallel), with ZeRO/FSDP stage 0"
    one_gpu = {
        "model": {"name": "Llama 3.1 8B"},
        "training": {"method": "lora"},
        "data": {"tokens": 1e7},
        "hardware": {"accelerator": "h100-sxm", "count": 1},
    }
    result = read_result(size_dict(one_gpu, today=TODAY))
    p = result.section("parallelism")
    assert (p["data"], p["zero_stage"]) == (1, 0)
    sentence = recommendation_sentence("parallelism", result)
    assert sentence.startswith("Run one copy of the model, with no ZeRO/FSDP sharding")
    assert "1 times" not in sentence and "stage 0" not in sentence
