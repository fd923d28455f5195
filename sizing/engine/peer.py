"""The same run on the NVIDIA accelerator a plan on another maker's part is set against, at the
same scale: how long it takes (with its range), what the same way of paying costs and what the
cluster draws, so an AMD or Intel plan is compared with its NVIDIA counterpart like for like.

The counterpart is the NVIDIA part its maker launched it against:

* AMD Instinct MI325X against the NVIDIA H200 [1]_;
* AMD Instinct MI300X against the NVIDIA H100 [2]_;
* Intel Gaudi 3 against the NVIDIA H100 [3]_;
* AMD Instinct MI250X against the NVIDIA A100 [4]_.

The peer is sized with the customer's answers on as many accelerators as the plan (the same
scale: no deadline search), only when their rules allow NVIDIA and the plan does not run on
accelerators they already own.  Its time range is the engine's own for a CUDA run; the
plan's, on a stack with thinner evidence at scale, is widened by :mod:`.vendor_scale`.

References
----------
.. [1] AMD, "AMD Delivers Leadership AI Performance with AMD Instinct MI325X Accelerators"
       (press release, Advancing AI, 2024-10-10): MI325X compared with the H200.
.. [2] AMD, "AMD Delivers Leadership Portfolio of Data Center AI Solutions with AMD Instinct
       MI300 Series" (press release, Advancing AI, 2023-12-06): MI300X compared with the H100.
.. [3] Intel, "Intel Unleashes Enterprise AI with Gaudi 3" (press release, Intel Vision,
       2024-04-09): Gaudi 3 compared with the H100.
.. [4] AMD, "AMD Instinct MI200 Series Accelerator" launch (2021-11-08): MI250X compared with
       the A100.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .hardware import ACCELERATORS
from .inputs import EstateInput, SizingInput

if TYPE_CHECKING:  # the result holds the peer (output.py imports this module)
    from .output import SizingResult

NVIDIA_PEERS = {"mi325x": "h200", "mi300x": "h100-sxm", "gaudi3": "h100-sxm", "mi250x": "a100-80gb"}


@dataclass(frozen=True)
class PeerResult:
    """The plan's run on its NVIDIA counterpart, on as many accelerators."""

    accelerator: str
    name: str
    gpus: int  # [GPUs] working accelerators, as many as the plan's
    fits: bool
    wall_clock_days: float  # [d] one run
    wall_clock_days_range: tuple[float, float]  # [d]
    option: str | None  # the way of paying the engine recommends for it, under the same rules
    net_usd: float | None  # [USD] that option's net figure over the plan
    facility_power_kw: float  # [kW] the cluster with cooling (PUE)
    within_power: bool | None  # inside the customer's power ceiling (None: none given)


def nvidia_peer(
    inputs: SizingInput,
    plan: SizingResult,
    today: datetime.date,
    size_plain: Callable[..., tuple[SizingResult, object]],
) -> PeerResult | None:
    """The run of ``inputs`` on the NVIDIA counterpart of ``plan``'s accelerator, on as many
    accelerators (module docstring); None when there is none to compare."""
    peer = NVIDIA_PEERS.get(plan.cluster.accelerator)
    vendors = inputs.hardware.vendors
    owned = inputs.estate.owned and inputs.estate.accelerator == plan.cluster.accelerator
    if peer is None or owned or (vendors is not None and "nvidia" not in vendors):
        return None
    acc = ACCELERATORS[peer]
    same_scale = replace(
        inputs,
        hardware=replace(inputs.hardware, accelerator=peer, count=plan.cluster.gpus),
        estate=EstateInput(),
    )
    result, _ = size_plain(same_scale, today, budget_usd=inputs.estate.budget_usd)
    chosen = result.cost.recommended_option
    option = result.cost.options.get(chosen) if chosen else None
    kw = result.deployment.facility_power_with_pue_kw
    ceiling = inputs.estate.power_kw
    return PeerResult(
        accelerator=peer,
        name=acc.name,
        gpus=result.cluster.gpus,
        fits=result.memory.fits,
        wall_clock_days=result.timeline.wall_clock_days,
        wall_clock_days_range=result.timeline.wall_clock_days_range,
        option=chosen,
        net_usd=None if option is None else option.net_usd,
        facility_power_kw=kw,
        within_power=None if ceiling is None else kw <= ceiling,
    )
