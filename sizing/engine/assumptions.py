"""Engine constants (everything but prices) as sourced :class:`Assumption` objects.

Prices live in :mod:`sizing.engine.prices`; accelerator figures in
:mod:`sizing.engine.hardware`.  The efficiency-model parameters marked
"calibrated" are fitted in ``docs/calibration.md`` on a subset of the
published runs and checked on the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .provenance import Assumption

_ZERO = "Rajbhandari et al., ZeRO, arXiv 1910.02054 (2019), sec. 3.1"
_KORTH = "Korthikanti et al., Reducing Activation Recomputation, arXiv 2205.05198 (2022), sec. 4"
_MEGA_OPT = "Megatron-LM docs, distributed optimizer (bytes per parameter table), 2024"
_LLAMA3 = "Llama 3 Herd of Models, arXiv 2407.21783 (2024), sec. 3.3.4"
_ENGINE = "engine estimate (no public figure found); overridable, listed in open questions"

A: dict[str, Assumption] = {
    # --- memory: bytes per parameter --------------------------------------------
    "weight_bytes_16bit": Assumption(
        2,
        "B/param",
        _ZERO,
        "2019",
        "BF16/FP16 working copy of the weights used in forward and backward",
    ),
    "weight_bytes_fp32": Assumption(
        4, "B/param", _ZERO, "2019", "FP32 training keeps FP32 weights"
    ),
    "fp8_extra_weight_bytes": Assumption(
        1,
        "B/param",
        "NVIDIA Transformer Engine FP8 primer (FP8 weight copies beside BF16 weights)",
        "2024",
        "FP8 training caches an FP8 copy of each weight",
    ),
    "grad_bytes_bf16": Assumption(
        4,
        "B/param",
        _MEGA_OPT,
        "2024",
        "BF16 training accumulates gradients in FP32 (Megatron main_grad, PyTorch AMP)",
    ),
    "grad_bytes_fp16": Assumption(
        6,
        "B/param",
        _MEGA_OPT,
        "2024",
        "FP16 training keeps FP16 gradients plus FP32 main gradients",
    ),
    "grad_bytes_fp32": Assumption(4, "B/param", _ZERO, "2019", "FP32 gradients"),
    "master_weight_bytes": Assumption(
        4,
        "B/param",
        _ZERO,
        "2019",
        "mixed precision keeps an FP32 master copy of the weights in the optimizer",
    ),
    "adam_state_bytes": Assumption(8, "B/param", _ZERO, "2019", "Adam momentum + variance in FP32"),
    "adam8bit_state_bytes": Assumption(
        2,
        "B/param",
        "Dettmers et al., 8-bit Optimizers via Block-wise Quantization, arXiv 2110.02861",
        "2021",
        "8-bit momentum + variance",
    ),
    "adafactor_state_bytes": Assumption(
        0.0,
        "B/param",
        "Shazeer & Stern, Adafactor, arXiv 1804.04235 (2018)",
        "2018",
        "factored second moment is O(rows + cols) per matrix, no first moment by default",
    ),
    "momentum_state_bytes": Assumption(
        4,
        "B/param",
        "Chen et al., Lion, arXiv 2302.06675 (2023); SGD with momentum",
        "2023",
        "one FP32 momentum buffer (SGD with momentum, Lion)",
    ),
    "lora_adapter_bytes": Assumption(
        16,
        "B/param",
        _ZERO,
        "2019",
        "trainable adapter weights train like full mixed-precision Adam parameters",
    ),
    "qlora_base_bytes": Assumption(
        0.516,
        "B/param",
        "Dettmers et al., QLoRA, arXiv 2305.14314 (2023), sec. 3 (4.127 bits/param with double quantisation)",
        "2023",
        "frozen base weights in NF4 with double-quantised constants",
    ),
    # --- memory: activations ---------------------------------------------------------
    "act_sbh_coefficient": Assumption(
        34,
        "B/(s*b*h) per layer",
        _KORTH,
        "2022",
        "activation bytes per layer excluding attention scores, 16-bit",
    ),
    "act_attention_coefficient": Assumption(
        5,
        "B/(a*s^2*b) per layer",
        _KORTH,
        "2022",
        "attention scores, softmax and dropout mask; removed by flash attention",
    ),
    "act_full_recompute_coefficient": Assumption(
        2,
        "B/(s*b*h) per layer",
        _KORTH,
        "2022",
        "with full recomputation only each layer's 16-bit input is kept",
    ),
    "logits_bytes": Assumption(
        4,
        "B/(s*b*V)",
        "Megatron-LM cross-entropy in FP32",
        "2024",
        "FP32 logits for the loss over the vocabulary",
    ),
    "framework_overhead_gb": Assumption(
        2.0,
        "GB",
        "PyTorch CUDA context and NCCL buffers (PyTorch CUDA semantics notes)",
        "2024",
        "CUDA context, communication buffers and workspace per accelerator",
    ),
    "usable_memory_fraction": Assumption(
        0.95,
        "-",
        _ENGINE,
        "2026-12-02",
        "keep 5 % of device memory free for allocator fragmentation",
    ),
    # --- compute ---------------------------------------------------------------------
    "lora_flops_factor": Assumption(
        4,
        "FLOP/param/token",
        "Hu et al., LoRA, arXiv 2106.09685 (2021): frozen weights need no weight gradients",
        "2021",
        "forward 2N + activation gradients 2N; weight-gradient GEMMs skipped",
    ),
    # efficiency model (calibrated, see docs/calibration.md)
    "eff_matmul_ceiling": Assumption(
        0.70,
        "-",
        "calibrated on MPT (llm-foundry) A100/H100 benchmarks; cf. GEMM efficiency ~0.8 of peak",
        "2026-12-02",
        "share of peak that large BF16 GEMMs reach",
    ),
    "eff_memory_bound_coefficient": Assumption(
        5.0,
        "-",
        "calibrated on MPT (llm-foundry) A100 vs H100 benchmarks",
        "2026-12-02",
        "time of memory-bound kernels relative to GEMMs scales with (peak/bandwidth)/hidden",
    ),
    "eff_comm_overlap": Assumption(
        0.7,
        "-",
        "calibrated on MegaScale strong-scaling (arXiv 2402.15627, Table 2)",
        "2026-12-02",
        "share of data-parallel communication hidden behind compute",
    ),
    "eff_moe_factor": Assumption(
        0.6,
        "-",
        "calibrated on DeepSeek-V2 vs DeepSeek 67B on the same cluster (arXiv 2405.04434, sec. 3.5)",
        "2026-12-02",
        "MoE routing, load imbalance and small expert GEMMs",
    ),
    "eff_small_kernel_penalty": Assumption(
        0.85,
        "-",
        _ENGINE,
        "2026-12-02",
        "LoRA/QLoRA adapters add many small kernels (QLoRA: dequantisation)",
    ),
    "eff_fp8_speedup": Assumption(
        1.3,
        "-",
        "NVIDIA/Meta reports of 1.3-1.5x end-to-end from FP8 vs BF16 on H100",
        "2024",
        "FP8 doubles GEMM peak but not the memory-bound share; realised end-to-end speed-up",
    ),
    # --- goodput / resilience ----------------------------------------------------------
    "gpu_mtbf_hours": Assumption(
        50_700,
        "h",
        _LLAMA3 + " (419 unexpected interruptions in 54 days on 16,384 H100; derived)",
        "2024",
        "per-GPU mean time between job-interrupting failures, scaled linearly",
    ),
    "restart_hours": Assumption(
        0.5,
        "h",
        _ENGINE + "; Llama 3 reports mostly automated restarts",
        "2026-12-02",
        "time to detect a failure, replace or exclude the node and reload the checkpoint",
    ),
    "run_overhead_share": Assumption(
        0.15,
        "-",
        "OLMo 3 32B: 1,900 tokens/s/GPU capability vs 1,587 achieved over the run "
        "(restarts, evaluations, checkpointing, network issues; allenai, 2025)",
        "2025",
        "time lost beyond modelled failures: evaluation, data stalls, slow nodes, warm-up",
    ),
    "checkpoint_minutes_default": Assumption(
        5,
        "min",
        "BLOOM-176B saved 2.3 TB in ~40 s; engine target",
        "2022",
        "target time to write one checkpoint when the customer has no limit",
    ),
    "max_lost_hours_default": Assumption(
        2.0,
        "h",
        _ENGINE,
        "2026-12-02",
        "lost work per interruption the engine plans for when not given",
    ),
    "spare_node_fraction": Assumption(
        0.08,
        "-",
        "BLOOM-176B: 32 spare GPUs for 384 (bigscience tr11 README)",
        "2022",
        "hot spares to replace failed nodes without waiting for repair",
    ),
    # --- network -------------------------------------------------------------------------
    "max_comm_share_default": Assumption(
        0.15,
        "-",
        _ENGINE,
        "2026-12-02",
        "exposed communication may take at most this share of step time",
    ),
    "nccl_scale_out_efficiency": Assumption(
        0.94,
        "-",
        "nccl-tests: 46-48 GB/s busbw per 400 Gb/s NIC (NVIDIA/nccl issue 290)",
        "2024",
        "achievable share of NIC line rate",
    ),
    "nccl_scale_up_efficiency": Assumption(
        0.82,
        "-",
        "nccl-tests: ~370 GB/s of 450 GB/s on 8 x H100 NVLink (NVIDIA/nccl issue 212)",
        "2024",
        "achievable share of scale-up line rate (unidirectional)",
    ),
    # --- storage ----------------------------------------------------------------------------
    "raw_text_bytes_per_token": Assumption(
        4,
        "B/token",
        "OpenAI tokenizer guide: 1 token ~ 4 characters of English",
        "2024",
        "raw UTF-8 text per token for dataset capacity",
    ),
    "checkpoint_bytes_mixed_adam": Assumption(
        14,
        "B/param",
        "BLOOM-176B checkpoint 2.3 TB = 14 B/param; ZeRO (2 weights + 12 optimizer)",
        "2022",
        "resumable checkpoint: 16-bit weights + FP32 master + Adam moments, no gradients",
    ),
    "checkpoints_retained_default": Assumption(
        5,
        "checkpoints",
        _ENGINE,
        "2026-12-02",
        "recent checkpoints kept to roll back a diverged or corrupted run",
    ),
    "read_headroom": Assumption(
        2.0,
        "-",
        _ENGINE,
        "2026-12-02",
        "sustained read rate times this for restarts, shuffling and bursts",
    ),
    "min_read_gb_per_s_per_gpu_media": Assumption(
        1.0,
        "GB/s/GPU",
        "DDN guidance for DGX B200: minimum 1 GB/s per GPU read and write",
        "2024",
        "floor for image/video training read bandwidth",
    ),
    "small_file_mb": Assumption(
        1.0,
        "MB",
        "AWS S3 performance guidelines (3,500 PUT / 5,500 GET per prefix)",
        "2024",
        "files below this average size should be packed into shards",
    ),
    # --- hosts ---------------------------------------------------------------------------------
    "cpu_cores_per_gpu_text": Assumption(
        8,
        "cores/GPU",
        "DGX H100: 112 cores for 8 GPUs (14/GPU); tokenised text needs few",
        "2023",
        "data loading of pre-tokenised shards",
    ),
    "cpu_cores_per_gpu_media": Assumption(
        16,
        "cores/GPU",
        "DGX H100 14 cores/GPU; on-the-fly decode of images/video needs more",
        "2023",
        "on-the-fly decoding and augmentation",
    ),
    "ram_to_gpu_memory": Assumption(
        2.0,
        "-",
        "DGX H100: 2 TB RAM for 640 GB HBM (3.2x); DGX A100: 1 TB for 320 GB",
        "2023",
        "host RAM at least twice the node's GPU memory (pinned buffers, checkpoint staging)",
    ),
    # --- deployment / facility -----------------------------------------------------------
    "rack_power_air_max_kw": Assumption(
        40,
        "kW/rack",
        "NVIDIA DGX SuperPOD H100 reference architecture (example racks exceed 40 kW)",
        "2023",
        "above this per-rack power, plan liquid or rear-door cooling",
    ),
    "server_power_draw_share": Assumption(
        0.75,
        "-",
        "Epoch AI cost model (Cottier et al., arXiv 2405.21015): training draws ~75 % of server TDP",
        "2024",
        "average draw relative to nameplate power",
    ),
    # --- utilisation ---------------------------------------------------------------------
    "utilisation_default": Assumption(
        0.5,
        "-",
        _ENGINE,
        "2026-12-02",
        "share of the year the cluster is busy when the roadmap does not say",
    ),
}

ASSUMPTIONS: Mapping[str, Assumption] = MappingProxyType(A)


def value(key: str) -> float:
    """The numeric value of assumption ``key``."""
    return float(ASSUMPTIONS[key].value)
