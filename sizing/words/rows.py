"""The proposal's tables in words: what we assumed (and where from), the prices and sources,
the risks with what lowers them, why this accelerator and which were left out.

Who set each value comes in as plain data (``sources``: ``sizing.words.provenance``), so a row
never says "you asked for" of a value our engineer chose.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from sizing.engine.cost.price_set import dated_note
from sizing.engine.numbers import format_count
from sizing.engine.vocabulary import REGIONS, SOURCES, describe_value, input_term
from sizing.stored_result import StoredResult
from sizing.words.counts import read_counts
from sizing.words.durations import run_time, run_time_range
from sizing.words.owned_servers import owned_run_words
from sizing.words.plural import count_of
from sizing.words.provenance import Setter, accelerator_by, the_deadline


def assumption_rows(result: StoredResult, sources: dict[str, str]) -> list[dict[str, Any]]:
    """Each value the engine assumed (not the customer's own answers, which have their section),
    marked where the customer told us they were not sure, those first, then those of a set-up
    they left to us ("we chose it for you")."""
    rows = []
    one_server = (result.nodes or 0) <= 1
    counts = read_counts(result)
    for item in result.assumptions:
        # The customer's answers are told back in their area; engine constants go to the
        # method appendix; prices have their own table.
        if item.provided_by in ("customer", "default") or item.key.startswith("prices."):
            continue
        rationale = item.rationale
        if one_server and item.key.startswith("network."):
            # customer 8 read "Network between servers: InfiniBand ... Sets the network between
            # servers" beside "No network between servers needed"
            rationale = (
                "Not used by this plan: everything runs in one server. It matters only if the "
                "work grows beyond one server."
            )
        if item.key == "hardware.gpus_per_node" and counts.server_size < counts.per_node:
            # customer 6 read "Accelerators per server 8" here beside "(one server) bought" of 4
            machine = "cloud instance" if counts.decided and not counts.owned else "server"
            rationale = (
                f"The usual size of a server; this plan needs only "
                f"{count_of(counts.server_size, 'accelerator')}, so it has one {machine} of "
                f"{format_count(counts.server_size)}"
            )
        rows.append(
            {
                "key": item.key,
                "label": input_term(item.key).label,
                "value": describe_value(item.key, item.value, engine_unit=item.unit),
                "source": _source(item.source, sources.get(item.key)),
                "rationale": rationale,
                "not_sure": sources.get(item.key) in ("not_sure", "unusable"),
                "unusable": sources.get(item.key) == "unusable",
                "delegated": sources.get(item.key) == "delegated",
            }
        )
    rows = _model_shape_in_one_row(rows)
    rows.sort(key=lambda row: (not row["not_sure"], not row["delegated"]))
    return rows


def _source(source: str, given: str | None) -> str:
    """An assumption's source; "you told us you have no preference" where that is why the
    engine chose (keeping what it chose: "… : accelerators of every maker are compared")."""
    if given == "unread":  # "we read your roadmap ... we assumed: our usual assumption"
        return f"{SOURCES['unread']} {source}"
    if given != "no_preference":
        return source
    detail = source.partition(": ")[2] if source.startswith("our usual assumption") else ""
    return SOURCES["no_preference"] + (f": {detail}" if detail else "")


_SHAPE = (
    "model.layers",
    "model.hidden_size",
    "model.attention_heads",
    "model.kv_heads",
    "model.ffn_hidden_size",
)


def _model_shape_in_one_row(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The model's shape (layers, widths, heads), read from one catalog entry, as one row."""
    shape = [row for row in rows if row["key"] in _SHAPE]
    if len(shape) < 2 or len({row["source"] for row in shape}) != 1:
        return rows
    merged = {
        **shape[0],
        "key": "model.shape",
        "label": "Model shape",
        "value": ", ".join(f"{row['label'].lower()} {row['value']}" for row in shape),
    }
    return [merged] + [row for row in rows if row["key"] not in _SHAPE]


def price_rows(result: StoredResult, *, today: date, region_given: bool) -> list[dict[str, str]]:
    """Each price the cost rests on: what, the value, how firm, as of when and where from.

    A price older than the engine's rule allows on ``today`` (the date of the answers) says
    so ("dated 2024-08, may have moved": :func:`sizing.engine.cost.price_set.dated_note`).  When the
    customer named no region (``region_given`` false) a first row says which region's power
    and space prices were assumed.
    """
    rows = []
    cost_region = str(result.section("cost").get("region") or "")
    if not region_given and cost_region in REGIONS:
        rows.append(
            {
                "item": "Region assumed for power and space prices",
                "value": REGIONS[cost_region],
                "flag": "our assumption",
                "as_of": "",
                "source": "you did not say where the training data must stay, so the "
                f"electricity and data-centre space prices below are {REGIONS[cost_region]}'s; "
                "tell us the country and we re-price them",
            }
        )
    for price in result.price_sources:
        region = REGIONS.get(str(price.get("region") or ""), "")
        as_of = str(price.get("as_of") or "")
        dated = dated_note(as_of, today) if as_of else ""
        rows.append(
            {
                "item": str(price.get("item") or ""),
                "value": str(price.get("value") or ""),
                "flag": str(price.get("flag") or ""),
                "as_of": "; ".join(v for v in (as_of, region, dated) if v),
                "source": str(price.get("source") or ""),
            }
        )
    return rows


def lead_time_risk(
    result: StoredResult, *, needed_by: date | None, today: date
) -> dict[str, str] | None:
    """The risk that bought hardware arrives too late for the date the customer needs results
    by (``needed_by``, their answer to question 5), with the cloud to bridge it; None when
    nothing is bought, no date was given, or the slowest published delivery still leaves time
    for one run.

    Bought servers are ready at ``today + lead time`` and one run then takes ``T`` days: they
    *cannot* arrive in time when ``needed_by < today + shortest lead + T``, and *may not* when
    ``needed_by < today + longest lead + T`` (the lead times of ``gpu_server_lead_weeks_low``
    and ``_high``, with their date)."""
    best = result.recommended_cost
    if needed_by is None or best is None or not best.capex_usd:
        return None
    low = next((a for a in result.assumptions if a.key == "gpu_server_lead_weeks_low"), None)
    high = next((a for a in result.assumptions if a.key == "gpu_server_lead_weeks_high"), None)
    if low is None or high is None:
        return None
    if not isinstance(low.value, int | float) or not isinstance(high.value, int | float):
        return None
    run = timedelta(days=float(result.wall_clock_days or 0.0))
    if needed_by >= today + timedelta(weeks=float(high.value)) + run:
        return None
    cannot = needed_by < today + timedelta(weeks=float(low.value)) + run
    weeks = max(0, round((needed_by - today).days / 7))
    money = result.money
    cloud = result.one_run_cloud_usd
    in_cloud = f" (one run costs about {money(cloud)} there)" if cloud else ""
    return {
        "risk": f"Bought GPU servers {'cannot' if cannot else 'may not'} arrive in time: "
        f"they took {low.value:g} to {high.value:g} weeks from order to delivery in the last "
        f"published figures ({_month(low.as_of)}), and you need results by "
        f"{needed_by.day} {needed_by:%B %Y}, {count_of(weeks, 'week')} away, after one run of "
        f"{run_time(float(result.wall_clock_days or 0.0))}",
        "lower": f"Start in the GPU cloud{in_cloud} and move to the bought cluster when it "
        "arrives; our quotation confirms the delivery date before you order",
    }


def _month(as_of: str) -> str:
    """ "April 2024" for "2024-04"; as given otherwise."""
    try:
        day = date.fromisoformat(f"{as_of[:7]}-01")
    except ValueError:
        return as_of
    return f"{day:%B %Y}"


def risk_rows(
    result: StoredResult,
    sources: Mapping[str, str] | None = None,
    *,
    needed_by: date | None = None,
    today: date | None = None,
) -> list[dict[str, str]]:
    """Each risk with what lowers it: the engine's risks ("risk: what to do"), then the plan's
    own (hardware that arrives after the date results are needed by, a range past the
    deadline, prices still to confirm)."""
    rows = []
    for risk in result.risks:
        what, _, lower = risk.partition(": ")
        rows.append({"risk": what[:1].upper() + what[1:], "lower": lower[:1].upper() + lower[1:]})
    late = lead_time_risk(result, needed_by=needed_by, today=today or date.today())
    if late is not None:
        rows.append(late)
    days = result.wall_clock_days_range
    deadline = result.deadline_days
    if days and deadline and days[1] > deadline:
        more = result.gpus_range[1] if result.gpus_range else None
        rows.append(
            {
                # the range as the summary rounds it, so one figure reads the same everywhere
                "risk": f"A run is likely to take {run_time_range(*days)}: its slow end runs "
                f"past {the_deadline(result, sources or {})} if the run goes as slowly as "
                "the slowest published runs like it",
                "lower": (
                    f"Plan for up to {format_count(more)} accelerators, or measure the speed "
                    "in a short trial run before committing"
                    if more and more > (result.gpus_per_job or 0)
                    else "Measure the speed in a short trial run before committing"
                ),
            }
        )
    estimates = [p for p in result.price_sources if "estimate" in str(p.get("flag") or "")]
    if estimates:
        rows.append(
            {
                "risk": f"{len(estimates)} of the prices are our estimates, not published prices"
                if len(estimates) > 1
                else "One of the prices is our estimate, not a published price",
                "lower": "Our quotation replaces them with firm prices before you commit",
            }
        )
    return rows


def accelerator_choice(result: StoredResult, sources: Mapping[str, str] | None = None) -> str:
    """Why this accelerator, in one sentence: the customer's choice, our engineer's, or our
    default."""
    name = result.accelerator_name
    setter = accelerator_by(result, sources or {})
    # on accelerators they own, the table prices one run on them at their running cost
    owned = f" {owned_run_words(result)}" if owned_run_words(result) else ""
    if setter.customers:
        return f"You asked for {name}; the others below are for comparison.{owned}"
    if setter is Setter.ENGINEER:
        return f"Our engineer chose {name}; the others below are for comparison.{owned}"
    return (
        f"We sized {name}, the most widely offered training accelerator of the makers you "
        "allow. The others below would also do the job; one that is cheaper or faster is "
        "worth a quotation if you can get it."
    )


def excluded_groups(result: StoredResult) -> list[str]:
    """The accelerators left out, grouped by the reason ("AMD Instinct MI300X 192GB and AMD
    Instinct MI325X 256GB (made by AMD; you asked for NVIDIA accelerators only)"), so a reason
    shared by several is written once."""
    groups: dict[str, list[str]] = {}
    for text in result.excluded_accelerators:
        name, _, reason = text.partition(": ")
        groups.setdefault(reason, []).append(name)
    out = []
    for reason, names in groups.items():
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        out.append(f"{listed} ({reason})" if reason else listed)
    return out
