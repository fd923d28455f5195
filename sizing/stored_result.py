"""The one typed reader of a stored engine result (the JSON of docs/engine-contract.md).

The proposal, the confirmation page and the staff pages read a result through
:func:`read_result` instead of each guessing at keys. A section the stored result lacks (an
older engine version, a failed run) reads as empty, never as an error: the pages then show "—".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sizing.engine.network import fabric_layout, fabric_words
from sizing.engine.numbers import USD, Money
from sizing.engine.vocabulary import COST_OPTIONS, OWN_ESTATE_OPTION, value_words


@dataclass(frozen=True)
class CostOption:
    """One way to pay over the planning horizon [USD]."""

    key: str
    label: str
    total_usd: float | None
    low_usd: float | None
    high_usd: float | None
    by_year_usd: tuple[float, ...]
    basis: str
    recommended: bool
    capex_usd: float | None = None  # hardware bought over the horizon
    running_usd: float | None = None
    ruled_out_by: tuple[str, ...] = ()  # the customer's rules excluding it (vocabulary.RULES)
    not_priced: str = ""  # why it has no figure ("" when it has one)
    # Each year's cost by part (vocabulary.COST_PARTS keys; empty before engine 2026.12.8).
    parts_by_year_usd: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    residual_value_usd: float | None = None  # book value of owned hardware after the horizon
    # The one figure options are ranked, compared and shown by: total less residual value
    # (engine ``net_usd`` from 2026.12.9; computed the same way for older results).
    net_usd: float | None = None
    # A reservation's term [yr] and the share of it the work uses (engine 2026.12.9; None: no
    # commitment, or an older result).
    commitment_years: int | None = None
    commitment_used_share: float | None = None


@dataclass(frozen=True)
class UsedAssumption:
    """One value the engine used, with its source (``provided_by``: customer or assumed)."""

    key: str
    value: Any
    unit: str
    source: str
    rationale: str
    provided_by: str
    as_of: str = ""  # when the source published it ("2024-04")


@dataclass(frozen=True)
class Confidence:
    """What backs the ranges on the headline figures (the result's ``confidence``)."""

    band: str  # key of the scale band of one run
    published_runs: int  # published runs in that band
    typical_error: float | None  # [x] 1.12: typically within 12 %
    covered: bool  # False: outside what published runs cover, the range is widened
    outside: tuple[str, ...]
    summary: str  # in plain words


@dataclass(frozen=True)
class HardwareBought:
    """What the bill of materials buys (the result's ``cost.hardware_bought``)."""

    option: str  # the owned option whose bill it is
    gpus: int  # [accelerators] hot spares included
    servers: int
    fabric_tiers: int  # layers of switches for every server bought (0: one server)
    switches: int
    oversubscription: float  # [x] network cards per leaf uplink; 1 is non-blocking
    fabric: str  # the layout in a few words


@dataclass(frozen=True)
class Estate:
    """What the customer owns and their ceilings (the result's ``estate``, issue 26; see
    docs/engine-contract.md); figures not given or not known are None."""

    owned_name: str  # "" when they own none
    owned_count: int
    owned_fits: bool | None
    owned_days: float | None  # [d] one run on the owned accelerators alone
    deadline_days: float | None
    meets_deadline: bool | None
    owned_running_usd: float | None
    add: str | None  # "rent" | "buy" | None
    add_name: str
    add_count: int
    add_days: float
    add_cost_usd: float | None
    budget_usd: float | None
    cost_usd: float | None
    over_budget_usd: float | None
    budget_soonest_days: float | None
    power_kw: float | None
    cluster_power_kw: float | None
    power_max_gpus: int | None
    power_capped: bool
    # the network and storage they own with them (None: not said, or not on them)
    owned_fabric: str | None = None  # "infiniband" | "roce" | "ethernet"
    owned_fabric_gbps: float | None = None  # [Gb/s] per accelerator
    owned_fabric_serves: bool | None = None
    fabric_needed_gbps: float | None = None  # [Gb/s] per accelerator
    owned_storage_tb: float | None = None
    storage_needed_tb: float | None = None
    storage_added_tb: float | None = None  # [TB] bought beyond theirs
    owned_days_used: float | None = None  # [d] their accelerators work on one run
    cost_is_one_run: bool = False  # the budget is held against one run's cost
    # days against dollars: (days, cost [USD], accelerators rented beside theirs), soonest first
    trade_off: tuple[tuple[float, float, int], ...] = ()
    # as fast as the budget allows: the budget sets the date (False: no size is faster, the
    # budget would pay for more; None: not that case, or a result stored before)
    budget_sets_soonest: bool | None = None
    # the help held to the largest cluster rented at short notice (more only under a
    # negotiated reservation), that size, and whether the help outlasts such a rental
    rent_capped: bool = False
    rent_cap_gpus: int | None = None
    rent_beyond_short_term: bool = False


def _estate(raw: Mapping[str, Any]) -> Estate:
    def number(name: str) -> float | None:
        value = raw.get(name)
        return (
            float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
        )

    def flag(name: str) -> bool | None:
        value = raw.get(name)
        return value if isinstance(value, bool) else None

    most = number("power_max_gpus")
    return Estate(
        owned_name=str(raw.get("owned_accelerator_name") or ""),
        owned_count=int(number("owned_count") or 0),
        owned_fits=flag("owned_fits"),
        owned_days=number("owned_days"),
        deadline_days=number("deadline_days"),
        meets_deadline=flag("meets_deadline"),
        owned_running_usd=number("owned_running_usd"),
        add=str(raw["add"]) if raw.get("add") else None,
        add_name=str(raw.get("add_accelerator_name") or ""),
        add_count=int(number("add_count") or 0),
        add_days=number("add_days") or 0.0,
        add_cost_usd=number("add_cost_usd"),
        budget_usd=number("budget_usd"),
        cost_usd=number("cost_usd"),
        over_budget_usd=number("over_budget_usd"),
        budget_soonest_days=number("budget_soonest_days"),
        power_kw=number("power_kw"),
        cluster_power_kw=number("cluster_power_kw"),
        power_max_gpus=None if most is None else int(most),
        power_capped=bool(raw.get("power_capped")),
        owned_fabric=str(raw["owned_fabric"]) if raw.get("owned_fabric") else None,
        owned_fabric_gbps=number("owned_fabric_gbps"),
        owned_fabric_serves=flag("owned_fabric_serves"),
        fabric_needed_gbps=number("fabric_needed_gbps"),
        owned_storage_tb=number("owned_storage_tb"),
        storage_needed_tb=number("storage_needed_tb"),
        storage_added_tb=number("storage_added_tb"),
        owned_days_used=number("owned_days_used"),
        cost_is_one_run=bool(raw.get("cost_is_one_run")),
        budget_sets_soonest=flag("budget_sets_soonest"),
        rent_capped=bool(raw.get("rent_capped")),
        rent_cap_gpus=int(number("rent_cap_gpus") or 0) or None,
        rent_beyond_short_term=bool(raw.get("rent_beyond_short_term")),
        trade_off=tuple(
            (float(p["days"]), float(p["cost_usd"]), int(p.get("add_count") or 0))
            for p in raw.get("trade_off") or ()
            if isinstance(p, Mapping)
            and p.get("days") is not None
            and p.get("cost_usd") is not None
        ),
    )


@dataclass(frozen=True)
class StoredResult:
    """A stored engine result, typed where pages read it; ``section`` gives any part whole."""

    raw: Mapping[str, Any]

    def section(self, name: str) -> Mapping[str, Any]:
        part = self.raw.get(name)
        return part if isinstance(part, Mapping) else {}

    def _number(self, section: str, name: str) -> float | None:
        value = self.section(section).get(name)
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None

    def _range(self, section: str, name: str) -> tuple[float, float] | None:
        """A ``[low, high]`` pair of a section, or None (older results have none)."""
        pair = self.section(section).get(name)
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            return None
        low, high = pair
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in pair)
        return (float(low), float(high)) if numbers else None

    def _texts(self, name: str) -> tuple[str, ...]:
        return tuple(str(item) for item in self.raw.get(name) or () if item)

    @property
    def on_owned_estate(self) -> bool:
        """Whether the plan runs on the accelerators the customer already owns, where they are
        (sized on them, in their own data centre, buying none)."""
        estate = self.estate
        cost = self.section("cost")
        return bool(
            estate
            and estate.owned_count
            and estate.owned_name == self.accelerator_name
            and cost.get("recommended_option") == "buy"
            # nothing bought, or only shared storage beyond theirs: no servers
            and not any(line.get("item") == "servers" for line in self.bill_of_materials)
        )

    @property
    def estate(self) -> Estate | None:
        """What they own and their ceilings; None when they gave neither (or an older result)."""
        raw = self.section("estate")
        return _estate(raw) if raw else None

    # --- the recommended cluster ----------------------------------------------------------------

    @property
    def accelerator(self) -> str:
        return str(self.section("cluster").get("accelerator") or "")

    @property
    def accelerator_name(self) -> str:
        """The accelerator's name as stored, or from the catalog for results without it."""
        stored = self.section("cluster").get("accelerator_name")
        return str(stored) if stored else value_words("hardware.accelerator", self.accelerator)

    @property
    def gpus(self) -> int | None:
        value = self._number("cluster", "gpus")
        return None if value is None else int(value)

    @property
    def nodes(self) -> int | None:
        value = self._number("cluster", "nodes")
        return None if value is None else int(value)

    @property
    def gpus_per_node(self) -> int | None:
        value = self._number("cluster", "gpus_per_node")
        return None if value is None else int(value)

    @property
    def gpus_per_job(self) -> int | None:
        value = self._number("cluster", "gpus_per_job")
        return self.gpus if value is None else int(value)

    @property
    def nodes_per_job(self) -> int | None:
        """Servers one run uses (engine 2026.12.11; whole servers of one run's accelerators
        for older results)."""
        value = self._number("cluster", "nodes_per_job")
        if value is not None:
            return int(value)
        per_run, per_node = self.gpus_per_job, self.gpus_per_node
        return max(1, -(-per_run // per_node)) if per_run and per_node else None

    @property
    def gpus_in_service(self) -> int | None:
        """The cluster with its spare servers [accelerators] (engine 2026.12.11)."""
        value = self._number("cluster", "gpus_in_service")
        if value is not None:
            return int(value)
        spares = int(self._number("cluster", "spare_nodes") or 0)
        return None if self.gpus is None else self.gpus + spares * (self.gpus_per_node or 1)

    @property
    def runs_at_once(self) -> int:
        """Full-size runs the cluster holds at once (``concurrency.full_size_runs``)."""
        return int(self._number("concurrency", "full_size_runs") or 1)

    @property
    def wall_clock_days(self) -> float | None:
        return self._number("timeline", "wall_clock_days")

    @property
    def deadline_days(self) -> float | None:
        """The customer's deadline [d]; None when they gave none (the engine's assumed one is
        under ``assumptions``)."""
        if self.section("timeline").get("deadline_assumed"):
            return None
        return self._number("timeline", "deadline_days")

    @property
    def deadline_met(self) -> bool | None:
        """Whether one run meets the deadline; None when the run does not fit in memory."""
        met = (self.section("timeline").get("deadline") or {}).get("met", True)
        return None if met is None else bool(met)

    @property
    def fits(self) -> bool:
        """Whether the recommended (or given) cluster holds the model in memory."""
        return bool(self.section("memory").get("fits", True))

    @property
    def min_gpus(self) -> int | None:
        """The fewest accelerators on which the model fits in memory (None: unknown or none)."""
        value = self._number("memory", "min_gpus")
        return int(value) if value else None

    @property
    def min_gpus_days(self) -> float | None:
        """One run's days on :attr:`min_gpus`, when the recommended cluster does not fit."""
        value = (self.section("timeline").get("deadline") or {}).get("min_gpus_wall_clock_days")
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None

    # --- ranges from the engine's error on published runs ---------------------------------------

    @property
    def gpu_hours(self) -> float | None:
        return self._number("compute", "gpu_hours")

    @property
    def gpu_hours_range(self) -> tuple[float, float] | None:
        return self._range("compute", "gpu_hours_range")

    @property
    def wall_clock_days_range(self) -> tuple[float, float] | None:
        return self._range("timeline", "wall_clock_days_range")

    @property
    def gpus_range(self) -> tuple[int, int] | None:
        """Accelerators needed to meet the deadline at the ends of the range."""
        pair = self._range("cluster", "gpus_range")
        return None if pair is None else (int(pair[0]), int(pair[1]))

    @property
    def one_run_cloud_usd(self) -> float | None:
        return self._number("cost", "one_run_cloud_usd")

    @property
    def one_run_cloud_range_usd(self) -> tuple[float, float] | None:
        return self._range("cost", "one_run_cloud_range_usd")

    @property
    def confidence(self) -> Confidence | None:
        """What backs the ranges; None for results from before the engine gave ranges."""
        part = self.section("confidence")
        runs = part.get("published_runs")
        if not isinstance(runs, int):
            return None
        typical = part.get("typical_error")
        return Confidence(
            band=str(part.get("band") or ""),
            published_runs=runs,
            typical_error=float(typical) if isinstance(typical, int | float) else None,
            covered=bool(part.get("covered")),
            outside=tuple(str(reason) for reason in part.get("outside") or ()),
            summary=str(part.get("summary") or ""),
        )

    @property
    def timeline_options(self) -> tuple[Mapping[str, Any], ...]:
        options = self.section("timeline").get("options") or ()
        return tuple(option for option in options if isinstance(option, Mapping))

    # --- cost -----------------------------------------------------------------------------------

    @property
    def years(self) -> int:
        value = self._number("cost", "years")
        return 3 if value is None else int(value)

    @property
    def recommended_option(self) -> str:
        return str(self.section("cost").get("recommended_option") or "")

    @property
    def cost_options(self) -> tuple[CostOption, ...]:
        """The options the engine priced, in the vocabulary's order."""
        return tuple(o for o in self.all_cost_options if o.total_usd is not None)

    @property
    def all_cost_options(self) -> tuple[CostOption, ...]:
        """Every option the engine knows, priced or not (``not_priced`` says why)."""
        cost = self.section("cost")
        constraints = cost.get("constraints")
        excluded = constraints.get("excluded") if isinstance(constraints, Mapping) else None
        missing = {
            str(item.get("option")): str(item.get("reason") or "")
            for item in cost.get("not_priced") or ()
            if isinstance(item, Mapping)
        }
        options = []
        for key, label in COST_OPTIONS.items():
            option = cost.get(key)
            if key not in cost:
                continue
            rules = tuple(str(r) for r in (excluded or {}).get(key) or ())
            if not isinstance(option, Mapping):
                options.append(
                    CostOption(
                        key=key,
                        label=label,
                        total_usd=None,
                        low_usd=None,
                        high_usd=None,
                        by_year_usd=(),
                        basis="",
                        recommended=False,
                        ruled_out_by=rules,
                        not_priced=missing.get(key, ""),
                    )
                )
                continue
            low, high = (list(option.get("range_usd") or []) + [None, None])[:2]
            if key == "buy" and self.on_owned_estate:
                label = OWN_ESTATE_OPTION
            options.append(
                CostOption(
                    key=key,
                    label=label,
                    total_usd=option.get("total_usd"),
                    low_usd=low,
                    high_usd=high,
                    by_year_usd=tuple(float(v or 0) for v in option.get("by_year_usd") or ()),
                    basis=str(option.get("basis") or ""),
                    recommended=key == self.recommended_option,
                    capex_usd=option.get("capex_usd"),
                    running_usd=option.get("running_usd"),
                    ruled_out_by=rules,
                    parts_by_year_usd={
                        str(part): tuple(float(v or 0) for v in values)
                        for part, values in (option.get("parts_by_year_usd") or {}).items()
                    },
                    residual_value_usd=option.get("residual_value_usd"),
                    net_usd=_net_usd(option),
                    commitment_years=option.get("commitment_years"),
                    commitment_used_share=option.get("commitment_used_share"),
                )
            )
        return tuple(options)

    @property
    def usage_known(self) -> bool:
        """Whether the customer said how much they will train after the planned runs (question
        15: runs a month or a share of the year busy); True for results that do not say."""
        usage = self.section("cost").get("usage")
        return not isinstance(usage, Mapping) or usage.get("known") is not False

    def option_label(self, key: str) -> str:
        """A cost option's name ("" for none)."""
        option = next((o for o in self.all_cost_options if o.key == key), None)
        return option.label if option else COST_OPTIONS.get(key, "")

    @property
    def recommended_cost(self) -> CostOption | None:
        """The recommended option, or None when nothing is priced."""
        return next((o for o in self.cost_options if o.recommended), None)

    def _cost_items(self, name: str) -> tuple[Mapping[str, Any], ...]:
        return tuple(i for i in self.section("cost").get(name) or () if isinstance(i, Mapping))

    @property
    def cost_location_rule(self) -> str:
        """The customer's "where it runs" answer behind a ``location`` rule ("" if none)."""
        constraints = self.section("cost").get("constraints")
        found = constraints.get("location") if isinstance(constraints, Mapping) else None
        return str(found or "")

    @property
    def cost_undecided(self) -> str:
        """Why no option is recommended, in the engine's sentence ("" when one is; an older
        result without it reads as its first reason when nothing is recommended)."""
        cost = self.section("cost")
        found = str(cost.get("undecided") or "")
        if found or self.recommended_option:
            return found
        return self.cost_reasons[0] if self.cost_reasons else ""

    @property
    def cost_held_back(self) -> str:
        """The owned option not recommended for want of a rental price to compare ("")."""
        return str(self.section("cost").get("held_back") or "")

    @property
    def cost_binding_rules(self) -> tuple[str, ...]:
        """The rules that exclude the cheapest option overall (vocabulary.RULES keys)."""
        constraints = self.section("cost").get("constraints")
        found = constraints.get("binding") if isinstance(constraints, Mapping) else None
        return tuple(str(r) for r in found or ())

    @property
    def cost_cheapest_overall(self) -> str:
        """The cheapest priced option, whatever the rules ("" when none is priced)."""
        constraints = self.section("cost").get("constraints")
        found = constraints.get("cheapest_overall") if isinstance(constraints, Mapping) else None
        return str(found or "")

    @property
    def cost_recurring(self) -> Mapping[str, float] | None:
        """Recurring work's ``runs``, ``per_run_usd`` and ``per_month_usd`` (engine
        ``cost.recurring``; None when the work is not given in runs a month)."""
        found = self.section("cost").get("recurring")
        if not isinstance(found, Mapping):
            return None
        try:
            return {key: float(found[key]) for key in ("runs", "per_run_usd", "per_month_usd")}
        except (KeyError, TypeError, ValueError):
            return None

    @property
    def cloud_region(self) -> Mapping[str, str] | None:
        """Where the cloud options run (``place``, ``city``) and their price basis
        (``basis``), from the residency answer; None without one."""
        cost = self.section("cost")
        found = cost.get("cloud_region")
        if not isinstance(found, Mapping) or not found.get("city"):
            return None
        return {
            "place": str(found.get("place") or ""),
            "city": str(found.get("city") or ""),
            "basis": str(cost.get("cloud_price_basis") or ""),
        }

    @property
    def cost_reasons(self) -> tuple[str, ...]:
        return tuple(str(r) for r in self.section("cost").get("reasons") or () if r)

    @property
    def cost_sensitivity(self) -> tuple[Mapping[str, Any], ...]:
        """The prices that move the recommended total most, each at its low and high end."""
        return self._cost_items("sensitivity")

    @property
    def bill_of_materials(self) -> tuple[Mapping[str, Any], ...]:
        return self._cost_items("bill_of_materials")

    @property
    def bill_of_materials_option(self) -> str:
        return str(self.section("cost").get("bill_of_materials_option") or "")

    @property
    def hardware_bought(self) -> HardwareBought | None:
        """What the bill of materials buys; None when it buys no servers.  Results before
        engine 2026.12.11 lack it: their fabric is laid out by the engine's own rule from the
        bill's servers, as that engine priced it."""
        stored = self.section("cost").get("hardware_bought")
        if isinstance(stored, Mapping):
            fabric = stored.get("fabric") or {}
            return HardwareBought(
                option=str(stored.get("option") or ""),
                gpus=int(stored.get("gpus") or 0),
                servers=int(stored.get("servers") or 0),
                fabric_tiers=int(fabric.get("tiers") or 0),
                switches=int(fabric.get("switches") or 0),
                oversubscription=float(fabric.get("oversubscription") or 1.0),
                fabric=str(stored.get("fabric_words") or ""),
            )
        servers = next((i for i in self.bill_of_materials if i.get("item") == "servers"), None)
        gpus = int((servers or {}).get("quantity") or 0)
        if not gpus or "hardware_bought" in self.section("cost"):
            return None
        per_node = self.gpus_per_node or 1
        ratio = float(self.section("network").get("oversubscription") or 1.0)
        layout = fabric_layout(gpus, per_node, ratio)
        return HardwareBought(
            option=self.bill_of_materials_option,
            gpus=gpus,
            servers=max(1, gpus // per_node),
            fabric_tiers=layout.tiers,
            switches=layout.switches,
            oversubscription=layout.oversubscription,
            fabric=fabric_words(layout),
        )

    @property
    def money(self) -> Money:
        """The formatter of every amount of this result: the currency of the country the
        hardware runs in (``cost.currency``); US dollars for a result stored before it."""
        view = self.section("cost").get("currency")
        if not isinstance(view, Mapping) or not view.get("code") or not view.get("per_usd"):
            return USD
        return Money(str(view["code"]), float(view["per_usd"]))

    @property
    def currency(self) -> Mapping[str, Any]:
        """``cost.currency``: code, rate per US dollar, its date and source, the place."""
        view = self.section("cost").get("currency")
        return view if isinstance(view, Mapping) else {}

    @property
    def cost_in_euros(self) -> Mapping[str, Any]:
        eur = self.section("cost").get("eur")
        return eur if isinstance(eur, Mapping) else {}

    # --- what the engine says in words ------------------------------------------------------------

    @property
    def drivers(self) -> tuple[str, ...]:
        return self._texts("drivers")

    @property
    def open_questions(self) -> tuple[str, ...]:
        return self._texts("open_questions")

    @property
    def risks(self) -> tuple[str, ...]:
        return self._texts("risks")

    @property
    def warnings(self) -> tuple[str, ...]:
        return self._texts("warnings")

    @cached_property
    def assumptions(self) -> tuple[UsedAssumption, ...]:
        # read once per result: the figures, their provenance and the cost's words each look
        # some up, among more than a hundred (issue 29: three readings on every review page)
        return tuple(
            UsedAssumption(
                key=str(item.get("key", "")),
                value=item.get("value"),
                unit=str(item.get("unit") or ""),
                source=str(item.get("source") or ""),
                rationale=str(item.get("rationale") or ""),
                provided_by=str(item.get("provided_by") or ""),
                as_of=str(item.get("as_of") or ""),
            )
            for item in self.raw.get("assumptions") or ()
            if isinstance(item, Mapping)
        )

    @property
    def alternatives(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(a for a in self.raw.get("alternatives") or () if isinstance(a, Mapping))

    @property
    def excluded_accelerators(self) -> tuple[str, ...]:
        """Accelerators the customer's makers or software rule out, each with the reason."""
        return self._texts("excluded_accelerators")

    @property
    def price_sources(self) -> tuple[Mapping[str, Any], ...]:
        sources = self.section("cost").get("price_sources") or ()
        return tuple(item for item in sources if isinstance(item, Mapping))


def read_result(result: Mapping[str, Any] | None) -> StoredResult:
    """A stored engine result (or None, for a version not sized yet) ready to read."""
    return StoredResult(raw=result or {})


def _net_usd(option: Mapping[str, Any]) -> float | None:
    """An option's net figure: the engine's ``net_usd``, or for a result stored before engine
    2026.12.9 the same rule (``total_usd - residual_value_usd``)."""
    if option.get("net_usd") is not None:
        return float(option["net_usd"])
    total = option.get("total_usd")
    return None if total is None else float(total) - float(option.get("residual_value_usd") or 0)
