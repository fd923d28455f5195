"""What WeasyPrint works out from a style alone, remembered per style object.

A laid-out proposal has about 1,400 elements, each with its style, and WeasyPrint asks the same
questions of a style for every line and box of its element (reports.line_fonts,
reports.plain_backgrounds). The style is held beside its answer, so that its id is not reused
by another style while the answer is kept; everything is forgotten when :data:`MOST_KEPT`
styles are kept, so a long-lived worker never grows it without end.
"""

from collections.abc import Callable
from typing import Any

# Far more than one proposal's styles.
MOST_KEPT = 4096


def per_style(work_out: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``work_out(style)``, remembered per style object; ``.kept`` holds what is remembered and
    ``.works_out`` is ``work_out`` itself."""
    kept: dict[int, tuple[Any, Any]] = {}

    def remembered(style: Any) -> Any:
        found = kept.get(id(style))
        if found is not None and found[0] is style:
            return found[1]
        answer = work_out(style)
        if len(kept) >= MOST_KEPT:
            kept.clear()
        kept[id(style)] = (style, answer)
        return answer

    remembered.kept = kept  # type: ignore[attr-defined]
    remembered.works_out = work_out  # type: ignore[attr-defined]
    return remembered
