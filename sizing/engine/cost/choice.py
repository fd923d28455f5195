"""The recommendation, chosen in one place: the cheapest option the customer's rules allow,
and what a rule costs.

Rules (from the deployment answers) exclude options:

* no internet connection (air-gapped): every cloud option and the hybrid;
* hardware that is yours alone: the shared on-demand clouds and the hybrid (whose peaks are
  rented on demand); a reservation stays, because GPU clouds and hyperscalers sell reserved
  capacity as dedicated, single-tenant clusters (bare metal) [2]_;
* where it runs: on premises keeps "buy", colocation keeps "colocation", cloud keeps the
  cloud options, and "a mix (hybrid)" keeps every way to mix owned hardware in a rented data
  centre with the cloud: colocation, the cloud options and the hybrid (a mix rules out only
  "buy, in your own data centre", which needs a data centre of one's own).

Data residency excludes nothing; it sets the price region and the cloud region.

A budget ceiling excludes every option whose net figure is above it, as long as one allowed
option is within it; when none is, nothing more is excluded and the cost is shown beside the
ceiling with how far it is over (:func:`over_budget`).

Options are compared by their net figure (:attr:`.option.Priced.net_usd`: what is paid less
what owned hardware is still worth at the end), the one :func:`.options.totals` gives; when
owning pays off is :mod:`.break_even`'s (its :class:`BreakEven` result is defined here, beside
the choice it qualifies).

References
----------
.. [1] The options' prices: :mod:`.cloud`, :mod:`.owned` and :mod:`.hybrid`, with their
       references.
.. [2] Dedicated reserved capacity on sale: Lambda "1-Click Clusters" and reserved private
       cloud (single-tenant H100/B200 clusters, lambda.ai/pricing); CoreWeave reserved
       capacity on bare-metal nodes (coreweave.com/pricing); AWS EC2 Dedicated Hosts and
       Capacity Blocks for ML (aws.amazon.com/ec2/dedicated-hosts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..resolve.resolved import Resolved
from .option import (
    BUY,
    CLOUD_LARGE,
    CLOUD_ON_DEMAND,
    CLOUD_OPTIONS,
    COLOCATION,
    HYBRID,
    OPTIONS,
)

AIR_GAPPED = "air_gapped"
DEDICATED = "dedicated_hardware"
LOCATION = "location"
BUDGET = "budget"
_KEEPS = {
    "on_prem": (BUY,),
    "colocation": (COLOCATION,),
    "cloud": CLOUD_OPTIONS,
    "hybrid": (COLOCATION, *CLOUD_OPTIONS, HYBRID),
}
# What each rule of tenancy and connection rules out (the module docstring says why).
_RULES_OUT = {
    AIR_GAPPED: (*CLOUD_OPTIONS, HYBRID),
    DEDICATED: (CLOUD_ON_DEMAND, CLOUD_LARGE, HYBRID),
}


def excluded_by(r: Resolved) -> dict[str, tuple[str, ...]]:
    """For each option the rules that exclude it (empty: allowed)."""
    out: dict[str, list[str]] = {key: [] for key in OPTIONS}
    for rule, applies in ((AIR_GAPPED, r.air_gapped), (DEDICATED, r.dedicated_hardware)):
        if applies:
            for key in _RULES_OUT[rule]:
                out[key].append(rule)
    if r.location in _KEEPS:
        for key in OPTIONS:
            if key not in _KEEPS[r.location]:
                out[key].append(LOCATION)
    return {key: tuple(rules) for key, rules in out.items()}


ESTATE = "estate"  # the rule "what you already own runs it" (RULES)


def estate_allowed(
    excluded: Mapping[str, tuple[str, ...]], owned_gpus: int
) -> dict[str, tuple[str, ...]]:
    """``excluded`` with the customer's own data centre allowed when they already own the
    accelerators sized (``owned_gpus``): no rule of theirs moves hardware that is theirs.

    The other options are then ruled out by :data:`ESTATE`: the running cost of what they own
    (space, support, staff) is paid whether or not it trains, so renting or buying the same
    work instead saves nothing of it; what the estate cannot do in time is added beside it
    (``estate.py``). A lab that owns accelerators is never told to rent or buy them again."""
    out = dict(excluded)
    if owned_gpus:
        for key in OPTIONS:
            out[key] = () if key == BUY else (*excluded.get(key, ()), ESTATE)
    return out


def over_budget(
    excluded: Mapping[str, tuple[str, ...]],
    option_totals: Mapping[str, float],
    budget_usd: float | None,
) -> dict[str, tuple[str, ...]]:
    """``excluded`` with :data:`BUDGET` added to every priced option above ``budget_usd``
    [USD], unless no allowed option is within it (then unchanged: the cheapest is still shown,
    and the sentences say by how much it is over)."""
    out = dict(excluded)
    if budget_usd is None:
        return out
    allowed = [k for k in option_totals if not excluded.get(k)]
    if not any(option_totals[k] <= budget_usd for k in allowed):
        return out
    for key, total in option_totals.items():
        if total > budget_usd:
            out[key] = (*out.get(key, ()), BUDGET)
    return out


def renting_allowed(r: Resolved) -> bool:
    """Whether the customer's rules leave renting by the hour open (:func:`excluded_by`): an
    on-demand cloud.  A reservation, which a customer who needs hardware of their own may
    take, is paid for its size like owned hardware, not for its hours."""
    excluded = excluded_by(r)
    return any(not excluded[key] for key in (CLOUD_ON_DEMAND, CLOUD_LARGE))


@dataclass(frozen=True)
class Choice:
    recommended: str | None  # None: no allowed option is priced, or see ``held_back``
    runner_up: str | None  # the next cheapest allowed option
    cheapest_overall: str | None
    binding: tuple[str, ...]  # rules that exclude the cheapest option overall
    relax_saving_usd: float | None  # what dropping those rules would save [USD]
    # The owned option that would be the cheapest allowed but is not recommended: renting is
    # allowed and has no public price for this accelerator, so nothing shows that owning pays.
    held_back: str | None = None


def _owning_unproven(best: str | None, option_totals: Mapping[str, float], renting: bool) -> bool:
    """Whether ``best`` is owned hardware recommended only because the rental it competes with
    has no public price: the rules allow renting (``renting``), yet no rental is priced."""
    return (
        best in (BUY, COLOCATION)
        and renting
        and not any(key in option_totals for key in (*CLOUD_OPTIONS, HYBRID))
    )


def choose(option_totals: Mapping[str, float], excluded: Mapping[str, tuple[str, ...]]) -> Choice:
    """The allowed priced option with the lowest net figure (``option_totals``: each option's
    :attr:`cost.option.Priced.net_usd`); ties go to the earlier option of ``OPTIONS``.

    Owned hardware is never recommended only because renting, which the rules allow, has no
    public price: whether owning pays cannot then be shown, so the option is ``held_back``
    and nothing is recommended until a rental price is quoted."""
    ranked = sorted(option_totals, key=lambda k: (option_totals[k], OPTIONS.index(k)))
    allowed = [k for k in ranked if not excluded.get(k)]
    best = allowed[0] if allowed else None
    renting = any(not excluded.get(key) for key in CLOUD_OPTIONS)
    if _owning_unproven(best, option_totals, renting):
        return Choice(None, None, ranked[0], (), None, held_back=best)
    overall = ranked[0] if ranked else None
    binding: tuple[str, ...] = ()
    saving = None
    if overall is not None and overall != best:
        binding = excluded.get(overall, ())
        # What they own is no rule they could drop: its running cost is paid whether or not it
        # trains, so renting the work instead would save none of the difference.
        if best is not None and ESTATE not in binding:
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
