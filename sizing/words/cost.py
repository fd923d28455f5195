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
from datetime import date, timedelta

from sizing.engine.assumptions import ASSUMPTIONS
from sizing.engine.numbers import Money
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


def money_of(result: StoredResult) -> Money:
    """The one formatter of every amount a surface shows for ``result`` (the PDF, the review
    page, the staff pages, the CSV): its customer's currency at the dated rate, so a figure is
    never in dollars on one page and in kronor on another."""
    return result.money


def exchange_note(result: StoredResult) -> str:
    """ "Amounts in Swedish kronor (SEK) at 1 USD = SEK 9.05, the European Central Bank's
    reference rates of 6 February 2026; prices published in US dollars are converted at
    that rate." — "" for a result in US dollars."""
    view = result.currency
    code = str(view.get("code") or "USD")
    if code == "USD" or not view.get("per_usd"):
        return ""
    rate = Money(code, float(view["per_usd"])).rate(1.0)
    place = f" for {view['place']}" if view.get("place") else ""
    return (
        f"Amounts are in {code}{place}, at 1 USD = {rate} (the European Central Bank's "
        f"reference rates of {_day(str(view.get('as_of') or ''))}); prices published in US "
        "dollars or euros are converted at those rates."
    )


def prices_hold_until(issued_on: date) -> date:
    """The last day a proposal dated ``issued_on`` holds its prices: its date plus the one
    setting ``price_validity_days`` (:mod:`sizing.engine.assumptions`)."""
    return issued_on + timedelta(days=int(ASSUMPTIONS["price_validity_days"].value))


def validity_words(issued_on: date) -> str:
    """ "3 January 2027": the date the cover, the summary, the cost page and the staff pages
    give as the end of the prices' validity."""
    until = prices_hold_until(issued_on)
    return f"{until.day} {until:%B %Y}"


def validity_sentence(issued_on: date) -> str:
    """ "Prices hold until 3 January 2027, 30 days from this proposal's date." """
    days = int(ASSUMPTIONS["price_validity_days"].value)
    return (
        f"Prices hold until {validity_words(issued_on)}, {count_of(days, 'day')} from this "
        "proposal's date."
    )


def _day(iso: str) -> str:
    """ "6 February 2026" for "2026-02-06"; as given when it is not a date."""
    try:
        day = date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{day.day} {day:%B %Y}"


def cost_headline(result: StoredResult) -> CostHeadline:
    """:class:`CostHeadline` of the recommended option of ``result``."""
    money = money_of(result)
    best = result.recommended_cost
    if best is None or best.net_usd is None:
        return CostHeadline("", "", "", "", count_of(result.years, "year"), "", "")
    owns = bool(best.residual_value_usd)
    return CostHeadline(
        option=best.label,
        amount=money(best.net_usd),
        low=money(best.low_usd) if best.low_usd is not None else "",
        high=money(best.high_usd) if best.high_usd is not None else "",
        years=count_of(result.years, "year"),
        nets=net_words(result.years) if owns else "",
        paid=money(best.total_usd) if owns else "",
    )


def cost_line(result: StoredResult, *, short: bool = False) -> str:
    """The headline in one line, for the staff pages and the CSV: "$9.49 million over 3 years
    (likely $5.89 million to $15.90 million), GPU cloud, three-year reservation"; "$9.49M"
    when ``short``; "" when nothing is priced."""
    best = result.recommended_cost
    if best is None or best.net_usd is None:
        return ""
    if short:
        return money_of(result).short(best.net_usd)
    cost = cost_headline(result)
    likely = f" (likely {cost.range})" if cost.range else ""
    return f"{cost.amount} over {cost.years}{likely}, {cost.option}"
