"""How far a non-CUDA software stack's factor holds as the run grows.

The stack factors ``eff_software_<stack>`` (``benchmarks/vendors.py``) come from same-benchmark
comparisons at the scale they were run: ROCm's from one node of 8 (MLPerf Training v5.0 Llama 2
70B LoRA [1]_), Gaudi's from 8 and 64 accelerators [2]_.  Beyond one node the collectives
(RCCL instead of NCCL), the network stack and the less-tuned multi-node recipes add losses the
one-node comparison cannot see, and the only published large AMD run is slower still: a 1T
model on 3,072 MI250X reached 31.96 % of peak [3]_ where Megatron-LM reached 52 % on 3,072
A100 [4]_, 0.61 of CUDA's share against the one-node 0.73.

* **Factor by scale** (ROCm): the one-node factor up to one node, falling log-linearly in the
  accelerator count to ``eff_software_rocm_at_scale`` at ``vendor_scale_reference_gpus`` (the
  Frontier run's 3,072) and flat beyond.  Gaudi and CUDA keep their factor.
* **Thin evidence**: above the largest count a stack's comparisons ran on
  (``vendor_evidence_gpus_<stack>``), the range widens by the ratio of ROCm's one-node factor
  to its factor at scale, the only published measure of what a stack loses beyond its
  measured scale.

References
----------
.. [1] MLPerf Training v5.0, Llama 2 70B LoRA, 8 x MI300X (5.0-0027) and 8 x MI325X
       (5.0-0026) against H100 and H200 (``tests/sizing/data/vendor_benchmarks.json``).
.. [2] Intel Gaudi 2 model performance data (Intel Gaudi software 1.19.0): Llama 3.1 70B on 64
       HPUs, 8B on 8.
.. [3] Dash et al., Optimizing Distributed Training on Frontier for Large Language Models,
       arXiv 2312.12705 (2023), sec. 5: 1T parameters on 3,072 MI250X GCDs at 31.96 % of peak
       (175B on 1,024 at 36.14 %), Megatron-DeepSpeed on ROCm.
.. [4] Narayanan et al., arXiv 2104.04473 (2021), Table 1: 1T on 3,072 A100 at 163 TFLOP/s,
       52 % of peak.
"""

from __future__ import annotations

import math

from .assumptions import value, whole

_ONE_NODE = 8  # [accelerators] the scale of the one-node comparisons [1]_
_STACKS_BY_SCALE = ("rocm",)  # stacks with a published factor at scale
_STACKS_WITH_EVIDENCE = ("rocm", "gaudi")


def at_scale_ratio() -> float:
    """ROCm's factor at scale over its one-node factor [-] (0.61 / 0.73)."""
    return value("eff_software_rocm_at_scale") / value("eff_software_rocm")


def software_scale_factor(software: str, gpus: int) -> float:
    """Multiplier of the stack factor on ``gpus`` accelerators [-]: 1 up to one node."""
    if software not in _STACKS_BY_SCALE or gpus <= _ONE_NODE:
        return 1.0
    reference = whole("vendor_scale_reference_gpus")
    share = min(1.0, math.log(gpus / _ONE_NODE) / math.log(reference / _ONE_NODE))
    return float(at_scale_ratio() ** share)


def evidence_gpus(software: str) -> int | None:
    """The largest count a stack's same-benchmark comparisons ran on; None for CUDA."""
    if software not in _STACKS_WITH_EVIDENCE:
        return None
    return whole(f"vendor_evidence_gpus_{software}")


def thin_evidence_widening(software: str, gpus: int) -> float:
    """How much wider the range is above a stack's largest compared count [x], at least 1."""
    largest = evidence_gpus(software)
    if largest is None or gpus <= largest:
        return 1.0
    return 1.0 / at_scale_ratio()
