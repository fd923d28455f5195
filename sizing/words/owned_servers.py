"""The servers a customer already owns, where a page would otherwise size or price them as if
they were bought or rented: their hosts (CPU and RAM) came with them, and one run on them costs
their running cost, not a cloud price (the result's ``estate``, ``sizing/engine/estate.py``).

A reader of customer 5's proposal (two DGX A100 they own) found host CPU and RAM to buy for
servers they have, and their A100 priced at the GPU cloud's price a run.
"""

from __future__ import annotations

from sizing.engine.numbers import format_count
from sizing.stored_result import StoredResult
from sizing.words.counts import read_counts
from sizing.words.plural import count_of


def owned_hosts_sentence(result: StoredResult) -> str:
    """The CPU and RAM of a plan on the servers they own: theirs came with them, so none is
    sized to buy ("" when the plan does not run on what they own, or buys servers beside
    them, which need hosts of their own)."""
    estate = result.estate
    if not (estate and result.on_owned_estate) or estate.add == "buy":
        return ""
    servers = read_counts(result).cluster_servers
    yours = "Your server comes" if servers <= 1 else f"Your {count_of(servers, 'server')} come"
    rented = (
        "; the cloud instances rented beside them come with theirs" if estate.add == "rent" else ""
    )
    return (
        f"{yours} with {'its' if servers <= 1 else 'their'} own CPUs and RAM: none is sized or "
        f"bought for {'it' if servers <= 1 else 'them'}{rented}."
    )


def owned_run_usd(result: StoredResult) -> float | None:
    """One run on what they own, as it is paid [USD]: their accelerators' running cost while
    they work on it (power, space, support and staff; capital $0) plus the help rented beside
    them for that run.  ``None`` when the plan does not run on what they own, either figure is
    not known, or the help is bought (capital, not a cost of one run)."""
    estate = result.estate
    if not (estate and result.on_owned_estate) or estate.owned_running_usd is None:
        return None
    if estate.add == "buy":
        return None
    rented = 0.0
    if estate.add == "rent" and estate.add_count:
        if estate.add_cost_usd is None:
            return None
        rented = estate.add_cost_usd
    # whole dollars each, as the summary prints the two parts: the total is their sum as read
    return float(round(estate.owned_running_usd) + round(rented))


def owned_run_days(result: StoredResult) -> float | None:
    """How long the run that :func:`owned_run_usd` prices takes [d]: their accelerators work
    this long on it, with the rented help beside them when there is some (None as there)."""
    estate = result.estate
    if owned_run_usd(result) is None or estate is None:
        return None
    return estate.owned_days_used or result.wall_clock_days


def owned_run_words(result: StoredResult) -> str:
    """What the owned run's cost in the table of accelerators is made of, and what renting the
    same would cost, for the sentence above that table ("" when :func:`owned_run_usd` is
    None)."""
    run = owned_run_usd(result)
    estate = result.estate
    if run is None or estate is None:
        return ""
    help_ = (
        f" and the {format_count(estate.add_count)} {estate.add_name} rented beside them"
        if estate.add == "rent" and estate.add_count
        else ""
    )
    cloud = result.one_run_cloud_usd
    renting = (
        f"; renting {count_of(estate.owned_count, 'accelerator')} like them for the whole run "
        "would cost "
        f"{result.money(cloud)}"
        if cloud is not None
        else ""
    )
    return (
        f"One run on yours costs about {result.money(run)}: their running cost while they work on it "
        f"(power, space, support and staff; no capital){help_}{renting}. The others are priced "
        "as rented in the GPU cloud for one run. The cost over "
        f"{result.years} years also counts your servers' running cost between runs."
    )
