"""A plan within one server buys (or rents) one of its own size, and every page says so: the
summary row, the plan, the bill, the cluster's figures. A reader of customer 6's proposal read
"One run uses … in 1 server of 8" beside "(1 server of 4) bought", and customer 8's
"in 1 server of 8" beside "a cloud instance with 1 × H100"."""

import re
from functools import cache

from reports.bill import bill_of_materials
from reports.demo import demo_data
from reports.document import render_data
from sizing.public import read_counts, read_result
from tests.reports.conftest import pdf_text
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of

# "1 server of 4", "2 nodes of 8", "Accelerators per server 8": the size of the servers a page names
# (the cluster's figure, not the row of "What we assumed" that gives the engine's default server
# it was sized from, "Accelerators per server 8 The usual size of a server; this plan needs ...")
_SERVER_SIZE = re.compile(
    r"\b\d[\d,]* (?:servers?|nodes?|cloud instances?) of (\d+)\b"
    r"|Accelerators per (?:server|node) (\d+)\b(?! (?:Sets|The usual) size)"
)


@cache
def _proposal(story: str) -> tuple[object, str]:
    data = demo_data(answers=answers_of(STORIES[story]), today=TODAY)
    rendered = render_data(data)
    assert not rendered.findings, rendered.findings
    return read_result(data.result), " ".join(pdf_text(rendered.pdf).split())


def _server_sizes(text: str) -> set[int]:
    return {int(a or b) for a, b in _SERVER_SIZE.findall(text)}


def test_an_owned_plan_within_one_server_names_the_server_the_bill_buys_on_every_page():
    result, text = _proposal("6 Frankfurt bank adapters")
    counts = read_counts(result)
    assert counts.owned and counts.part_of_a_server
    servers = bill_of_materials(result)["lines"][0]
    held = int(servers["what"].split(" ×")[0])
    assert servers["quantity"] == "1" and held < counts.per_node
    assert f"{held} × {counts.accelerator} (one server) bought" in text
    assert _server_sizes(text) == {held}, _server_sizes(text)
    assert f"server of {counts.per_node}" not in text


def test_a_cloud_plan_within_one_server_names_the_instance_it_rents_on_every_page():
    result, text = _proposal("8 game studio tickets")
    counts = read_counts(result)
    assert not counts.owned and counts.cluster == 1
    assert "a cloud instance with 1 × " in text
    assert "One run uses 1 accelerator in one cloud instance" in text
    assert _server_sizes(text) == {1}, _server_sizes(text)
    assert f"server of {counts.per_node}" not in text


def test_a_plan_in_one_server_says_so_as_a_person_would():
    # customer 8 read "Network: None needed: the run fits in one server" and "1 node of 1";
    # customer 6 "1 server of 4" and "1 node of 4"
    for story, machine in (
        ("8 game studio tickets", "one cloud instance"),
        ("6 Frankfurt bank adapters", "one server"),
    ):
        _, text = _proposal(story)
        assert "None needed" not in text
        assert f"Network No network between servers needed: everything runs in {machine}" in text
        assert not re.search(r"\b1 (?:nodes?|servers?|cloud instances?) of \d", text), story


def test_the_host_figures_name_the_server_they_are_for():
    # customer 6's 4-accelerator server read "32 CPU cores and 768 GB of RAM in each node"
    # beside talk of 8-way servers: the figures say which server and the rule behind them
    result, text = _proposal("6 Frankfurt bank adapters")
    hosts = result.section("hosts")
    assert hosts["cpu_cores_per_node"] == 8 * read_counts(result).server_size
    assert (
        "32 CPU cores and 768 GB of RAM in the server, for its 4 accelerators (8 cores each, "
        "and RAM at least twice their memory, rounded up to a usual size)"
    ) in text


def test_the_usual_server_size_assumed_says_the_plan_needs_only_part_of_one():
    # customer 6 read "Accelerators per server 8 ... our usual assumption" beside "(one server)
    # bought" of 4; customer 8 the same beside a cloud instance of 1
    for story, machine in (
        ("6 Frankfurt bank adapters", "server"),
        ("8 game studio tickets", "cloud instance"),
    ):
        result, text = _proposal(story)
        size = read_counts(result).server_size
        accelerators = "1 accelerator" if size == 1 else f"{size} accelerators"
        assert (
            f"this plan needs only {accelerators}, so it has one {machine} of {size}. Our usual"
            in text
        ), story
