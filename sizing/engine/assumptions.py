"""Engine constants (everything but prices) as sourced :class:`Assumption` objects.

Prices live in :mod:`sizing.engine.cost.prices`; accelerator figures in
:mod:`sizing.engine.hardware`.  The efficiency-model parameters marked
"calibrated" are fitted in ``docs/calibration.md`` on a subset of the
published runs and checked on the rest.

Two registries, one lookup (:func:`value`), one way to change them for a
while (:func:`overridden`, for the calibration harness):

* :data:`ASSUMPTIONS` is listed in every recommendation (``provided_by:
  "default"``), so a proposal shows the constants it was sized with.
* :data:`UNLISTED_ASSUMPTIONS` holds constants that used to be bare numbers
  in formulas (defaults for unanswered questions, model-shape conventions,
  thresholds).  They are sourced here like the others but not yet listed in
  recommendations, because listing them changes the output of engine
  2026.12.2; they join :data:`ASSUMPTIONS` with the next ``ENGINE_VERSION``.
  A default chosen for an unanswered question is already recorded in the
  recommendation under the answer's own key (``provided_by: "assumed"``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from types import MappingProxyType

from .provenance import Assumption

_ZERO = "Rajbhandari et al., ZeRO, arXiv 1910.02054 (2019), sec. 3.1"
_DEEPSEEK_LLM_BATCH = (
    "DeepSeek LLM, arXiv 2401.02954 (Jan 2024), sec. 3.1, eq. 1: near-optimal batch"
    " B_opt = 0.2920 C^0.3271 tokens for a compute budget of C FLOPs, fitted from 1e17 to 3e20"
    " FLOPs and checked on the 7B and 67B runs"
)
_NO_DROPOUT = (
    "no dropout in pre-training: Llama 3 and DeepSeek-V3 Hugging Face configs"
    " (attention_dropout 0.0), Llama 1 arXiv 2302.13971 sec. 2 (no dropout listed)"
)
_KORTH = "Korthikanti et al., Reducing Activation Recomputation, arXiv 2205.05198 (2022), sec. 4"
_MEGA_OPT = "Megatron-LM docs, distributed optimizer (bytes per parameter table), 2024"
_LLAMA3 = "Llama 3 Herd of Models, arXiv 2407.21783 (2024), sec. 3.3.4"
_ENGINE = "our estimate (no public figure found); tell us yours and we re-run the sizing"
_CHOICE = "our choice (no public figure found)"
_STACK_ROWS = (
    "measured by software family on 101 published training runs from 26 sources, each left out "
    "in turn, a fifth set aside (our calibration, available on request)"
)
_TEAM_ROWS = (
    "measured on the 9 published training runs by research and company teams (BLOOM, "
    "BloombergGPT, Pythia, JetMoE, phi-1, phi-1.5, phi-2, nanoGPT, llm.c), each left out in "
    "turn, a fifth of all sources set aside (our calibration, available on request)"
)
_LLAMA2 = "Touvron et al., Llama 2, arXiv 2307.09288 (2023)"
_CHINCHILLA = "Hoffmann et al., Training Compute-Optimal LLMs, arXiv 2203.15556 (2022), Table 3"
_MIXTRAL = "Jiang et al., Mixtral of Experts, arXiv 2401.04088 (2024), sec. 2"
_SERVER_LEAD_TIMES = (
    "Dell Taiwan (Terence Liao) in United Daily News, reported in English as “Dell shaves "
    "months off lead times for GPU-powered AI servers” (April 2024): H100 servers 8 to 12 "
    "weeks, down from 39 at the end of 2023; HPE about 20 weeks (March 2024)"
)
_SUPERPOD = "NVIDIA DGX SuperPOD H100 reference architecture (2023)"
_MLPERF_ROCM = (
    "MLPerf Training v5.0 Llama 2 70B LoRA, one node of 8: MI300X 29.25 min (5.0-0027) vs H100 "
    "27.93 min (v4.1-0050); MI325X 22.04 min (5.0-0026) vs H200 23.97 min (mean of 7 H200 "
    "results); AMD ROCm blog 'AMD's MLPerf Training Debut', 2025-06-04"
)
_SEMIANALYSIS = "SemiAnalysis, MI300X vs H100 vs H200 Benchmark Part 1: Training, 2024-12-22"
_GAUDI_VS_NEMO = (
    "Intel Gaudi 2 model performance page (Intel Gaudi software 1.19.0): Llama 3.1 70B on 64 "
    "HPUs 43,332 tokens/s, Llama 3.1 8B on 8 HPUs 37,440 tokens/s; NVIDIA NeMo 24.07 performance "
    "summary, DGX-H100: Llama 3 70B on 64 GPUs 1,533 tokens/s/GPU, Llama 3 8B on 8 GPUs 12,036; "
    "all FP8, 8,192-token sequences, batch 128"
)

_LISTED: dict[str, Assumption] = {
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
    "fp8_gemm_speedup_over_bf16": Assumption(
        1.75,
        "-",
        "NVIDIA technical blog, 'Boosting Matrix Multiplication Speed and Flexibility with NVIDIA "
        "cuBLAS 12.9' (2025-05): on Hopper, channel- and block-scaled FP8 matmuls run 1.75x the "
        "BF16 baseline on large matrices (at least 1.25x on most other shapes)",
        "2025-05",
        "an FP8 GEMM runs 1.75x, not 2x, a BF16 GEMM of the same shape: it reaches 0.875 of the "
        "share of its peak that the BF16 GEMM reaches (scaling and the epilogue are extra work)",
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
        32,
        "B/(s*b*h) per layer",
        _KORTH + "; " + _NO_DROPOUT,
        "2024",
        "activation bytes per layer excluding attention scores, 16-bit: Korthikanti's 34 less"
        " the two 1-byte dropout masks (after attention and after the MLP), as large language"
        " models now pre-train without dropout",
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
        0.6,
        "-",
        "fitted by leave-one-source-out cross-validation over 85 published rows from 21 sources (each weighing once), about a fifth of the sources set aside (our calibration, available on request); cf. cuBLAS large-GEMM efficiency ~0.8 of peak",
        "2026-12-02",
        "share of peak that large GEMMs reach end to end",
    ),
    "eff_memory_bound_coefficient": Assumption(
        7.0,
        "-",
        "fitted by leave-one-source-out cross-validation over 85 published rows from 21 sources "
        "(each weighing once), about a fifth "
        "of the sources set aside (our calibration, available on request)",
        "2026-12-04",
        "time of memory-bound kernels per FLOP scales with 1/(bandwidth x (h + k/6)), k the keys "
        "a query attends to (s/2 causal); refitted (7 -> 10) when attention FLOPs became causal, and "
        "(10 -> 7) on 85 development rows with each source weighing once (issue 27)",
    ),
    "eff_comm_overlap": Assumption(
        0.7,
        "-",
        "calibrated on MegaScale strong-scaling (arXiv 2402.15627, Table 2)",
        "2026-12-02",
        "share of data-parallel communication hidden behind compute",
    ),
    "dualpipe_communication_sm_share": Assumption(
        20 / 132,
        "-",
        "DeepSeek-V3 technical report, arXiv 2412.19437, sec. 3.2.2 (20 of the H800's 132 SMs"
        " run the all-to-all while DualPipe overlaps it with the computation)",
        "2024-12",
        "share of the multiprocessors the communication kernels keep while DualPipe hides the"
        " expert all-to-all behind the computation (1F1B hides none of it)",
    ),
    "eff_moe_factor": Assumption(
        0.6,
        "-",
        "fitted by leave-one-source-out cross-validation over 85 published rows from 21 sources (each weighing once), about a fifth of the sources set aside (our calibration, available on request); cf. DeepSeek-V2 vs DeepSeek 67B on the same cluster (arXiv 2405.04434, sec. 3.5)",
        "2026-12-02",
        "MoE routing, permutation and load imbalance (small expert GEMMs are modelled separately)",
    ),
    "qlora_dequant_bandwidth_share": Assumption(
        0.13,
        "-",
        "QwenLM/Qwen README, 'Profiling of Memory and Speed' (one A100-SXM4-80G, CUDA 11.8, "
        "PyTorch 2.0, flash attention 2, batch 1, gradient accumulation 8, gradient "
        "checkpointing): Q-LoRA (4-bit) minus LoRA (BF16) s/it at 256-8,192 tokens is 1.0-1.8 s "
        "for Qwen-7B and 2.3-3.7 s for Qwen-14B, 0.13-0.46 s a micro-batch, nearly the same at "
        "every length; 3 de-quantisations of 7.7B / 14.2B params at 2.516 B each over 2.04 TB/s "
        "take 0.029 / 0.053 s: median share 0.13 of the 12 figures",
        "2023-12",
        "share of the memory bandwidth the 4-bit de-quantisation kernels reach (derived, not "
        "fitted; Qwen's int4 base is GPTQ, bitsandbytes' NF4 de-quantises the same way)",
    ),
    "eff_small_kernel_penalty": Assumption(
        0.85,
        "-",
        _ENGINE,
        "2026-12-02",
        "LoRA/QLoRA adapters add many small kernels (QLoRA's de-quantisation is modelled apart)",
    ),
    # software stack of the accelerator (hardware.AcceleratorSpec.software); derived, not
    # fitted, by benchmarks/vendors.py from the comparisons in tests/sizing/data/vendor_benchmarks.json
    "eff_software_cuda": Assumption(
        1.0,
        "-",
        "reference: the efficiency model is fitted on published NVIDIA runs (our calibration)",
        "2026-12-02",
        "share of the modelled utilisation that the CUDA software stack reaches (the reference the others are measured against)",
    ),
    "eff_software_rocm": Assumption(
        0.73,
        "-",
        _MLPERF_ROCM,
        "2026-12-04",
        "ROCm kernels and libraries reach a smaller share of peak than CUDA: geometric mean of "
        "measured / modelled per-GPU speed over the comparisons; these are vendor-tuned "
        "submissions, and public stable ROCm releases trained slower still (" + _SEMIANALYSIS + ")",
    ),
    "eff_software_rocm_at_scale": Assumption(
        0.61,
        "-",
        "Dash et al., Optimizing Distributed Training on Frontier for LLMs, arXiv 2312.12705"
        " (2023): 1T on 3,072 MI250X GCDs at 31.96 % of peak; Narayanan et al., arXiv 2104.04473"
        " (2021), Table 1: 1T on 3,072 A100 at 52 %",
        "2023-12",
        "share of the modelled utilisation a ROCm stack reaches at thousands of accelerators:"
        " 31.96 / 52 of CUDA's on the same model and count (sizing/engine/vendor_scale.py)",
    ),
    "vendor_scale_reference_gpus": Assumption(
        3072,
        "accelerators",
        "Dash et al., arXiv 2312.12705 (2023): the 1T run on 3,072 MI250X GCDs",
        "2023-12",
        "the count at which ROCm's factor reaches its at-scale value (log-linear from one node)",
    ),
    "vendor_evidence_gpus_rocm": Assumption(
        8,
        "accelerators",
        _MLPERF_ROCM,
        "2025-06",
        "largest count of a recent same-benchmark ROCm comparison: above it the range widens",
    ),
    "vendor_evidence_gpus_gaudi": Assumption(
        64,
        "accelerators",
        _GAUDI_VS_NEMO,
        "2024",
        "largest count of a same-benchmark Gaudi comparison: above it the range widens",
    ),
    "eff_software_gaudi": Assumption(
        0.80,
        "-",
        _GAUDI_VS_NEMO,
        "2026-12-04",
        "Intel Gaudi software reaches a smaller share of peak than CUDA: geometric mean of "
        "measured / modelled per-accelerator speed over the comparisons (Gaudi 2: no public "
        "Gaudi 3 training throughput was found, so Gaudi 3 uses the stack's factor)",
    ),
    # who trains, with what (stack_efficiency.py): measured by benchmarks/calibration.py on the
    # development rows of tests/sizing/data/published_runs.json (the set-aside fifth unread);
    # tests/sizing/test_calibration.py fails when these differ from what it measures now
    "eff_stack_typical": Assumption(
        0.94,
        "-",
        _STACK_ROWS,
        "2026-12-04",
        "no software answer: the typical published run, the median over every development "
        "source of its median measured / modelled speed (not the best-tuned stack's)",
    ),
    "eff_stack_megatron": Assumption(
        0.95,
        "-",
        _STACK_ROWS,
        "2026-12-04",
        "Megatron-LM, NeMo and Megatron-DeepSpeed: median over their published sources of "
        "measured / modelled speed",
    ),
    "eff_stack_pytorch": Assumption(
        0.94,
        "-",
        _STACK_ROWS,
        "2026-12-04",
        "PyTorch FSDP or DDP stacks (llm-foundry, lit-gpt, nanoGPT): 2 development sources "
        "(llm-foundry, nanoGPT; TinyLlama and MPT-1B are set aside), fewer than 3, so the "
        "typical published run's factor",
    ),
    "eff_stack_deepspeed": Assumption(
        0.94,
        "-",
        _STACK_ROWS,
        "2026-12-04",
        "DeepSpeed: fewer than 3 published sources with hours or throughput (GPT-NeoX's Pythia "
        "only), so the typical published run's factor",
    ),
    "eff_stack_huggingface": Assumption(
        0.94,
        "-",
        _STACK_ROWS,
        "2026-12-04",
        "Hugging Face Trainer, Accelerate, Axolotl, LLaMA-Factory: no published source with both "
        "hours or throughput and the tokens trained was found, so the typical published run's "
        "factor",
    ),
    # who trains (team_experience.py): measured by benchmarks/team_experience.py on the
    # development rows trained by research and company teams; tests/sizing/
    # test_team_experience.py fails when it differs from what the harness measures now
    "team_new_to_setup_hours_high": Assumption(
        1.61,
        "-",
        _TEAM_ROWS,
        "2026-12-05",
        "no one on the team knows the training set-up: the range of accelerator-hours reaches "
        "at least this multiple of the estimate, the slow end of the published runs by teams "
        "other than the frontier labs and the frameworks' makers (the centre does not move: "
        "their median is within its own uncertainty of the typical run's)",
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
        10 / 60,
        "h",
        "MegaScale, arXiv 2402.15627 (2024), fast checkpointing and recovery (faults detected "
        "and diagnosed within 10 minutes); " + _LLAMA3 + " (466 interruptions in 54 days with "
        "more than 90 % effective training time: at most 0.28 h lost per interruption)",
        "2024",
        "time to detect a failure, exclude the node and restart from the last snapshot; the "
        "lost work since that snapshot is counted separately (half an interval)",
    ),
    "checkpoint_snapshot_seconds": Assumption(
        10,
        "s",
        "MegaScale, arXiv 2402.15627 (2024), fast checkpointing (states to host memory within "
        "several seconds, storage write in the background); PyTorch DCP async_save (2024)",
        "2024",
        "training pauses only while the checkpoint is copied to host memory",
    ),
    "run_overhead_share": Assumption(
        0.15,
        "-",
        "fitted by leave-one-source-out cross-validation (our calibration); bracketed by "
        "BLOOM-176B (one slow GPU cost 5 %, bigscience tr11 chronicles, 2022) and OLMo 3 32B "
        "(1,587 achieved vs 1,900 tokens/s/GPU capability, 16.5 % including its restarts; "
        "allenai, 2025)",
        "2026-12-02",
        "time lost beyond failures and checkpoints (counted separately): evaluation, data "
        "stalls, slow nodes, warm-up",
    ),
    "checkpoint_minutes_default": Assumption(
        5,
        "min",
        "BLOOM-176B saved 2.3 TB in ~40 s; our target",
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
        "DGX H100: 112 cores for 8 GPUs (14/GPU); text, tokenised or not, needs few",
        "2023",
        "data loading of text (tokenising during training is light work)",
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
    # --- cluster size when no size meets the deadline (cluster.py) ----------------------
    "knee_marginal_efficiency": Assumption(
        0.5,
        "-",
        _CHOICE + "; production runs scale while each doubling stays ~90 % efficient: "
        "Llama 3 (arXiv 2407.21783, Table 4) went from 8,192 to 16,384 H100 at 43 % to 41 % "
        "MFU, MegaScale (arXiv 2402.15627, Table 2) kept 175B at ~55 % MFU on 12,288 GPUs",
        "2026-12-02",
        "when no size meets the deadline the engine stops doubling GPUs once a doubling adds "
        "less than this share of the added GPUs' work (speed-up below 1.5x, GPU-hours up by "
        "a third or more): past that point GPUs are bought to wait on communication",
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
    # --- cost (cost/usage.py, cost/owned.py, cost/running.py) ----------------------------
    "owned_max_utilisation": Assumption(
        0.90,
        "-",
        _LLAMA3 + ": more than 90 % effective training time on 16,384 H100",
        "2024",
        "share of the year an owned cluster can run jobs (maintenance, repairs, queue gaps); "
        "more demand than this buys more accelerators",
    ),
    "server_idle_draw_share": Assumption(
        0.25,
        "-",
        _ENGINE,
        "2026-12-02",
        "power an idle accelerator server draws relative to its nameplate power",
    ),
    "fabric_switch_ports": Assumption(
        64,
        "ports",
        _SUPERPOD + ": QM9700 switches with 64 x 400 Gb/s ports",
        "2023",
        "ports of one compute-fabric switch",
    ),
    "fabric_one_tier_max_nodes": Assumption(
        64,
        "nodes",
        "H100 Freakonomics (substack.tech-talk-cto.com, Aug 2024): one switch layer up to 64 "
        "nodes, two up to 2,048, three beyond",
        "2024-08",
        "largest cluster one layer of switches connects",
    ),
    "fabric_two_tier_max_nodes": Assumption(
        2048,
        "nodes",
        "H100 Freakonomics (substack.tech-talk-cto.com, Aug 2024)",
        "2024-08",
        "largest cluster two layers of switches connect non-blocking",
    ),
    # Lead times: the last figures published for GPU servers; the proposal gives them with
    # their date, and the account manager confirms the rest (switches, cables, storage).
    "gpu_server_lead_weeks_low": Assumption(
        8,
        "weeks",
        _SERVER_LEAD_TIMES,
        "2024-04",
        "shortest published time from order to delivery of GPU servers",
    ),
    "gpu_server_lead_weeks_high": Assumption(
        20,
        "weeks",
        _SERVER_LEAD_TIMES,
        "2024-04",
        "longest published time from order to delivery of GPU servers",
    ),
    # "What moves the total most" varies the customer's own plan as well as the prices.
    "usage_swing_share": Assumption(
        0.5,
        "-",
        _CHOICE,
        "2026-12",
        "the yearly growth and the runs a month you told us are each moved to half and one and "
        "a half times your answer, to show what your own plan does to the total",
    ),
    "price_validity_days": Assumption(
        30,
        "days",
        "our quotation terms, set 2026-12-04: the cloud prices and server street prices in the "
        "price table are read month by month (their dates are printed beside them), so a "
        "proposal holds them for one month from its date",
        "2026-12-04",
        "every proposal says until when its prices hold: its date plus this many days; after "
        "that our quotation confirms them",
    ),
    "price_stale_months": Assumption(
        12,
        "months",
        _CHOICE,
        "2026-12",
        "a price published more than this long before your answers is marked in the price "
        "table as dated and may have moved; our quotation confirms it",
    ),
    "sensitivity_min_share": Assumption(
        0.01,
        "-",
        _CHOICE,
        "2026-12",
        "a price or answer that moves the total by less than 1 % is not listed among what "
        "moves it most",
    ),
}

ASSUMPTIONS: Mapping[str, Assumption] = MappingProxyType(_LISTED)

_SHORT_RENT = (
    "AWS EC2 User Guide, Capacity Blocks for ML (docs.aws.amazon.com/AWSEC2/latest/UserGuide/"
    "ec2-capacity-blocks.html, read 2026-12-05): a block holds up to 64 instances (p5.48xlarge: "
    "8 H100 each, so 512), 1 to 14 days in whole days then weeks up to 182 days, booked up to "
    "8 weeks ahead; Google Cloud calendar-mode future reservations (cloud.google.com/compute/"
    "docs/instances/create-future-reservations-calendar-mode, read 2026-12-05): 1 to 90 days, "
    "each request approved by Google; larger clusters (Lambda, CoreWeave, the hyperscalers) "
    "are sold as negotiated multi-month reservations"
)
_UNLISTED: dict[str, Assumption] = {
    # --- renting help beside owned accelerators (estate.py, owned_first.py) ---------------------
    "short_rent_max_gpus": Assumption(
        512,
        "accelerators",
        _SHORT_RENT,
        "2026-12-05",
        "the largest cluster rented for days or weeks without a negotiated contract (one AWS "
        "Capacity Block of 64 servers of 8); more is rented only under a negotiated reservation",
    ),
    "short_rent_max_days": Assumption(
        182,
        "days",
        _SHORT_RENT,
        "2026-12-05",
        "the longest such a cluster is rented for (an AWS Capacity Block)",
    ),
    # --- defaults for unanswered questions (resolve/resolved.py) -------------------------------
    "default_total_params": Assumption(
        7e9,
        "parameters",
        _LLAMA2 + ", Table 1 (7B, the smallest Llama 2)",
        "2023",
        "model size when the customer names neither a model nor a parameter count",
    ),
    "default_vocab_size": Assumption(
        32000,
        "tokens",
        _LLAMA2 + ", sec. 2.2 (tokenizer: 32k-token vocabulary)",
        "2023",
        "embedding and logits size when neither the model nor the vocabulary is known",
    ),
    "chinchilla_tokens_per_param": Assumption(
        20.0,
        "tokens/param",
        _CHINCHILLA + " (about 20 tokens per parameter at every size)",
        "2022",
        "compute-optimal pre-training data when the token count is not given",
    ),
    "pretrain_min_tokens_per_param": Assumption(
        1.0,
        "tokens/param",
        "Brown et al., GPT-3, arXiv 2005.14165 (2020), Table D.1 (175B parameters on 300B "
        "tokens: 1.7 per parameter, the fewest of the well-known pre-training runs); "
        + _CHINCHILLA
        + " (20 per parameter is compute-optimal)",
        "2022",
        "below one training token per parameter a model is not pre-trained from scratch: "
        "when the customer has not said how they train, such data is sized as adapting an "
        "existing model",
    ),
    "continued_pretrain_data_share": Assumption(
        0.1,
        "x compute-optimal tokens",
        _CHOICE,
        "2026-12-02",
        "continued pre-training is assumed to see a tenth of a compute-optimal budget",
    ),
    "finetune_tokens_default": Assumption(
        1e8,
        "tokens",
        _CHOICE + "; a placeholder of about 100k examples of 1k tokens",
        "2026-12-02",
        "fine-tuning data when neither tokens, samples nor a text dataset size is given",
    ),
    "pretraining_scale_tokens": Assumption(
        1e10,
        "tokens",
        _CHOICE,
        "2026-12-02",
        "data volume (tokens x epochs) above which a run is pre-training-sized whatever "
        "the method is called, so an unknown deadline is a month",
    ),
    "tokens_per_sample_text": Assumption(
        1024,
        "tokens/sample",
        _CHOICE + "; GPT-2's 1,024-token context (Radford et al., 2019) as a typical chunk",
        "2026-12-02",
        "tokens per text sample when only the number of samples is given",
    ),
    "tokens_per_sample_image": Assumption(
        256,
        "tokens/sample",
        "Dosovitskiy et al., ViT, arXiv 2010.11929 (2020): 16 x 16 patches of a 256 x 256 image",
        "2020",
        "tokens per image when only the number of samples is given",
    ),
    "tokens_per_sample_audio": Assumption(
        1500,
        "tokens/sample",
        "Radford et al., Whisper, arXiv 2212.04356 (2022), sec. 2.2-2.3: a 30-s window "
        "is 1,500 encoder positions",
        "2022",
        "tokens per audio clip when only the number of samples is given",
    ),
    "tokens_per_sample_video": Assumption(
        8192,
        "tokens/sample",
        _CHOICE,
        "2026-12-02",
        "tokens per video clip after spatio-temporal patching, when only samples are given",
    ),
    "tokens_per_sample_multimodal": Assumption(
        1024,
        "tokens/sample",
        _CHOICE + "; as for text",
        "2026-12-02",
        "tokens per interleaved text-and-media sample when only samples are given",
    ),
    "media_bytes_per_sample": Assumption(
        1e6,
        "B/sample",
        _CHOICE,
        "2026-12-02",
        "size on disk of one image, audio or video sample when not given",
    ),
    "moe_default_experts": Assumption(
        8,
        "experts",
        _MIXTRAL + " (8 experts per layer)",
        "2024",
        "experts of an MoE model whose expert count is not given",
    ),
    "moe_default_experts_per_token": Assumption(
        2,
        "experts/token",
        _MIXTRAL + " (top-2 routing)",
        "2024",
        "experts each token is routed to when not given",
    ),
    "moe_shared_param_share": Assumption(
        0.1,
        "-",
        _CHOICE + "; Mixtral 8x7B (12.9B of 46.7B active, top-2 of 8) implies 3.5 %",
        "2026-12-02",
        "share of an MoE model's parameters (attention, embeddings) every token uses: "
        "active = total x (s + (1 - s) top_k / experts)",
    ),
    "default_lora_rank": Assumption(
        16,
        "-",
        "Hu et al., LoRA, arXiv 2106.09685 (2021), sec. 7.2 (ranks 1 to 64 perform alike)",
        "2021",
        "LoRA adapter rank when not given",
    ),
    "default_experiments": Assumption(
        1, "runs", _CHOICE, "2026-12-02", "one full run unless more are planned"
    ),
    "default_epochs": Assumption(
        1.0, "epochs", _CHOICE, "2026-12-02", "one pass over the data unless stated"
    ),
    "default_fine_tune_epochs": Assumption(
        3.0,
        "epochs",
        "Hugging Face Transformers, TrainingArguments: num_train_epochs defaults to 3.0 (the "
        "default of the Trainer that most fine-tuning recipes run on); Stanford Alpaca's "
        "fine-tuning recipe, 3 epochs (Taori et al., 2023, train.py)",
        "2023",
        "passes over a fine-tuning dataset unless stated: a fine-tune reads its (small) data "
        "several times, a pre-training run once",
    ),
    "default_sequence_length": Assumption(
        4096,
        "tokens",
        _LLAMA2 + ", Table 1 (4k context)",
        "2023",
        "training context when not given",
    ),
    "default_sequence_length_video": Assumption(
        8192,
        "tokens",
        _CHOICE,
        "2026-12-02",
        "training context for video models when not given",
    ),
    "batch_scaling_coefficient": Assumption(
        0.292,
        "tokens",
        _DEEPSEEK_LLM_BATCH,
        "2024-01",
        "pre-training batch when not given, B = 0.292 C^0.3271 tokens for C training FLOPs"
        " (coefficient), rounded to whole sequences of the run's length",
    ),
    "batch_scaling_exponent": Assumption(
        0.3271,
        "-",
        _DEEPSEEK_LLM_BATCH,
        "2024-01",
        "exponent of the compute in the near-optimal pre-training batch: 4M tokens at 4e23 FLOPs,"
        " 31M at 3e24 (DeepSeek-V3 ramped to 63M)",
    ),
    "default_finetune_batch_sequences": Assumption(
        64,
        "sequences",
        _LLAMA2 + ", sec. 3.1 (supervised fine-tuning: batch size 64)",
        "2023",
        "fine-tuning batch when not given",
    ),
    "deadline_days_pretraining_scale": Assumption(
        30.0,
        "d",
        _CHOICE,
        "2026-12-02",
        "deadline assumed for pre-training-scale runs when not given",
    ),
    "deadline_days_full_finetune": Assumption(
        7.0, "d", _CHOICE, "2026-12-02", "deadline assumed for a full fine-tune when not given"
    ),
    "deadline_days_adapter_training": Assumption(
        1.0, "d", _CHOICE, "2026-12-02", "deadline assumed for LoRA/QLoRA when not given"
    ),
    "default_concurrent_jobs": Assumption(
        1, "jobs", _CHOICE, "2026-12-02", "one job at a time unless stated"
    ),
    "default_users": Assumption(1, "people", _CHOICE, "2026-12-02", "one user unless stated"),
    "default_teams": Assumption(1, "teams", _CHOICE, "2026-12-02", "one team unless stated"),
    "default_gpus_per_node": Assumption(
        8,
        "GPUs/node",
        "NVIDIA DGX H100 datasheet (8 GPUs on one HGX baseboard)",
        "2023",
        "node size when not given",
    ),
    "default_data_growth": Assumption(
        0.0, "1/yr", _CHOICE, "2026-12-02", "the dataset does not grow unless stated"
    ),
    "default_roadmap_growth": Assumption(
        0.0, "1/yr", _CHOICE, "2026-12-02", "demand does not grow unless stated"
    ),
    "default_years": Assumption(
        3,
        "yr",
        _CHOICE + "; the questionnaire asks about three years",
        "2026-12-02",
        "cost-comparison horizon when not given",
    ),
    # --- model shape for a bare parameter count (models.py, resolve/resolved.py) ----------------
    "head_dim": Assumption(
        128,
        "-",
        "Hugging Face config.json of meta-llama/Llama-2-7b-hf, Meta-Llama-3-8B and "
        "mistralai/Mistral-7B-v0.1 (4096 / 32 heads)",
        "2024",
        "width of one attention head of a generated decoder shape",
    ),
    "aspect_ratio": Assumption(
        128,
        "-",
        "Hugging Face config.json of meta-llama/Llama-2-7b-hf (d_model 4096 / 32 layers)",
        "2023",
        "d_model / n_layer of a generated decoder shape",
    ),
    "ffn_hidden_ratio": Assumption(
        4,
        "-",
        "Vaswani et al., Attention Is All You Need, arXiv 1706.03762 (2017), sec. 3.3 "
        "(d_ff 2048 = 4 x d_model 512)",
        "2017",
        "MLP width relative to the hidden size when not given",
    ),
    # --- memory (memory.py) -----------------------------------------------------------
    "act_mlp_coefficient": Assumption(
        18,
        "B/(s*b*h) per layer",
        _KORTH + "; " + _NO_DROPOUT,
        "2024",
        "MLP part of the 32 for a 4h-wide MLP: inputs of both linears (2 + 8), GeLU input (8);"
        " no dropout mask",
    ),
    "act_mlp_fixed_coefficient": Assumption(
        2,
        "B/(s*b*h) per MLP",
        _KORTH + "; " + _NO_DROPOUT,
        "2024",
        "the parts of an MLP's activations that do not grow with its width: the 16-bit input of the"
        " first linear (2), no dropout mask; the rest is 4 bytes per element of width"
        " (activation-function input and second linear input), so a routed expert of width f"
        " stores 2 + 4 f / h",
    ),
    "act_layernorm_coefficient": Assumption(
        4,
        "B/(s*b*h) per layer",
        _KORTH,
        "2022",
        "the two layer norms' 16-bit outputs, part of the 34; selective recomputation rebuilds them",
    ),
    "selective_recompute_memory_bound_share": Assumption(
        0.25,
        "-",
        _ENGINE,
        "2026-12-02",
        "selective recomputation re-runs the forward of the norms and activation functions: memory-"
        "bound kernels with negligible FLOPs, about a quarter of a step's memory-bound work (the"
        " forward is a third of forward + backward, and these are most of its elementwise kernels)",
    ),
    # --- compute (core.py) --------------------------------------------------------------
    "rule_of_thumb_mfu": Assumption(
        0.40,
        "-",
        "planning figure within the MFU of published runs: 21-46 % in Chowdhery et al., "
        "PaLM, arXiv 2204.02311 (2022), Table 3",
        "2022",
        'the "6 N D at 40 % MFU" rule of thumb, reported for comparison only',
    ),
    # --- storage (storage.py) -----------------------------------------------------------
    "dataset_scratch_factor": Assumption(
        1.2,
        "x dataset",
        _CHOICE,
        "2026-12-02",
        "dataset capacity plus 20 % for scratch (shuffled copies, caches, evaluation "
        "outputs); a text run's tokenised copy is counted on its own, at its token-id width",
    ),
    "many_files": Assumption(
        1e6,
        "files",
        _CHOICE,
        "2026-12-02",
        "above this many files, advise packing samples into shards",
    ),
    # --- hosts (hosts.py) ---------------------------------------------------------------
    "local_nvme_tb_per_gpu": Assumption(
        3.84,
        "TB/GPU",
        "NVIDIA DGX H100 datasheet: 8 x 3.84 TB NVMe U.2 for 8 GPUs",
        "2023",
        "local NVMe for checkpoint staging and dataset cache",
    ),
    # --- resilience (resilience.py) -----------------------------------------------------
    "spare_nodes_min_cluster_nodes": Assumption(
        4,
        "nodes",
        _CHOICE,
        "2026-12-02",
        "clusters from this many nodes up keep hot spare nodes",
    ),
    # --- network (network.py) -----------------------------------------------------------
    "max_recommended_oversubscription": Assumption(
        4.0,
        "x:1",
        _CHOICE + "; Llama 3 runs 1:7 between pods (arXiv 2407.21783, sec. 3.3.1)",
        "2026-12-02",
        "the engine never recommends a fabric more oversubscribed than this",
    ),
    "single_node_oversubscription": Assumption(
        8.0,
        "x:1",
        _CHOICE,
        "2026-12-02",
        "oversubscription reported as tolerable when no training traffic leaves the node",
    ),
    # --- deployment / facility (deployment.py) -------------------------------------------
    "max_nodes_per_rack": Assumption(
        4, "nodes/rack", _SUPERPOD + ": 1, 2 or 4 DGX per rack", "2023", "densest rack planned"
    ),
    "liquid_cooling_server_kw": Assumption(
        12.0,
        "kW",
        _CHOICE,
        "2026-12-02",
        "servers drawing this much or more are planned with direct liquid cooling",
    ),
    # --- concurrency and scheduler (explain.py) -----------------------------------------
    "concurrency_headroom_share": Assumption(
        0.25,
        "x GPUs per job",
        _CHOICE,
        "2026-12-02",
        "spare capacity for concurrent jobs, as a share of one job's accelerators",
    ),
    "gang_scheduled_job_nodes": Assumption(
        4,
        "nodes",
        _CHOICE,
        "2026-12-02",
        "jobs of this many nodes or more need a gang-scheduling batch system (Slurm)",
    ),
    "shared_cluster_users": Assumption(
        4,
        "people",
        _CHOICE,
        "2026-12-02",
        "more users than this share GPUs through Kubernetes with a batch scheduler",
    ),
    "checkpoint_interval_waste_warning_share": Assumption(
        0.03,
        "x wall-clock",
        _CHOICE,
        "2026-12-04",
        "a customer's checkpoint interval that makes the run this much longer than the interval "
        "we would choose (Young 1974, Daly 2006) gets a warning with that interval: about the "
        "spread of the run overhead itself",
    ),
}

UNLISTED_ASSUMPTIONS: Mapping[str, Assumption] = MappingProxyType(_UNLISTED)


# The value of every key read since the registries last changed.  One sizing reads
# constants some 10^4 to 10^5 times (the plan search), so they are read once: the
# registries are read-only views, and only :func:`overridden` changes them and
# empties this cache.
_VALUES: dict[str, float] = {}


def value(key: str) -> float:
    """The numeric value of assumption ``key`` (from either registry)."""
    try:
        return _VALUES[key]
    except KeyError:
        found = ASSUMPTIONS.get(key) or UNLISTED_ASSUMPTIONS[key]
        number = _VALUES[key] = float(found.value)
        return number


def whole(key: str) -> int:
    """The value of a whole-number assumption ``key`` (a count, a rank, a length)."""
    return int(value(key))


@contextmanager
def overridden(values: Mapping[str, float]) -> Iterator[None]:
    """Within the block, each assumption ``key`` in ``values`` has the given value.

    For the calibration harness, which refits constants (``benchmarks/calibration.py``):
    the registries and :func:`value` read the new values inside the block and the
    original ones after it, whatever happens inside.  Unknown keys raise ``KeyError``
    before anything changes.
    """
    registries = {key: _LISTED if key in _LISTED else _UNLISTED for key in values}
    saved = {key: registry[key] for key, registry in registries.items()}
    try:
        for key, number in values.items():
            registries[key][key] = replace(saved[key], value=number)
        _VALUES.clear()
        yield
    finally:
        for key, original in saved.items():
            registries[key][key] = original
        _VALUES.clear()
