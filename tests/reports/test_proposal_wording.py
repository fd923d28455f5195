"""What the proposal says, read back from the rendered demo and scenarios: one consistent
statement per figure, in the customer's words."""

from datetime import date
from functools import cache

from reports.demo import demo_answers, demo_data
from reports.document import render_data
from tests.reports.conftest import pdf_text, squash

TODAY = date(2026, 12, 2)


@cache
def text(scenario: str = "") -> str:
    """The proposal of one demo scenario as plain text, rendered once per test session."""
    return pdf_text(render_data(demo_data(answers=demo_answers(scenario), today=TODAY)).pdf)


def test_the_network_says_one_thing_about_the_bandwidth_a_pcie_slot_caps():
    # the demo's plan would use 566 Gb/s per accelerator; a PCIe Gen5 slot carries 400
    page = squash(text())
    assert squash("your speed is enough") not in page
    assert squash("Network bandwidth each server needs") not in page
    assert squash("so the plan uses 400 Gb/s and communication takes about") in page
    assert squash("of each step instead.") in page
