"""Host CPUs, RAM and PCIe per node.

::

    cpu_cores_per_node = gpus_in_server * cores_per_gpu(modality, preprocessing)
    ram_gb_per_node    = ram_to_gpu_memory * gpus_in_server * gpu_memory_gb

``gpus_in_server`` is the node size, or the whole cluster when it is smaller
than one node (a 1- or 2-GPU workstation or cloud instance is sized for its
own accelerators, not for an eight-GPU server [2]_).

References
----------
.. [1] NVIDIA DGX H100: 2 x 56 cores, 2 TB RAM for 8 x 80 GB; DGX A100:
       128 cores, 1 TB for 8 x 40/80 GB.
.. [2] AWS EC2 P5 instances: p5.4xlarge, 1 x H100 80 GB with 16 vCPUs (8 cores) and
       256 GiB; p5.48xlarge, 8 x H100 with 192 vCPUs and 2 TiB
       (https://aws.amazon.com/ec2/instance-types/p5/, 2025): host resources scale with
       the accelerators in the server.
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value
from .hardware import AcceleratorSpec

_MEDIA_MODALITIES = ("image", "video", "audio", "multimodal")  # decoded by the host CPUs


@dataclass(frozen=True)
class HostsResult:
    cpu_cores_per_node: int
    cpu_cores_per_gpu: int
    ram_gb_per_node: int
    pcie_generation: int
    local_nvme_tb_per_node: float
    rationale: str


def plan_hosts(
    acc: AcceleratorSpec, gpus_per_node: int, modality: str, preprocessing: str
) -> HostsResult:
    """Host sizing per server of ``gpus_per_node`` accelerators (see module docstring; the
    caller passes the cluster's count when it is below one node)."""
    heavy = modality in _MEDIA_MODALITIES and preprocessing == "on_the_fly"
    cores = int(value("cpu_cores_per_gpu_media" if heavy else "cpu_cores_per_gpu_text"))
    ram = value("ram_to_gpu_memory") * gpus_per_node * acc.memory_gb
    ram_rounded = _round_ram(ram)
    if heavy:
        why = "on-the-fly decoding/augmentation needs more cores per GPU"
    elif preprocessing == "on_the_fly":
        why = (
            "data prepared during training (tokenising text is light work): cores for loaders, "
            "tokenisers, communication and checkpoint staging"
        )
    else:
        why = (
            "data prepared before training: cores for loaders, communication and checkpoint staging"
        )
    return HostsResult(
        cpu_cores_per_node=cores * gpus_per_node,
        cpu_cores_per_gpu=cores,
        ram_gb_per_node=ram_rounded,
        pcie_generation=acc.pcie_gen,
        local_nvme_tb_per_node=round(value("local_nvme_tb_per_gpu") * gpus_per_node, 2),
        rationale=why,
    )


def _round_ram(gb: float) -> int:
    """Round up to a common DIMM total (multiples of 256 GB above 256 GB)."""
    if gb <= 256:
        for size in (64, 128, 256):
            if gb <= size:
                return size
    return int(-(-gb // 256) * 256)
