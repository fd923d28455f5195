"""Storage: capacity, read rate, checkpoint size and write bandwidth, tiers.

::

    checkpoint_size_gb   = params * bytes_per_param_checkpoint / 1e9        [GB]
    write_gb_per_s       = checkpoint_size_gb / (checkpoint_minutes * 60)    [GB/s]
    read_gb_per_s        = tokens_per_s * bytes_per_token * headroom / 1e9   [GB/s]

References
----------
.. [1] BLOOM-176B: 2.3 TB checkpoint = 14 B/param (bigscience tr11 README).
.. [2] NVIDIA DGX SuperPOD H100 RA: storage per node Good 4/2, Better 8/4,
       Best 40/20 GB/s read/write; stage checkpoints on local NVMe.
.. [3] DDN guidance for DGX B200: at least 1 GB/s per GPU.
.. [4] AWS S3 performance guidelines: 3,500 PUT / 5,500 GET per prefix.
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value
from .resolve import Resolved


@dataclass(frozen=True)
class StorageResult:
    checkpoint_size_gb: float
    checkpoint_bytes_per_param: float
    checkpoint_write_gb_per_s: float
    checkpoint_minutes_target: float
    checkpoints_retained: int
    checkpoint_capacity_tb: float
    dataset_capacity_tb: float  # with growth over the horizon
    dataset_size_tb: float
    read_gb_per_s: float
    total_capacity_tb: float
    tiers: tuple[dict[str, str], ...]
    small_files_advice: str | None
    notes: tuple[str, ...]


def checkpoint_bytes_per_param(r: Resolved) -> float:
    """Bytes per parameter in a resumable checkpoint [B/param] [1]_."""
    if r.method in ("lora", "qlora"):
        return 0.0
    if r.precision in ("fp32", "tf32"):
        return 4.0 + (8.0 if r.optimizer.startswith("adam") else 4.0)
    return value("checkpoint_bytes_mixed_adam") - (
        8.0 - {"adamw": 8.0, "adamw_8bit": 2.0, "adafactor": 0.0}.get(r.optimizer, 4.0)
    )


def plan_storage(
    r: Resolved, *, adapter_params: float, tokens_per_s: float, gpus: int
) -> StorageResult:
    """Storage requirements for one cluster (see module docstring)."""
    bpp = checkpoint_bytes_per_param(r)
    ckpt_gb = (r.total_params * bpp + adapter_params * 12.0) / 1e9
    write = ckpt_gb / (r.checkpoint_minutes_max * 60.0)
    ckpt_tb = ckpt_gb * r.checkpoints_retained * max(1, r.concurrent_jobs) / 1e3
    growth = (1.0 + r.data_growth) ** max(0, r.years - 1)
    dataset_tb = r.dataset_size_tb * growth
    if r.modality == "text":
        bytes_per_token = 2.0 if r.vocab_size <= 65536 else 4.0
        read = tokens_per_s * bytes_per_token * value("read_headroom") / 1e9
    else:
        per_token = r.dataset_size_tb * 1e12 / max(r.tokens, 1.0)
        read = max(
            tokens_per_s * per_token * value("read_headroom") / 1e9,
            value("min_read_gb_per_s_per_gpu_media") * gpus,
        )
    tiers = (
        {
            "tier": "local NVMe",
            "use": "checkpoint staging and dataset cache (flush to shared storage)",
        },
        {
            "tier": "shared parallel file system",
            "use": f"hot dataset shards and the last checkpoints; "
            f"sustain {read:.1f} GB/s read and {write:.1f} GB/s write",
        },
        {"tier": "object storage", "use": "raw data, older checkpoints, datasets at rest"},
    )
    advice = None
    avg_mb = None
    if r.files and r.dataset_size_tb:
        avg_mb = r.dataset_size_tb * 1e6 / r.files
    if (r.files and r.files > 1e6) or (avg_mb is not None and avg_mb < value("small_file_mb")):
        advice = (
            "pack samples into large shards (WebDataset/tar or similar, 100 MB-1 GB each) "
            "and read them sequentially; spread object keys over prefixes (S3: ~5,500 GET/s "
            "per prefix)"
        )
    notes: list[str] = []
    if r.existing_read_gb_per_s is not None and r.existing_read_gb_per_s < max(read, write):
        notes.append(
            f"existing storage ({r.existing_read_gb_per_s:g} GB/s) is below the "
            f"{max(read, write):.1f} GB/s needed; stage checkpoints on local NVMe"
        )
    total = dataset_tb * 1.2 + ckpt_tb  # 20 % for tokenised copies and scratch
    return StorageResult(
        ckpt_gb,
        bpp,
        write,
        r.checkpoint_minutes_max,
        r.checkpoints_retained,
        ckpt_tb,
        dataset_tb,
        r.dataset_size_tb,
        read,
        total,
        tiers,
        advice,
        tuple(notes),
    )
