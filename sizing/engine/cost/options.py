"""Every way to pay for the same work, priced with one :class:`~.price_set.PriceSet`.

An option whose price is not published for the accelerator (no cloud listing, no purchase
price) is ``None``: it is left out, never priced with another accelerator's figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..frozen_copies import with_changes
from ..hardware import AcceleratorSpec
from ..reads import noting_reads
from .cloud import STORAGE_PRICES, on_demand, rented_storage_usd, reserved
from .hybrid import BaseSplit, base_splits, hybrid
from .option import (
    BUY,
    CLOUD_LARGE,
    CLOUD_ON_DEMAND,
    COLOCATION,
    OPTIONS,
    RESERVED_1YR,
    RESERVED_3YR,
    Priced,
)
from .owned import (
    NO_HELP,
    PURCHASE_PRICES,
    Owned,
    OwnedSite,
    Purchases,
    RentedHelp,
    owned,
    owned_capacity,
    purchases,
    with_spares,
    within_estate,
)
from .price_set import PriceSet
from .usage import Usage


@dataclass(frozen=True)
class CostCase:
    """What is being priced: the work, the cluster and where owned hardware would sit."""

    acc: AcceleratorSpec
    usage: Usage
    cluster_gpus: int
    gpus_per_node: int
    storage_tb: float  # [TB] the whole working set while a run runs
    hybrid_in_colocation: bool  # the hybrid's base in a rented data centre
    spares_wanted: bool | None = None  # the customer's answer (resilience.spare_nodes)
    oversubscription: float = 1.0  # [x] of the fabric's leaf uplinks (network.fabric_layout)
    fabric: bool = True  # runs span servers (else no fabric between them is bought)
    # [TB] rented storage kept between runs (cost.cloud.rented_storage_usd); None: all of it
    storage_kept_tb: float | None = None
    # hardware that is yours alone: a reservation is a dedicated, single-tenant cluster, sold
    # as whole servers (bare metal), never a share of one
    whole_servers_reserved: bool = False
    owned_gpus: int = 0  # [GPUs] the customer already owns (cost.owned: no capital)
    owned_storage_tb: float | None = None  # [TB] shared storage they own (None: as needed)
    # the owned option holds only the accelerators they own: hours beyond them are rented
    # beside the estate (estate.added), so the option buys none to serve them
    owned_only: bool = False
    help: RentedHelp = NO_HELP  # rented beside the owned ones for each run (cost.owned)


@dataclass(frozen=True)
class PricedOptions:
    """Each option's cost (``None``: not priced) and the owned ones in detail."""

    options: Mapping[str, Priced | None]
    owned: Mapping[str, Owned]
    capacity: tuple[int, ...]  # [GPUs] working accelerators an owned cluster needs, by year
    owned_gpus: tuple[int, ...]  # [GPUs] bought: the working ones and the hot spares


def _site(case: CostCase, *, colocation: bool, helped: bool = False) -> OwnedSite:
    """Where ``case``'s owned hardware sits; ``helped``: with the help rented for each run
    (the owned options; the hybrid rents its own peaks)."""
    return OwnedSite(
        case.acc,
        case.gpus_per_node,
        case.storage_tb,
        colocation,
        case.spares_wanted,
        case.oversubscription,
        case.owned_gpus,
        case.fabric,
        case.owned_storage_tb,
        case.help if helped else NO_HELP,
    )


class OptionPricing:
    """The options of one case and price set, each priced when asked (see the ``cost_*``
    modules for the formulas); what does not depend on the prices is worked out once."""

    def __init__(self, case: CostCase, prices: PriceSet) -> None:
        self.case, self.prices = case, prices
        capacity = owned_capacity(
            case.usage, cluster_gpus=case.cluster_gpus, gpus_per_node=case.gpus_per_node
        )
        if case.owned_only and case.owned_gpus:
            capacity = tuple(min(gpus, case.owned_gpus) for gpus in capacity)
        self.capacity = capacity
        self.spared = within_estate(
            capacity, with_spares(capacity, case.gpus_per_node, case.spares_wanted), case.owned_gpus
        )
        self.owned: dict[str, Owned] = {}
        # what buying each capacity costs (buying and colocation's, each hybrid base's)
        self._bought: dict[tuple[int, ...], Purchases] = {}
        self._splits: tuple[BaseSplit, ...] | None = None
        self._sites: dict[tuple[bool, bool], OwnedSite] = {}  # by colocation and help
        # the storage each cloud option rents (key None), and each hybrid base's peaks (its base)
        self._storage: dict[int | None, tuple[float, ...]] = {}

    def at_prices(self, prices: PriceSet) -> OptionPricing:
        """The same case priced with ``prices``: what does not depend on the prices (the
        capacity, the hybrid's bases and their work) is not worked out again, nor what is
        bought when ``prices`` holds the same purchase prices (:data:`owned.PURCHASE_PRICES`),
        nor the storage rented when it holds the same storage price
        (:data:`cloud.STORAGE_PRICES`)."""
        other = object.__new__(type(self))
        other.case, other.prices = self.case, prices
        other.capacity, other.spared = self.capacity, self.spared
        other.owned = {}
        other._sites = self._sites
        other._bought = self._bought if self._same(prices, PURCHASE_PRICES) else {}
        other._storage = self._storage if self._same(prices, STORAGE_PRICES) else {}
        other._splits = self._hybrid_splits()
        return other

    def with_usage(self, usage: Usage) -> OptionPricing:
        """The case with other work (``usage``) at the same prices: where the owned hardware
        sits and what buying each capacity costs do not depend on the work, so the pricings
        of one case's what-ifs (:func:`sensitivity.usage_swings`, :mod:`.break_even`) buy each
        capacity once; the rest is worked out for the new work."""
        other = OptionPricing(with_usage(self.case, usage), self.prices)
        other._sites, other._bought = self._sites, self._bought
        return other

    def totals(self, options: Iterable[str] = OPTIONS) -> dict[str, float]:
        """Each priced option's net figure (:func:`totals`) [USD]."""
        return {
            key: priced.net_usd
            for key in options
            for priced in (self.price(key),)
            if priced is not None
        }

    def price(self, option: str) -> Priced | None:
        """The option's cost, ``None`` when it is not priced."""
        case, prices = self.case, self.prices
        usage, tb, kept = case.usage, case.storage_tb, case.storage_kept_tb
        if option in (CLOUD_ON_DEMAND, CLOUD_LARGE):
            price = prices.gpu_cloud if option == CLOUD_ON_DEMAND else prices.large_cloud
            if price is None:
                return None
            return on_demand(
                usage,
                price.value,
                storage_tb=tb,
                prices=prices,
                kept_tb=kept,
                storage=self._rented_storage(),
            )
        if option in (RESERVED_1YR, RESERVED_3YR):
            one_year = option == RESERVED_1YR
            ratio = prices.reserved_1yr_ratio if one_year else prices.reserved_3yr_ratio
            hourly = prices.reserved(ratio)
            if hourly is None:
                return None
            held = (
                tuple(-(-gpus // case.gpus_per_node) * case.gpus_per_node for gpus in self.capacity)
                if case.whole_servers_reserved
                else self.capacity
            )
            return reserved(
                usage,
                held,
                hourly,
                term_years=1 if one_year else 3,
                storage_tb=tb,
                prices=prices,
                kept_tb=kept,
                storage=self._rented_storage(),
            )
        if not (prices.purchase is not None or max(self.spared) <= case.owned_gpus):
            return None
        if option in (BUY, COLOCATION):
            site = self._site(colocation=option == COLOCATION, helped=True)
            bought = self._purchases(self.spared)
            self.owned[option] = owned(usage, self.spared, site, prices, bought=bought)
            return self.owned[option].priced
        on_demand_price = prices.gpu_cloud or prices.large_cloud
        if on_demand_price is None:
            return None
        return hybrid(
            usage,
            self.capacity,
            self._site(colocation=case.hybrid_in_colocation),
            prices,
            cloud_price=on_demand_price.value,
            storage_tb=tb,
            kept_tb=kept,
            splits=self._hybrid_splits(),
            bought=self._purchases,
            storage=self._rented_storage,
        )

    def _same(self, prices: PriceSet, names: tuple[str, ...]) -> bool:
        """Whether ``prices`` holds the very prices named ``names`` this pricing's do."""
        return all(getattr(prices, name) is getattr(self.prices, name) for name in names)

    def _rented_storage(self, split: BaseSplit | None = None) -> tuple[float, ...]:
        """The storage the work rents (:func:`cloud.rented_storage_usd`), or a hybrid base's
        peaks (``split``), worked out once: every cloud option rents the same, and a pricing
        at other prices keeps it when the storage price is the same (:meth:`at_prices`)."""
        key = None if split is None else split.base
        found = self._storage.get(key)
        if found is None:
            case = self.case
            found = self._storage[key] = rented_storage_usd(
                case.usage if split is None else split.peaks,
                case.storage_tb,
                case.storage_kept_tb,
                self.prices,
            )
        return found

    def _hybrid_splits(self) -> tuple[BaseSplit, ...]:
        """The hybrid's bases and the work each serves (:func:`hybrid.base_splits`)."""
        if self._splits is None:
            case = self.case
            site = self._site(colocation=case.hybrid_in_colocation)
            self._splits = base_splits(case.usage, self.capacity, site)
        return self._splits

    def _site(self, *, colocation: bool, helped: bool = False) -> OwnedSite:
        """Where the case's owned hardware sits (:func:`_site`), made once for each place and
        kept by the pricings at other prices (no price plays a part)."""
        found = self._sites.get((colocation, helped))
        if found is None:
            found = self._sites[colocation, helped] = _site(
                self.case, colocation=colocation, helped=helped
            )
        return found

    def _purchases(self, capacity: tuple[int, ...]) -> Purchases:
        """What buying ``capacity`` costs (:func:`owned.purchases`), worked out once: it does
        not depend on where the hardware sits, so buying and colocation share it."""
        found = self._bought.get(capacity)
        if found is None:
            case = self.case
            found = self._bought[capacity] = purchases(
                capacity,
                gpus_per_node=case.gpus_per_node,
                storage_tb=case.storage_tb,
                prices=self.prices,
                oversubscription=case.oversubscription,
                owned_gpus=case.owned_gpus,
                fabric=case.fabric,
                owned_storage_tb=case.owned_storage_tb,
            )
        return found


def price_options(case: CostCase, prices: PriceSet) -> PricedOptions:
    """Price every option for ``case`` (see the ``cost_*`` modules for the formulas)."""
    pricing = OptionPricing(case, prices)
    options = {option: pricing.price(option) for option in OPTIONS}
    return PricedOptions(options, pricing.owned, pricing.capacity, pricing.spared)


def prices_read(case: CostCase, prices: PriceSet) -> dict[str, frozenset[str]]:
    """The :class:`PriceSet` fields each option's cost reads for ``case`` [-].

    An option that does not read a price costs the same whatever that price is, so the
    sensitivity analysis re-prices only the options that read the price it moves.  Each
    option is priced once with a copy of ``prices`` that notes every field read on it, or
    on any copy made of it, however deep in the formulas.
    """
    return price_options_reading(case, prices)[1]


def price_options_reading(
    case: CostCase, prices: PriceSet
) -> tuple[PricedOptions, dict[str, frozenset[str]]]:
    """:func:`price_options` and :func:`prices_read` at once: each option is priced with its
    own noting copy of ``prices`` (the same values, so the same costs), which saves the
    sensitivity analysis a second pricing of every option at the prices given."""
    options: dict[str, Priced | None] = {}
    owned_by_option: dict[str, Owned] = {}
    reads: dict[str, frozenset[str]] = {}
    pricing = OptionPricing(case, prices)
    for option in OPTIONS:
        read: set[str] = set()
        # one pricing per option: buying and colocation share their purchases within one, and
        # the second would then note none of the prices the purchases read
        noting = OptionPricing(case, noting_reads(prices, read))
        options[option] = noting.price(option)
        owned_by_option.update(noting.owned)
        reads[option] = frozenset(read)
    return PricedOptions(options, owned_by_option, pricing.capacity, pricing.spared), reads


def totals(case: CostCase, prices: PriceSet, options: Iterable[str] = OPTIONS) -> dict[str, float]:
    """Each priced option's net figure over the horizon (:attr:`Priced.net_usd`) [USD]: the
    one the recommendation, the ranges and the break-even compare; ``options``: those asked
    for (each option's cost is its own, whichever others are priced beside it)."""
    return OptionPricing(case, prices).totals(options)


def with_usage(case: CostCase, usage: Usage) -> CostCase:
    """The same case with other work (for break-even and property checks)."""
    return with_changes(case, usage=usage)
