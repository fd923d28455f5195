"""The recommendation: the cheapest option the customer's rules allow, what a rule costs,
and when owning pays off.

Rules (from the deployment answers) exclude options:

* no internet connection (air-gapped) or hardware that is yours alone: every cloud option
  and the hybrid;
* where it runs: on premises keeps "buy", colocation keeps "colocation", cloud keeps the
  cloud options, hybrid keeps "hybrid".

Data residency excludes nothing; it sets the price region and the cloud region.

Options are compared by their net figure (:attr:`cost.cloud.Priced.net_usd`: what is paid
less what owned hardware is still worth at the end), the one :func:`cost.options.totals`
gives.  Break-even between renting on demand (price ``p``) and owning the first year's
cluster ``O`` for ``Y`` years, both net figures linear in the busy share ``u``::

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

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..assumptions import value
from ..resolve.resolved import Resolved
from ..units import HOURS_PER_MONTH, HOURS_PER_YEAR, MONTHS_PER_YEAR
from .options import (
    BUY,
    CLOUD_OPTIONS,
    COLOCATION,
    HYBRID,
    OPTIONS,
    CostCase,
    price_options,
    totals,
    with_usage,
)
from .price_set import PriceSet
from .usage import UTILISATION, Usage

AIR_GAPPED = "air_gapped"
DEDICATED = "dedicated_hardware"
LOCATION = "location"
_KEEPS = {
    "on_prem": (BUY,),
    "colocation": (COLOCATION,),
    "cloud": CLOUD_OPTIONS,
    "hybrid": (HYBRID,),
}


def excluded_by(r: Resolved) -> dict[str, tuple[str, ...]]:
    """For each option the rules that exclude it (empty: allowed)."""
    out: dict[str, list[str]] = {key: [] for key in OPTIONS}
    for rule, applies in ((AIR_GAPPED, r.air_gapped), (DEDICATED, r.dedicated_hardware)):
        if applies:
            for key in (*CLOUD_OPTIONS, HYBRID):
                out[key].append(rule)
    if r.location in _KEEPS:
        for key in OPTIONS:
            if key not in _KEEPS[r.location]:
                out[key].append(LOCATION)
    return {key: tuple(rules) for key, rules in out.items()}


def renting_allowed(r: Resolved) -> bool:
    """Whether the customer's rules leave some cloud option open (:func:`excluded_by`)."""
    excluded = excluded_by(r)
    return any(not excluded[key] for key in CLOUD_OPTIONS)


@dataclass(frozen=True)
class Choice:
    recommended: str | None  # None: no allowed option is priced
    runner_up: str | None  # the next cheapest allowed option
    cheapest_overall: str | None
    binding: tuple[str, ...]  # rules that exclude the cheapest option overall
    relax_saving_usd: float | None  # what dropping those rules would save [USD]


def choose(option_totals: Mapping[str, float], excluded: Mapping[str, tuple[str, ...]]) -> Choice:
    """The allowed priced option with the lowest net figure (``option_totals``: each option's
    :attr:`cost.cloud.Priced.net_usd`); ties go to the earlier option of ``OPTIONS``."""
    ranked = sorted(option_totals, key=lambda k: (option_totals[k], OPTIONS.index(k)))
    allowed = [k for k in ranked if not excluded.get(k)]
    best = allowed[0] if allowed else None
    overall = ranked[0] if ranked else None
    binding: tuple[str, ...] = ()
    saving = None
    if overall is not None and overall != best:
        binding = excluded.get(overall, ())
        if best is not None:
            saving = option_totals[best] - option_totals[overall]
    return Choice(
        recommended=best,
        runner_up=allowed[1] if len(allowed) > 1 else None,
        cheapest_overall=overall,
        binding=binding,
        relax_saving_usd=saving,
    )


@dataclass(frozen=True)
class BreakEven:
    utilisation: float | None  # [-] busy share above which owning is cheaper; None: never
    months: float | None  # [months] until owning has paid for itself at the stated usage
    runs_per_month: float | None  # [runs/month] the break-even utilisation in runs


def _at(case: CostCase, share: float, gpus: int) -> Usage:
    """The case's runs at a busy share of ``gpus`` owned accelerators, no growth."""
    years = range(len(case.usage.gpu_hours_by_year))
    return replace(
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
    ends = [totals(with_usage(case, _at(case, share, gpus)), prices) for share in (0.0, most)]
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
    return BreakEven(share, _payback_months(case, prices, owned=owned, rented=rented), runs)


def _payback_months(case: CostCase, prices: PriceSet, *, owned: str, rented: str) -> float | None:
    """Months of the first year's work after which owning has cost less than renting."""
    u = case.usage
    if u.gpu_hours_by_year[0] <= 0:
        return None
    first_year = replace(
        u, gpu_hours_by_year=u.gpu_hours_by_year[:1], months_by_year=(MONTHS_PER_YEAR,)
    )
    options = price_options(with_usage(case, first_year), prices).options
    bought, rent = options.get(owned), options.get(rented)
    if bought is None or rent is None:
        return None
    monthly_owned = bought.running_usd / MONTHS_PER_YEAR
    monthly_rented = rent.total_usd / MONTHS_PER_YEAR
    if monthly_rented <= monthly_owned:
        return None
    return bought.capex_usd / (monthly_rented - monthly_owned)
