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
from sizing.engine.vocabulary import LOCATION_RULES, RULES, in_sentence, net_words
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
    # Why no option is recommended, the engine's sentence ("" when one is): the rule that
    # leaves no priced option and what relaxing it costs, or the price we will quote.
    undecided: str = ""

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
        return CostHeadline(
            "", "", "", "", count_of(result.years, "year"), "", "", result.cost_undecided
        )
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


def rule_words(result: StoredResult, rule: str) -> str:
    """A rule that rules options out, in words; where it runs is named by the answer behind it
    ("only on premises", "a mix of a rented data centre and the cloud")."""
    place = result.cost_location_rule
    if rule == "location" and place in LOCATION_RULES:
        return LOCATION_RULES[place]
    return RULES.get(rule, rule)


def undecided_short(result: StoredResult) -> str:
    """Why nothing is recommended, in a few words for the staff list and the CSV ("" when an
    option is): "none allowed: only on premises rules out every priced option (cheapest
    $164K, GPU cloud, pay as you go)", "to quote: no cloud price to compare buying with"."""
    if result.recommended_cost is not None:
        return ""
    if result.cost_held_back:
        return "to quote: no cloud price to compare buying with"
    rules = result.cost_binding_rules
    cheapest = next((o for o in result.cost_options if o.key == result.cost_cheapest_overall), None)
    if rules and cheapest is not None and cheapest.net_usd is not None:
        return (
            f"none allowed: {', '.join(rule_words(result, r) for r in rules)} rules out every "
            f"priced option (cheapest {format_money_short(cheapest.net_usd)}, "
            f"{in_sentence(cheapest.label)})"
        )
    return "to quote: no public price"


def cost_line(result: StoredResult, *, short: bool = False) -> str:
    """The headline in one line, for the staff pages and the CSV: "$9.49 million over 3 years
    (likely $5.89 million to $15.90 million), GPU cloud, three-year reservation"; "$9.49M"
    when ``short``; when nothing is recommended, why (:func:`undecided_short`)."""
    best = result.recommended_cost
    if best is None or best.net_usd is None:
        return undecided_short(result)
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


def recurring_line(result: StoredResult) -> str:
    """Recurring work's cost of the recommended option per month and per run: "About $1,230 a
    month, or $284 a run (about 156 runs over 3 years)." ("" when the work is not given in
    runs a month, or nothing is recommended)."""
    found = result.cost_recurring
    if found is None or result.recommended_cost is None:
        return ""
    return (
        f"About {format_money(found['per_month_usd'])} a month, or "
        f"{format_money(found['per_run_usd'])} a run (about "
        f"{count_of(round(found['runs']), 'run')} over {count_of(result.years, 'year')})."
    )


def region_line(result: StoredResult) -> str:
    """Where the cloud options run and the basis of their prices: "Cloud options: a region in
    Germany (Frankfurt), as your data must stay there; priced at the worldwide median …"
    ("" without a residency answer that names a place)."""
    region = result.cloud_region
    if region is None:
        return ""
    line = f"Cloud options: a region in {region['place']} ({region['city']}), as your data must stay there"
    return line + (f"; {region['basis']}." if region["basis"] else ".")
