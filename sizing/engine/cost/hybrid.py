"""Owning and renting: buying the hardware, or buying a base and renting the peaks.

Owned, year ``k`` (capacity ``O_k``, :mod:`sizing.engine.cost.owned`)::

    cost_k = capex_k + running(O_k, busy = min(A_k, O_k x 8760))

Hybrid: own a base ``B`` = one run's accelerators (whole nodes; bought with its hot spares);
the base serves up to ``B x 8760 x u_max`` accelerator-hours a year, the rest runs in the GPU
cloud on demand::

    owned_k = min(A_k, B x 8760 x u_max)
    cost_k  = capex_k(B) + running(B, owned_k) + (A_k - owned_k) x p x (1 + idle)
              + cloud storage in years with cloud work

When the base is the whole cluster every year, hybrid is the same as buying and is left out.

References
----------
.. [1] Llama 3 Herd of Models, arXiv 2407.21783 (2024), sec. 3.3.4: more than 90 % effective
       training time, the most an owned base serves (``u_max``, assumption
       ``owned_max_utilisation``).
.. [2] The owned and rented parts: :mod:`sizing.engine.cost.owned` and
       :mod:`sizing.engine.cost.cloud`, with their references.
"""

from __future__ import annotations

from dataclasses import replace

from ..assumptions import value
from ..units import HOURS_PER_YEAR
from .cloud import rented_storage_usd
from .option import RENTED, STORAGE, Priced
from .owned import OwnedSite, owned, whole_nodes, with_spares, within_estate
from .price_set import PriceSet
from .usage import Usage


def hybrid(
    usage: Usage,
    capacity: tuple[int, ...],
    site: OwnedSite,
    prices: PriceSet,
    *,
    cloud_price: float,
    storage_tb: float,
    kept_tb: float | None = None,
) -> Priced | None:
    """Own one run's accelerators, rent the rest on demand (module docstring)."""
    base = whole_nodes(usage.gpus_per_run, site.gpus_per_node)
    if base >= max(capacity):
        return None
    spared = with_spares((base,), site.gpus_per_node, site.spares_wanted)
    owned_base = within_estate((base,), spared, site.owned_gpus)[0]  # spares from what is owned
    limit = base * HOURS_PER_YEAR * value("owned_max_utilisation")
    served = tuple(min(hours, limit) for hours in usage.gpu_hours_by_year)
    rest = tuple(h - s for h, s in zip(usage.gpu_hours_by_year, served, strict=True))
    owned_part = owned(
        replace(usage, gpu_hours_by_year=served),
        tuple(owned_base for _ in capacity),
        site,
        prices,
    ).priced
    idle = prices.cloud_idle_share.value
    rented = tuple(hours * cloud_price * (1.0 + idle) for hours in rest)
    peaks = replace(
        usage,
        gpu_hours_by_year=rest,
        months_by_year=tuple(
            m if h > 0 else 0.0 for h, m in zip(rest, usage.months_by_year, strict=True)
        ),
    )
    storage = rented_storage_usd(peaks, storage_tb, kept_tb, prices)  # for the peaks only
    return Priced(
        by_year_usd=tuple(
            a + b + c for a, b, c in zip(owned_part.by_year_usd, rented, storage, strict=True)
        ),
        capex_usd=owned_part.capex_usd,
        scales_usd=owned_part.scales_usd + sum(rest) * cloud_price * (1.0 + idle),
        residual_usd=owned_part.residual_usd,
        capacity=owned_part.capacity,
        parts_by_year_usd={**owned_part.parts_by_year_usd, RENTED: rented, STORAGE: storage},
    )
