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
from sizing.engine.numbers import Money, format_count, format_percent, format_times
from sizing.engine.vocabulary import LOCATION_RULES, RULES, in_sentence, net_words
from sizing.stored_result import StoredResult
from sizing.words.estate import help_cost
from sizing.words.plural import count_of, noun_for


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
        return CostHeadline(
            "", "", "", "", count_of(result.years, "year"), "", "", result.cost_undecided
        )
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


def rule_words(result: StoredResult, rule: str) -> str:
    """A rule that rules options out, in words; where it runs is named by the answer behind it
    ("only on premises", "a mix of hardware of your own and the cloud")."""
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
            f"priced option (cheapest {money_of(result).short(cheapest.net_usd)}, "
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
        return money_of(result).short(best.net_usd)
    cost = cost_headline(result)
    likely = f" (likely {cost.range})" if cost.range else ""
    return f"{cost.amount} over {cost.years}{likely}, {cost.option}"


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
    """:class:`CostFigures` of the recommended option in the customer's currency, as every
    other surface shows it (:func:`money_of`); ``None`` figures when nothing is priced."""
    best = result.recommended_cost
    money = money_of(result)

    def whole(usd: float | None) -> int | None:
        return None if usd is None else round(money.local(usd))

    if best is None or best.net_usd is None:
        return CostFigures(None, None, None, money.currency, result.years)
    return CostFigures(
        net=whole(best.net_usd),
        low=whole(best.low_usd),
        high=whole(best.high_usd),
        currency=money.currency,
        years=result.years,
    )


def recurring_line(result: StoredResult) -> str:
    """Recurring work's cost of the recommended option per month and per run: "About $1,230 a
    month, or $284 a run (about 156 runs over 3 years)." ("" when the work is not given in
    runs a month, or nothing is recommended)."""
    found = result.cost_recurring
    if found is None or result.recommended_cost is None:
        return ""
    money = money_of(result)
    # on what they own with help rented beside it, each run's rent is inside the figures and
    # said so, never left for the reader to find (customer 5)
    helped = help_cost(result)
    over = count_of(result.years, "year")
    growth = _assumed(result, "roadmap.annual_growth")
    rate = _assumed(result, "roadmap.runs_per_month")
    if growth and rate:
        # the engine counts runs of today's size (cost.plan._recurring: the work over the
        # horizon over one run's), so growing work is many more of them than the runs a month
        # given: customer 2 read "about 170 runs over 3 years" beside "1 run a month"
        return (
            f"About {money(found['per_month_usd'])} a month, or "
            f"{money(found['per_run_usd'])} a run of today's size"
            f"{f' {helped}' if helped else ''}: {_runs_a_month(rate)}, growing "
            f"{format_percent(growth)} a year, come to about "
            f"{format_count(round(found['runs']))} such {noun_for(round(found['runs']), 'run')} "
            f"over {over}."
        )
    return (
        f"About {money(found['per_month_usd'])} a month, or "
        f"{money(found['per_run_usd'])} a run{f' {helped}' if helped else ''} (about "
        f"{count_of(round(found['runs']), 'run')} over {over})."
    )


def _assumed(result: StoredResult, key: str) -> float | None:
    """The number the sizing used for input ``key`` (None when it used none)."""
    found = next((a.value for a in result.assumptions if a.key == key), None)
    return float(found) if isinstance(found, int | float) else None


def _runs_a_month(runs: float) -> str:
    """ "1 run a month", "20 runs a month"; a rate below one as "about one run every 3
    months" (as the engine's reason for the option says it)."""
    if runs >= 1 and float(runs).is_integer():
        return f"{count_of(runs, 'run')} a month"
    return format_times(runs, "run", "month")


def region_line(result: StoredResult) -> str:
    """Where the cloud options run and the basis of their prices: "Cloud options: a region in
    Germany (Frankfurt), as your data must stay there; priced at the worldwide median …"
    ("" without a residency answer that names a place)."""
    region = result.cloud_region
    if region is None:
        return ""
    line = f"Cloud options: a region in {region['place']} ({region['city']}), as your data must stay there"
    return line + (f"; {region['basis']}." if region["basis"] else ".")
