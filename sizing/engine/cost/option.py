"""One way to pay: the keys of the seven options, the parts a year's cost is made of, and
the shape every option's price takes (:class:`Priced`), so each option's module
(:mod:`.cloud`, :mod:`.owned`, :mod:`.hybrid`) prices it side by side with the others,
:mod:`.options` lists them all and :mod:`.choice` chooses among them in one place.

References
----------
.. [1] The net figure's book value: :func:`sizing.engine.cost.owned.purchases` and its
       references.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

CLOUD_ON_DEMAND = "cloud_on_demand"  # GPU cloud, on demand
CLOUD_LARGE = "cloud_hyperscaler"  # large public cloud, on demand
RESERVED_1YR = "cloud_reserved_1yr"
RESERVED_3YR = "cloud_reserved"
BUY = "buy"  # owned, in the customer's own data centre
COLOCATION = "colocation"  # owned, in a rented data centre
HYBRID = "hybrid"
OPTIONS = (CLOUD_ON_DEMAND, CLOUD_LARGE, RESERVED_1YR, RESERVED_3YR, BUY, COLOCATION, HYBRID)
CLOUD_OPTIONS = (CLOUD_ON_DEMAND, CLOUD_LARGE, RESERVED_1YR, RESERVED_3YR)
OWNED_OPTIONS = (BUY, COLOCATION)

HARDWARE = "hardware"  # owned hardware bought, installation included
POWER = "power"
SPACE = "space"  # colocation, or the share of your own data centre
SUPPORT = "support"  # hardware support contracts
STAFF = "staff"
RENTED = "rented"  # accelerator time rented (on demand, reserved or the peaks)
STORAGE = "storage"  # cloud storage rented
COST_PARTS = (HARDWARE, POWER, SPACE, SUPPORT, STAFF, RENTED, STORAGE)


@dataclass(frozen=True)
class Priced:
    """One way to pay, year by year [USD]."""

    by_year_usd: tuple[float, ...]
    capex_usd: float  # owned hardware bought over the horizon
    scales_usd: float  # the part proportional to accelerator-hours
    residual_usd: float  # book value of owned hardware after the horizon
    capacity: tuple[int, ...]  # [GPUs] owned or reserved each year (empty on demand)
    commitment_years: int | None = None  # [yr] a reservation's term (None: no commitment)
    # [-] share of the committed accelerator-hours (the whole term) the work uses
    commitment_used_share: float | None = None
    # Each year's cost by part (COST_PARTS keys); a year's parts add up to its ``by_year_usd``.
    parts_by_year_usd: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    # [GPUs] a hybrid's owned base, working accelerators without its spares (None otherwise)
    owned_base_gpus: int | None = None

    @property
    def total_usd(self) -> float:
        return sum(self.by_year_usd)

    @property
    def running_usd(self) -> float:
        return self.total_usd - self.capex_usd

    @property
    def net_usd(self) -> float:
        """The one figure options are ranked, compared and shown by [USD]: everything paid over
        the horizon less what the owned hardware is still worth at its end (book value,
        :func:`cost.owned.purchases`)::

            net = sum_k cost_k - residual

        A rented option keeps nothing, so its net is its total.
        """
        return self.total_usd - self.residual_usd


@dataclass(frozen=True)
class Recurring:
    """Recurring work's cost of the recommended option, spread evenly [USD]::

        per_month = net / (12 x years)          per_run = net / runs
        runs      = sum_k A_k / GPU-hours per run

    The net figure is the one every option is compared by; owned hardware's capital is
    spread over the horizon with the work it serves."""

    runs: float  # [runs] over the horizon, growth included
    per_run_usd: float  # [USD/run]
    per_month_usd: float  # [USD/month]
