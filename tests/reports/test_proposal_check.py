"""reports/proposal_check.py: each rule catches its defect on a small crafted page, and lets the
same page through once the defect is fixed."""

import pytest

from reports.document import html_to_pdf
from reports.proposal_check import RULES, describe_findings


def findings(body: str) -> list[tuple[str, str]]:
    """(rule, text) of each finding on a page with ``body``, laid out like a proposal."""
    html = f"<html><head><meta charset='utf-8'></head><body>{body}</body></html>"
    return [(f.rule, f.text) for f in html_to_pdf(html).findings]


def rules(body: str) -> set[str]:
    return {rule for rule, _text in findings(body)}


def test_every_rule_is_described():
    assert set(RULES) == {"figure", "machine", "plural", "unit", "off-page"}


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
