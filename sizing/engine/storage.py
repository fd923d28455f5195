"""Storage: capacity, read rate, checkpoint size and write bandwidth, tiers.

::

    checkpoint_size_gb   = params * bytes_per_param_checkpoint / 1e9        [GB]
    write_gb_per_s       = checkpoint_size_gb / (checkpoint_minutes * 60)    [GB/s]
    read_gb_per_s        = tokens_per_s * bytes_per_token * headroom / 1e9   [GB/s]
    scratch_tb           = dataset_tb * (scratch factor - 1)
                           + (text) tokens * bytes_per_token * growth / 1e12 [TB]

References
----------
.. [1] BLOOM-176B: 2.3 TB checkpoint = 14 B/param (bigscience tr11 README).
.. [2] NVIDIA DGX SuperPOD H100 RA: storage per node Good 4/2, Better 8/4,
       Best 40/20 GB/s read/write; stage checkpoints on local NVMe.
.. [3] DDN guidance for DGX B200: at least 1 GB/s per GPU.
.. [4] AWS S3 performance guidelines: 3,500 PUT / 5,500 GET per prefix.
.. [5] Megatron-LM, ``megatron/core/datasets/indexed_dataset.py`` (``DType.optimal_dtype``,
       2024): the tokenised copy a run reads stores each token id as uint16 when the
       vocabulary has fewer than 65,500 entries, else as int32.  At frontier scale that copy
       is most of the scratch: 15.6T tokens of a 128k vocabulary are 62 TB, as large as their
       raw text (issue 27, defect 7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import value
from .inputs import ADAPTER_METHODS
from .memory import adapter_bytes_per_param, optimizer_state_bytes
from .numbers import format_quantity
from .resolve.resolved import Resolved
from .units import BYTES_PER_GB, GB_PER_TB

_BYTES_PER_TB = 1e12
_MB_PER_TB = 1e6
_SECONDS_PER_MINUTE = 60.0
# Tokenised text stores each token id in 16 bits when the vocabulary fits, else in 32.
_UINT16_VALUES = 2**16
_TOKEN_ID_BYTES_SMALL_VOCAB = 2.0
_TOKEN_ID_BYTES_LARGE_VOCAB = 4.0


@dataclass(frozen=True)
class StorageResult:
    checkpoint_size_gb: float
    checkpoint_bytes_per_param: float
    checkpoint_write_gb_per_s: float
    checkpoint_minutes_target: float
    checkpoints_retained: int
    checkpoint_capacity_tb: float
    dataset_capacity_tb: float  # with growth over the horizon
    scratch_capacity_tb: float  # the tokenised copy (text) and scratch beside the dataset
    dataset_size_tb: float
    read_gb_per_s: float
    total_capacity_tb: float
    tiers: tuple[dict[str, str], ...]
    small_files_advice: str | None
    notes: tuple[str, ...]

    @property
    def kept_between_runs_tb(self) -> float:
        """Storage kept between runs [TB]: the dataset, its scratch and the final checkpoint
        of each concurrent run; the rest of the rolling window is needed only while a run
        runs (``cost.cloud.rented_storage_usd``)::

            kept = total - checkpoints x (1 - 1 / retained)
        """
        rolling = self.checkpoint_capacity_tb * (1.0 - 1.0 / max(1, self.checkpoints_retained))
        return self.total_capacity_tb - rolling


def checkpoint_bytes_per_param(r: Resolved) -> float:
    """Bytes per parameter in a resumable checkpoint [B/param] [1]_.

    FP8 training saves what BF16 training does (16-bit weights, the FP32 master copy and the
    optimizer's FP32 moments): its FP8 weight copies are re-made from the 16-bit weights every
    step and only their scaling factors are extra state (NVIDIA Transformer Engine user guide,
    "Using FP8 with Transformer Engine", 2024-2025).  DeepSeek-V3 (arXiv 2412.19437, sec.
    3.3.3) also keeps FP32 master weights but holds Adam's moments in BF16, 4 B less: not
    assumed, as Megatron-LM and PyTorch keep them in FP32.
    """
    if r.method in ADAPTER_METHODS:
        return 0.0  # the frozen base is not checkpointed; the adapters are counted apart
    if r.precision in ("fp32", "tf32"):
        # FP32 weights plus full-size moments: every Adam variant is counted at FP32 Adam's 8
        # (8-bit Adam and Adafactor included), anything else at one momentum buffer.
        if r.optimizer.startswith("adam"):
            moments = value("adam_state_bytes")
        else:
            moments = value("momentum_state_bytes")
        return value("weight_bytes_fp32") + moments
    # BLOOM's 14 B/param for mixed-precision Adam, with Adam's moments swapped for this optimizer's
    return value("checkpoint_bytes_mixed_adam") - (
        value("adam_state_bytes") - optimizer_state_bytes(r.optimizer)
    )


def plan_storage(
    r: Resolved, *, adapter_params: float, tokens_per_s: float, gpus: int
) -> StorageResult:
    """Storage requirements for one cluster (see module docstring)."""
    bpp = checkpoint_bytes_per_param(r)
    adapter = adapter_bytes_per_param()
    adapter_checkpoint_bpp = adapter.weights + adapter.optimizer  # no gradients in a checkpoint
    estimated_gb = (r.total_params * bpp + adapter_params * adapter_checkpoint_bpp) / BYTES_PER_GB
    ckpt_gb = estimated_gb
    if r.checkpoint_size_gb is not None:
        ckpt_gb = r.checkpoint_size_gb  # the customer knows their checkpoints: theirs is sized
    write = ckpt_gb / (r.checkpoint_minutes_max * _SECONDS_PER_MINUTE)
    ckpt_tb = ckpt_gb * r.checkpoints_retained * max(1, r.concurrent_jobs) / GB_PER_TB
    growth = (1.0 + r.data_growth) ** max(0, r.years - 1)
    dataset_tb = r.dataset_size_tb * growth
    tokenised_tb = 0.0  # the tokenised copy a text run reads [5]_; media keep their own form
    if r.modality == "text":
        if r.vocab_size <= _UINT16_VALUES:
            bytes_per_token = _TOKEN_ID_BYTES_SMALL_VOCAB
        else:
            bytes_per_token = _TOKEN_ID_BYTES_LARGE_VOCAB
        tokenised_tb = r.tokens * bytes_per_token * growth / _BYTES_PER_TB
        read = tokens_per_s * bytes_per_token * value("read_headroom") / BYTES_PER_GB
    else:
        per_token = r.dataset_size_tb * _BYTES_PER_TB / max(r.tokens, 1.0)
        read = max(
            tokens_per_s * per_token * value("read_headroom") / BYTES_PER_GB,
            value("min_read_gb_per_s_per_gpu_media") * gpus,
        )
    if r.required_read_gb_per_s is not None:
        read = max(read, r.required_read_gb_per_s)  # never below the rate the customer needs
    notes: list[str] = []
    tiers = _tiers(r.existing_storage, read, write)
    advice = None
    avg_mb = None
    if r.files and r.dataset_size_tb:
        avg_mb = r.dataset_size_tb * _MB_PER_TB / r.files
    many_files = r.many_small_files or bool(r.files and r.files > value("many_files"))
    if many_files or (avg_mb is not None and avg_mb < value("small_file_mb")):
        advice = (
            "pack samples into large shards (WebDataset/tar or similar, 100 MB-1 GB each) "
            "and read them sequentially; spread object keys over prefixes (S3: ~5,500 GET/s "
            "per prefix)"
        )
    if r.existing_read_gb_per_s is not None and r.existing_read_gb_per_s < max(read, write):
        notes.append(
            f"existing storage ({r.existing_read_gb_per_s:g} GB/s) is below the "
            f"{format_quantity(max(read, write), 'GB/s')} needed; stage checkpoints on local NVMe"
        )
    scratch_tb = dataset_tb * (value("dataset_scratch_factor") - 1.0) + tokenised_tb
    total = dataset_tb + scratch_tb + ckpt_tb
    return StorageResult(
        checkpoint_size_gb=ckpt_gb,
        # The whole estimated checkpoint over all the model's parameters: for LoRA/QLoRA the
        # adapters' bytes over the base's parameters (the frozen base is not checkpointed).
        checkpoint_bytes_per_param=estimated_gb * BYTES_PER_GB / r.total_params,
        checkpoint_write_gb_per_s=write,
        checkpoint_minutes_target=r.checkpoint_minutes_max,
        checkpoints_retained=r.checkpoints_retained,
        checkpoint_capacity_tb=ckpt_tb,
        dataset_capacity_tb=dataset_tb,
        scratch_capacity_tb=scratch_tb,
        dataset_size_tb=r.dataset_size_tb,
        read_gb_per_s=read,
        total_capacity_tb=total,
        tiers=tiers,
        small_files_advice=advice,
        notes=tuple(notes),
    )


# The customer's own storage (``storage.existing``) as the capacity tier: its name and use.
_EXISTING_TIER = {
    "shared_fs": ("your existing shared file system", "raw data and datasets at rest"),
    "object": (
        "your existing object storage",
        "raw data, older checkpoints and datasets at rest",
    ),
    "both": (
        "your existing file system and object storage",
        "raw data, older checkpoints and datasets at rest",
    ),
}


def _tiers(existing: str | None, read: float, write: float) -> tuple[dict[str, str], ...]:
    """The storage tiers: local NVMe, a fast shared tier sized to ``read`` and ``write``
    [GB/s], and a capacity tier, which is the customer's own storage when they have some."""
    if existing in _EXISTING_TIER:
        name, use = _EXISTING_TIER[existing]
        capacity = {"tier": name, "use": use}
    else:
        capacity = {
            "tier": "object storage",
            "use": "raw data, older checkpoints, datasets at rest",
        }
    return (
        {
            "tier": "local NVMe",
            "use": "checkpoint staging and dataset cache (flush to shared storage)",
        },
        {
            "tier": "shared parallel file system",
            "use": f"hot dataset shards and the last checkpoints; "
            f"sustain {format_quantity(read, 'GB/s')} read and "
            f"{format_quantity(write, 'GB/s')} write",
        },
        capacity,
    )
