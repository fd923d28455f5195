"""Accelerator catalog: dense peak throughput, memory, fabric and power.

Prices are in :mod:`sizing.engine.cost.accelerator_prices`.

Figures are copied from the reference hardware catalog (compiled 2026-12-02)
with their source and date.  TFLOPS are **dense** peaks (without 2:4
sparsity): NVIDIA's Hopper/Ada/Blackwell headline figures are sparse and are
halved [1]_.

References
----------
.. [1] Reference hardware catalog, section 1 (conventions), 2026-12-02.
.. [2] NVIDIA A100/H100/H200/B200/L40S/L4 datasheets via glennklockwood.com
       and cli99/llm-analysis gpu_configs @ d841e40 (2024-11-13).
.. [3] AMD ROCm MI300 documentation; Intel Gaudi HotChips 2024.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

REFERENCE_SERVER_GPUS = 8  # server_power_kw is quoted for a server of this many GPUs


@dataclass(frozen=True)
class AcceleratorSpec:
    """One accelerator model.

    Attributes: peaks in [TFLOPS] (dense), memory in [GB], bandwidths in
    [TB/s] (HBM) and [GB/s] (scale-up, bidirectional per GPU), power in [W].
    """

    id: str
    name: str
    vendor: str
    software: str  # "cuda" | "rocm" | "gaudi"
    memory_gb: float
    memory_bw_tbps: float
    peak_bf16_tflops: float
    peak_fp8_tflops: float | None
    peak_tf32_tflops: float | None
    peak_fp32_tflops: float
    tdp_w: float
    scale_up_gb_per_s: float  # bidirectional per GPU; PCIe figure when no fabric
    scale_up_domain: int  # GPUs sharing the scale-up fabric
    scale_up_name: str
    pcie_gen: int
    nic_gbps_per_gpu: float  # compute-fabric NIC per GPU in reference nodes
    server_power_kw: float  # max power of a REFERENCE_SERVER_GPUS-GPU server [kW]
    source: str


def _spec(**kw: object) -> AcceleratorSpec:
    return AcceleratorSpec(**kw)  # type: ignore[arg-type]


_NV = "NVIDIA datasheet via glennklockwood.com / cli99 llm-analysis @ d841e40"

_SPECS = (
    _spec(
        id="a100-40gb",
        name="NVIDIA A100 SXM4 40GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=40,
        memory_bw_tbps=1.555,
        peak_bf16_tflops=312,
        peak_fp8_tflops=None,
        peak_tf32_tflops=156,
        peak_fp32_tflops=19.5,
        tdp_w=400,
        scale_up_gb_per_s=600,
        scale_up_domain=8,
        scale_up_name="NVLink 3 + NVSwitch",
        pcie_gen=4,
        nic_gbps_per_gpu=200,
        server_power_kw=6.5,
        source=_NV + "; DGX A100 6.5 kW",
    ),
    _spec(
        id="a100-80gb",
        name="NVIDIA A100 SXM4 80GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=80,
        memory_bw_tbps=2.039,
        peak_bf16_tflops=312,
        peak_fp8_tflops=None,
        peak_tf32_tflops=156,
        peak_fp32_tflops=19.5,
        tdp_w=400,
        scale_up_gb_per_s=600,
        scale_up_domain=8,
        scale_up_name="NVLink 3 + NVSwitch",
        pcie_gen=4,
        nic_gbps_per_gpu=200,
        server_power_kw=6.5,
        source=_NV + "; DGX A100 6.5 kW",
    ),
    _spec(
        id="h100-sxm",
        name="NVIDIA H100 SXM5 80GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=80,
        memory_bw_tbps=3.35,
        peak_bf16_tflops=989.4,
        peak_fp8_tflops=1978.9,
        peak_tf32_tflops=494.7,
        peak_fp32_tflops=66.9,
        tdp_w=700,
        scale_up_gb_per_s=900,
        scale_up_domain=8,
        scale_up_name="NVLink 4 + NVSwitch",
        pcie_gen=5,
        nic_gbps_per_gpu=400,
        server_power_kw=10.2,
        source=_NV + "; DGX H100 10.2 kW",
    ),
    _spec(
        id="h100-pcie",
        name="NVIDIA H100 PCIe 80GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=80,
        memory_bw_tbps=2.0,
        peak_bf16_tflops=756,
        peak_fp8_tflops=1513,
        peak_tf32_tflops=378,
        peak_fp32_tflops=51.2,
        tdp_w=350,
        scale_up_gb_per_s=128,
        scale_up_domain=2,
        scale_up_name="PCIe Gen5 (NVLink bridge pairs)",
        pcie_gen=5,
        nic_gbps_per_gpu=200,
        server_power_kw=5.0,
        source="NVIDIA H100 PCIe product brief PB-11133-001_v02 (2022-11); server power U",
    ),
    _spec(
        id="h800",
        name="NVIDIA H800 SXM5 80GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=80,
        memory_bw_tbps=3.35,
        peak_bf16_tflops=989.4,
        peak_fp8_tflops=1978.9,
        peak_tf32_tflops=494.7,
        peak_fp32_tflops=66.9,
        tdp_w=700,
        scale_up_gb_per_s=400,
        scale_up_domain=8,
        scale_up_name="NVLink (400 GB/s)",
        pcie_gen=5,
        nic_gbps_per_gpu=400,
        server_power_kw=10.2,
        source="same die as H100 SXM5 (derived); NVLink 400 GB/s per DeepSeek-V3 report 3.1 (U)",
    ),
    _spec(
        id="h200",
        name="NVIDIA H200 SXM 141GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=141,
        memory_bw_tbps=4.8,
        peak_bf16_tflops=989.5,
        peak_fp8_tflops=1979,
        peak_tf32_tflops=494.5,
        peak_fp32_tflops=66.9,
        tdp_w=700,
        scale_up_gb_per_s=900,
        scale_up_domain=8,
        scale_up_name="NVLink 4 + NVSwitch",
        pcie_gen=5,
        nic_gbps_per_gpu=400,
        server_power_kw=10.2,
        source="Epoch chip dataset; NVIDIA H200 page; DGX H200 10.2 kW",
    ),
    _spec(
        id="b200",
        name="NVIDIA B200 (HGX, 1,000 W)",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=180,
        memory_bw_tbps=7.7,
        peak_bf16_tflops=2250,
        peak_fp8_tflops=4500,
        peak_tf32_tflops=1100,
        peak_fp32_tflops=75,
        tdp_w=1000,
        scale_up_gb_per_s=1800,
        scale_up_domain=8,
        scale_up_name="NVLink 5 + NVSwitch",
        pcie_gen=5,
        nic_gbps_per_gpu=400,
        server_power_kw=14.3,
        source="NVIDIA Blackwell datasheet (dense = half the sparse table); DGX B200 14.3 kW",
    ),
    _spec(
        id="l40s",
        name="NVIDIA L40S 48GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=48,
        memory_bw_tbps=0.864,
        peak_bf16_tflops=362.05,
        peak_fp8_tflops=733,
        peak_tf32_tflops=183,
        peak_fp32_tflops=91.6,
        tdp_w=350,
        scale_up_gb_per_s=64,
        scale_up_domain=1,
        scale_up_name="PCIe Gen4 only",
        pcie_gen=4,
        nic_gbps_per_gpu=100,
        server_power_kw=4.5,
        source="NVIDIA L40S datasheet; server power U",
    ),
    _spec(
        id="rtx-a6000",
        name="NVIDIA RTX A6000 48GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=48,
        memory_bw_tbps=0.768,
        peak_bf16_tflops=154.8,
        peak_fp8_tflops=None,
        peak_tf32_tflops=None,
        peak_fp32_tflops=38.7,
        tdp_w=300,
        scale_up_gb_per_s=64,
        scale_up_domain=1,
        scale_up_name="PCIe Gen4 (NVLink bridge pairs)",
        pcie_gen=4,
        nic_gbps_per_gpu=100,
        server_power_kw=4.0,
        source="servethehome.com spec table; Microway via llmperf.net",
    ),
    _spec(
        id="l4",
        name="NVIDIA L4 24GB",
        vendor="NVIDIA",
        software="cuda",
        memory_gb=24,
        memory_bw_tbps=0.300,
        peak_bf16_tflops=121,
        peak_fp8_tflops=242.5,
        peak_tf32_tflops=60,
        peak_fp32_tflops=30.3,
        tdp_w=72,
        scale_up_gb_per_s=64,
        scale_up_domain=1,
        scale_up_name="PCIe Gen4 only",
        pcie_gen=4,
        nic_gbps_per_gpu=50,
        server_power_kw=1.5,
        source="NVIDIA L4 datasheet (dense = half the sparse figures)",
    ),
    _spec(
        id="mi300x",
        name="AMD Instinct MI300X 192GB",
        vendor="AMD",
        software="rocm",
        memory_gb=192,
        memory_bw_tbps=5.3,
        peak_bf16_tflops=1307.4,
        peak_fp8_tflops=2614.9,
        peak_tf32_tflops=653.7,
        peak_fp32_tflops=163.4,
        tdp_w=750,
        scale_up_gb_per_s=896,
        scale_up_domain=8,
        scale_up_name="Infinity Fabric (7 links)",
        pcie_gen=5,
        nic_gbps_per_gpu=400,
        server_power_kw=10.2,
        source="AMD ROCm MI300 docs; Epoch chip dataset; Infinity Fabric 896 GB/s U; server power U",
    ),
    _spec(
        id="mi325x",
        name="AMD Instinct MI325X 256GB",
        vendor="AMD",
        software="rocm",
        memory_gb=256,
        memory_bw_tbps=6.0,
        peak_bf16_tflops=1307.4,
        peak_fp8_tflops=2614.9,
        peak_tf32_tflops=653.7,
        peak_fp32_tflops=163.4,
        tdp_w=1000,
        scale_up_gb_per_s=896,
        scale_up_domain=8,
        scale_up_name="Infinity Fabric (7 links)",
        pcie_gen=5,
        nic_gbps_per_gpu=400,
        server_power_kw=13.0,
        source="Epoch chip dataset; AMD MI325X page; server power U",
    ),
    _spec(
        id="gaudi3",
        name="Intel Gaudi 3 (HL-325L)",
        vendor="Intel",
        software="gaudi",
        memory_gb=128,
        memory_bw_tbps=3.67,
        peak_bf16_tflops=1835,
        peak_fp8_tflops=1835,
        peak_tf32_tflops=None,
        peak_fp32_tflops=28.7,
        tdp_w=900,
        scale_up_gb_per_s=1050,
        scale_up_domain=8,
        scale_up_name="integrated 21 x 200 GbE RoCE",
        pcie_gen=5,
        nic_gbps_per_gpu=600,
        server_power_kw=12.0,
        source="Intel HotChips 2024; Habana networking docs; server power U",
    ),
    _spec(
        id="gaudi2",
        name="Intel Gaudi 2 (HL-225H)",
        vendor="Intel",
        software="gaudi",
        memory_gb=96,
        memory_bw_tbps=2.46,
        peak_bf16_tflops=432,
        peak_fp8_tflops=865,
        peak_tf32_tflops=None,
        peak_fp32_tflops=28.7,
        tdp_w=600,
        scale_up_gb_per_s=600,
        scale_up_domain=8,
        scale_up_name="integrated 24 x 100 GbE RoCE",
        pcie_gen=4,
        nic_gbps_per_gpu=300,
        server_power_kw=8.0,
        source="Intel HotChips 2024; Epoch chip dataset",
    ),
    _spec(
        id="mi250x",
        name="AMD Instinct MI250X 128GB",
        vendor="AMD",
        software="rocm",
        memory_gb=128,
        memory_bw_tbps=3.2,
        peak_bf16_tflops=383,
        peak_fp8_tflops=None,
        peak_tf32_tflops=None,
        peak_fp32_tflops=47.9,
        tdp_w=500,
        scale_up_gb_per_s=800,
        scale_up_domain=8,
        scale_up_name="Infinity Fabric",
        pcie_gen=4,
        nic_gbps_per_gpu=200,
        server_power_kw=6.5,
        source="AMD MI250X datasheet; Epoch chip dataset",
    ),
)

ACCELERATORS: Mapping[str, AcceleratorSpec] = MappingProxyType({s.id: s for s in _SPECS})
"""Accelerator id -> spec, ids as in ``docs/engine-contract.md``."""

DEFAULT_ACCELERATOR = "h100-sxm"
# Sized when the customer names no accelerator: each maker's most widely offered training
# accelerator in the catalog (engine choice), in the order tried; the first one the customer's
# makers and software allow is used.
DEFAULT_ACCELERATORS = (DEFAULT_ACCELERATOR, "mi300x", "gaudi3")


def training_precision(precision: str, acc: AcceleratorSpec) -> str:
    """The precision a run asked in ``precision`` is sized in on ``acc``.

    FP8 on an accelerator without FP8 arithmetic (``peak_fp8_tflops`` is None: A100,
    RTX A6000, MI250X) trains in BF16 instead, and so is sized in BF16 throughout:
    speed, memory (no FP8 weight copy) and error range [1]_.
    """
    if precision == "fp8" and not acc.peak_fp8_tflops:
        return "bf16"
    return precision


def peak_tflops(acc: AcceleratorSpec, precision: str) -> float:
    """Dense peak throughput for a training precision.

    Parameters
    ----------
    acc : AcceleratorSpec
    precision : str
        ``"fp32" | "tf32" | "fp16" | "bf16" | "fp8"``.

    Returns
    -------
    float
        Peak [TFLOPS].  FP8 on hardware without FP8 falls back to BF16; TF32
        without TF32 units falls back to FP32 [1]_.
    """
    if precision == "fp8" and acc.peak_fp8_tflops:
        return acc.peak_fp8_tflops
    if precision == "tf32" and acc.peak_tf32_tflops:
        return acc.peak_tf32_tflops
    if precision in ("fp32", "tf32"):
        return acc.peak_fp32_tflops
    return acc.peak_bf16_tflops
