"""The proposal PDF, read back with pypdf: sections, figures, answers, and safe rendering."""

import dataclasses
import re
from io import BytesIO

import pytest
from django.template.loader import render_to_string
from pypdf import PdfReader

from questionnaire.glossary import GLOSSARY
from reports import charts
from reports.cost_page import cost_page
from reports.demo import DEMO_FORM_DATA, answers_from, demo_answers, demo_data
from reports.document import AREAS, build_context, headline, html_to_pdf, render_data
from reports.fetcher import BlockedResource
from reports.figures import input_rows
from reports.summary import WELL_PAST_DEADLINE
from reports.wording import recommendation_sentence
from sizing.engine import size_dict
from sizing.engine.numbers import format_dollars, format_percent, format_range
from sizing.engine.numbers import format_number as number
from sizing.engine.vocabulary import COST_OPTIONS, COST_PARTS
from sizing.stored_result import read_result
from sizing.words.cost import money_of
from tests.reports.conftest import embedded_files, pdf_text, squash
from tests.reports.factories import edited_answers

A4_POINTS = (595.28, 841.89)

# The demo's answers keep the data in the EU (question 14's example), so its proposal is in
# euros: every amount these tests look for is written by the one formatter, in that currency.
# The demo keeps its data in the EU: every surface writes euros at the rate the result stores.
_EUROS = money_of(read_result(demo_data().result))


def money(usd: float | None) -> str:
    return _EUROS(usd)


def money_short(usd: float | None) -> str:
    return _EUROS.short(usd)


def _within_a_step(printed: str, exact: float) -> bool:
    """ "€22.59M" is ``exact`` [€] to within the table's rounding step (€10,000)."""
    value = float(printed.strip("€M").replace(",", "")) * 1e6
    return abs(value - exact) <= 10_000 + 1


@pytest.fixture(scope="module")
def demo():
    data = demo_data()
    rendered = render_data(data)
    return data, rendered, pdf_text(rendered.pdf)


def test_the_pdf_is_a4_with_its_page_count_recorded(demo):
    _data, rendered, _text = demo
    reader = PdfReader(BytesIO(rendered.pdf))
    assert len(reader.pages) == rendered.page_count > 10
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width), round(height)) == tuple(round(v) for v in A4_POINTS)


CHAPTERS = [
    "Executive summary",
    *[title for _key, title, _fields in AREAS],
    "Bill of materials",
    "Cost",
    "Risks and what lowers them",
    "Open questions",
    "What we assumed, and the prices we used",
    "Appendix A: Glossary",
    "Appendix B: Method and sources",
]


def test_every_section_is_present_in_the_contents_and_the_body(demo):
    _data, _rendered, text = demo
    for heading in [
        "Contents",
        "Our recommendation",
        "The answers that drive the result",
        *CHAPTERS,
    ]:
        assert heading in text, heading


def test_the_contents_give_the_page_each_section_starts_on(demo):
    _data, rendered, _text = demo
    reader = PdfReader(BytesIO(rendered.pdf))
    contents = reader.pages[0].extract_text()  # the contents share the cover
    assert "Contents" in contents
    page_numbers = [int(line) for line in contents.splitlines() if line.strip().isdigit()]
    assert len(page_numbers) == len(CHAPTERS)
    for title, page_number in zip(CHAPTERS, page_numbers, strict=True):
        assert title in reader.pages[page_number - 1].extract_text(), (title, page_number)


def test_cover_running_header_and_page_numbers(demo):
    data, rendered, _text = demo
    reader = PdfReader(BytesIO(rendered.pdf))
    cover = reader.pages[0].extract_text()
    for value in (
        data.company,
        data.contact_name,
        data.reference,
        "Training infrastructure proposal",
    ):
        assert squash(value) in squash(cover)
    assert "Page 1 of" not in cover  # the cover carries no running header or footer
    date_text = f"{data.issued_on.day} {data.issued_on:%B %Y}"
    for number_, page in enumerate(reader.pages[1:], start=2):
        page_text = page.extract_text()
        assert f"Page {number_} of {rendered.page_count}" in page_text
        assert data.reference in page_text and date_text in page_text


def test_summary_figures_equal_the_recommendation(demo):
    data, _rendered, text = demo
    result = data.result
    summary = squash(text)
    cluster = result["cluster"]
    assert squash(f"{cluster['gpus']} accelerators") in summary
    assert squash(f"{cluster['nodes']} servers of {cluster['gpus_per_node']}") in summary
    assert squash(cluster["accelerator_name"]) in summary
    assert squash(f"about {number(result['timeline']['wall_clock_days'])} days") in summary
    assert squash(f"{number(round(result['compute']['gpu_hours']))}") in summary
    priced = [o for o in result["cost"].values() if isinstance(o, dict) and "net_usd" in o]
    assert len(priced) >= 4
    for option in priced:
        assert squash(money_short(option["net_usd"])) in summary
    for driver in result["drivers"]:
        assert squash(driver[:1].upper() + driver[1:]) in summary


def test_the_summary_gives_the_headline_figures_their_ranges_and_what_backs_them(demo):
    data, _rendered, text = demo
    result = data.result
    flat = squash(text)
    days = result["timeline"]["wall_clock_days_range"]
    assert squash(f"days (likely {format_range(*days, 'days')})") in flat
    assert squash(f"({format_range(*result['compute']['gpu_hours_range'])})") in flat
    low, high = result["cluster"]["gpus_range"]
    assert low < result["cluster"]["gpus"] < high  # the demo is sized for its deadline
    assert squash(f"accelerators ({format_range(low, high)} to meet the deadline) in") in flat
    runs = result["confidence"]["published_runs"]
    assert squash(f"backed by {runs} published training runs") in flat
    assert squash(result["confidence"]["summary"]) in flat
    # met at the central estimate, but the range runs past the deadline: said, not hidden
    deadline = result["timeline"]["deadline_days"]
    assert result["timeline"]["deadline"]["met"] and days[1] > deadline
    assert squash("within your deadline of") in flat
    if days[1] / deadline < WELL_PAST_DEADLINE:
        assert squash("the slow end of the range runs past it") in flat
    else:  # how far past is said, and that it is a real risk
        assert squash("times your deadline: a real risk (see the risks)") in flat


def test_a_run_unlike_any_published_one_says_its_range_is_wide():
    result = read_result(
        size_dict(
            {
                "model": {"name": "Llama 3.1 8B"},
                "training": {"method": "lora"},
                "data": {"tokens": 1e7},
                "hardware": {"accelerator": "h100-sxm", "count": 1},
            }
        )
    )
    figures = headline(result)
    assert figures["backing_text"].startswith("a wide range: no published run")
    assert "LoRA" in figures["confidence_summary"]
    assert figures["gpus_needed_text"] == ""  # the count is given: the days move instead


def test_a_result_from_before_the_ranges_reads_without_them():
    stored = size_dict({"model": {"name": "Llama 2 7B"}, "data": {"tokens": 1e10}})
    del stored["confidence"], stored["cluster"]["gpus_range"]
    del stored["timeline"]["wall_clock_days_range"], stored["compute"]["gpu_hours_range"]
    del stored["cost"]["one_run_cloud_range_usd"]
    figures = headline(read_result(stored))
    for key in ("days_range_text", "gpus_needed_text", "gpu_hours_range_text", "backing_text"):
        assert figures[key] == "", key


def _cost_page(text: str) -> str:
    """The text of the cost section: from its heading in the body to the next section."""
    start = text.index("Cost\n", text.index("What you buy over the plan"))
    return text[start : text.index("Risks and what lowers them", start)]


def test_the_cost_page_names_one_option_its_range_why_it_wins_and_the_split(demo):
    data, _rendered, text = demo
    cost = data.result["cost"]
    key = cost["recommended_option"]
    best = cost[key]
    page = squash(_cost_page(text))
    label = COST_OPTIONS[key]
    assert squash(f"We recommend: {label} {money(best['net_usd'])} over 3 years") in page
    low, high = best["range_usd"]
    assert squash(f"likely {money(low)} to {money(high)}") in page
    # why it wins is said once, in the executive summary's "Why this option", not again here
    summary_page = squash(text[: text.index("The answers that drive the result")])
    assert squash(cost["reasons"][0]) in summary_page
    assert squash(cost["reasons"][0]) not in page
    assert squash(f"{money(best['capex_usd'])} is capital") in page
    assert squash(f"{money(best['running_usd'])} is running cost") in page
    years = squash(" ".join(f"Year {y}" for y in range(1, len(best["by_year_usd"]) + 1)))
    assert years in page
    # the year totals are the sums of the rounded parts above them (the table adds up as
    # printed, test_proposal_wording), and the grand total is the headline's
    assert squash("Total paid") in page
    # to the euro, so that it adds up as printed (the demo keeps its data in the EU)
    table = cost_page(read_result(data.result))["by_year"]
    assert squash(f"{table['total']} Still worth") in page
    assert table["total"] == format_dollars(_EUROS.local(best["total_usd"]), currency="EUR")
    assert best["capex_usd"] + best["running_usd"] == pytest.approx(best["total_usd"], rel=1e-5)
    # No other option is presented as the recommendation; the summary shows the same range.
    assert page.count(squash("recommended")) == 1
    summary = squash(text[: text.index("The answers that drive the result")])
    assert squash(f"likely {money(low)} to {money(high)}") in summary


def test_the_cfo_sees_each_years_running_cost_by_part_and_the_rows_add_up(demo):
    data, _rendered, text = demo
    result = read_result(data.result)
    best = result.recommended_cost
    table = cost_page(result)["by_year"]
    assert [row["label"] for row in table["rows"]] == [
        COST_PARTS[p] for p in ("hardware", "power", "space", "support", "staff")
    ]
    for year, amount in enumerate(best.by_year_usd):  # each year's parts make its total
        assert sum(v[year] for v in best.parts_by_year_usd.values()) == pytest.approx(
            amount, rel=1e-5
        )
    running = sum(sum(v) for p, v in best.parts_by_year_usd.items() if p != "hardware")
    assert running == pytest.approx(best.running_usd, rel=1e-4)
    page = squash(_cost_page(text))
    for row in table["rows"]:
        assert squash(" ".join([row["label"], *row["years"], row["total"]])) in page


def test_the_residual_value_is_the_same_on_the_summary_and_the_cost_page(demo):
    data, rendered, text = demo
    best = read_result(data.result).recommended_cost
    worth = money(best.residual_value_usd)
    assert 0 < best.residual_value_usd < best.capex_usd
    summary = squash(text[: text.index("The answers that drive the result")])
    assert squash(f"still worth at the end of year 3 (about {worth})") in summary
    assert squash(f"At the end of year 3 the hardware is still worth about {worth}") in squash(
        _cost_page(text)
    )
    assert squash("written off evenly over 5 years") in squash(_cost_page(text))
    assert rendered.findings == ()  # the checker compares the two (data-figure="residual")


def test_every_option_is_shown_and_compared_by_its_net_figure(demo):
    # CFO finding: "cheapest" must not sit beside a table where another option nets out lower.
    data, _rendered, text = demo
    result = read_result(data.result)
    best = result.recommended_cost
    assert best is not None and best.residual_value_usd
    page = squash(_cost_page(text))
    # the year-by-year table ends with what is still worth at the end and the net figure, to
    # the euro so that it adds up as printed
    net, paid = round(_EUROS.local(best.net_usd)), round(_EUROS.local(best.total_usd))
    assert abs((paid - net) - _EUROS.local(best.residual_value_usd)) <= 1
    worth, net_shown = (
        format_dollars(net - paid, currency="EUR"),
        format_dollars(net, currency="EUR"),
    )
    assert squash(f"Still worth at the end of year 3 {worth} Net over 3 years {net_shown}") in page
    assert squash(_EUROS(best.net_usd)) in page  # the headline, exact
    # the table of options gives each its net figure, and none allowed nets out lower
    for option in result.cost_options:
        assert squash(f"{option.label} {money_short(option.net_usd)}") in page, option.key
        if not option.ruled_out_by:
            assert option.net_usd >= best.net_usd, option.key
    assert squash("after subtracting what the hardware is still worth at the end of year 3") in (
        squash(text[: text.index("The answers that drive the result")])
    )
    table = cost_page(result)["options"]
    assert {row["label"]: row["total"] for row in table} == {
        o.label: money_short(o.net_usd) for o in result.all_cost_options
    }


def test_a_reservation_for_one_run_and_nothing_after_says_the_whole_term_is_paid():
    # CFO finding: a one-year reservation offered for a single three-week run. One run, no runs
    # a month now or later (questions 5 and 15): the reservation is paid for its whole term.
    form = {
        **DEMO_FORM_DATA,
        "method": {**DEMO_FORM_DATA["method"], "experiments": "1"},
        "timeline": {"run_time_hours": "21 days"},
        "deployment": {"location": "cloud", "dedicated": "no", "internet": "full"},
        "roadmap": {"budget_years": "3", "annual_growth_pct": "0"},
    }
    data = demo_data(answers=answers_from(form))
    result = read_result(data.result)
    assert not result.usage_known
    page = squash(pdf_text(render_data(data).pdf))  # no bill: a cloud plan buys nothing
    for option in result.cost_options:
        if option.commitment_years:
            share = option.commitment_used_share
            assert share is not None and share < 0.1  # three weeks of a year or more
            term = "year" if option.commitment_years == 1 else f"{option.commitment_years} years"
            assert (
                squash(
                    f"paid for the whole {term}, of which your planned runs use "
                    f"{format_percent(share)}: worth it only if you use it afterwards"
                )
                in page
            ), option.key
    assert squash("worth it only if you use the capacity after the planned run") in page


def test_a_cloud_plan_shows_rented_time_and_storage_and_no_residual_value():
    data = demo_data(answers=demo_answers("lora-one-node"))
    result = read_result(data.result)
    page = cost_page(result)
    assert {row["label"] for row in page["by_year"]["rows"]} <= {
        COST_PARTS["rented"],
        COST_PARTS["storage"],
    }
    assert page["residual"] == {}


def test_answers_assumptions_questions_risks_glossary_and_sources_come_from_their_sources(demo):
    data, _rendered, text = demo
    flat = squash(text)
    for label, value, _source in input_rows(data.engine_input, AREAS[0][2], data.input_sources):
        assert squash(f"{label} {value}") in flat  # the model question, told back
    for question in data.result["open_questions"]:
        assert squash(question) in flat
    for risk in data.result["risks"]:  # "risk: what lowers it", in two columns
        what, _, lower = risk.partition(": ")
        assert squash(what[1:]) in flat and squash(lower[1:]) in flat
    glossary = squash(text[text.index("Appendix A: Glossary\n") :])
    listed = [term for term in GLOSSARY.values() if squash(term.definition)[:40] in glossary]
    assert len(listed) > 10  # the terms the proposal uses, not all of them
    assert not any(
        squash(t.definition)[:40] in glossary for t in GLOSSARY.values() if t.name == "ROCm"
    )
    assumed = [a for a in data.result["assumptions"] if a["provided_by"] != "customer"]
    assert assumed
    source = assumed[0]["source"]
    assert squash(source[:1].upper() + source[1:])[:40] in flat  # written with a capital


def test_the_customers_notes_are_quoted_in_the_section_of_their_question():
    answers = edited_answers(
        model={"notes": "We may switch_to Qwen later."},
        roadmap={"notes": "Budget is approved per year."},
    )
    rendered = render_data(demo_data(answers=answers))
    text = squash(pdf_text(rendered.pdf))
    compute = text[text.index(squash("Compute and timeline We recommend")) :]
    compute = compute[: compute.index(squash("Memory We recommend"))]
    assert squash("Anything else (question 1) We may switch_to Qwen later.") in compute
    cost = text[text.index(squash("Cost We recommend")) :]
    assert squash("Budget is approved per year.") in cost[: cost.index(squash("Risks and"))]
    assert squash("Appendix C") not in text  # no appendix repeats every answer
    assert rendered.findings == ()  # quoted words are the customer's: not held to ours


def test_answers_the_customer_was_unsure_about_are_marked_in_the_assumptions():
    answers = demo_answers()
    answers["precision"] = {**answers["precision"], "precision": "not_sure", "not_sure": True}
    data = demo_data(answers=answers)
    text = pdf_text(render_data(data).pdf)
    assumptions = text[text.index("What we assumed") :]
    assert "NOT SURE" in assumptions.upper()
    assert data.input_sources["training.precision"] == "not_sure"


HOSTILE = [
    "<img src=http://127.0.0.1:{port}/img>",
    "<link rel=attachment href=file:///etc/passwd>",
    "<link rel=stylesheet href=http://127.0.0.1:{port}/css>",
    "{{{{ 7*7 }}}}",
    "{{% debug %}}",
    "<style>@import url(http://127.0.0.1:{port}/import);</style>",
]


def test_customer_text_appears_literally_and_fetches_nothing(canary):
    payloads = [p.format(port=canary.port) for p in HOSTILE]
    answers = demo_answers()
    answers["model"] = {**answers["model"], "notes": "\n".join(payloads)}
    answers["deployment"] = {**answers["deployment"], "export_policy": payloads[0]}
    data = dataclasses.replace(
        demo_data(answers=answers),
        company=payloads[1],
        contact_name=payloads[3],
    )
    pdf = render_data(data).pdf
    text = squash(pdf_text(pdf))
    for payload in payloads:
        assert squash(payload) in text, payload
    assert canary.requests == []
    assert embedded_files(pdf) == []


@pytest.mark.parametrize(
    "markup",
    [
        '<link rel="attachment" href="file:///etc/passwd">',
        '<img src="file:///etc/passwd">',
        '<img src="http://127.0.0.1:{port}/img">',
        '<link rel="stylesheet" href="http://127.0.0.1:{port}/css">',
        "<style>@import url(http://127.0.0.1:{port}/import);</style>",
        '<img src="data:image/svg+xml;base64,PHN2Zy8+">',
        '<img src="/static/css/site.css">',
        '<img src="/static/reports/../../config/settings.py">',
        '<img src="ftp://127.0.0.1:{port}/x">',
    ],
)
def test_the_fetcher_fails_the_render_for_anything_but_our_static_files(canary, markup):
    html = f"<html><body><p>x</p>{markup.format(port=canary.port)}</body></html>"
    with pytest.raises(BlockedResource):
        html_to_pdf(html)
    assert canary.requests == []


def test_the_fetcher_serves_our_own_stylesheet():
    html = '<html><head><link rel="stylesheet" href="/static/reports/proposal.css"></head><body>ok</body></html>'
    assert html_to_pdf(html).pdf.startswith(b"%PDF")


def test_charts_are_vector_and_escape_their_labels():
    svg = charts.bar_chart([charts.Bar("<script>x</script>", 2.0)], unit="GB/s", title="t & <b>")
    assert svg.startswith("<svg")
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "t &amp; &lt;b&gt;" in svg


def test_the_timeline_chart_marks_the_deadline_and_the_recommended_point():
    svg = charts.timeline_chart(
        [(8, 40.0), (16, 20.0), (32, 10.0)], deadline_days=30, recommended_gpus=16
    )
    assert "deadline: 30 days" in svg
    assert "recommended: 20 d" in svg
    assert 'stroke-dasharray="6 4"' in svg


# Customer 2's curve: the deadline's line runs just above the recommended point, and the curve
# falls steeply on its left and gently on its right (readers saw the label written over it).
STEEP_THEN_GENTLE = [(32, 80.0), (64, 40.0), (96, 26.6), (128, 20.0), (256, 10.0)]


@pytest.mark.parametrize(
    ("points", "deadline", "recommended"),
    [
        (STEEP_THEN_GENTLE, 30, 96),
        (STEEP_THEN_GENTLE, 45, 128),
        ([(128, 51.0), (256, 26.0), (320, 20.8), (512, 13.5), (1024, 7.0)], 21, 320),
    ],
)
def test_the_recommended_label_is_never_written_across_the_curve(points, deadline, recommended):
    svg = str(charts.timeline_chart(points, deadline_days=deadline, recommended_gpus=recommended))
    path = re.search(r'<path d="([^"]+)"', svg).group(1)
    corners = [tuple(map(float, xy.split(","))) for xy in re.findall(r"[ML]([\d.]+,[\d.]+)", path)]
    x, y, anchor, text = re.search(
        r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>(recommended: [^<]+)<', svg
    ).groups()
    left, top, right, bottom = charts._box(float(x), float(y), anchor, text, 10)
    for (x0, y0), (x1, y1) in zip(corners, corners[1:], strict=False):
        for i in range(101):  # every point of each segment, a hundredth apart
            cx, cy = x0 + (x1 - x0) * i / 100, y0 + (y1 - y0) * i / 100
            assert not (left <= cx <= right and top <= cy <= bottom), (text, cx, cy)


def test_the_timeline_chart_leaves_off_sizes_far_slower_than_the_deadline_and_says_so():
    points = [(8, 400.0), (16, 200.0), (64, 50.0), (128, 25.0), (256, 13.0)]
    svg = charts.timeline_chart(points, deadline_days=21, recommended_gpus=128)
    assert "2 smaller sizes, slower than 75 days, left off" in svg  # 3 x the 25-day run
    assert ">16<" not in svg and ">64<" in svg  # the axis starts at the first size shown
    every = charts.timeline_chart(points[2:], deadline_days=21, recommended_gpus=128)
    assert "left off" not in every


def test_the_accelerator_makers_the_customer_allows_are_told_back_in_words():
    rows = input_rows(
        {"hardware": {"vendors": ["nvidia", "amd"]}},
        ("hardware",),
        {"hardware.vendors": "customer"},
    )
    assert rows == [("Accelerator makers", "NVIDIA, AMD", "you told us")]


def test_the_pdf_names_the_accelerators_left_out_and_why(demo):
    _data, _rendered, text = demo  # the demo customer allows NVIDIA only
    assert "Left out:" in text
    amd = [n.partition(":")[0] for n in _data.result["excluded_accelerators"] if "AMD;" in n]
    assert len(amd) > 1  # one reason, written once for every accelerator it rules out
    reason = (
        f"{', '.join(amd[:-1])} and {amd[-1]} (made by AMD; you asked for NVIDIA accelerators only)"
    )
    assert squash(reason) in squash(text)


def test_an_alternative_without_a_published_price_says_so_in_words():
    data = demo_data(answers=edited_answers(software={"accelerator_vendor": "no_preference"}))
    alternatives = data.result["alternatives"]
    unpriced = [a for a in alternatives if a["run_cost_usd"] is None]
    assert unpriced and all(not a["price_confirmed"] for a in unpriced)
    # An estimated price (priced, not confirmed) is flagged; a missing one is "not priced".
    estimated = {**alternatives[0], "price_confirmed": False}
    result = {**data.result, "alternatives": [estimated, *alternatives[1:]]}
    page = squash(
        render_to_string(
            "reports/proposal.html", build_context(dataclasses.replace(data, result=result))
        )
    )
    assert squash(f"{money_short(estimated['run_cost_usd'])}</td>") in page
    assert page.count(squash("price not confirmed")) == 1
    assert squash("not priced") in page


def test_a_cost_no_allowed_option_prices_names_the_rule_and_what_relaxing_it_costs():
    """The H800 has no purchase price; on premises only owning is allowed, so nothing the rules
    allow is priced: the summary and the cost page say which rule does it and what the
    cheapest option it rules out would cost, never "to be priced" beside priced options
    (issue 28, "one decision, always")."""
    data = demo_data()
    engine_input = {
        **data.engine_input,
        "hardware": {"accelerator": "h800"},
        "deployment": {"location": "on_prem"},
    }
    result = size_dict(engine_input, today=data.issued_on)
    assert result["cost"]["recommended_option"] is None
    page = render_to_string(
        "reports/proposal.html",
        build_context(dataclasses.replace(data, engine_input=engine_input, result=result)),
    )
    text = squash(page)
    cheapest = result["cost"]["constraints"]["cheapest_overall"]
    said = squash(
        "Your rule (only on premises) leaves no option with a public price: relaxing it, the "
        "cheapest option would be"
    )
    assert squash("3-year cost</th><td>") + said in text
    # this input names no place any more (its deployment replaced): the proposal's own currency
    own = money_of(read_result(result))
    assert squash(own(result["cost"][cheapest]["net_usd"])) in text
    assert "to be priced" not in text
    assert squash("not priced: no public purchase price for the NVIDIA H800") in text
    # page 2 names no way to pay that the cost page does not choose, and says why only once
    assert "rented only while a run is going" not in text
    assert text.count(said) == 2  # the summary's cost row and the cost page's headline


def test_the_recommended_row_of_the_accelerator_table_counts_one_run_as_the_others_do():
    from reports.wording import alternative_rows

    data = demo_data(answers=demo_answers("sovereign-eu"))
    result = read_result(data.result)
    assert result.gpus > result.gpus_per_job  # several runs at once: the cluster holds more
    ours, *others = alternative_rows(result)
    assert ours["gpus"] == number(result.gpus_per_job)
    assert int(ours["nodes"]) * result.gpus_per_node == result.gpus_per_job
    assert all(int(o["nodes"]) * result.gpus_per_node >= int(o["gpus"]) for o in others)


def test_interleaved_chunks_are_described_with_the_whole_layers_each_holds():
    # Llama 3.1 405B (126 layers) as Meta laid it out: 16 pipeline stages of 7 or 8 layers
    result = read_result(
        size_dict(
            {
                "model": {"name": "Llama 3.1 405B"},
                "training": {"method": "pretrain"},
                "data": {"tokens": 1e12},
                "batch": {"sequence_length": 8192, "global_batch_tokens": 16e6},
                "hardware": {"accelerator": "h100-sxm", "count": 8192},
                "parallelism": {"tensor": 8, "pipeline": 16},
            }
        )
    )
    chunks = result.section("parallelism")["virtual_pipeline_stages"]
    assert chunks > 1
    sentence = recommendation_sentence("parallelism", result)
    fewest, most = 7 // chunks, -(-8 // chunks)
    held = f"{fewest}" if fewest == most else f"{fewest} or {most}"
    assert f"each stage holding {chunks} interleaved chunks of {held} layers" in sentence
