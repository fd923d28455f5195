"""Owned hardware: how many accelerators to own each year, the bill of materials and its
capital cost, and the book value left after the horizon.

Capacity owned in year ``k`` (never shrinks)::

    O_k = max(O_{k-1}, N_cluster, A_k / (8760 x u_max))    rounded up to whole nodes
    owned = O_k + hot spare nodes (8 % of the nodes from 4 nodes up, as the plan keeps)

Bill of materials for ``O`` accelerators on nodes of ``n``::

    servers      = O x P_accelerator               (a server's price per accelerator: a
                                                    smaller server is priced pro rata,
                                                    so one accelerator never buys eight)
    switches     = S x P_switch                     (S, and the links, from the fabric's layout:
    links        = L_servers x P_link                :func:`.network.fabric_layout`; one
    switch links = L_switches x P_link               network card per accelerator)
    storage      = TB x P_TB
    installation = share x (servers + switches + links + storage)

Year ``k`` buys the difference between the bills for ``O_k`` and ``O_{k-1}`` (storage in
year 0).  Book value after ``Y`` years: each year's hardware x max(0, 1 - (Y - k) / life).

Accelerators the customer already owns (``E``, with the servers, network and storage that
hold them) cost no capital: year ``k`` buys only the bill for ``O_k`` above the bill for
``E``, line by line (servers, switches, links and storage beyond theirs, :func:`beyond`),
nothing while ``O_k <= E`` (hot spares come out of the owned estate first) unless the shared
storage they own (``TB_E``, when they say) is short of what the run needs: then only the
shortfall ``TB - TB_E`` is bought.  The book value counts only what is bought.  A card with no catalog purchase price still works
while the estate holds the cluster: nothing is bought, so nothing needs a price.  The owned
estate's running cost (power, space, support, staff) stays, as for any owned hardware.

References
----------
.. [1] H100 Freakonomics (substack.tech-talk-cto.com, Aug 2024): switch layers by cluster
       size and switch counts (8 switches for 512 GPUs on one layer, 48 for 1,024 on two,
       2,560 for 32,768 on three).
.. [2] Llama 3 Herd of Models, arXiv 2407.21783, sec. 3.3.4 (> 90 % effective training time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..assumptions import value
from ..hardware import AcceleratorSpec
from ..network import FabricLayout, fabric_layout, fabric_words
from ..resilience import spare_nodes
from ..units import HOURS_PER_YEAR
from .option import HARDWARE, POWER, RENTED, SPACE, STAFF, SUPPORT, Priced
from .price_set import PriceSet
from .running import RunningYears, busy_power_usd_per_gpu_hour, running_years
from .usage import Usage

SERVERS = "servers"
SWITCHES = "switches"
LINKS = "links"  # network card to its switch
SWITCH_LINKS = "switch_links"  # leaf to spine (two tiers and more)
STORAGE = "storage"
INSTALLATION = "installation"


@dataclass(frozen=True)
class BomLine:
    """One line of the bill of materials [USD]."""

    item: str  # SERVERS | SWITCHES | LINKS | SWITCH_LINKS | STORAGE | INSTALLATION
    quantity: float
    unit_usd: float
    total_usd: float


def whole_nodes(gpus: float, gpus_per_node: int) -> int:
    """Accelerators rounded up to whole nodes; within one node to 1, 2, 4 or 8 [GPUs]."""
    need = max(1, math.ceil(gpus - 1e-9))
    if need > gpus_per_node:
        return math.ceil(need / gpus_per_node) * gpus_per_node
    return min(gpus_per_node, 1 << (need - 1).bit_length())


def owned_capacity(usage: Usage, *, cluster_gpus: int, gpus_per_node: int) -> tuple[int, ...]:
    """Accelerators owned each year: the cluster, more when demand outgrows it [GPUs]."""
    most = HOURS_PER_YEAR * value("owned_max_utilisation")
    owned = cluster_gpus
    out = []
    for demand in usage.gpu_hours_by_year:
        if demand > owned * most:
            owned = whole_nodes(demand / most, gpus_per_node)
        out.append(owned)
    return tuple(out)


def with_spares(
    capacity: tuple[int, ...], gpus_per_node: int, wanted: bool | None = None
) -> tuple[int, ...]:
    """Owned capacity plus the hot spare nodes the plan keeps (8 % from 4 nodes up, or as the
    customer answered: :func:`resilience.spare_nodes`) [GPUs].

    Renting needs none: the provider replaces a failed node.
    """
    return tuple(
        gpus + spare_nodes(math.ceil(gpus / gpus_per_node), wanted) * gpus_per_node
        for gpus in capacity
    )


def within_estate(
    capacity: tuple[int, ...], spared: tuple[int, ...], owned_gpus: int
) -> tuple[int, ...]:
    """Accelerators held each year when ``owned_gpus`` are already the customer's: a
    capacity the estate holds keeps it (its hot spares are owned cards, as many as are left
    over); a larger one is bought with its spares [GPUs]."""
    if not owned_gpus:
        return spared
    return tuple(
        s if c > owned_gpus else max(c, min(s, owned_gpus))
        for c, s in zip(capacity, spared, strict=True)
    )


def bill_of_materials(
    gpus: int,
    *,
    gpus_per_node: int,
    storage_tb: float,
    prices: PriceSet,
    oversubscription: float = 1.0,
    fabric: bool = True,
) -> tuple[BomLine, ...]:
    """What owning ``gpus`` accelerators takes, line by line (see module docstring);
    ``oversubscription`` is the fabric's, from two switch tiers on [x]; without ``fabric``
    (each run fits in one server) no switches or links between servers are bought."""
    purchase = prices.purchase
    if purchase is None:
        return ()
    layout = _layout(gpus, gpus_per_node, oversubscription, fabric)
    switches, links, uplinks = layout.switches, layout.server_links, layout.switch_links
    lines = [
        BomLine(SERVERS, gpus, purchase.value, gpus * purchase.value),
        BomLine(SWITCHES, switches, prices.switch.value, switches * prices.switch.value),
        BomLine(LINKS, links, prices.link.value, links * prices.link.value),
        BomLine(SWITCH_LINKS, uplinks, prices.link.value, uplinks * prices.link.value),
        BomLine(
            STORAGE, storage_tb, prices.storage_owned.value, storage_tb * prices.storage_owned.value
        ),
    ]
    hardware = sum(line.total_usd for line in lines)
    share = prices.installation_share.value
    lines.append(BomLine(INSTALLATION, 1, hardware * share, hardware * share))
    return tuple(line for line in lines if line.quantity)


@dataclass(frozen=True)
class HardwareBought:
    """What the owned option shown buys by the plan's last year: the bill's accelerators, the
    servers that hold them and the fabric that links them all (the layout the bill's switches
    and links are priced from), so no page derives them again."""

    option: str  # the owned option whose bill this is (cost.bill_of_materials_option)
    gpus: int  # [accelerators] the bill's servers line, hot spares included
    servers: int  # [servers] whole servers of ``gpus_per_node`` (one, part-filled, below that)
    fabric: FabricLayout  # switches and links for every server bought
    fabric_words: str  # the layout in a few words (network.fabric_words)


def _layout(gpus: int, gpus_per_node: int, oversubscription: float, fabric: bool) -> FabricLayout:
    """The fabric bought for ``gpus``: none when no run spans servers (``fabric`` false)."""
    if not fabric:
        return fabric_layout(min(gpus, gpus_per_node), gpus_per_node)  # one server's: none
    return fabric_layout(gpus, gpus_per_node, oversubscription)


def hardware_bought(
    bill: tuple[BomLine, ...],
    option: str,
    *,
    gpus_per_node: int,
    oversubscription: float = 1.0,
    fabric: bool = True,
) -> HardwareBought | None:
    """The hardware ``bill`` buys, or None when it buys no servers (see :class:`HardwareBought`);
    the fabric is the one :func:`bill_of_materials` priced for the same accelerators."""
    gpus = int(next((line.quantity for line in bill if line.item == SERVERS), 0))
    if not gpus:
        return None
    layout = _layout(gpus, gpus_per_node, oversubscription, fabric)
    return HardwareBought(
        option=option,
        gpus=gpus,
        servers=max(1, gpus // gpus_per_node),
        fabric=layout,
        fabric_words=fabric_words(layout),
    )


def bom_total(lines: tuple[BomLine, ...], *, hardware_only: bool = False) -> float:
    """Sum of a bill [USD]; ``hardware_only`` leaves installation out."""
    return sum(
        line.total_usd for line in lines if not (hardware_only and line.item == INSTALLATION)
    )


@dataclass(frozen=True)
class Purchases:
    """What is bought each year and what it is worth at the end [USD]."""

    capex_by_year: tuple[float, ...]
    hardware_by_year: tuple[float, ...]  # capex without installation, cumulative
    residual_usd: float
    bill: tuple[BomLine, ...]  # for the largest capacity
    # [USD] the owned estate's hardware at catalog prices (support contracts only; 0 unknown)
    held_usd: float = 0.0


# The PriceSet fields :func:`purchases` reads (a test checks it reads no other): what is
# bought costs the same whatever the running prices, the rents and the shares are, so a
# pricing at other such prices keeps it (:meth:`cost.options.OptionPricing.at_prices`).
PURCHASE_PRICES = (
    "purchase",
    "switch",
    "link",
    "storage_owned",
    "installation_share",
    "depreciation_years",
)


def purchases(
    capacity: tuple[int, ...],
    *,
    gpus_per_node: int,
    storage_tb: float,
    prices: PriceSet,
    oversubscription: float = 1.0,
    owned_gpus: int = 0,
    fabric: bool = True,
    owned_storage_tb: float | None = None,
) -> Purchases:
    """Capital spent each year to own ``capacity`` (see module docstring); ``owned_gpus``:
    accelerators the customer already owns, bought by no year; ``owned_storage_tb``: the
    shared storage they own with them (None: as much as the run needs), so only the shortfall
    is bought."""
    years = len(capacity)
    life = prices.depreciation_years.value
    capex: list[float] = []
    owned_hw: list[float] = []
    residual = 0.0
    prev_total = prev_hw = 0.0
    bill: tuple[BomLine, ...] = ()
    total = hardware = 0.0
    held: tuple[BomLine, ...] = ()
    held_storage = storage_tb if owned_storage_tb is None else min(storage_tb, owned_storage_tb)
    if owned_gpus:
        held = bill_of_materials(
            owned_gpus,
            gpus_per_node=gpus_per_node,
            storage_tb=held_storage,
            prices=prices,
            oversubscription=oversubscription,
        )
    for k, gpus in enumerate(capacity):
        if k == 0 or gpus != capacity[k - 1]:  # the same capacity has the same bill
            bill = ()
            if gpus > owned_gpus or (owned_gpus and storage_tb > held_storage):
                bill = beyond(
                    bill_of_materials(
                        gpus,
                        gpus_per_node=gpus_per_node,
                        storage_tb=storage_tb,
                        prices=prices,
                        oversubscription=oversubscription,
                        fabric=fabric,
                    ),
                    held,
                    installation_share=prices.installation_share.value,
                )
            total, hardware = bom_total(bill), bom_total(bill, hardware_only=True)
        capex.append(total - prev_total)
        residual += (hardware - prev_hw) * max(0.0, 1.0 - (years - k) / life)
        owned_hw.append(hardware)
        prev_total, prev_hw = total, hardware
    return Purchases(
        tuple(capex), tuple(owned_hw), residual, bill, bom_total(held, hardware_only=True)
    )


def beyond(
    bill: tuple[BomLine, ...], held: tuple[BomLine, ...], *, installation_share: float
) -> tuple[BomLine, ...]:
    """What ``bill`` buys beyond what the customer already holds (``held``, a bill at catalog
    prices), line by line: the servers, switches, links and storage above theirs, installed
    at the same share [USD]; the whole bill when they hold nothing."""
    if not held:
        return bill
    have = {line.item: line.quantity for line in held}
    lines = [
        BomLine(line.item, quantity, line.unit_usd, quantity * line.unit_usd)
        for line in bill
        if line.item != INSTALLATION
        for quantity in (max(0.0, line.quantity - have.get(line.item, 0.0)),)
        if quantity > 1e-9
    ]
    hardware = sum(line.total_usd for line in lines)
    if hardware:
        cost = hardware * installation_share
        lines.append(BomLine(INSTALLATION, 1, cost, cost))
    return tuple(lines)


@dataclass(frozen=True)
class RentedHelp:
    """Accelerators rented beside the owned ones for every run (:mod:`sizing.engine.estate`):
    the owned ones do ``owned_share`` of each run's work, and the rest is rented at
    ``usd_per_run`` a run.  The owned option's total then holds the rent of every run of the
    horizon, so a three-year figure is never below one run's rent."""

    owned_share: float = 1.0  # [-] of each run's accelerator-hours worked on the owned ones
    usd_per_run: float = 0.0  # [USD] the help rented for one run


NO_HELP = RentedHelp()  # nothing rented beside the owned ones


@dataclass(frozen=True)
class OwnedSite:
    """Where owned hardware runs and what it sits on."""

    acc: AcceleratorSpec
    gpus_per_node: int
    storage_tb: float
    colocation: bool  # a rented data centre (else the customer's own)
    spares_wanted: bool | None = None  # the customer's answer (resilience.spare_nodes)
    oversubscription: float = 1.0  # [x] of the fabric's leaf uplinks (network.fabric_layout)
    owned_gpus: int = 0  # [GPUs] already the customer's: no capital (module docstring)
    fabric: bool = True  # runs span servers (else no fabric between them is bought)
    owned_storage_tb: float | None = None  # [TB] shared storage they own (None: as needed)
    help: RentedHelp = NO_HELP  # rented beside the owned ones for each run


@dataclass(frozen=True)
class Owned:
    """Owning ``capacity``: the money and what it buys."""

    priced: Priced
    bought: Purchases
    running: RunningYears


def owned(
    usage: Usage,
    capacity: tuple[int, ...],
    site: OwnedSite,
    prices: PriceSet,
    *,
    bought: Purchases | None = None,
) -> Owned:
    """Buy and run ``capacity`` for the horizon (module docstring); ``bought``: the purchases
    when already worked out (they do not depend on where the hardware sits)."""
    if bought is None:
        bought = purchases(
            capacity,
            gpus_per_node=site.gpus_per_node,
            storage_tb=site.storage_tb,
            prices=prices,
            oversubscription=site.oversubscription,
            owned_gpus=site.owned_gpus,
            fabric=site.fabric,
            owned_storage_tb=site.owned_storage_tb,
        )
    demand = usage.gpu_hours_by_year
    share, per_run = site.help.owned_share, usage.gpu_hours_per_run
    worked = [hours * share for hours in demand]
    held_usd = bought.held_usd
    running = running_years(
        capacity,
        worked,
        [hardware + held_usd for hardware in bought.hardware_by_year],
        acc=site.acc,
        prices=prices,
        colocation=site.colocation,
    )
    busy = busy_power_usd_per_gpu_hour(site.acc, prices, colocation=site.colocation)
    served = sum(
        [min(hours, gpus * HOURS_PER_YEAR) for gpus, hours in zip(capacity, worked, strict=True)]
    )
    rent = site.help.usd_per_run
    rented = tuple(  # the help each year's runs need
        [rent * hours / per_run if per_run else 0.0 for hours in demand]
    )
    capex = bought.capex_by_year
    parts = {
        HARDWARE: capex,
        POWER: running.power_usd,
        SPACE: running.space_usd,
        SUPPORT: running.support_usd,
        STAFF: running.staff_usd,
    }
    if rent:
        parts[RENTED] = rented
    priced = Priced(
        by_year_usd=tuple(
            [c + r + h for c, r, h in zip(capex, running.totals_usd(), rented, strict=True)]
        ),
        capex_usd=sum(capex),
        scales_usd=served * busy + sum(rented),
        residual_usd=bought.residual_usd,
        capacity=capacity,
        parts_by_year_usd=parts,
    )
    return Owned(priced, bought, running)
