"""reports/proposal_check.py: each rule catches its defect on a small crafted page, and lets the
same page through once the defect is fixed."""

import pytest

from reports.chart_markup import Chart, Label
from reports.document import html_to_pdf
from reports.proposal_check import RULES, describe_findings


def findings(body: str) -> list[tuple[str, str]]:
    """(rule, text) of each finding on a page with ``body``, laid out like a proposal."""
    html = f"<html><head><meta charset='utf-8'></head><body>{body}</body></html>"
    return [(f.rule, f.text) for f in html_to_pdf(html).findings]


def rules(body: str) -> set[str]:
    return {rule for rule, _text in findings(body)}


def test_every_rule_is_described():
    assert set(RULES) == {
        "figure",
        "machine",
        "plural",
        "unit",
        "off-page",
        "range",
        "sum",
        "network",
    }


def test_a_figure_tagged_twice_with_different_values_is_found():
    body = (
        '<p><span data-figure="nodes">39</span> nodes</p><p><span data-figure="nodes">40</span></p>'
    )
    assert findings(body) == [("figure", "39 vs 40")]
    assert rules(body.replace(">40<", ">39<")) == set()


def test_a_figure_written_in_words_is_compared_with_its_tagged_value():
    tagged = '<p><span data-figure="nodes">2</span> nodes, <span data-figure="gpus_per_job">16</span></p>'
    assert rules(tagged + "<p>We use 3 nodes of 8.</p>") == {"figure"}
    assert rules(tagged + "<p>The 3-day deadline sets the cluster at 8 accelerators.</p>") == {
        "figure"
    }
    assert (
        rules(tagged + "<p>2 nodes of 8; the deadline sets the cluster at 16 accelerators.</p>")
        == set()
    )


def test_single_node_beside_several_nodes_is_a_contradiction():
    body = '<p><span data-figure="nodes">2</span> nodes of 8</p><p>Network: none (single node)</p>'
    assert rules(body) == {"figure"}
    assert rules(body.replace(">2<", ">1<").replace("nodes of", "node of")) == set()


@pytest.mark.parametrize(
    "text",
    [
        "customer preference: on_prem",
        "Number precision: bf16",
        "Accelerator: h100-sxm",
        "We recommend: None with 0 × 0 Gb/s per node",
        "Total: {{ cost.total }}",
        "Utilisation: nan",
    ],
)
def test_machine_words_are_found(text):
    assert rules(f"<p>{text}</p>") == {"machine"}


def test_words_the_customer_typed_are_quoted_not_judged():
    assert (
        rules('<p>Your notes: <span class="verbatim">keep export_policy as is</span></p>') == set()
    )
    assert rules("<p>Your notes: keep export_policy as is</p>") == {"machine"}


@pytest.mark.parametrize("text", ["1 nodes of 8", "we need 2 node", "1 accelerators", "3 run"])
def test_a_count_and_its_noun_must_agree(text):
    assert rules(f"<p>{text}</p>") == {"plural"}


@pytest.mark.parametrize(
    "text",
    ["1 node of 8", "an 8-accelerator server", "2 nodes", "H100 server", "a 21-day deadline"],
)
def test_counts_that_agree_pass(text):
    assert rules(f"<p>{text}</p>") == set()


@pytest.mark.parametrize(
    "text",
    [
        "reads 0.314 MB/s",
        "Dataset size 0.012 TB",
        "about 0.00785 interruptions per run",
        "a checkpoint every 0.948 hours",
        "12,400 GB of checkpoints",
    ],
)
def test_units_the_reader_must_convert_are_found(text):
    assert rules(f"<p>{text}</p>") == {"unit"}


def test_a_share_written_as_a_bare_fraction_is_found_beside_its_label():
    row = "<table><tr><th>Annual growth</th><td>{}</td></tr></table>"
    assert rules(row.format("0.5")) == {"unit"}
    assert rules(row.format("50 %")) == set()


@pytest.mark.parametrize(
    "text", ["reads 2.09 MB/s", "12 GB", "$0.194 per kWh", "about one interruption every 127 runs"]
)
def test_readable_units_pass(text):
    assert rules(f"<p>{text}</p>") == set()


def test_a_chart_label_is_held_to_the_same_rules():
    svg = '<svg width="200" height="40"><text x="5" y="20">0.00209 GB/s</text></svg>'
    assert findings(svg) == [("unit", "0.00209 GB/s")]


def test_a_printed_chart_label_is_held_to_the_same_rules_once():
    # in the PDF a label is HTML text over the SVG: read as a chart label, not as the page's text
    chart = Chart(200, 40, "t", [Label(5, 20, "0.00209 GB/s", anchor="start")])
    stylesheet = '<link rel="stylesheet" href="/static/reports/proposal.css">'
    assert findings(f'{stylesheet}<div class="chart-figure">{chart.printed()}</div>') == [
        ("unit", "0.00209 GB/s")
    ]


def test_text_running_off_the_page_is_found():
    long_line = "word " * 60
    assert findings(f'<p style="white-space: nowrap">Kueue or {long_line}</p>')[0][0] == "off-page"
    assert rules(f"<p>Kueue or {long_line}</p>") == set()  # the same words, wrapped
    assert rules('<p style="margin-left: -30mm">rear-door heat exchangers advisable</p>') == {
        "off-page"
    }


def test_the_findings_are_told_to_staff_one_a_line_and_capped():
    html = "<html><body>" + "".join(f"<p>{n} node</p>" for n in range(2, 30)) + "</body></html>"
    found = html_to_pdf(html).findings
    text = describe_findings(found, limit=5)
    assert text.count("\n") == 6 and text.endswith(f"… and {len(found) - 5} more")
    assert text.startswith(
        f"The proposal failed its check ({len(found)} findings):\n"
        "page 1, a count and its noun disagree: \u201c2 node"
    )


# --- the arithmetic a reader re-does (issue 28) -------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # the 3-year cost: the year table's net beside the summary's headline
        (
            '<b data-figure="cost_total">$1.82 million</b>',
            '<td data-amount="cost_total">$1.81M</td>',
        ),
        ('<b data-figure="cost_total">$696,781</b>', '<td data-amount="cost_total">$696,782</td>'),
        # the accelerator count, the run time and the dataset size on two pages
        ('<span data-figure="gpus">312</span>', '<td data-amount="gpus">320 accelerators</td>'),
        ('<span data-amount="days">21 days</span>', '<td data-amount="days">24 days</td>'),
        ('<span data-amount="dataset">12.4 TB</span>', '<td data-amount="dataset">8,400 GB</td>'),
    ],
)
def test_one_figure_printed_on_two_pages_must_name_the_same_number(first, second):
    page_break = '<p style="break-before: page">Cost</p>'
    assert rules(f"<p>{first}</p>{page_break}<table><tr>{second}</tr></table>") == {"figure"}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            '<b data-figure="cost_total">$1.82 million</b>',
            '<td data-amount="cost_total">$1.82M</td>',
        ),
        # the same figure to the dollar rounds to the headline's $1.82 million
        (
            '<b data-figure="cost_total">$1.82 million</b>',
            '<td data-amount="cost_total">$1,815,234</td>',
        ),
        ('<span data-figure="gpus">1,024</span>', '<td data-amount="gpus">1,024 accelerators</td>'),
        ('<span data-amount="dataset">8 TB</span>', '<td data-amount="dataset">8,000 GB</td>'),
    ],
)
def test_one_figure_printed_at_two_precisions_agrees(first, second):
    assert rules(f"<p>{first}</p><table><tr>{second}</tr></table>") == set()


@pytest.mark.parametrize(
    ("headline", "likely"),
    [
        ("$1.82 million", "$2.10 million to $2.90 million"),
        ("$696,781", "$700,000 to $900,000"),
        ("21 days", "24–40 days"),
    ],
)
def test_a_likely_range_must_contain_its_headline(headline, likely):
    body = '<p><b data-figure="h">{}</b>, likely <span data-range-of="h">{}</span></p>'
    assert rules(body.format(headline, likely)) == {"range"}
    assert rules(body.format(headline, "$1.20 million to $2.90 million")) <= {"range"}
    inside = {"21 days": "14–40 days"}.get(headline, "$600,000 to $2.90 million")
    assert rules(body.format(headline, inside)) == set()


def _year_table(cells: list[list[str]], totals: list[str], total: str, headline: str) -> str:
    rows = "".join(
        f"<tr><th>Part {r}</th>"
        + "".join(
            f'<td data-addend="row-{r} year-{y}">{cell}</td>' for y, cell in enumerate(row[:-1])
        )
        + f'<td data-sum="row-{r}" data-addend="all">{row[-1]}</td></tr>'
        for r, row in enumerate(cells)
    )
    paid = "".join(
        f'<td data-sum="year-{y}" data-addend="paid">{t}</td>' for y, t in enumerate(totals)
    )
    return (
        f'<p>Cost <b data-figure="cost_total">{headline}</b></p><table>{rows}'
        f'<tr><th>Total paid</th>{paid}<td data-sum="paid all" data-amount="cost_total">'
        f"{total}</td></tr></table>"
    )


def test_a_year_table_must_add_up_to_its_totals_and_the_headline_as_printed():
    good = [["$600,000", "$600,000", "$1,200,000"], ["$205,234", "$10,000", "$215,234"]]
    assert (
        rules(_year_table(good, ["$805,234", "$610,000"], "$1,415,234", "$1.42 million")) == set()
    )
    # a row whose years do not make its total
    bad_row = [["$600,000", "$600,000", "$1,200,001"], ["$205,234", "$10,000", "$215,234"]]
    assert "sum" in rules(
        _year_table(bad_row, ["$805,234", "$610,000"], "$1,415,234", "$1.42 million")
    )
    # a year whose parts do not make its total paid
    assert "sum" in rules(
        _year_table(good, ["$805,235", "$610,000"], "$1,415,234", "$1.42 million")
    )
    # rounded to $10,000: the table's $1.41M beside the headline's $1.42 million
    coarse = [["$600,000", "$600,000", "$1.20M"], ["$210,000", "$10,000", "$210,000"]]
    assert rules(_year_table(coarse, ["$810,000", "$610,000"], "$1.41M", "$1.42 million")) == {
        "figure",
        "sum",
    }


def test_bill_lines_must_add_up_to_the_bill_total():
    bill = (
        '<table><tr><td data-addend="bill">{}</td></tr><tr><td data-addend="bill">$36,000</td></tr>'
        '<tr><td>included</td></tr><tr><td data-sum="bill">$696,781</td></tr></table>'
    )
    assert findings(bill.format("$660,782")) == [
        ("sum", "$660,782, $36,000 add up to 696,782.00, not $696,781")
    ]
    assert rules(bill.format("$660,781")) == set()


def test_a_network_bought_beside_words_saying_none_is_needed_is_a_contradiction():
    bill = (
        '<table><tr data-bought="network"><th>Network switches</th><td>InfiniBand NDR</td>'
        "<td>$36,000</td></tr></table>"
    )
    text = "<p>Network: No fast network: each run fits in one server</p>"
    assert rules(bill + text) == {"network"}
    assert rules(bill + "<p>Network: InfiniBand NDR, one non-blocking switch</p>") == set()
    assert rules(text) == set()  # nothing bought, nothing contradicted


def test_the_figures_are_read_from_the_tree_the_layout_parsed_not_parsed_again():
    """The checker takes the tagged figures and chart labels from WeasyPrint's element tree
    (issue 29: the HTML is not parsed a second time): given no HTML text, it still finds them."""
    from reports.document import lay_out
    from reports.proposal_check import check_proposal

    body = '<p><span data-figure="nodes">39</span></p><p><span data-figure="nodes">40</span></p>'
    svg = '<svg width="90" height="20"><title>t</title><text x="0" y="12">1 nodes</text></svg>'
    html = f"<html><head><meta charset='utf-8'></head><body>{body}{svg}</body></html>"
    found = {(f.rule, f.where, f.text) for f in check_proposal(html="", pages=lay_out(html).pages)}
    assert ("figure", "nodes", "39 vs 40") in found
    assert ("plural", "chart", "1 nodes") in found


def test_the_element_tree_reads_as_the_html_text_does_on_the_demo():
    from reports.check_html import parse_html, read_elements
    from reports.demo import demo_data
    from reports.document import lay_out, render_html
    from reports.proposal_check import _root_element

    html = render_html(demo_data())
    read = read_elements(_root_element(lay_out(html).pages))
    parsed = parse_html(html)
    assert read.chart_labels == parsed.chart_labels and len(read.chart_labels) > 20
    assert {tag: dict(keys) for tag, keys in read.tagged.items()} == {
        tag: dict(keys) for tag, keys in parsed.tagged.items()
    }
    assert read.tagged["data-figure"]["gpus"]
