"""What is worked out from a style is remembered per style object, and forgotten when full
(reports.per_style)."""

from weasyprint.layout import background as weasyprint_background
from weasyprint.layout import inline as weasyprint_inline
from weasyprint.text import line_break as weasyprint_line_break

from reports import per_style as per_style_module
from reports.document import html_to_pdf
from reports.per_style import forget_styles, kept_store, per_style


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


def test_forgetting_empties_every_store():
    remembered = per_style(lambda style: 1)
    other = kept_store()
    remembered({"font": "a"})
    other["key"] = "answer"
    forget_styles()
    assert remembered.kept == {} and other == {}


def test_a_written_proposal_leaves_none_of_its_styles_remembered():
    html_to_pdf("<html lang='en'><title>T</title><p>Eight <strong>servers</strong></p></html>")
    stores = (
        weasyprint_inline.resolve_percentages.kept,
        weasyprint_inline.strut.kept,
        weasyprint_line_break.get_font_description.kept,
        weasyprint_background.layout_box_backgrounds.decided,
    )
    assert [len(store) for store in stores] == [0, 0, 0, 0]
