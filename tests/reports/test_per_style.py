"""What is worked out from a style is remembered per style object, and forgotten when full
(reports.per_style)."""

from reports import per_style as per_style_module
from reports.per_style import per_style


def test_each_style_is_worked_out_once():
    worked_out = []
    remembered = per_style(lambda style: worked_out.append(style) or len(worked_out))
    first, second = {"font": "a"}, {"font": "a"}  # equal, but two styles
    assert [remembered(first), remembered(second), remembered(first)] == [1, 2, 1]
    assert worked_out == [first, second]
    assert remembered.works_out(first) == 3  # the function itself, not remembered


def test_what_is_remembered_is_emptied_when_full(monkeypatch):
    monkeypatch.setattr(per_style_module, "MOST_KEPT", 3)
    worked_out = []
    remembered = per_style(lambda style: worked_out.append(style) or len(worked_out))
    styles = [{"n": n} for n in range(10)]  # distinct objects, as styles are
    answers = [remembered(style) for style in styles]
    assert answers == list(range(1, 11))
    assert 1 <= len(remembered.kept) <= 3
    assert remembered(styles[-1]) == 10  # still kept: not worked out again
    assert len(worked_out) == 10
