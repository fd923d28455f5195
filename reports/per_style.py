"""What WeasyPrint works out from a style alone, remembered per style object.

A laid-out proposal has about 1,400 elements, each with its style, and WeasyPrint asks the same
questions of a style for every line and box of its element (reports.line_fonts,
reports.plain_backgrounds, and reports.inline_lengths per containing block too). The style is
held beside its answer, so that its id is not reused by another style while the answer is kept.
A style lives as long as its proposal's layout, so :func:`forget_styles` empties every store
once a proposal is written (``reports.document``): the 2,500 styles of the demo would otherwise
stay in memory until the next render (3 MB). A store is also emptied when it holds
:data:`MOST_KEPT` answers, for layouts that are never written (a benchmark's, a test's).
"""

from collections.abc import Callable
from typing import Any

# Far more than one proposal's styles.
MOST_KEPT = 4096

# Every store of remembered answers (forget_styles empties them).
_STORES: list[dict[Any, Any]] = []


def kept_store() -> dict[Any, Any]:
    """A new store of answers, emptied by :func:`forget_styles`."""
    store: dict[Any, Any] = {}
    _STORES.append(store)
    return store


def forget_styles() -> None:
    """Forget every remembered answer: the styles they were for belong to a finished layout."""
    for store in _STORES:
        store.clear()


def per_style(work_out: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``work_out(style)``, remembered per style object; ``.kept`` holds what is remembered and
    ``.works_out`` is ``work_out`` itself."""
    kept = kept_store()

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
