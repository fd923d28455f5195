"""The recommended option's cost as every surface states it: one headline and its likely range,
always of the same measure.

The engine ranks and compares options by their net figure (``net_usd``: what is paid over the
plan less what owned hardware is still worth at its end) and gives the likely range of that
figure (``range_usd``). So the headline is the net figure, the range is its range, and the
total paid (larger when hardware is bought) is said beside them as what it is, never as the
headline of a range it does not belong to.
"""

from __future__ import annotations

from dataclasses import dataclass

from sizing.engine.numbers import format_money, format_money_line, format_money_short
from sizing.engine.vocabulary import net_words
from sizing.stored_result import StoredResult
from sizing.words.plural import count_of


@dataclass(frozen=True)
class CostHeadline:
    """The recommended option's cost in words ("" fields when nothing is priced)."""

    option: str  # "Buy, in your own data centre"
    amount: str  # "$17.77 million": the net figure
    low: str  # "$12.96 million": the likely range of the same net figure
    high: str
    years: str  # "3 years"
    nets: str  # "after subtracting what the hardware is still worth at the end of year 3"
    paid: str  # "$26.08 million": paid over the plan, when it differs from the net figure

    @property
    def priced(self) -> bool:
        return bool(self.amount)

    @property
    def range(self) -> str:
        """ "$12.96 million to $22.45 million"."""
        return f"{self.low} to {self.high}" if self.low and self.high else ""

    @property
    def sentence(self) -> str:
        """ "about $17.77 million over 3 years after subtracting what the hardware is still
        worth at the end of year 3, likely $12.96 million to $22.45 million"."""
        if not self.priced:
            return ""
        text = f"about {self.amount} over {self.years}"
        if self.nets:
            text += f" {self.nets}"
        return text + (f", likely {self.range}" if self.range else "")


def cost_headline(result: StoredResult) -> CostHeadline:
    """:class:`CostHeadline` of the recommended option of ``result``."""
    best = result.recommended_cost
    if best is None or best.net_usd is None:
        return CostHeadline("", "", "", "", count_of(result.years, "year"), "", "")
    owns = bool(best.residual_value_usd)
    return CostHeadline(
        option=best.label,
        # a few dollars (one short run priced) read "under $10", not "$6 over 3 years"
        amount=format_money_line(best.net_usd),
        low=format_money(best.low_usd) if best.low_usd is not None else "",
        high=format_money(best.high_usd) if best.high_usd is not None else "",
        years=count_of(result.years, "year"),
        nets=net_words(result.years) if owns else "",
        paid=format_money(best.total_usd) if owns else "",
    )


def cost_line(result: StoredResult, *, short: bool = False) -> str:
    """The headline in one line, for the staff pages and the CSV: "$9.49 million over 3 years
    (likely $5.89 million to $15.90 million), GPU cloud, three-year reservation"; "$9.49M"
    when ``short``; "" when nothing is priced."""
    best = result.recommended_cost
    if best is None or best.net_usd is None:
        return ""
    if short:
        return format_money_short(best.net_usd)
    cost = cost_headline(result)
    likely = f" (likely {cost.range})" if cost.range else ""
    return f"{cost.amount} over {cost.years}{likely}, {cost.option}"


# The engine prices every option in US dollars (``cost.<option>.*_usd``).
RESULT_CURRENCY = "USD"


@dataclass(frozen=True)
class CostFigures:
    """The recommended option's cost as numbers, for a spreadsheet: the same net figure and
    likely range as :class:`CostHeadline`, rounded to whole units of ``currency``."""

    net: int | None
    low: int | None
    high: int | None
    currency: str
    years: int


def cost_figures(result: StoredResult) -> CostFigures:
    """:class:`CostFigures` of the recommended option (``None`` figures when nothing is
    priced)."""
    best = result.recommended_cost

    def whole(value: float | None) -> int | None:
        return None if value is None else round(value)

    if best is None or best.net_usd is None:
        return CostFigures(None, None, None, RESULT_CURRENCY, result.years)
    return CostFigures(
        net=whole(best.net_usd),
        low=whole(best.low_usd),
        high=whole(best.high_usd),
        currency=RESULT_CURRENCY,
        years=result.years,
    )
