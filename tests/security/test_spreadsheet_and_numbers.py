"""Findings (low): a fullwidth "＝" escaped the CSV guard, and "1e-400" was answered "not a
range"."""

import pytest

from questionnaire.quantities import Kind, QuantityError, parse_quantity
from staff.export import safe_cell


@pytest.mark.parametrize(
    "text", ["＝1+1", '＝HYPERLINK("http://x")', "＋1+1", "－1+1", "＠SUM(A1)"]
)
def test_fullwidth_formula_starts_are_defused_like_ascii_ones(text):
    assert safe_cell(text).startswith("'")


def test_a_tiny_exponent_is_read_as_a_number_not_a_range():
    with pytest.raises(QuantityError) as problem:
        parse_quantity("1e-400", Kind.COUNT, what="Total parameters")
    assert "not a range" not in str(problem.value)
    with pytest.raises(QuantityError, match="not a range"):
        parse_quantity("8-16", Kind.COUNT, what="Total parameters")
