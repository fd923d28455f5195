"""Renting: on demand (GPU cloud or large public cloud) and reservations for 1 or 3 years.

On demand, year ``k``::

    compute_k = A_k x p x (1 + idle)                   idle: time paid outside runs
    storage_k = (K x m_k + (S - K) x b_k) x 1000 x P_GB-month
    b_k       = min(m_k, A_k / (G x 730))              months the runs are running

Storage is rented for what the runs need (:func:`rented_storage_usd`): ``S`` [TB] is the
whole working set (dataset, scratch and the rolling window of checkpoints a run keeps), ``K``
[TB] what is kept between runs (the dataset and the final checkpoint of each run, older
finals going to the customer's own archive), ``m_k`` the months with work and ``b_k`` the
months runs are actually running (``G`` accelerators per run).  A 1.3-hour run twice a month
keeps its five rolling checkpoints for 31 hours a year, not all year.

Reserved, year ``k`` (capacity ``R_k`` held all year, used or not)::

    cost_k = R_k x 8760 x p_reserved + storage_k (as on demand: storage follows the work)
    1-year: R_k = O_k in years with work, else 0
    3-year: R_k = max(O_0 .. O_k)  (a commitment never shrinks)
    p_reserved = p_on-demand x ratio (median published reservation discount), or yours

A plan shorter than the term still pays the whole term: the committed years after the
plan's last are added to its last year (a two-year plan on a three-year reservation pays
three years).  What the work uses of what is paid for::

    used = A / (sum_k R_k x 8760 + years past the plan x R_last x 8760)     [-]

A single three-week run on a one-year reservation uses about 6 % of it: the rest is paid for
and idle unless the customer uses it after the run.

``O_k`` is the capacity an owned cluster would need (:func:`cost.owned.owned_capacity`).

References
----------
.. [1] AWS Pricing Calculator documentation: a month is 730 hours (8,760 h / 12) when an
       hourly price is turned into a monthly one.
.. [2] Amazon EC2 Reserved Instances: terms of one or three years, paid whether used or not.
.. [3] Prices, discounts and their dates: :mod:`sizing.engine.cost.prices` and
       :mod:`sizing.engine.cost.accelerator_prices`, each with its source.
"""

from __future__ import annotations

from ..units import GB_PER_TB, HOURS_PER_MONTH, HOURS_PER_YEAR
from .option import RENTED, STORAGE, Priced
from .price_set import PriceSet
from .usage import Usage


def cloud_storage_usd(storage_tb: float, months: float, prices: PriceSet) -> float:
    """Shared storage rented for ``months`` [USD]."""
    return storage_tb * GB_PER_TB * prices.cloud_storage.value * months


# The PriceSet fields :func:`rented_storage_usd` reads (a test checks it reads no other): the
# storage rented for the same work costs the same whatever the other prices are, so a pricing
# at other such prices keeps it (:meth:`cost.options.OptionPricing.at_prices`).
STORAGE_PRICES = ("cloud_storage",)


def rented_storage_usd(
    usage: Usage, storage_tb: float, kept_tb: float | None, prices: PriceSet
) -> tuple[float, ...]:
    """Storage rented each year for what the runs need (module docstring) [USD].

    Parameters
    ----------
    usage : Usage
        The work; its accelerator-hours and accelerators per run give the months runs run.
    storage_tb : float
        The whole working set while a run runs [TB].
    kept_tb : float, optional
        What is kept between runs [TB]; ``None`` keeps the whole working set.
    """
    kept = storage_tb if kept_tb is None else min(kept_tb, storage_tb)
    out = []
    for hours, months in zip(usage.gpu_hours_by_year, usage.months_by_year, strict=True):
        running = min(months, hours / max(1, usage.gpus_per_run) / HOURS_PER_MONTH)
        out.append(
            cloud_storage_usd(kept, months, prices)
            + cloud_storage_usd(storage_tb - kept, running, prices)
        )
    return tuple(out)


def on_demand(
    usage: Usage,
    price: float,
    *,
    storage_tb: float,
    prices: PriceSet,
    kept_tb: float | None = None,
    storage: tuple[float, ...] | None = None,
) -> Priced:
    """Pay per accelerator-hour for the work, plus idle time and storage (module docstring);
    ``storage``: :func:`rented_storage_usd` of the same work, when already worked out."""
    idle = prices.cloud_idle_share.value
    compute = [hours * price * (1.0 + idle) for hours in usage.gpu_hours_by_year]
    if storage is None:
        storage = rented_storage_usd(usage, storage_tb, kept_tb, prices)
    return Priced(
        by_year_usd=tuple(c + s for c, s in zip(compute, storage, strict=True)),
        capex_usd=0.0,
        scales_usd=sum(compute),
        residual_usd=0.0,
        capacity=(),
        parts_by_year_usd={RENTED: tuple(compute), STORAGE: tuple(storage)},
    )


def reserved(
    usage: Usage,
    capacity: tuple[int, ...],
    price: float,
    *,
    term_years: int,
    storage_tb: float,
    prices: PriceSet,
    kept_tb: float | None = None,
    storage: tuple[float, ...] | None = None,
) -> Priced:
    """Hold ``capacity`` for whole years at a reserved price (module docstring); ``storage``:
    :func:`rented_storage_usd` of the same work, when already worked out."""
    held: list[int] = []
    most = 0
    for owned, hours in zip(capacity, usage.gpu_hours_by_year, strict=True):
        most = max(most, owned)
        if term_years > 1:
            held.append(most)
        else:
            held.append(owned if hours > 0 else 0)
    rented = [gpus * HOURS_PER_YEAR * price for gpus in held]
    if storage is None:
        storage = rented_storage_usd(usage, storage_tb, kept_tb, prices)
    committed_after = max(0, term_years - len(held))  # years of the term past the plan
    if committed_after and held and held[-1]:
        rented[-1] += committed_after * held[-1] * HOURS_PER_YEAR * price
    held_hours = (sum(held) + committed_after * (held[-1] if held else 0)) * HOURS_PER_YEAR
    return Priced(
        by_year_usd=tuple(r + s for r, s in zip(rented, storage, strict=True)),
        capex_usd=0.0,
        scales_usd=0.0,
        residual_usd=0.0,
        capacity=tuple(held),
        parts_by_year_usd={RENTED: tuple(rented), STORAGE: tuple(storage)},
        commitment_years=term_years,
        commitment_used_share=min(1.0, usage.gpu_hours / held_hours) if held_hours else None,
    )
