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

    @property
    def anchor(self) -> str:
        return f"term-{self.key}"


_TERMS: tuple[tuple[str, str, str], ...] = (
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
        "A model that uses all of its parameters for every token it processes. Most models are dense.",
    ),
    (
        "moe",
        "Mixture of experts (MoE)",
        "A model split into many smaller “expert” parts, of which only a few are used for each token. It can be very large while costing less to run per token.",
    ),
    ("node", "Node", "One server in a cluster, usually holding 4 or 8 accelerators."),
    (
        "cluster",
        "Cluster",
        "A group of nodes connected by a fast network so they can work on one training job together.",
    ),
    (
        "flops",
        "FLOPs",
        "Floating-point operations: the individual multiplications and additions a computer does. Training work is measured in FLOPs.",
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
        "Parameter-efficient fine-tuning: the family of methods, like LoRA, that train only a small part of a model.",
    ),
    (
        "checkpoint",
        "Checkpoint",
        "A saved snapshot of a training run, so that it can continue from there after a failure instead of starting again.",
    ),
    (
        "tco",
        "TCO",
        "Total cost of ownership: everything a system costs over its life, including hardware, power, space, staff and support, not just the purchase price.",
    ),
    # Other terms the questions use.
    (
        "active-parameters",
        "Active parameters",
        "In a mixture-of-experts model, the parameters actually used for each token. They decide how much computing each token costs.",
    ),
    (
        "precision",
        "Precision (FP32, BF16, FP8)",
        "How many bits each number uses during training. Fewer bits (BF16, FP16, FP8) are faster and use less memory; 32 bits (FP32, TF32) is the slow, safe default.",
    ),
    (
        "mixed-precision",
        "Mixed precision",
        "Training mostly in a short number format such as BF16 while keeping a few sensitive values in 32 bits.",
    ),
    (
        "optimizer",
        "Optimizer",
        "The rule that decides how to change the parameters after each step. AdamW is the most common; it needs extra memory per parameter.",
    ),
    (
        "gradient-checkpointing",
        "Gradient checkpointing",
        "A memory-saving trick: some intermediate results are thrown away and recomputed later. It uses less memory but takes about a third longer.",
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
        "Adding up the results of several micro-batches before each update, so a large batch fits on fewer accelerators.",
    ),
    (
        "parallelism",
        "Parallelism",
        "How one training job is split across many accelerators. The main kinds are data, tensor, pipeline, expert and sequence parallelism.",
    ),
    (
        "data-parallel",
        "Data parallelism",
        "Every accelerator holds a copy of the model and works on different examples; the results are combined after each step.",
    ),
    (
        "tensor-parallel",
        "Tensor parallelism",
        "Each layer of the model is split across several accelerators, which must talk to each other constantly. Usually kept inside one node.",
    ),
    (
        "pipeline-parallel",
        "Pipeline parallelism",
        "The layers of the model are divided into stages on different accelerators, and examples flow through them like an assembly line.",
    ),
    (
        "expert-parallel",
        "Expert parallelism",
        "In a mixture-of-experts model, different experts live on different accelerators.",
    ),
    (
        "sequence-parallel",
        "Sequence parallelism",
        "A very long sequence is split across accelerators so that it fits in memory.",
    ),
    (
        "fsdp",
        "FSDP and ZeRO",
        "Ways to split the model's parameters, gradients and optimizer state across accelerators instead of copying them, to save memory. FSDP is PyTorch's version; ZeRO is DeepSpeed's.",
    ),
    (
        "nvlink",
        "NVLink and NVSwitch",
        "NVIDIA's very fast connections between the accelerators inside one node.",
    ),
    (
        "infiniband",
        "InfiniBand",
        "A very fast, low-delay network between nodes, common in large training clusters.",
    ),
    (
        "roce",
        "RoCE (Ethernet)",
        "RDMA over Converged Ethernet: fast, direct memory transfers over an ordinary Ethernet network.",
    ),
    (
        "rdma",
        "RDMA",
        "Remote direct memory access: one machine reads or writes another's memory without involving its processor, which keeps delays low.",
    ),
    (
        "oversubscription",
        "Oversubscription",
        "When a network has less capacity between switches than all the connected machines could send at once. 1:1 (non-blocking) means no shortfall.",
    ),
    (
        "nvme",
        "NVMe",
        "Fast solid-state drives attached directly to a server, often used as a local cache for training data.",
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
        "object-storage",
        "Object storage",
        "Storage that keeps files as objects behind a web interface, such as Amazon S3. Cheap and large, but slower for many small reads.",
    ),
    (
        "numa",
        "NUMA",
        "Non-uniform memory access: in a server with several processors, each processor reaches its own memory faster than the others'. It matters when feeding accelerators.",
    ),
    (
        "pcie",
        "PCIe",
        "The standard connection between a server's processor and its accelerators, drives and network cards.",
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
    ("slurm", "Slurm", "A widely used open-source job scheduler for computing clusters."),
    (
        "kubernetes",
        "Kubernetes",
        "A system for running containerised software across many machines; it can also schedule training jobs.",
    ),
    (
        "container",
        "Container",
        "A packaged copy of software with everything it needs, so it runs the same way on any machine (Docker is a common example).",
    ),
    (
        "cuda",
        "CUDA",
        "NVIDIA's programming toolkit for its accelerators. Custom CUDA code runs only on NVIDIA hardware.",
    ),
    (
        "rocm",
        "ROCm",
        "AMD's programming toolkit for its accelerators, the counterpart of NVIDIA's CUDA.",
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
        "Preparing raw data for training, for example decoding video, resizing images or tokenising text.",
    ),
)

GLOSSARY: dict[str, Term] = {key: Term(key, name, definition) for key, name, definition in _TERMS}
