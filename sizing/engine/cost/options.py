"""Every way to pay for the same work, priced with one :class:`~.price_set.PriceSet`.

An option whose price is not published for the accelerator (no cloud listing, no purchase
price) is ``None``: it is left out, never priced with another accelerator's figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..hardware import AcceleratorSpec
from .cloud import on_demand, reserved
from .hybrid import hybrid
from .option import (
    BUY,
    CLOUD_LARGE,
    CLOUD_ON_DEMAND,
    COLOCATION,
    HYBRID,
    OPTIONS,
    RESERVED_1YR,
    RESERVED_3YR,
    Priced,
)
from .owned import (
    NO_HELP,
    Owned,
    OwnedSite,
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


def price_options(case: CostCase, prices: PriceSet) -> PricedOptions:
    """Price every option for ``case`` (see the ``cost_*`` modules for the formulas)."""
    usage, tb, kept = case.usage, case.storage_tb, case.storage_kept_tb
    capacity = owned_capacity(
        usage, cluster_gpus=case.cluster_gpus, gpus_per_node=case.gpus_per_node
    )
    if case.owned_only and case.owned_gpus:
        capacity = tuple(min(gpus, case.owned_gpus) for gpus in capacity)
    options: dict[str, Priced | None] = dict.fromkeys(OPTIONS)
    on_demand_price = prices.gpu_cloud or prices.large_cloud
    if prices.gpu_cloud is not None:
        options[CLOUD_ON_DEMAND] = on_demand(
            usage, prices.gpu_cloud.value, storage_tb=tb, prices=prices, kept_tb=kept
        )
    if prices.large_cloud is not None:
        options[CLOUD_LARGE] = on_demand(
            usage, prices.large_cloud.value, storage_tb=tb, prices=prices, kept_tb=kept
        )
    held = (
        tuple(-(-gpus // case.gpus_per_node) * case.gpus_per_node for gpus in capacity)
        if case.whole_servers_reserved
        else capacity
    )
    for key, ratio, term in (
        (RESERVED_1YR, prices.reserved_1yr_ratio, 1),
        (RESERVED_3YR, prices.reserved_3yr_ratio, 3),
    ):
        price = prices.reserved(ratio)
        if price is not None:
            options[key] = reserved(
                usage,
                held,
                price,
                term_years=term,
                storage_tb=tb,
                prices=prices,
                kept_tb=kept,
            )
    owned_options: dict[str, Owned] = {}
    spared = within_estate(
        capacity, with_spares(capacity, case.gpus_per_node, case.spares_wanted), case.owned_gpus
    )
    if prices.purchase is not None or max(spared) <= case.owned_gpus:
        bought = purchases(
            spared,
            gpus_per_node=case.gpus_per_node,
            storage_tb=tb,
            prices=prices,
            oversubscription=case.oversubscription,
            owned_gpus=case.owned_gpus,
            fabric=case.fabric,
            owned_storage_tb=case.owned_storage_tb,
        )
        for key, colocation in ((BUY, False), (COLOCATION, True)):
            site = _site(case, colocation=colocation, helped=True)
            owned_options[key] = owned(usage, spared, site, prices, bought=bought)
            options[key] = owned_options[key].priced
        if on_demand_price is not None:
            options[HYBRID] = hybrid(
                usage,
                capacity,
                _site(case, colocation=case.hybrid_in_colocation),
                prices,
                cloud_price=on_demand_price.value,
                storage_tb=tb,
                kept_tb=kept,
            )
    return PricedOptions(options, owned_options, capacity, spared)


def totals(case: CostCase, prices: PriceSet) -> dict[str, float]:
    """Each priced option's net figure over the horizon (:attr:`Priced.net_usd`) [USD]: the
    one the recommendation, the ranges and the break-even compare."""
    return {
        key: priced.net_usd
        for key, priced in price_options(case, prices).options.items()
        if priced is not None
    }


def with_usage(case: CostCase, usage: Usage) -> CostCase:
    """The same case with other work (for break-even and property checks)."""
    return replace(case, usage=usage)
