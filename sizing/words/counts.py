"""How many accelerators: what one run uses, what the cluster holds, what is bought or rented.

A plan has up to four counts and a reader must never mistake one for another: one run's
accelerators (``gpus_per_job``), the cluster for the runs held at once (``gpus``), the spare
servers beside it, and what an owned option buys (in year 1, and by the plan's last year as the
work grows; the engine's ``cost.usage.owned_gpus_by_year``, which the bill of materials prices).
Every page that states a count (the review page, the confirmation page, the proposal's summary
and its decisions) reads it here and says it in these words, so the four never blur.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sizing.engine.numbers import format_count, format_days
from sizing.stored_result import StoredResult
from sizing.words.plural import count_of

# The options that buy hardware (the rest rent it by the hour).
OWNED = ("buy", "colocation", "hybrid")

# Accelerators in the cloud instances the major clouds rent for one 8-way server's accelerators
# (Google Cloud's A3 machine types a3-highgpu-1g/-2g/-4g/-8g; Lambda's 1x, 2x, 4x, 8x H100).
CLOUD_INSTANCE_SIZES = (1, 2, 4, 8)


@dataclass(frozen=True)
class Counts:
    """The counts of one plan [accelerators, servers]."""

    accelerator: str
    per_node: int
    per_run: int
    runs_at_once: int
    cluster: int  # the accelerators of the runs held at once
    cluster_servers: int
    spare_servers: int
    owned: bool  # the recommended option buys hardware
    bought_by_year: tuple[int, ...]  # accelerators owned in each year, spares included
    # an option is recommended: without one, nothing is said to be bought or rented, so the
    # plan never names a way to pay that the cost page does not choose
    decided: bool = True
    already_owned: int = 0  # of these accelerators, the customer's own (nothing bought)
    # accelerators rented beside their own for one run, and for how long [d] (estate "rent")
    rented_beside: int = 0
    rented_name: str = ""
    rented_days: float = 0.0
    # years a cloud reservation is paid for, used or not (0: paid only while a run goes)
    reserved_years: int = 0

    @property
    def per_run_servers(self) -> int:
        return -(-self.per_run // self.per_node)

    @property
    def in_service(self) -> int:
        """The cluster with its spare servers [accelerators]."""
        return self.cluster + self.spare_servers * self.per_node

    @property
    def year_one(self) -> int:
        """Accelerators bought in year 1 (the cluster with its spares when nothing is bought)."""
        return self.bought_by_year[0] if self.bought_by_year else self.in_service

    @property
    def total(self) -> int:
        """Accelerators bought by the plan's last year."""
        return self.bought_by_year[-1] if self.bought_by_year else self.year_one

    @property
    def grown_by(self) -> int:
        """The year the last accelerators are bought (1 when none are added)."""
        if not self.bought_by_year:
            return 1
        return next(i for i, n in enumerate(self.bought_by_year, start=1) if n == self.total)

    @property
    def part_of_a_server(self) -> bool:
        """One run, and the cluster, use only some of one server's accelerators."""
        return self.cluster < self.per_node and self.cluster_servers <= 1

    @property
    def server_size(self) -> int:
        """Accelerators in each server bought, owned or rented [accelerators]: a plan within one
        server has one of its own size, not a full one (the engine's bill buys 1, 2, 4 or 8
        within a server, ``cost.owned.whole_nodes``; the clouds rent instances of 1, 2, 4 or
        8), so a page never says "1 server of 8" beside the bill's server of 4."""
        if not (self.decided and self.part_of_a_server):
            return self.per_node
        if self.owned:
            held = self.already_owned or self.year_one
            return min(self.per_node, max(held, self.cluster))
        return self.instance_size

    @property
    def instance_size(self) -> int:
        """Accelerators in each cloud instance rented: the cluster's own size when it fits in
        one of the instances the clouds rent, else a full server's [accelerators]."""
        if self.part_of_a_server and self.cluster in CLOUD_INSTANCE_SIZES:
            return self.cluster
        return self.per_node


def read_counts(result: StoredResult) -> Counts:
    """The counts of ``result``, the engine's stored result."""
    cluster = result.section("cluster")
    usage = result.section("cost").get("usage") or {}
    owned = result.recommended_option in OWNED
    concurrency = result.section("concurrency")
    return Counts(
        accelerator=result.accelerator_name,
        per_node=int(result.gpus_per_node or 1),
        per_run=int(result.gpus_per_job or result.gpus or 0),
        runs_at_once=int(concurrency.get("full_size_runs") or 1),
        cluster=int(result.gpus or 0),
        cluster_servers=int(result.nodes or 0),
        spare_servers=int(cluster.get("spare_nodes") or 0),
        owned=owned,
        bought_by_year=tuple(int(n) for n in usage.get("owned_gpus_by_year") or ())
        if owned
        else (),
        decided=bool(result.recommended_option),
        already_owned=_already_owned(result),
        reserved_years=int(best.commitment_years or 0) if (best := result.recommended_cost) else 0,
        **_rented_beside(result),
    )


def _rented_beside(result: StoredResult) -> dict[str, Any]:
    """The help rented beside their own accelerators for one run (the result's estate)."""
    estate = result.estate
    if not (_already_owned(result) and estate and estate.add == "rent" and estate.add_count):
        return {}
    return {
        "rented_beside": estate.add_count,
        "rented_name": estate.add_name,
        "rented_days": estate.add_days,
    }


def _already_owned(result: StoredResult) -> int:
    """The customer's own accelerators when the plan is sized on them (the result's estate)."""
    estate = result.estate
    if estate and estate.owned_count and estate.owned_name == result.accelerator_name:
        return estate.owned_count
    return 0


def servers_text(count: int, per_node: int, held: int | None = None) -> str:
    """ "26 servers of 8"; "one server" for one that the ``held`` accelerators fill (never
    "1 server of 1": the count beside it says how many it holds), "one server of 4" for one
    they fill only in part."""
    if count == 1:
        return "one server" if held is None or held >= per_node else f"one server of {per_node}"
    return f"{count_of(count, 'server')} of {format_count(per_node)}"


def one_server_word(counts: Counts) -> str:
    """What the whole plan runs in when that is one machine: "one cloud instance" for a cloud
    option (it rents instances), "one server" otherwise; "" when it needs several."""
    if counts.cluster_servers > 1:
        return ""
    return "one cloud instance" if counts.decided and not counts.owned else "one server"


def no_network_text(counts: Counts) -> str:
    """The network of a plan in one machine, as a person says it: "No network between
    servers needed: everything runs in one server" (never "None needed")."""
    return f"No network between servers needed: everything runs in {one_server_word(counts)}"


def run_text(counts: Counts) -> str:
    """What one run uses: "96 accelerators in 12 servers", "2 accelerators of one server"."""
    if counts.per_run < counts.per_node:
        return f"{count_of(counts.per_run, 'accelerator')} of one server"
    servers = (
        "one server" if counts.per_run_servers == 1 else count_of(counts.per_run_servers, "server")
    )
    return f"{count_of(counts.per_run, 'accelerator')} in {servers}"


def cluster_text(counts: Counts) -> str:
    """The cluster for the runs held at once, with its spares: "192 accelerators in 24 servers
    of 8 for 2 runs at once, plus 2 spare servers"."""
    text = (
        f"{count_of(counts.cluster, 'accelerator')} in "
        f"{servers_text(counts.cluster_servers, counts.server_size, counts.cluster)}"
    )
    if counts.runs_at_once > 1 and counts.cluster > counts.per_run:
        text += f" for {format_count(counts.runs_at_once)} runs at once"
    if counts.spare_servers:
        text += f", plus {count_of(counts.spare_servers, 'spare server')}"
    return text


def rented_text(counts: Counts) -> str:
    """What a cloud option rents while a run goes: "a cloud instance with 2 × NVIDIA H100 SXM5
    80GB (the major clouds rent instances of 1, 2, 4 and 8)", or "3 instances of 8 × …"."""
    if counts.instance_size < counts.per_node:
        sizes = ", ".join(str(n) for n in CLOUD_INSTANCE_SIZES[:-1])
        return (
            f"a cloud instance with {format_count(counts.cluster)} × {counts.accelerator} (the "
            f"major clouds rent instances of {sizes} and {CLOUD_INSTANCE_SIZES[-1]})"
        )
    servers = counts.cluster_servers or 1
    return (
        f"{count_of(servers, 'cloud instance')} of {format_count(counts.per_node)} × "
        f"{counts.accelerator}"
    )


def bought_text(counts: Counts) -> str:
    """What an owned option buys, labelled: "208 × NVIDIA H100 SXM5 80GB (26 servers of 8)
    bought in year 1, spare servers included, and 2,248 (281 servers) by year 3 as your work
    grows"; for a cloud option, what is rented while a run goes."""
    if not counts.decided:
        return f"{cluster_text(counts)}, to buy or rent once the cost section is settled"
    if not counts.owned and counts.reserved_years:
        # a reservation is paid for its whole term: never "rented only while a run is going"
        term = "a year" if counts.reserved_years == 1 else f"{counts.reserved_years} years"
        return f"{rented_text(counts)}, reserved for {term} and paid for, used or not"
    if not counts.owned:
        return f"{rented_text(counts)}, rented only while a run is going"
    if counts.already_owned:
        own = counts.already_owned
        servers = servers_text(max(1, own // counts.per_node), min(own, counts.per_node))
        text = f"{format_count(own)} × {counts.accelerator} you already own ({servers})"
        if counts.rented_beside:
            text += (
                f", with {format_count(counts.rented_beside)} × {counts.rented_name} rented "
                f"beside them for about {format_days(counts.rented_days)}"
            )
        if counts.year_one > own:
            text += f", and {format_count(counts.year_one - own)} more bought in year 1"
        elif counts.total <= own:
            text += ", nothing bought"
        if counts.total > max(own, counts.year_one):
            text += (
                f", {format_count(counts.total - own)} more by year {counts.grown_by} as your "
                "training work grows"
            )
        return text
    text = (
        f"{format_count(counts.year_one)} × {counts.accelerator} "
        f"({servers_text(max(1, counts.year_one // counts.per_node), min(counts.year_one, counts.per_node))})"
        " bought in year 1"
    )
    if counts.spare_servers:
        text += ", spare servers included"
    if counts.total > counts.year_one:
        text += (
            f", and {format_count(counts.total)} ({count_of(counts.total // counts.per_node, 'server')})"
            f" by year {counts.grown_by} as your training work grows"
        )
    return text


def uses_text(counts: Counts) -> str:
    """How the bought (or rented) accelerators are used: "each run uses 96 accelerators in 12
    servers, 2 runs at once, plus 2 spare servers"; "" when one run uses all of them."""
    run = run_text(counts)
    # a cloud option rents no spare server: a failed instance is replaced, not kept idle
    spares = counts.spare_servers if counts.owned else 0
    if counts.runs_at_once > 1 and counts.cluster > counts.per_run:
        text = f"each run uses {run}, {count_of(counts.runs_at_once, 'run')} at once"
    elif counts.rented_beside:  # the rented ones share the work apart, in the cloud
        text = "the rented ones do their share of each run as a separate cloud job"
    elif not spares and (
        counts.per_run == counts.total or (not counts.owned and counts.per_run == counts.cluster)
    ):
        return ""  # one run uses all of them (or all that is rented): nothing more to say
    else:
        text = f"one run uses {run}"
    if spares:
        spare = count_of(spares, "spare server")
        text += f", plus {spare} of yours" if counts.rented_beside else f", plus {spare}"
    return text


def plan_text(counts: Counts) -> str:
    """What is bought (or rented) and how one run uses it, each count labelled: "208 × NVIDIA
    H100 SXM5 80GB (26 servers of 8) bought in year 1, spare servers included; each run uses 96
    accelerators in 12 servers, 2 runs at once, plus 2 spare servers"."""
    uses = uses_text(counts)
    return f"{bought_text(counts)}; {uses}" if uses else bought_text(counts)


# The engine's question about how concurrent jobs share the cluster starts so
# (``sizing.engine.core._open_questions``); :func:`concurrency_question` says it instead.
_ENGINE_CONCURRENCY_QUESTION = "The cluster holds "


def concurrency_question(result: StoredResult) -> str:
    """How the concurrent jobs share the cluster, asked with every count agreeing with its noun
    ("The cluster holds 1 full-size run at once (one job of 16,384 accelerators, as many as
    the planned runs) and 4,096 accelerators for the other 2 of 3 jobs: …"); "" when the
    customer runs one job at a time."""
    concurrency = result.section("concurrency")
    jobs = int(concurrency.get("concurrent_jobs") or 1)
    runs = int(concurrency.get("full_size_runs") or 1)
    per_run = int(concurrency.get("gpus_per_job") or result.gpus_per_job or 0)
    headroom = int(concurrency.get("headroom_gpus") or 0)
    if jobs <= 1:
        return ""
    held = f"The cluster holds {count_of(runs, 'full-size run')} at once"
    each = count_of(per_run, "accelerator")
    if runs >= jobs:
        return (
            f"{held} ({count_of(jobs, 'job')} of {each} each): are some of them smaller "
            "experiments that need less?"
        )
    full = f"one job of {each}" if runs == 1 else f"{count_of(runs, 'job')} of {each} each"
    return (
        f"{held} ({full}, as many as the planned runs) and {count_of(headroom, 'accelerator')} "
        f"for the other {jobs - runs} of {count_of(jobs, 'job')}: are those smaller "
        "experiments, or more full runs?"
    )


def open_question(question: str, result: StoredResult) -> str:
    """One of the engine's open questions as the proposal asks it: the question about
    concurrent jobs in this room's words (:func:`concurrency_question`), others as they are."""
    if question.startswith(_ENGINE_CONCURRENCY_QUESTION):
        return concurrency_question(result) or question
    return question


def cluster_short(result: StoredResult) -> str:
    """The cluster in a few words, for the staff list and the CSV: "64 × NVIDIA H100 SXM5
    80GB" ("" for a result without an accelerator)."""
    if not result.accelerator:
        return ""
    name = result.accelerator_name
    return f"{format_count(result.gpus)} × {name}" if result.gpus else name
