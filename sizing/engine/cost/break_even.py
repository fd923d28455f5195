"""When owning pays off: the busy share, the months and the runs a month at which owning the
first year's cluster costs what renting on demand does, each option re-priced by
:func:`.options.totals` side by side.

Break-even between renting on demand (price ``p``) and owning the first year's cluster ``O``
for ``Y`` years, both net figures linear in the busy share ``u``::

    owned(u) = F + b u        cloud(u) = S + c u,   c = O x 8760 x Y x p x (1 + idle)
    u*       = (F - S) / (c - b)       (none above u_max: the owned cluster would grow)
    months*  = capex / (cloud per month - running per month)  at the stated usage
    runs*    = u* x O x 730 / GPU-hours per run

References
----------
.. [1] C. T. Horngren, S. M. Datar and M. V. Rajan, Cost Accounting: A Managerial Emphasis,
       Pearson, ch. 3 (cost-volume-profit analysis): the break-even point of two cost lines
       with a fixed part and a part per unit of use, as ``u*`` above.
.. [2] Llama 3 Herd of Models, arXiv 2407.21783 (2024), sec. 3.3.4: more than 90 % effective
       training time, the ceiling ``u_max`` (assumption ``owned_max_utilisation``).
"""

from __future__ import annotations

from ..assumptions import value
from ..frozen_copies import with_changes
from ..units import HOURS_PER_MONTH, HOURS_PER_YEAR, MONTHS_PER_YEAR
from .choice import BreakEven
from .options import CostCase, OptionPricing
from .price_set import PriceSet
from .usage import UTILISATION, Usage


def _at(case: CostCase, share: float, gpus: int) -> Usage:
    """The case's runs at a busy share of ``gpus`` owned accelerators, no growth."""
    years = range(len(case.usage.gpu_hours_by_year))
    return with_changes(
        case.usage,
        basis=UTILISATION,
        runs_per_month=None,
        gpu_hours_by_year=tuple(share * gpus * HOURS_PER_YEAR for _ in years),
        months_by_year=tuple(MONTHS_PER_YEAR for _ in years),
    )


def break_even(
    case: CostCase, prices: PriceSet, *, owned: str, rented: str, capacity: tuple[int, ...]
) -> BreakEven:
    """Where renting ``rented`` and owning ``owned`` cost the same (module docstring)."""
    gpus = capacity[0]
    # Both totals are linear in the busy share up to the most an owned cluster can run;
    # beyond it the owned cluster would grow, so the break-even is sought below it.
    most = value("owned_max_utilisation")
    given = OptionPricing(case, prices)  # each capacity bought once for every work below
    ends = [
        given.with_usage(_at(case, share, gpus)).totals((owned, rented)) for share in (0.0, most)
    ]
    if owned not in ends[0] or rented not in ends[0]:
        return BreakEven(None, None, None)
    fixed_owned, fixed_rented = ends[0][owned], ends[0][rented]
    slope = ((ends[1][rented] - fixed_rented) - (ends[1][owned] - fixed_owned)) / most
    share = (fixed_owned - fixed_rented) / slope if slope > 0 else None
    if share is not None and not 0.0 <= share <= most:
        share = None
    runs = None
    if share is not None and case.usage.gpu_hours_per_run > 0:
        runs = share * gpus * HOURS_PER_MONTH / case.usage.gpu_hours_per_run
    return BreakEven(share, _payback_months(given, owned=owned, rented=rented), runs)


def _payback_months(given: OptionPricing, *, owned: str, rented: str) -> float | None:
    """Months of the first year's work after which owning has cost less than renting, at the
    case and prices of ``given``."""
    u = given.case.usage
    if u.gpu_hours_by_year[0] <= 0:
        return None
    first_year = with_changes(
        u, gpu_hours_by_year=u.gpu_hours_by_year[:1], months_by_year=(MONTHS_PER_YEAR,)
    )
    pricing = given.with_usage(first_year)
    bought, rent = pricing.price(owned), pricing.price(rented)
    if bought is None or rent is None:
        return None
    monthly_owned = bought.running_usd / MONTHS_PER_YEAR
    monthly_rented = rent.total_usd / MONTHS_PER_YEAR
    if monthly_rented <= monthly_owned:
        return None
    return bought.capex_usd / (monthly_rented - monthly_owned)
