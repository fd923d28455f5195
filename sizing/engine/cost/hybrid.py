"""Owning and renting: buying the hardware, or buying a base and renting the peaks.

Owned, year ``k`` (capacity ``O_k``, :mod:`sizing.engine.cost.owned`)::

    cost_k = capex_k + running(O_k, busy = min(A_k, O_k x 8760))

Hybrid: own a base ``B`` sized to the steady load and rent the peaks.  A run cannot be split
between the owned base and the cloud (its accelerators exchange gradients every step), so
the base is whole runs of ``G`` accelerators (whole nodes), at least one, bought with its hot
spares.  Each year's load, as runs busy all year at the owned ceiling, is
``s_k = A_k / (8760 x u_max x G)``; an owned accelerator kept busy costs less than renting it
above the break-even, and one left idle costs more, so the cheapest base is at most
``K = ceil(max s_k)`` runs; the bases tried are every whole run from one to 32, then a grid
fixed in advance (each about 5 % above the last) up to ``K``, and ``K``; the cheapest by its
net figure is the hybrid.  Because the bases tried never move with the demand, more work
never makes the hybrid cheaper::

    B       = argmin over those bases of net(B)
    owned_k = min(A_k, B x 8760 x u_max)
    cost_k  = capex_k(B) + running(B, owned_k) + (A_k - owned_k) x p x (1 + idle)
              + cloud storage in years with cloud work

When one run needs the whole cluster, the base is the whole cluster (the sensible split:
the steady runs on owned hardware, only the growth and the work beyond the owned ceiling in
the cloud), and the hybrid costs what buying does when nothing is left to rent; it is still
priced, and its basis says so.

References
----------
.. [1] Llama 3 Herd of Models, arXiv 2407.21783 (2024), sec. 3.3.4: more than 90 % effective
       training time, the most an owned base serves (``u_max``, assumption
       ``owned_max_utilisation``).
.. [2] The owned and rented parts: :mod:`sizing.engine.cost.owned` and
       :mod:`sizing.engine.cost.cloud`, with their references.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..assumptions import value
from ..frozen_copies import with_changes
from ..units import HOURS_PER_YEAR
from .cloud import rented_storage_usd
from .option import RENTED, STORAGE, Priced
from .owned import OwnedSite, Purchases, owned, whole_nodes, with_spares, within_estate
from .price_set import PriceSet
from .usage import Usage


@dataclass(frozen=True)
class BaseSplit:
    """One owned base and the work it serves and leaves to rent: no price plays a part, so
    the sensitivity analysis, which prices the hybrid again at every price it moves, splits
    the work once (:class:`cost.options.OptionPricing`)."""

    base: int  # [GPUs] working accelerators owned, without their spares
    held: tuple[int, ...]  # [GPUs] owned each year, spares included
    served: Usage  # the work the owned base serves
    rest: tuple[float, ...]  # [GPU-h] the work rented each year
    peaks: Usage  # the rented work


def base_splits(usage: Usage, capacity: tuple[int, ...], site: OwnedSite) -> tuple[BaseSplit, ...]:
    """Each base :func:`hybrid_bases` offers, with the work it serves and the rest (module
    docstring): ``owned_k = min(A_k, B x 8760 x u_max)``, the rest ``A_k - owned_k``."""
    return tuple(
        _split(base, usage, capacity, site) for base in hybrid_bases(usage, site.gpus_per_node)
    )


def _split(base: int, usage: Usage, capacity: tuple[int, ...], site: OwnedSite) -> BaseSplit:
    spared = with_spares((base,), site.gpus_per_node, site.spares_wanted)
    owned_base = within_estate((base,), spared, site.owned_gpus)[0]  # spares from what is owned
    limit = base * HOURS_PER_YEAR * value("owned_max_utilisation")
    served = tuple(min(hours, limit) for hours in usage.gpu_hours_by_year)
    rest = tuple(h - s for h, s in zip(usage.gpu_hours_by_year, served, strict=True))
    peaks = with_changes(
        usage,
        gpu_hours_by_year=rest,
        months_by_year=tuple(
            m if h > 0 else 0.0 for h, m in zip(rest, usage.months_by_year, strict=True)
        ),
    )
    return BaseSplit(
        base=base,
        held=tuple(owned_base for _ in capacity),
        served=with_changes(usage, gpu_hours_by_year=served),
        rest=rest,
        peaks=peaks,
    )


def hybrid(
    usage: Usage,
    capacity: tuple[int, ...],
    site: OwnedSite,
    prices: PriceSet,
    *,
    cloud_price: float,
    storage_tb: float,
    kept_tb: float | None = None,
    splits: tuple[BaseSplit, ...] | None = None,
    bought: Callable[[tuple[int, ...]], Purchases] | None = None,
    storage: Callable[[BaseSplit], tuple[float, ...]] | None = None,
) -> Priced:
    """Own a base for the steady load, rent the rest on demand: the cheapest of the bases
    :func:`hybrid_bases` offers (module docstring); ``splits``: their :func:`base_splits`
    when already worked out; ``bought``: what buying a capacity costs, when it is kept
    (:func:`owned.purchases` on ``site``'s servers, fabric and storage); ``storage``: the
    storage a split's peaks rent, when it is kept (:func:`cloud.rented_storage_usd`)."""
    if splits is None:
        splits = base_splits(usage, capacity, site)
    priced = [
        _with_base(
            split,
            site,
            prices,
            cloud_price=cloud_price,
            storage_tb=storage_tb,
            kept_tb=kept_tb,
            bought=None if bought is None else bought(split.held),
            storage=None if storage is None else storage(split),
        )
        for split in splits
    ]
    return min(priced, key=lambda p: (p.net_usd, p.owned_base_gpus or 0))


def _with_base(
    split: BaseSplit,
    site: OwnedSite,
    prices: PriceSet,
    *,
    cloud_price: float,
    storage_tb: float,
    kept_tb: float | None,
    bought: Purchases | None = None,
    storage: tuple[float, ...] | None = None,
) -> Priced:
    """Own ``split.base`` accelerators (with their spares), rent the rest (module docstring);
    ``bought``: what buying them costs, and ``storage`` what the peaks rent, when already
    worked out."""
    owned_part = owned(split.served, split.held, site, prices, bought=bought).priced
    idle = prices.cloud_idle_share.value
    rented = tuple(hours * cloud_price * (1.0 + idle) for hours in split.rest)
    if storage is None:  # for the peaks only
        storage = rented_storage_usd(split.peaks, storage_tb, kept_tb, prices)
    return Priced(
        by_year_usd=tuple(
            a + b + c for a, b, c in zip(owned_part.by_year_usd, rented, storage, strict=True)
        ),
        capex_usd=owned_part.capex_usd,
        scales_usd=owned_part.scales_usd + sum(split.rest) * cloud_price * (1.0 + idle),
        residual_usd=owned_part.residual_usd,
        capacity=owned_part.capacity,
        parts_by_year_usd={**owned_part.parts_by_year_usd, RENTED: rented, STORAGE: storage},
        owned_base_gpus=split.base,
    )


_EVERY_RUN_UP_TO = 32  # bases of up to this many runs are all priced
_GRID_GROWTH = 1.05  # beyond them, bases on a fixed grid, each about 5 % above the last


def hybrid_bases(usage: Usage, gpus_per_node: int) -> tuple[int, ...]:
    """The owned bases the hybrid is priced with [GPUs]: whole runs from one up to the fewest
    that serve the busiest year at the owned ceiling, ``K = ceil(max s_k)`` (module
    docstring); every one up to 32 runs, then a grid fixed in advance, and ``K`` itself.

    A base above ``K`` only adds hardware that would sit idle, so no cheaper base is left out
    by stopping there.  The grid does not move with the demand, so more work can only add
    bases (each costing at least as much for the larger work) and never lowers the hybrid's
    cost: a cap at the owned cluster rounded down to whole runs, or bases spread evenly
    between the smallest and largest load, moved with the demand and made more work cheaper.
    """
    run = whole_nodes(usage.gpus_per_run, gpus_per_node)
    ceiling = HOURS_PER_YEAR * value("owned_max_utilisation")
    most = max(1, math.ceil(max(usage.gpu_hours_by_year, default=0.0) / ceiling / run - 1e-9))
    runs = set(range(1, min(most, _EVERY_RUN_UP_TO) + 1))
    grid = float(_EVERY_RUN_UP_TO)
    while grid * _GRID_GROWTH < most:
        grid = max(grid + 1.0, grid * _GRID_GROWTH)
        runs.add(math.floor(grid))
    runs.add(most)
    return tuple(sorted(k * run for k in runs))
