"""Communication volumes per step and the fabric they need.

Per-step bytes each accelerator sends, by parallelism kind (ring
collectives move ``2 (n-1)/n`` of the buffer for all-reduce)::

    data     2 (d-1)/d * 2 B * params_per_gpu          (x1.5 with ZeRO-3; and under ZeRO-3 the
             frozen LoRA/QLoRA base gathered forward and backward every micro-batch)
    tensor   4 * 2 (t-1)/t * 2 B * s*b*h * L/p * micro-batches
    pipeline 2 * 2 B * s*b*h * micro-batches          (activations + gradients)
    expert   4 * c * b_v * h * tokens * L/p               (c copies of each token on each leg,
             b_v bytes a value: :mod:`sizing.engine.expert_traffic`)

The scale-out bandwidth needed keeps exposed communication below
``max_comm_share`` of the step time (under DualPipe the expert all-to-all and the pipeline
transfers are hidden and need only last no longer than the step), and is never below the bandwidth the
plan's utilisation was computed with: the slowest effective bandwidth per
GPU (NIC speed / oversubscription) at which the efficiency model
(:func:`sizing.engine.parallelism.cost_on_fabric`) still gives the plan's
MFU.  The step time is the one that MFU implies, so a NIC sized here runs
the step the timeline assumed.  A NIC is never faster than the server's
PCIe slot carries [4]_: 200 Gb/s per accelerator on PCIe Gen4, 400 Gb/s on
Gen5 (H100 and B200 servers ship 400 Gb/s ConnectX-7 cards [2]_ [5]_), 800 Gb/s
on Gen6.

The card is one the server ships with (:mod:`sizing.engine.scale_out`): the slowest of its
speeds that carries the need, so a low need on an H100 server runs on its ConnectX-7 400 Gb/s
card, never on an end-of-life InfiniBand EDR or HDR one; Gaudi servers use the Ethernet ports
on each accelerator and buy no cards.

The fabric's layout (:func:`fabric_layout`) follows the cluster's size: no fabric for one
server; one layer of switches up to 64 servers [6]_, either a single switch when every
network card fits on it or one switch per *rail* (card ``k`` of every server on switch ``k``;
traffic between rails crosses inside the server, over NVLink) [2]_ [7]_, with no
switch-to-switch links; two layers (a leaf-spine fat tree) up to 2,048 servers and three
beyond [6]_.  From two layers on, each leaf switch has one uplink per ``r`` network cards below
it (``r`` the oversubscription; 1 is non-blocking)::

    tiers 1:   switches = 1 if cards <= P else rails x ceil(servers / P)
               links    = cards                               (card to its switch)
    tiers t>1: uplinks  = ceil(cards / r)                     (per layer above the leaves)
               switches = ceil((cards + uplinks) / P) + ceil(uplinks x (2t - 3) / P)
               links    = cards + uplinks x (t - 1)

with ``P`` the ports of one switch; non-blocking, this is ``cards x (2t - 1) / P`` switches
and ``cards x t`` links.

References
----------
.. [1] nccl-tests doc/PERFORMANCE.md (bus bandwidth definitions).
.. [2] NVIDIA DGX SuperPOD H100 reference architecture (rail-optimised,
       non-blocking fat tree; one 400 Gb/s NIC per GPU).
.. [3] Llama 3 Herd, arXiv 2407.21783, sec. 3.3.1 (RoCE, 1:7 oversubscription
       between pods, TP inside the node).
.. [4] PCI-SIG, PCI Express Base Specification 4.0 / 5.0 / 6.0: 16 / 32 / 64 GT/s per
       lane, about 256 / 512 / 1,024 Gb/s raw for an x16 slot.
.. [5] NVIDIA DGX B200 user guide (2024): eight ConnectX-7 400 Gb/s ports for compute
       traffic; NVIDIA ConnectX-8 SuperNIC (2024): 800 Gb/s on a PCIe Gen6 x16 host interface.
.. [6] H100 Freakonomics (substack.tech-talk-cto.com, Aug 2024): one switch layer up to 64
       nodes (8 switches for 512 GPUs), two up to 2,048 (48 switches for 1,024 GPUs), three
       beyond.
.. [7] Wang et al., "Rail-only: a low-cost high-performance network for training LLMs with
       trillion parameters", arXiv 2307.12169 (2023): rail switches, cross-rail traffic
       forwarded over NVLink inside the server.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .assumptions import value, whole
from .efficiency import (
    BYTES_PER_VALUE,
    CP_KV_PASSES,
    PP_TRANSFERS_PER_CHUNK,
    RING_ALL_REDUCE,
    TP_ALL_REDUCES_PER_LAYER,
    data_parallel_bytes,
)
from .expert_traffic import (
    ALL_TO_ALLS_PER_LAYER,
    all_to_all_bytes_per_value,
    all_to_all_copies,
    nodes_spanned,
    overlapped_schedule,
)
from .hardware import AcceleratorSpec, peak_tflops
from .inputs import ADAPTER_METHODS
from .memory import frozen_base_bytes
from .numbers import format_percent
from .parallelism import Plan, Workload, cost_on_fabric
from .scale_out import fabric_refused, port_for, server_ports, technology_words
from .units import BITS_PER_BYTE, BYTES_PER_GB

_FLOPS_PER_TFLOP = 1e12
_DIRECTIONS = 2.0  # scale-up bandwidth is quoted both ways; one way is half
_MIN_MFU = 1e-6  # [-] guards the division when a plan computes nothing useful
_SMALLEST_OVERSUBSCRIPTION = 2.0  # oversubscribed fabrics come in whole ratios from 2:1
_MIN_GBPS = 1.0  # [Gb/s] bandwidth search floor (the slowest NIC the input accepts)
_BISECTIONS = 12  # 12 halvings of the log range: within 0.2 % of the bandwidth needed
_MFU_KEPT = 0.999  # the fabric may cost the plan 0.1 % of its MFU (the search's tie margin)


def _gbps_for_mfu(
    w: Workload, plan: Plan, acc: AcceleratorSpec, *, gpus_per_node: int, assumed_gbps: float
) -> float:
    """Slowest effective bandwidth per GPU that keeps the plan's MFU [Gb/s].

    Bisection in log space between :data:`_MIN_GBPS` and ``assumed_gbps``
    (MFU never falls as bandwidth grows).
    """

    def keeps_mfu(gbps: float) -> bool:
        cost = cost_on_fabric(
            w, acc, plan, gpus_per_node=gpus_per_node, nic_gbps_per_gpu=gbps, oversubscription=1.0
        )
        return cost.mfu >= plan.mfu * _MFU_KEPT

    lo, hi = _MIN_GBPS, assumed_gbps
    if keeps_mfu(lo):
        return 0.0
    for _ in range(_BISECTIONS):
        mid = math.sqrt(lo * hi)
        if keeps_mfu(mid):
            hi = mid
        else:
            lo = mid
    return hi


@dataclass(frozen=True)
class FabricLayout:
    """The switches and cables of a scale-out fabric (module docstring)."""

    tiers: int  # layers of switches; 0: one server, no fabric
    rails: int  # switches of a single-tier rail-optimised fabric (0 otherwise)
    switches: int
    server_links: int  # network card to its leaf or rail switch
    switch_links: int  # leaf to spine, spine to core
    oversubscription: float  # [x] network cards per uplink of a leaf; 1 is non-blocking


def switch_tiers(gpus: int, gpus_per_node: int) -> int:
    """Layers of switches a non-blocking fabric for ``gpus`` needs [6]_."""
    nodes = math.ceil(gpus / gpus_per_node)
    if nodes <= 1:
        return 0
    if nodes <= whole("fabric_one_tier_max_nodes"):
        return 1
    if nodes <= whole("fabric_two_tier_max_nodes"):
        return 2
    return 3


def fabric_layout(gpus: int, gpus_per_node: int, oversubscription: float = 1.0) -> FabricLayout:
    """Switches and links of the fabric for ``gpus`` accelerators, one network card each, on
    servers of ``gpus_per_node`` (module docstring).

    Parameters
    ----------
    oversubscription : float
        Network cards per leaf uplink [x]; a single layer has no uplinks, so it is
        non-blocking whatever the customer tolerates.
    """
    tiers = switch_tiers(gpus, gpus_per_node)
    ports = whole("fabric_switch_ports")
    if tiers == 0:
        return FabricLayout(0, 0, 0, 0, 0, 1.0)
    if tiers == 1:
        if gpus <= ports:
            return FabricLayout(1, 0, 1, gpus, 0, 1.0)
        rails = gpus_per_node * math.ceil(math.ceil(gpus / gpus_per_node) / ports)
        return FabricLayout(1, rails, rails, gpus, 0, 1.0)
    ratio = max(1.0, oversubscription)
    uplinks = math.ceil(gpus / ratio)
    switches = math.ceil((gpus + uplinks) / ports) + math.ceil(uplinks * (2 * tiers - 3) / ports)
    return FabricLayout(tiers, 0, switches, gpus, uplinks * (tiers - 1), ratio)


_TIER_WORDS = {2: "two-tier leaf-spine fat tree", 3: "three-tier fat tree"}


def fabric_words(layout: FabricLayout) -> str:
    """The fabric in a few words: "single-tier rail-optimised, non-blocking (8 rail
    switches)", "two-tier leaf-spine fat tree, oversubscribed 2:1"."""
    if layout.tiers == 0:
        return "none (each run fits in one node)"
    if layout.tiers == 1:
        if layout.rails:
            return f"single-tier rail-optimised, non-blocking ({layout.rails} rail switches)"
        return "one non-blocking switch"
    blocking = (
        "non-blocking (1:1)"
        if layout.oversubscription <= 1.0
        else f"oversubscribed {layout.oversubscription:g}:1"
    )
    return f"{_TIER_WORDS[min(layout.tiers, 3)]}, {blocking}"


@dataclass(frozen=True)
class NetworkResult:
    step_time_s: float
    per_step_gb: dict[str, float]  # per kind, per accelerator [GB]
    scale_up_gb_per_s_needed: float  # one-way per GPU [GB/s]
    scale_up_gb_per_s_available: float
    scale_out_gb_per_s_per_gpu_needed: float
    scale_out_gbps_per_node_needed: float  # [Gb/s]
    nic_gbps: int  # [Gb/s] per NIC
    nics_per_node: int
    fabric: str  # fabric_words: "single-tier rail-optimised, non-blocking (8 rail switches)" ...
    switch_tiers: int  # layers of switches for the run's servers (0: one server)
    oversubscription: float  # [x] of the leaf uplinks from two tiers on (1: non-blocking)
    max_oversubscription: float
    technology: str
    max_comm_share: float
    notes: tuple[str, ...]
    # the ports are the accelerator's own (Gaudi): no network cards are bought
    ports_on_accelerator: bool = False


def plan_network(
    w: Workload,
    plan: Plan,
    acc: AcceleratorSpec,
    *,
    gpus_per_node: int,
    inter_node: str,
    max_comm_share: float,
    oversubscription: float | None,
    assumed_gbps: float,
) -> NetworkResult:
    """Fabric requirements for ``plan`` (see module docstring).

    ``assumed_gbps`` is the effective scale-out bandwidth per GPU the plan was
    costed with (NIC speed / oversubscription) [Gb/s].
    """
    tp, pp, dp, ep, cp = plan.tensor, plan.pipeline, plan.data, plan.expert, plan.context
    tokens_rep = w.tokens_per_step / dp
    micro_batches = max(1.0, tokens_rep / (plan.micro_batch_size * w.seq))
    tokens_rep /= cp  # each context rank holds 1 / cp of every sequence
    reducers = dp * cp  # gradients are reduced over the data and context ranks
    params_gpu = w.dense_params / (tp * pp) + w.expert_params / (tp * pp * ep)
    frozen_bytes = 0.0
    if w.method in ADAPTER_METHODS:  # the frozen base is gathered under ZeRO-3
        frozen_bytes = params_gpu * frozen_base_bytes(w.method)
        params_gpu = w.adapter_params / (tp * pp)
    ring, value_bytes = RING_ALL_REDUCE, BYTES_PER_VALUE
    # each token's copies on the scale-out and the scale-up legs of the expert all-to-all
    expert_out, expert_up = all_to_all_copies(
        top_k=w.top_k,
        ep=ep,
        nodes=nodes_spanned(ep * cp * tp, gpus_per_node),
        node_limit=w.routed_node_limit,
    )
    expert_copy = (  # [B] one copy of every token of a step and accelerator, every layer
        ALL_TO_ALLS_PER_LAYER
        * all_to_all_bytes_per_value(w.precision)
        * w.hidden
        * tokens_rep
        / tp
        * w.layers
        / pp
    )
    vol = {  # [B] per step and accelerator
        "data": data_parallel_bytes(
            plan.zero_stage, micro_batches, reducers, params_gpu, frozen_bytes
        ),
        "tensor": (
            TP_ALL_REDUCES_PER_LAYER
            * ring
            * (tp - 1)
            / tp
            * value_bytes
            * w.hidden
            * tokens_rep
            * w.layers
            / pp
        )
        if tp > 1
        else 0.0,
        "pipeline": (
            PP_TRANSFERS_PER_CHUNK * plan.virtual_stages * value_bytes * w.hidden * tokens_rep / tp
        )
        if pp > 1
        else 0.0,
        "expert": expert_copy * (expert_out + expert_up),  # both legs
        "context": (
            CP_KV_PASSES
            * 2.0
            * w.hidden
            * (w.kv_heads / w.heads if w.kv_heads else 1.0)
            * value_bytes
            * (cp - 1)
            * tokens_rep
            / tp
            * w.layers
            / pp
        )
        if cp > 1
        else 0.0,
    }
    rate = peak_tflops(acc, w.precision) * _FLOPS_PER_TFLOP * max(plan.mfu, _MIN_MFU)
    step = w.model_flops_per_token * w.tokens_per_step / plan.gpus / rate  # [s]
    spans = plan.gpus > gpus_per_node
    # DualPipe hides the expert all-to-all and the pipeline transfers behind the computation:
    # they need only last no longer than the step, not fit in the exposed-communication budget
    overlapped = overlapped_schedule(
        moe=w.moe, ep=ep, pp=pp, nodes=nodes_spanned(ep * cp * tp, gpus_per_node)
    )
    hidden_up = expert_copy * expert_up if overlapped else 0.0
    hidden_out = expert_copy * expert_out + vol["pipeline"] if overlapped and spans else 0.0
    inside = vol["tensor"] + expert_copy * expert_up - hidden_up
    inside += vol["context"] if tp * cp <= gpus_per_node else 0.0
    outside = 0.0
    if spans:
        outside = vol["data"] * (1.0 - value("eff_comm_overlap")) + vol["pipeline"]
        outside += expert_copy * expert_out - hidden_out
        if tp * cp > gpus_per_node:
            outside += vol["context"]
    budget = max_comm_share * step
    up_needed = max(inside / budget, hidden_up / step) / BYTES_PER_GB
    out_needed = max(outside / budget, hidden_out / step) / BYTES_PER_GB  # [GB/s per GPU]
    eff = value("nccl_scale_out_efficiency")
    per_gpu_gbps = out_needed * BITS_PER_BYTE / eff
    if spans:
        per_gpu_gbps = max(
            per_gpu_gbps,
            _gbps_for_mfu(w, plan, acc, gpus_per_node=gpus_per_node, assumed_gbps=assumed_gbps),
        )
    # a NIC behind the customer's oversubscription delivers 1/oversubscription of its speed
    port_gbps = per_gpu_gbps * (oversubscription or 1.0)
    nic = port_for(acc, port_gbps)
    nics = gpus_per_node if spans else 0
    have = nic if spans else 0.0
    if per_gpu_gbps > 0:
        max_os = max(1.0, have / per_gpu_gbps)
    else:
        max_os = value("single_node_oversubscription")
    if oversubscription is not None:
        chosen = oversubscription
    elif max_os < _SMALLEST_OVERSUBSCRIPTION:
        chosen = 1.0
    else:
        chosen = min(value("max_recommended_oversubscription"), float(int(max_os)))
    layout = fabric_layout(plan.gpus, gpus_per_node, chosen)
    notes: list[str] = []
    if oversubscription is not None and oversubscription > max_os:
        notes.append(
            f"requested {oversubscription:g}:1 oversubscription exceeds the {max_os:.1f}:1 "
            "this plan tolerates; expect slower steps"
        )
    if not spans:
        notes.append("each run fits in one node: no scale-out fabric needed for training traffic")
    elif port_gbps > nic:
        # the time on the wire grows as the bandwidth shrinks: share x wanted / carried
        share_on_nic = max_comm_share * port_gbps / nic
        carries = (
            f"the scale-out ports of each {acc.name} carry at most {nic} Gb/s"
            if server_ports(acc).on_accelerator
            else f"the PCIe Gen{acc.pcie_gen} slot of a server carries at most {nic} Gb/s per "
            "accelerator"
        )
        notes.append(
            f"to keep communication within {format_percent(max_comm_share)} of each training "
            f"step the plan would use {port_gbps:,.0f} Gb/s per accelerator, but {carries}, "
            f"so the plan uses {nic} Gb/s and communication takes about "
            f"{format_percent(share_on_nic)} of each step instead"
        )
    refused = fabric_refused(acc, inter_node) if spans else ""
    if refused:
        notes.append(refused)
    tech = technology_words(acc, inter_node, nic)
    return NetworkResult(
        step_time_s=step,
        per_step_gb={kind: volume / BYTES_PER_GB for kind, volume in vol.items()},
        scale_up_gb_per_s_needed=up_needed,
        scale_up_gb_per_s_available=acc.scale_up_gb_per_s / _DIRECTIONS,
        scale_out_gb_per_s_per_gpu_needed=out_needed,
        scale_out_gbps_per_node_needed=per_gpu_gbps * gpus_per_node if spans else 0.0,
        nic_gbps=nic if spans else 0,
        nics_per_node=nics,
        fabric=fabric_words(layout),
        switch_tiers=layout.tiers,
        oversubscription=layout.oversubscription,
        max_oversubscription=max_os,
        technology=tech if spans else "none",
        max_comm_share=max_comm_share,
        notes=tuple(notes),
        ports_on_accelerator=bool(spans and server_ports(acc).on_accelerator),
    )
