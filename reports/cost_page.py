"""The proposal's cost page as plain rows: the recommended option with its range and euro view,
capital against running cost, what moves the total, every option (ruled out or not priced
included), and what the purchase buys.

Every figure comes from the engine's result; labels from the one vocabulary, numbers from the
one formatter.
"""

import math
from collections.abc import Mapping
from typing import Any

from django.utils.safestring import SafeString

from reports import charts
from reports.summary import owned_by_year, residual_value
from sizing.public import (
    CONSTANTS,
    COST_PARTS,
    NO_VALUE,
    USAGE_KEYS,
    CostOption,
    Money,
    StoredResult,
    assumption_value,
    cost_headline,
    count_of,
    describe_price,
    exchange_note,
    format_count,
    format_percent,
    format_small_percent,
    format_table_money,
    money_of,
    net_words,
    noun_for,
    recurring_line,
    region_line,
    round_to_add_up,
    rule_words,
    table_money_step,
)


def _status(result: StoredResult, option: CostOption) -> str:
    money = money_of(result)
    """Why an option is or is not the recommendation, in a few words."""
    best = result.recommended_cost
    if option.recommended:
        return "recommended"
    if option.total_usd is None:
        return f"not priced: {option.not_priced}" if option.not_priced else "not priced"
    if option.ruled_out_by:
        return "ruled out by your rules: " + "; ".join(
            rule_words(result, r) for r in option.ruled_out_by
        )
    if option.key == result.cost_held_back:
        return "not recommended: no cloud price to compare it with; we will quote one"
    if best is None or best.net_usd is None or option.net_usd is None:
        return ""
    if abs(option.net_usd - best.net_usd) < 1:  # a hybrid whose base is the whole cluster
        return "the same figure" + (f": {option.basis}" if option.key == "hybrid" else "")
    if option.net_usd > best.net_usd:
        more = f"{money.short(option.net_usd - best.net_usd)} more"
        more = f"{more} (likely ranges overlap)" if overlap(option, best) else more
        return f"{more}; {term}" if (term := _term_note(result, option)) else more
    return _term_note(result, option)


def _term_note(result: StoredResult, option: CostOption) -> str:
    """For a reservation when no runs are planned after the project's: the whole term is
    paid, and how little of it the planned runs use ("" otherwise)."""
    share = option.commitment_used_share
    if result.usage_known or share is None or share >= 1:
        return ""
    term = (
        "year" if option.commitment_years == 1 else count_of(option.commitment_years or 0, "year")
    )
    return (
        f"paid for the whole {term}, of which your planned runs use {format_small_percent(share)}: "
        "worth it only if you use it afterwards"
    )


def overlap(a: CostOption, b: CostOption) -> bool:
    """Whether two options' likely ranges of the net figure overlap: then neither is surely
    the cheaper (the engine's sentences say the same, ``cost.explain._overlap``)."""
    if a.low_usd is None or a.high_usd is None or b.low_usd is None or b.high_usd is None:
        return False
    return a.low_usd <= b.high_usd and b.low_usd <= a.high_usd


def _options(result: StoredResult) -> list[dict[str, Any]]:
    money = money_of(result)
    return [
        {
            "label": option.label,
            "recommended": option.recommended,
            "priced": option.total_usd is not None,
            "total": money.short(option.net_usd),
            "range": (
                f"{money.short(option.low_usd)} – {money.short(option.high_usd)}"
                if option.total_usd is not None
                else NO_VALUE
            ),
            "up_front": money.short(option.capex_usd),
            "status": _status(result, option),
        }
        for option in result.all_cost_options
    ]


# The most years the year table lays across the page, figures to the dollar [years].
YEARS_ACROSS = 4


def _by_year(best: CostOption, years_planned: int, money: Money) -> dict[str, Any]:
    """The recommended option's cost by part (rows) and year (columns), with the totals: what
    the CFO budgets each year; then, for hardware bought, what it is still worth at the end
    and the net figure every option is compared by. Parts the option does not have are left
    out; before engine 2026.12.8 (no parts stored) only the yearly totals are shown.

    Printed to the dollar and rounded so that the table adds up as printed, to the headline's
    figures: the rows' totals add up to the total paid rounded to the dollar, each row's years
    to its total (largest remainder, :func:`~sizing.engine.numbers.round_to_add_up`), each
    year's total is the sum of its column, and the net is the headline's net figure, so what
    is still worth is the difference. A flat cost stays flat (rounded to the headline's step
    instead, $15,000 a year would read $20,000, $20,000, $10,000)."""
    years = len(best.by_year_usd)
    # every figure in the customer's currency first, then rounded to add up in it
    parts = [
        (label, tuple(money.local(a) for a in amounts))
        for part, label in COST_PARTS.items()
        if (amounts := best.parts_by_year_usd.get(part)) and any(amounts)
    ]
    paid = money.local(best.total_usd)
    step = table_money_step(paid)

    def show(value: float) -> str:
        return format_table_money(value, step, currency=money.currency)

    rows, shown = [], []
    cells_of = _cells([a for _l, a in parts], paid, step)
    for (label, amounts), cells in zip(parts, cells_of, strict=True):
        shown.append(cells)
        rows.append(
            {
                "label": label,
                "years": [show(c) if a else NO_VALUE for a, c in zip(amounts, cells, strict=True)],
                "total": show(sum(cells)),
            }
        )
    if not shown:  # no parts stored: the yearly totals alone
        shown.append(round_to_add_up([money.local(a) for a in best.by_year_usd], step, total=paid))
    totals = [sum(column) for column in zip(*shown, strict=True)]
    total = sum(totals)
    net_usd = best.net_usd if best.net_usd is not None else best.total_usd
    net = round(money.local(net_usd) / step) * step
    labels = [f"Year {year}" for year in range(1, years + 1)]
    return {
        "years": labels,
        "rows": rows,
        # a long plan reads down the page, a year a row: its figures to the dollar would not
        # fit across it
        "down": years > YEARS_ACROSS,
        "by_year": [
            {
                "label": label,
                "parts": [row["years"][y] for row in rows],
                "total": show(totals[y]),
            }
            for y, label in enumerate(labels)
        ],
        "totals": [show(a) for a in totals],
        "total": show(total),
        "residual": show(net - total) if best.residual_value_usd else "",
        "residual_label": f"Still worth at the end of year {years_planned}",
        "net": show(net),
        "net_label": f"Net over {count_of(years_planned, 'year')}",
    }


def _cells(
    parts: list[tuple[float, ...]], paid: float, step: float = 1.0
) -> list[tuple[float, ...]]:
    """Each part's years to the dollar, adding up to the option's total to the dollar: a flat
    part (the same each year) keeps the same figure each year, and the dollars rounding leaves
    over go to the parts that are not flat; when they cannot take them all, or every part is
    flat, every part shares them (a dollar's difference, never a trend)."""
    target = round(paid / step) * step
    flat = [len(set(amounts)) == 1 for amounts in parts]
    for keep_flat in (True, False):
        kept = {
            i: tuple(float(round(a / step) * step) for a in parts[i])
            for i, is_flat in enumerate(flat)
            if is_flat and keep_flat
        }
        rest = [i for i in range(len(parts)) if i not in kept]
        left = paid - sum(sum(cells) for cells in kept.values())
        totals = round_to_add_up([sum(parts[i]) for i in rest], step, total=left)
        for i, total in zip(rest, totals, strict=True):
            kept[i] = round_to_add_up(parts[i], step, total=total)
        cells = [kept[i] for i in range(len(parts))]
        if rest and math.isclose(sum(map(sum, cells)), target):
            break
    return cells


def _purchases_note(result: StoredResult, best: CostOption) -> str:
    """When the owned cluster grows: which years buy more accelerators ("" otherwise)."""
    owned = owned_by_year(result) if best.capex_usd else ()
    grown = [
        f"year {year} buys {format_count(more)} more {noun_for(more, 'accelerator')}"
        for year in range(2, len(owned) + 1)
        if (more := owned[year - 1] - owned[year - 2]) > 0
    ]
    if not grown:
        return ""
    return f"Year 1 buys {count_of(owned[0], 'accelerator')}; " + "; ".join(grown) + "."


def _sensitivity(result: StoredResult) -> list[dict[str, str]]:
    money = money_of(result)
    rows = []
    for item in result.cost_sensitivity:
        unit = str(item.get("unit") or "")
        key = str(item.get("price") or "")
        flips = [
            result.option_label(str(item.get(end)))
            for end in ("recommended_at_low", "recommended_at_high")
            if item.get(end) and item.get(end) != result.recommended_option
        ]
        rows.append(
            {
                "label": CONSTANTS.get(key, key),
                "range": f"{describe_price(float(item['low_value']), unit, money)} to "
                f"{describe_price(float(item['high_value']), unit, money)}",
                "at_low": money(item.get("total_low_usd")),
                "at_high": money(item.get("total_high_usd")),
                "note": f"then {flips[0].lower()} is cheaper" if flips else "",
            }
        )
    return rows


def _sensitivity_note(result: StoredResult) -> str:
    """The rule behind "What moves the total most", said once under the table: how far the
    customer's own plan is moved, and that small swings are left out (cost_sensitivity)."""
    if not result.cost_sensitivity:
        return ""
    share = format_percent(assumption_value("usage_swing_share"))
    least = format_percent(assumption_value("sensitivity_min_share"))
    plan = any(str(item.get("price")) in USAGE_KEYS for item in result.cost_sensitivity)
    words = (
        f"Your own growth and runs a month are moved {share} below and above your answer, and "
        "each price to the low and high end of its published range, one at a time"
        if plan
        else "Each price is moved to the low and high end of its published range, one at a time"
    )
    helped = (
        " The accelerators rented beside yours are priced at the cloud's price per "
        "accelerator-hour, so their rent moves with it."
        if _rents_help(result) and any(_cloud_price(item) for item in result.cost_sensitivity)
        else ""
    )
    return f"{words}; anything that moves the total by less than {least} is not listed.{helped}"


def _rents_help(result: StoredResult) -> bool:
    """Whether the plan rents help beside the accelerators the customer owns, for every run
    (inside the owned option's total)."""
    return bool(result.estate and result.estate.add == "rent" and result.estate.add_count)


def _cloud_price(item: Mapping[str, Any]) -> bool:
    """Whether a row of the table moves the on-demand cloud price the help is rented at."""
    return str(item.get("price")) in ("gpu_cloud", "large_cloud")


def _nets(result: StoredResult) -> bool:
    """Whether any priced option's net figure subtracts a value still on the books."""
    return any(o.residual_value_usd for o in result.cost_options)


def cost_page(result: StoredResult) -> dict[str, Any]:
    """Everything the cost page shows, as words and formatted figures."""
    best = result.recommended_cost
    money = money_of(result)
    by_year = _by_year(best, result.years, money) if best else {}
    headline = cost_headline(result)  # the summary's figure and range, said the same way
    return {
        "priced": best is not None,
        "label": best.label if best else "",
        "total": headline.amount or NO_VALUE,
        # what the figures compared net, said once for the whole page ("" when nothing is owned)
        "net_words": net_words(result.years) if _nets(result) else "",
        # the same, for the recommended option's own figure ("" when it owns nothing)
        "best_net_words": headline.nets,
        "range": headline.range or NO_VALUE,
        "euro": exchange_note(result),
        "by_year": by_year,
        "purchases_note": _purchases_note(result, best) if best else "",
        "residual": residual_value(result, best),
        "capex": money(best.capex_usd) if best and best.capex_usd else "",
        "running": money(best.running_usd) if best else "",
        "rents_peaks": bool(best and best.key == "hybrid"),  # owns a base, rents the rest
        # rents help beside the accelerators they own for every run (inside the total)
        "rents_help": bool(best) and _rents_help(result),
        "undecided": headline.undecided,  # why nothing is recommended ("" when an option is)
        "recurring": recurring_line(result),  # per month and per run, for recurring work
        "region": region_line(result),  # where the cloud options run, and their price basis
        "owned_estate": result.on_owned_estate,  # runs on what they own: running cost only
        "sensitivity": _sensitivity(result),
        "sensitivity_note": _sensitivity_note(result),
        "options": _options(result),
        "chart": cost_chart(result),
    }


def cost_chart(result: StoredResult) -> SafeString:
    """Each priced option's net figure and likely range, the recommended one in the accent
    colour and those the customer's rules leave out grey (the review and confirmation pages
    show the same chart)."""
    money = money_of(result)
    return charts.cost_range_chart(
        [
            charts.RangeBar(
                label=o.label,
                total=money.local(o.net_usd) if o.net_usd is not None else None,
                low=money.local(o.low_usd) if o.low_usd is not None else None,
                high=money.local(o.high_usd) if o.high_usd is not None else None,
                state="recommended" if o.recommended else "ruled_out" if o.ruled_out_by else "",
            )
            for o in result.all_cost_options
            if o.total_usd is not None
        ],
        currency=money.currency,
    )
