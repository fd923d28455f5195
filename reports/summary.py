"""The executive summary: one decision (what to buy or rent, how many, for how long, what it
costs), why it beats the other options, how sure we are, the answers that drive it, and what
the customer must decide next.

Every figure comes from the engine's result through the one formatter; the sentences are built
here so the template only places them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.bill import fabric_bought, run_servers_usd
from sizing.public import (
    OWNED,
    CostOption,
    StoredResult,
    accelerator_by,
    accelerator_label,
    as_fast_as_the_budget_allows,
    chosen_words,
    cost_headline,
    count_of,
    deadline_by,
    estate_lines,
    experts_elsewhere,
    format_count,
    format_number,
    format_percent,
    help_beside,
    help_cost,
    helped_time,
    in_sentence,
    money_of,
    no_network_text,
    noun_for,
    one_server_word,
    open_question,
    owned_network_sentence,
    plan_text,
    read_counts,
    run_time,
    run_time_range,
    the_deadline,
)


def owned_by_year(result: StoredResult) -> tuple[int, ...]:
    """Accelerators owned in each year of the plan (empty when nothing is bought)."""
    usage = result.section("cost").get("usage") or {}
    return tuple(int(n) for n in usage.get("owned_gpus_by_year") or ())


# [x] the slow end of the likely run time this far past the deadline is said as a real risk
WELL_PAST_DEADLINE = 1.5


def cluster_line(result: StoredResult) -> str:
    """What is bought (or rented) and how one run uses it, each count labelled: "208 × NVIDIA
    H100 SXM5 80GB (26 servers of 8) bought in year 1, spare servers included; each run uses 96
    accelerators in 12 servers, 2 runs at once, plus 2 spare servers" (``sizing.counts``)."""
    return plan_text(read_counts(result))


def growth_line(result: StoredResult, option: CostOption | None) -> str:
    """When year 1 buys more than the cluster of one run's worth (with its spares), why:
    headroom for the share of the year an owned cluster is down ("" otherwise)."""
    if option is None or option.key not in OWNED:
        return ""
    counts = read_counts(result)
    if counts.year_one <= counts.in_service:
        return ""
    up = next((a.value for a in result.assumptions if a.key == "owned_max_utilisation"), None)
    share = f"about {format_percent(up)}" if isinstance(up, int | float) else "part"
    return (
        f"the rest is headroom for the year's planned runs, because an owned cluster runs jobs "
        f"{share} of the year (the rest goes to maintenance and repairs)"
    )


def deadline_at_risk(result: StoredResult, sources: Mapping[str, str] | None = None) -> str:
    """When the central estimate meets the deadline and the slow end of the likely range runs
    past it, how far: said plainly when the slow end is well past ("" otherwise)."""
    days, deadline = result.wall_clock_days_range, result.deadline_days
    if not (result.deadline_met and days and deadline and days[1] > deadline):
        return ""
    ratio = days[1] / deadline
    whose = "your deadline" if deadline_by(result, sources or {}).customers else "the deadline"
    if ratio < WELL_PAST_DEADLINE:
        return "the slow end of the range runs past it"
    return (
        f"the slow end of the range is {format_number(round(ratio, 1))} times {whose}: "
        "a real risk (see the risks)"
    )


def residual_value(result: StoredResult, best: CostOption | None) -> dict[str, str]:
    """What the hardware bought is still worth on the books at the end of the plan, and the
    sourced life behind it (``depreciation_years``, a price with its source and date); empty
    for an option that buys nothing."""
    if best is None or not best.capex_usd or not best.residual_value_usd:
        return {}
    life = next((a for a in result.assumptions if a.key == "depreciation_years"), None)
    years = f"{life.value:g} years" if life and isinstance(life.value, int | float) else ""
    return {
        "value": money_of(result)(best.residual_value_usd),
        "year": str(result.years),
        "life": years,
    }


def why_this_option(result: StoredResult) -> list[str]:
    """Why the recommended option beats the others: the engine's first two cost reasons (the
    cheapest allowed, and what the customer's rules rule out); none when no option is
    recommended, as the cost row beside it already says why (``cost.undecided``)."""
    if result.recommended_cost is None:
        return []
    reasons = list(result.cost_reasons)
    return reasons[:2]


def network_line(result: StoredResult) -> str:
    network = result.section("network")
    if (result.nodes or 0) <= 1:
        return no_network_text(read_counts(result))
    if theirs := owned_network_sentence(result):
        # the plan runs on their own fabric: the row says so, as the estate lines do, never
        # a fabric described as if it were bought
        return theirs.rstrip(".")
    if not network.get("nic_gbps"):
        return "No fast network between servers needed: each run fits in one server"
    return (
        f"{network.get('technology')}, {format_number(network.get('nics_per_node'))} × "
        f"{format_number(network['nic_gbps'])} Gb/s per server, {fabric_bought(result)}"
    )


def _price_basis(result: StoredResult) -> str:
    """How the two purchase prices compared are known: "list prices", or "ours estimated, the
    other at list price" when no public price exists for the plan's accelerator (the catalog's
    estimate, flagged so in its source)."""
    bought = next((a for a in result.assumptions if a.key == "prices.purchase_usd_per_gpu"), None)
    if bought is not None and str(bought.source).startswith("estimate"):
        return "ours estimated, the other at list price"
    return "list prices"


def _then(sentence: str) -> str:
    """A sentence that follows another in the same item ("" stays "")."""
    return f" {sentence}" if sentence else ""


def decisions(result: StoredResult, sources: Mapping[str, str] | None = None) -> list[str]:
    """What the customer must decide before we quote, most consequential first; ``sources``
    says who set each input (the accelerator our engineer chose is never "you asked for")."""
    out = []
    best = result.recommended_cost
    chosen = chosen_words(accelerator_by(result, sources or {}))
    if best is not None:
        # the help rented or bought beside their own accelerators is part of what they decide
        # (customer 9: "$10.25 million over 3 years" alone once left out $28 million of renting)
        helped = help_cost(result)
        out.append(
            f"Whether to go ahead with our recommendation, “{in_sentence(best.label)}”, for "
            f"about {cost_headline(result).amount} over {count_of(result.years, 'year')}"
            + (f", {helped}" if helped else "")
            # the headline above says what the net figure subtracts
            + (" (net, as above)." if best.residual_value_usd else ".")
        )
    cost = result.section("cost")
    constraints = cost.get("constraints") or {}
    overall = str(constraints.get("cheapest_overall") or "")
    saving = constraints.get("relax_saving_usd")
    if best is not None and overall and overall != best.key and saving:
        out.append(
            f"Whether your rules are firm: without them, "
            f"“{in_sentence(result.option_label(overall))}” would save about "
            f"{money_of(result)(saving)}."
        )
    method = next((a for a in result.assumptions if a.key == "training.method"), None)
    undecided = (
        method is not None and method.provided_by != "customer" and method.value == "full_finetune"
    )
    if undecided:
        # the size of the whole plan turns on it: said here, not only among the open questions
        out.append(
            "Full fine-tuning or adapters (LoRA): you have not chosen yet, so we sized full "
            "fine-tuning, the larger; adapters (LoRA) need far fewer accelerators, so this "
            "decision can shrink the plan."
        )
    peer = peer_decision(result)
    if peer:
        out.append(peer)
    # the counterpart at the same scale answers "which would be cheaper" for a non-NVIDIA plan
    to_buy = [] if peer else cheaper_to_buy(result)
    cheaper = (
        [] if peer or (best is not None and best.key in OWNED) else cheaper_alternatives(result)
    )
    if to_buy:
        alt, ours_usd = to_buy[0]
        counts = read_counts(result)
        # like for like: one run's servers on each side, and said so, never one run's against
        # the cluster or what is bought over the plan
        of_all = (
            f"; compared run for run, while the plan buys {format_count(counts.total)}"
            + (f" by year {counts.grown_by}" if counts.grown_by > 1 else "")
            if counts.total > counts.per_run
            else ""
        )
        out.append(
            f"Whether to quote the {alt['name']} instead: for one run, "
            f"{count_of(alt['gpus'], 'accelerator')} in {count_of(alt['nodes'], 'server')} would "
            f"take about {run_time(float(alt['wall_clock_days']))} and cost about "
            f"{money_of(result)(alt['servers_usd'])} in servers, "
            f"{money_of(result)(ours_usd - float(alt['servers_usd']))} less than one run's "
            f"{format_count(counts.per_run)} {result.accelerator_name} {chosen} "
            f"({money_of(result)(ours_usd)}, {_price_basis(result)}){of_all}."
            + _then(experts_elsewhere(result, str(alt.get("accelerator") or "")))
        )
    if cheaper:
        alt = cheaper[0]
        saving = float(result.one_run_cloud_usd or 0) - float(alt["run_cost_usd"])
        ours = (
            f"{chosen} (the most widely offered, so the easiest to obtain)"
            if chosen == "we sized"
            else chosen
        )
        out.append(
            f"Whether to quote the {alt['name']} instead: one run would take about "
            f"{run_time(float(alt['wall_clock_days']))} and cost "
            f"{money_of(result)(alt['run_cost_usd'])} in the cloud, {money_of(result)(saving)} less than "
            f"one run on the {result.accelerator_name} {ours}."
            + _then(experts_elsewhere(result, str(alt.get("accelerator") or "")))
        )
    # the rest of the open questions have their own section; the page holds three decisions
    # (the method's own question is already the decision above)
    # each in the words room's wording (a result stored before the engine agreed its nouns
    # still says "1 jobs of"; open_question words the concurrency question again)
    rest = [
        open_question(q, result) for q in result.open_questions if not (undecided and "LoRA" in q)
    ]
    out.extend(rest[: max(0, 3 - len(out))])
    return out


def peer_decision(result: StoredResult) -> str:
    """When the NVIDIA counterpart sized on as many accelerators (``engine.peer``) is both
    faster and cheaper over the plan than the accelerator the customer preferred, the choice
    between them, with both figures ("" otherwise). Customer 7 (MI325X preferred, H200
    acceptable) read the H200's 28.5 days and $11.25 million beside their 40.6 days and
    $12.56 million, while the decisions asked only about a B200. How each purchase price is
    known is said, as in the other comparisons: the MI325X's is our estimate."""
    peer, best = result.section("peer"), result.recommended_cost
    if not (peer.get("accelerator") and peer.get("fits") and best and best.net_usd):
        return ""
    net, days = peer.get("net_usd"), peer.get("wall_clock_days")
    ours_days = result.wall_clock_days or 0.0
    if net is None or days is None or float(net) >= best.net_usd or float(days) >= ours_days:
        return ""
    money = money_of(result)
    return (
        f"Whether to quote the {peer['name']} instead: on the same "
        f"{count_of(int(peer['gpus']), 'accelerator')} a run would take about "
        f"{run_time(float(days))} against {run_time(ours_days)}, and the plan would cost about "
        f"{money(float(net))} against {money(best.net_usd)} over "
        f"{count_of(result.years, 'year')} ({_price_basis(result)})."
    )


def does_not_fit(result: StoredResult) -> str:
    """Why one run cannot start on the recommended (given) cluster, and what the fewest
    accelerators that hold the model would take; "" when it fits."""
    if result.fits:
        return ""
    on = count_of(result.gpus_per_job or 0, "accelerator")
    least, days = result.min_gpus, result.min_gpus_days
    if not least or days is None:
        return f"it cannot start: the model does not fit in memory on {on}, nor on any size"
    return (
        f"it cannot start: the model does not fit in memory on {on}; it needs at least "
        f"{format_count(least)}, on which one run takes about {run_time(days)}"
    )


def cheaper_to_buy(result: StoredResult) -> list[tuple[dict[str, Any], float]]:
    """When the recommended option buys the servers: compared accelerators whose servers for
    one run cost less at list price than ours, cheapest first, each with our servers' cost
    [USD]; they fit in memory and finish within the deadline when ours does."""
    ours = run_servers_usd(result)
    if ours is None:
        return []
    deadline = result.deadline_days if result.deadline_met else None
    found = [
        (dict(a), ours)
        for a in result.alternatives
        if a.get("servers_usd") is not None
        and float(a["servers_usd"]) < ours
        and a.get("fits", True)
        and (deadline is None or float(a["wall_clock_days"]) <= deadline)
    ]
    return sorted(found, key=lambda pair: float(pair[0]["servers_usd"]))


def cheaper_alternatives(result: StoredResult) -> list[dict[str, Any]]:
    """Compared accelerators that would cost less per run than the recommended one."""
    ours = result.one_run_cloud_usd
    if ours is None:
        return []
    return [
        dict(a)
        for a in result.alternatives
        if a.get("run_cost_usd") is not None and float(a["run_cost_usd"]) < ours
    ]


def executive_summary(
    result: StoredResult, sources: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Everything the two summary pages show, as words and formatted figures; ``sources`` says
    who set each input (``sizing.words.provenance``)."""
    sources = sources or {}
    best = result.recommended_cost
    cost = cost_headline(result)
    days = result.wall_clock_days_range
    sure = result.confidence
    counts = read_counts(result)
    return {
        "option": cost.option,
        "priced": cost.priced,
        "undecided": cost.undecided,  # why nothing is recommended ("" when an option is)
        "cluster": cluster_line(result),
        "growth": growth_line(result, best),
        "gpus": format_count(counts.cluster),
        "gpus_word": noun_for(counts.cluster, "accelerator"),
        "gpus_per_job": format_count(counts.per_run),
        # the cluster holds more than one run (runs at once, or room for other jobs): the
        # row says the cluster and what one run uses of it, never the cluster as one run
        "beyond_one_run": counts.cluster > counts.per_run,
        "several_runs": counts.runs_at_once > 1 and counts.cluster > counts.per_run,
        "concurrent": count_of(counts.runs_at_once, "run"),
        "nodes": format_count(counts.cluster_servers),
        # the plan in one machine is said so ("in one server"), never "in 1 server of 1"
        "one_server": one_server_word(counts),
        # a cloud option rents instances, as its plan and bill say, not servers
        "servers_word": noun_for(
            counts.cluster_servers,
            "cloud instance" if counts.decided and not counts.owned else "server",
        ),
        # the server bought or rented: one of the plan's size when it fills only part of one
        "gpus_per_node": format_count(counts.server_size),
        "accelerator": result.accelerator_name,
        "accelerator_by": accelerator_label(result, sources),
        "days": run_time(result.wall_clock_days or 0),
        "days_range": run_time_range(*days) if days else "",
        # the deadline with who set it: "your deadline of 21 days", "the deadline our
        # engineer set, 20 days" ("" when none was given or set)
        "deadline": the_deadline(result, sources)
        if result.deadline_days and not as_fast_as_the_budget_allows(result)
        else "",
        "deadline_met": result.deadline_met,
        "does_not_fit": does_not_fit(result),
        # met at the central estimate while the slow end of the likely range runs past it
        "deadline_at_risk": deadline_at_risk(result, sources),
        # on what they own, with help added beside it: the time with that help
        "with_help": helped_time(result),
        "help_cost": help_cost(result),
        "help_beside": help_beside(result),
        "years": result.years,
        "years_text": cost.years,
        # the net figure and the likely range of that same figure (sizing.words.cost)
        "total": cost.amount,
        # what the figure nets, and what is paid before that ("" when nothing is owned)
        "net_words": cost.nets,
        "paid": cost.paid,
        "low": cost.low,
        "high": cost.high,
        "up_front": money_of(result)(best.capex_usd) if best and best.capex_usd else "",
        "residual": residual_value(result, best),
        "why": why_this_option(result),
        # what they own and their ceilings (sizing.words.estate): before any other reason
        "estate": estate_lines(result, sources),
        "network": network_line(result),
        "backing": sure.summary if sure else "",
        "covered": bool(sure and sure.covered),
        "drivers": [d[:1].upper() + d[1:] for d in result.drivers[:3]],
        "decisions": decisions(result, sources),
    }
