"""The one source of definitions for every technical word the questionnaire uses.

Templates never hold definition text: question text marks a term as ``[[shown words|key]]`` (or
``[[key]]``) and the ``glossary_term`` template tag turns it into a button that shows or hides
its definition (``aria-expanded``); the glossary page lists :data:`GLOSSARY` in order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    key: str
    name: str
    definition: str
    # other words that name the term where it is used ("SXM5" for "SXM and HGX", "TP" for
    # tensor parallelism), so a proposal that uses them lists the term in its glossary
    also: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        return f"term-{self.key}"


_TERMS: tuple[tuple[str, str, str] | tuple[str, str, str, tuple[str, ...]], ...] = (
    # The mission's glossary.
    (
        "accelerator",
        "Accelerator (GPU)",
        "A chip built to do the maths of AI training quickly. Most are GPUs (graphics processing units) from NVIDIA or AMD.",
    ),
    (
        "parameter",
        "Parameter",
        "One of the numbers inside a model that training adjusts. Model size is counted in parameters, for example 7 billion (7B).",
    ),
    (
        "token",
        "Token",
        "A small piece of text, about three quarters of a word on average. Language models read and write text as tokens.",
    ),
    (
        "dense",
        "Dense model",
        "A model that uses all of its parameters for every token. Most models are dense.",
    ),
    (
        "moe",
        "Mixture of experts (MoE)",
        "A model split into many smaller “expert” parts, of which only a few are used for each token. It can be very large while costing less to run per token.",
    ),
    ("node", "Node", "One server in a cluster. It usually holds 4 or 8 accelerators."),
    (
        "cluster",
        "Cluster",
        "A group of nodes connected by a fast network so they can work on one training job together.",
    ),
    (
        "flops",
        "FLOPs",
        "Floating-point operations: the single sums and products a computer works out. The work of training is counted in FLOPs. FLOPS with a capital S means FLOPs per second, the speed of a chip.",
    ),
    (
        "mfu",
        "MFU (model FLOPs utilisation)",
        "Model FLOPs utilisation. The share of an accelerator's peak speed that training really uses. Published large runs report from about 20 to 55 %; the rest is lost, mostly to waiting for memory and the network.",
    ),
    (
        "fine-tuning",
        "Fine-tuning",
        "Training an existing model a little more on your own data so it gets better at your task.",
    ),
    (
        "lora",
        "LoRA and QLoRA",
        "Ways to fine-tune by training small add-on pieces instead of the whole model. QLoRA also shrinks the frozen model to save memory. Both need far less hardware than full fine-tuning.",
    ),
    (
        "peft",
        "PEFT",
        "Short for parameter-efficient fine-tuning. These methods, such as LoRA, train only a small part of a model, so they need much less memory.",
    ),
    (
        "checkpoint",
        "Checkpoint",
        "A saved snapshot of a training run, so that it can continue from there after a failure instead of starting again.",
    ),
    (
        "tco",
        "TCO",
        "Total cost of ownership. Everything a system costs over its life: hardware, power, space, staff and support, not just the price to buy it.",
    ),
    # Other terms the questions use.
    (
        "active-parameters",
        "Active parameters",
        "In a mixture-of-experts model, only some parameters are used for each token: the active ones. They set how much computing each token costs.",
    ),
    (
        "precision",
        "Precision (FP32, BF16, FP8)",
        "How many bits each number uses during training. Fewer bits (BF16, FP16, FP8) are faster and use less memory; 32 bits (FP32, TF32) is the slow, safe default.",
    ),
    (
        "tf32",
        "TF32",
        "TensorFloat-32. A number format on NVIDIA accelerators with the range of 32-bit numbers but fewer digits. It runs much faster than full 32-bit maths (FP32) but still takes 32 bits of memory per number.",
    ),
    (
        "mixed-precision",
        "Mixed precision",
        "Training mostly in a short number format such as BF16 while keeping a few sensitive values in 32 bits.",
    ),
    (
        "optimizer",
        "Optimizer",
        "The rule that decides how to change the parameters after each step. AdamW is the most common; it keeps two extra values per parameter. SGD is the simplest.",
    ),
    (
        "adafactor",
        "Adafactor",
        "An optimizer that needs much less memory than AdamW. It does not keep extra values for every parameter, only a short summary for each row and column of the model's weight tables.",
    ),
    (
        "lion",
        "Lion optimizer",
        "An optimizer that keeps one extra value per parameter, where AdamW keeps two. So it needs less memory.",
    ),
    (
        "gradient-checkpointing",
        "Gradient checkpointing",
        "A trick to save memory. Some results in the middle of each step are thrown away and worked out again when needed. Memory use drops, but each step takes about a third longer.",
    ),
    (
        "quantisation",
        "Quantisation-aware training",
        "Training a model so it keeps working well when it is later stored with fewer bits.",
    ),
    ("epoch", "Epoch", "One full pass over the whole training dataset."),
    (
        "sequence-length",
        "Sequence length",
        "How many tokens the model sees at once in one example. Longer sequences need more memory.",
    ),
    (
        "batch",
        "Batch",
        "The group of examples the model learns from in one training step. The global batch is the total across all accelerators.",
    ),
    (
        "micro-batch",
        "Micro-batch",
        "The slice of a batch that one accelerator processes at a time.",
    ),
    (
        "gradient-accumulation",
        "Gradient accumulation",
        "Adding up the results of several micro-batches before each update. A large batch then fits on fewer accelerators.",
    ),
    (
        "parallelism",
        "Parallelism",
        "How one training job is split across many accelerators. The main kinds split the data, the model (tensor and pipeline), the experts or the sequence.",
    ),
    (
        "data-parallel",
        "Data parallelism",
        "Every accelerator holds a full copy of the model and works on different examples. After each step, they combine their results.",
        ("dp",),
    ),
    (
        "tensor-parallel",
        "Tensor parallelism",
        "Each layer of the model is split across several accelerators, which must talk to each other all the time. So it is usually kept inside one node.",
        ("tp",),
    ),
    (
        "pipeline-parallel",
        "Pipeline parallelism",
        "The model's layers are split into stages on different accelerators. Examples flow through the stages like cars on an assembly line.",
        ("pp",),
    ),
    (
        "expert-parallel",
        "Expert parallelism",
        "In a mixture-of-experts model, each accelerator holds only some of the experts. Each token is sent to the ones it needs.",
        ("ep",),
    ),
    (
        "sequence-parallel",
        "Sequence parallelism",
        "A very long sequence is split across accelerators so that it fits in memory.",
    ),
    (
        "fsdp",
        "FSDP and ZeRO",
        "Ways to save memory by sharing out the model's parameters, gradients and optimizer state between accelerators, instead of giving each one a full copy. FSDP is the PyTorch way and ZeRO the DeepSpeed way. ZeRO stage 1 shares out the optimizer state, stage 2 also the gradients, and stage 3 also the parameters.",
    ),
    (
        "nvlink",
        "NVLink and NVSwitch",
        "NVIDIA's very fast links between the accelerators inside one node. NVSwitch joins many of them so that each can talk to all the others at full speed.",
    ),
    (
        "infiniband",
        "InfiniBand",
        "A very fast, low-delay network between nodes, common in large training clusters.",
    ),
    (
        "ndr-xdr",
        "InfiniBand HDR, NDR and XDR",
        "Generations of InfiniBand, named by speed: EDR carries 100 Gb/s per link, HDR 200 Gb/s, NDR 400 Gb/s and XDR 800 Gb/s.",
        ("hdr", "edr"),
    ),
    (
        "rail-optimised",
        "Rail-optimised network",
        "A way to wire a cluster's network: the first network card of every server goes to one switch, the second card to another, and so on, so the accelerators that exchange the most data reach each other through a single switch.",
        ("rail-optimised", "rail-optimized"),
    ),
    (
        "roce",
        "RoCE (Ethernet)",
        "RDMA over Converged Ethernet. It brings the fast, direct memory copies of RDMA to an Ethernet network.",
    ),
    (
        "rdma",
        "RDMA",
        "Remote direct memory access. One server reads or writes the memory of another without using that server's processor. This keeps delays low.",
    ),
    (
        "oversubscription",
        "Oversubscription",
        "When a network has less capacity between switches than all the connected machines could send at once. 1:1 (non-blocking) means no shortfall.",
        ("non-blocking",),
    ),
    (
        "fat-tree",
        "Fat tree",
        "A common way to wire a cluster's network: servers connect to leaf switches, and leaf switches to spine switches above them. With enough links at the top, any server can reach any other at full speed.",
        ("leaf-spine", "leaf switch", "spine switch"),
    ),
    (
        "nvme",
        "NVMe",
        "Fast solid-state drives inside a server. They often serve as a local cache for training data.",
    ),
    (
        "throughput",
        "Throughput",
        "How much data can be moved or processed per second, for example 10 GB/s.",
    ),
    (
        "metadata",
        "Metadata",
        "Information about files, such as names, sizes and locations. Millions of small files put a heavy metadata load on storage.",
    ),
    (
        "shared-file-system",
        "Shared file system",
        "Storage that every node sees as one set of folders, such as Lustre, GPFS or NFS.",
    ),
    (
        "parallel-file-system",
        "Parallel file system",
        "A shared file system spread over many storage servers, so that every node can read and write at once at high speed. Lustre, BeeGFS, GPFS and WEKA are examples.",
        ("beegfs", "lustre", "gpfs", "weka"),
    ),
    (
        "qlc",
        "QLC flash",
        "Solid-state drives that store four bits in each memory cell: more space for the price, but slower to write and wearing out sooner. They suit data that is read far more often than it is written.",
        ("qlc",),
    ),
    (
        "object-storage",
        "Object storage",
        "Storage that keeps files as objects behind a web interface, such as Amazon S3. Cheap and large, but slower for many small reads.",
    ),
    (
        "numa",
        "NUMA",
        "Non-uniform memory access. In a server with two or more processors, each one reaches its own memory faster than the memory of the others. Data for an accelerator is best kept next to the processor it is wired to.",
    ),
    (
        "pcie",
        "PCIe",
        "The standard link inside a server. It joins the processor to the accelerators, drives and network cards.",
    ),
    (
        "sxm-hgx",
        "SXM and HGX",
        "NVIDIA's server-board form of its accelerators. SXM (SXM4, SXM5) is the socket an accelerator sits in; an HGX board holds 4 or 8 of them joined by NVLink. It carries more power and faster links between the accelerators than a PCIe card.",
        ("sxm4", "sxm5", "sxm6"),
    ),
    (
        "colocation",
        "Colocation",
        "Renting space, power and cooling in someone else's data centre for hardware you own.",
    ),
    (
        "data-residency",
        "Data residency",
        "Rules about which countries or regions your data may be stored or processed in.",
    ),
    (
        "scheduler",
        "Scheduler",
        "Software that queues training jobs and shares the cluster between users and teams.",
    ),
    ("slurm", "Slurm", "A free, widely used job scheduler for computer clusters."),
    (
        "gang-scheduling",
        "Gang scheduling",
        "Starting every part of a training job at the same moment, on all the accelerators it needs, or not at all; schedulers such as Slurm do it.",
        ("gang-scheduled", "gang scheduled"),
    ),
    (
        "kubernetes",
        "Kubernetes",
        "A system that runs software in containers across many machines. It can also schedule training jobs.",
    ),
    (
        "container",
        "Container",
        "A packaged copy of software with everything it needs, so it runs the same way on any machine (Docker is a common example).",
    ),
    (
        "cuda",
        "CUDA",
        "NVIDIA's toolkit for writing programs for its accelerators. Custom CUDA code runs only on NVIDIA chips.",
    ),
    (
        "rocm",
        "ROCm",
        "AMD's toolkit for writing programs for its accelerators. It does the job that CUDA does for NVIDIA.",
    ),
    (
        "wall-clock",
        "Wall-clock time",
        "Real elapsed time from start to finish, as a clock on the wall would measure it.",
    ),
    ("queue-time", "Queue time", "How long a job waits for free hardware before it starts."),
    (
        "tokenisation",
        "Tokenisation",
        "Turning raw text into tokens, the pieces a language model reads.",
    ),
    (
        "preprocessing",
        "Preprocessing",
        "Getting raw data ready for training. For example, turning video into frames, resizing images or splitting text into tokens.",
    ),
)

GLOSSARY: dict[str, Term] = {entry[0]: Term(*entry) for entry in _TERMS}
