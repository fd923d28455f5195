"""Expert parallelism: the all-to-all of routed tokens and the schedule that hides it.

An MoE layer sends each token's hidden state to the ranks holding its ``k`` routed experts
(dispatch) and brings the ``k`` results back (combine), forward and backward: four
all-to-alls per layer.  How long they take depends on where the experts sit and how the
tokens travel; how much of it the step waits for depends on the pipeline schedule.

**Traffic** (per token, layer and all-to-all, in copies of its hidden state).  An expert
group of ``ep`` ranks (times the tensor and context ranks inside it) spans ``n`` nodes of
``g`` expert ranks each:

* on one node, the ``k`` copies travel over the scale-up links (NVLink), ``k (ep-1)/ep``
  of them to another rank;
* across nodes, a token crosses the scale-out network (InfiniBand) once per node that
  holds one of its experts, to the rank of the same local index, which forwards it over
  NVLink to the experts' ranks [1]_ (DeepSeek's all-to-all kernels, published as DeepEP
  [3]_).  With routing over ``M`` nodes (every node, or the model's node limit, DeepSeek-V3's
  ``M = 4`` [1]_) the ``k`` experts fall on ``M (1 - (1 - 1/M)^k)`` distinct nodes on
  average, ``(n-1)/n`` of them another node; the forwarding moves ``k (1 - 1/g)`` copies over
  NVLink at the same time.  The all-to-all takes the longer of the two.

With FP8 training the dispatch travels in FP8 (one byte a value), the combine and both
backward all-to-alls in BF16 [1]_.

**Schedule.**  Under 1F1B (interleaved or not) a micro-batch's all-to-all sits between its
attention and its experts: the step waits for all of it.  DualPipe [2]_ runs the forward
chunk of one micro-batch beside the backward chunk of another, so each one's all-to-all and
pipeline transfers hide behind the other's computation as long as they last no longer; the
communication kernels keep ``dualpipe_communication_sm_share`` of the streaming
multiprocessors, so the computation runs that much slower.  Its bubble is
``(p/2 - 1)(F&B + B - 3W)`` against 1F1B's ``(p-1)(F+B)`` ([2]_ Table 2), and each rank holds
two copies of its stage's parameters ([2]_ Table 2).

References
----------
.. [1] DeepSeek-AI, DeepSeek-V3 Technical Report, arXiv 2412.19437 (Dec 2024): sec. 2.1.2
       (node-limited routing, each token to at most M = 4 nodes), 3.2.2 (tokens cross
       InfiniBand once per target node to the GPU of the same in-node index and are
       forwarded over NVLink; 20 of the H800's 132 SMs run the communication), 3.3.3
       (activations dispatched in FP8, combined in BF16).
.. [2] Same report, sec. 3.2.1 and Table 2: DualPipe overlaps the computation and the
       communication of a forward and a backward chunk; bubble ``(PP/2-1)(F&B+B-3W)``
       against 1F1B's ``(PP-1)(F+B)``; parameters 2x.
.. [3] deepseek-ai/DeepEP (GitHub, Feb 2025): the intranode (NVLink) and internode
       (RDMA + NVLink forwarding) dispatch and combine kernels of DeepSeek-V3; used by
       Megatron-Core's "flex" token dispatcher.
"""

from __future__ import annotations

from .assumptions import value

# Expert dispatch and combine, forward and backward [1]_
ALL_TO_ALLS_PER_LAYER = 4.0
# [B] per value of the four all-to-alls: FP8 training dispatches in FP8 (1 B), the rest
# travel in BF16 (2 B) [1]_; other precisions send all four in 16 bits
_BYTES_PER_VALUE = {"fp8": (1.0 + 2.0 + 2.0 + 2.0) / ALL_TO_ALLS_PER_LAYER}
_BYTES_16BIT = 2.0
# DualPipe's idle chunks per bubble slot, (F&B + B - 3W) over a micro-batch's F + B: with the
# backward twice the forward (B = 2F), the weight-gradient half of it (W = B/2) and the
# overlapped F&B as long as F + B, (3F + 2F - 3F) / 3F = 2/3 [2]_
_DUALPIPE_SLOT = 2.0 / 3.0
# DualPipe keeps two copies of each stage's parameters [2]_
DUALPIPE_PARAMETER_COPIES = 2.0


def all_to_all_bytes_per_value(precision: str) -> float:
    """Average bytes per value of the four expert all-to-alls of a layer [B] [1]_."""
    return _BYTES_PER_VALUE.get(precision, _BYTES_16BIT)


def nodes_spanned(group_ranks: int, gpus_per_node: int) -> int:
    """Nodes an expert group of ``group_ranks`` accelerators spans (at least one) [-]."""
    per_node = max(1, gpus_per_node)
    return max(1, -(-group_ranks // per_node))


def all_to_all_copies(
    *, top_k: int, ep: int, nodes: int, node_limit: int = 0
) -> tuple[float, float]:
    """Copies of a token's hidden state each all-to-all moves: (scale-out, scale-up) [-].

    ``nodes`` the expert group spans; ``node_limit`` the model's node-limited routing
    (0: the router may use every node).  See the module docstring for the formulas.
    """
    k = float(top_k)
    if ep <= 1:
        return 0.0, 0.0
    if nodes <= 1:
        return 0.0, k * (ep - 1) / ep
    reached = float(min(node_limit, nodes) if node_limit > 0 else nodes)
    distinct = reached * (1.0 - (1.0 - 1.0 / reached) ** k)
    remote = distinct * (nodes - 1) / nodes
    per_node = max(1.0, ep / nodes)  # expert ranks on each node
    return remote, k * (1.0 - 1.0 / per_node)


def overlapped_schedule(*, moe: bool, ep: int, pp: int, nodes: int) -> bool:
    """Whether a plan runs DualPipe [2]_: an MoE pipeline of an even number of stages
    whose expert all-to-all crosses nodes, where hiding it pays; 1F1B otherwise."""
    return moe and ep > 1 and pp >= 2 and pp % 2 == 0 and nodes > 1


def dualpipe_bubble(stages: int, micro_batches: float) -> float:
    """Share of a step each rank idles under DualPipe [-] [2]_.

    ``(p/2 - 1)`` slots of ``2/3`` of a micro-batch's forward and backward, against the
    ``m`` micro-batches of work: ``s / (m + s)`` with ``s = (p/2 - 1) 2/3``.
    """
    m = micro_batches if micro_batches > 1.0 else 1.0
    idle = max(0.0, stages / 2.0 - 1.0) * _DUALPIPE_SLOT
    return idle / (m + idle)


def dualpipe_stretch(comm_ratio: float) -> float:
    """Step time over compute time under DualPipe, with ``comm_ratio`` the all-to-all and
    pipeline transfers over the computation [-] [1]_ [2]_.

    The computation runs on ``1 - s`` of the multiprocessors; the communication hides
    behind it as far as it lasts: ``max(1 / (1 - s), comm_ratio)``.
    """
    compute = 1.0 / (1.0 - value("dualpipe_communication_sm_share"))
    return compute if compute >= comm_ratio else comm_ratio
