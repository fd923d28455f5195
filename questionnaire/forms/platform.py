"""Questions 7–12: people and jobs, software, parallelism, network, storage, preprocessing."""

from __future__ import annotations

from questionnaire.fields import (
    CheckboxesAnswerField,
    QuantityField,
    RadioAnswerField,
    TextAnswerField,
    YesNoField,
)
from questionnaire.forms.base import QuestionForm
from questionnaire.quantities import Kind
from questionnaire.roles import Feeds, Requirement
from sizing.public import ACCELERATORS

# The current training accelerators of each maker a customer may prefer (the catalog's names);
# accelerators they already own are asked with the site (question 14).
PREFERRED_ACCELERATORS = tuple(
    (key, ACCELERATORS[key].name)
    for key in ("h100-sxm", "h200", "b200", "mi300x", "mi325x", "gaudi3", "a100-80gb", "l40s")
)


class TeamsForm(QuestionForm):
    teams = QuantityField(
        does=Feeds(("schedule.teams",)),
        label="Teams that will train models",
        kind=Kind.COUNT,
        what="the number of teams",
        whole=True,
        maximum=1000,
        width="short",
    )
    concurrent_jobs = QuantityField(
        does=Feeds(("schedule.concurrent_jobs",)),
        label="Most training jobs at the same time",
        kind=Kind.COUNT,
        what="the number of jobs at the same time",
        whole=True,
        maximum=10_000,
        width="short",
    )
    scheduler = RadioAnswerField(
        does=Feeds(("schedule.scheduler",)),
        label="Preferred job scheduler",
        choices=(
            ("slurm", "Slurm"),
            ("kubernetes", "Kubernetes"),
            ("none", "None: we start jobs by hand"),
            ("other", "Another scheduler"),
        ),
    )


class SoftwareForm(QuestionForm):
    frameworks = CheckboxesAnswerField(
        does=Feeds(("software.frameworks",)),
        label="Frameworks you use",
        help_text="Choose all that apply.",
        choices=(
            ("pytorch", "PyTorch"),
            ("jax", "JAX"),
            ("tensorflow", "TensorFlow"),
            ("deepspeed", "DeepSpeed"),
            ("megatron", "Megatron-LM"),
            ("nemo", "NVIDIA NeMo"),
            ("huggingface", "Hugging Face (Transformers, PEFT, Accelerate)"),
            ("other", "Something else"),
        ),
    )
    custom_kernels = YesNoField(
        does=Feeds(("software.custom_cuda_kernels",)),
        label="Do you use custom CUDA or GPU kernels?",
    )
    containers = YesNoField(
        does=Requirement(
            "The deployment section says how your jobs run: in containers under your scheduler, "
            "or directly on the servers."
        ),
        label="Do you run training in containers?",
    )
    accelerator_vendor = RadioAnswerField(
        does=Feeds(("hardware.vendors",)),
        label="Which accelerator makers can you use?",
        choices=(
            ("nvidia_only", "NVIDIA only"),
            ("amd_only", "AMD only"),
            ("intel_only", "Intel only"),
            ("amd_ok", "NVIDIA or AMD"),
            ("no_preference", "No preference: compare every maker"),
        ),
    )
    preferred_accelerator = RadioAnswerField(
        does=Feeds(("hardware.accelerator",)),
        label="Is there an accelerator you would prefer?",
        help_text="We size on it and compare another maker's nearest; leave empty to let us choose.",
        choices=PREFERRED_ACCELERATORS,
    )


class ParallelismForm(QuestionForm):
    strategies = CheckboxesAnswerField(
        does=Requirement(
            "The parallelism section compares the kinds you use with the plan's and names any "
            "kind the plan adds."
        ),
        label="Kinds of parallelism you use or plan",
        help_text="Choose all that apply.",
        choices=(
            ("data", "Data parallel"),
            ("tensor", "Tensor parallel"),
            ("pipeline", "Pipeline parallel"),
            ("expert", "Expert parallel"),
            ("sequence", "Sequence or context parallel"),
            ("fsdp", "FSDP or ZeRO"),
            ("recommend", "Please recommend one"),
        ),
    )
    existing_distributed_code = YesNoField(
        does=Requirement(
            "When the plan spans several servers and you have no such code yet, the parallelism "
            "section says so, with the time to allow for it."
        ),
        label="Do you have code that trains across several servers?",
    )
    orchestration = TextAnswerField(
        does=Requirement(
            "The parallelism section names your launcher and how it starts jobs under your "
            "scheduler."
        ),
        label="Tool that starts your distributed jobs (optional)",
        help_text="For example torchrun, DeepSpeed or Ray.",
        width="medium",
    )


class NetworkForm(QuestionForm):
    nvlink_needed = YesNoField(
        does=Requirement(
            "The network section names the link between accelerators inside each recommended "
            "server and says whether it is NVLink or a similar fast link."
        ),
        label="Do you need NVLink or NVSwitch inside each server?",
    )
    fabric = RadioAnswerField(
        does=Feeds(("network.inter_node",)),
        label="Network between servers",
        choices=(
            ("infiniband", "InfiniBand"),
            ("roce", "Ethernet with RoCE"),
            ("ethernet", "Ordinary Ethernet"),
            ("no_preference", "No preference"),
        ),
    )
    link_speed_gbps = QuantityField(
        does=Feeds(("network.nic_gbps_per_gpu",)),
        label="Link speed per accelerator or per server",
        help_text="For example 400 Gb/s or 200G.",
        kind=Kind.LINK,
        default_unit="Gb/s",
        what="the link speed",
        maximum=1e5,
        width="short",
    )
    rdma = YesNoField(
        does=Requirement(
            "The network section says whether the recommended network carries RDMA (InfiniBand "
            "and RoCE do), or that one run needs no network between servers."
        ),
        label="Do you need RDMA?",
    )
    oversubscription = RadioAnswerField(
        does=Feeds(("network.oversubscription",)),
        label="How much oversubscription can you accept?",
        choices=(
            ("1:1", "None (1:1, non-blocking)"),
            ("2:1", "Some (2:1)"),
            ("4:1", "More (4:1 or higher)"),
        ),
    )


class StorageForm(QuestionForm):
    read_rate_gb_per_s = QuantityField(
        does=Feeds(("storage.required_read_gb_per_s",)),
        label="How fast training must read data",
        help_text="For example 5 GB/s.",
        kind=Kind.RATE,
        default_unit="GB/s",
        what="the read rate",
        maximum=1e5,
        width="short",
    )
    checkpoint_size_gb = QuantityField(
        does=Feeds(("storage.checkpoint_size_gb",)),
        label="Size of one checkpoint",
        help_text="For example 150 GB.",
        kind=Kind.SIZE,
        default_unit="GB",
        what="the checkpoint size",
        maximum=1e7,
        width="short",
    )
    local_nvme = YesNoField(
        does=Requirement(
            "The storage section says how much local NVMe each server has (the plan stages "
            "checkpoints there) and notes it when you did not want it."
        ),
        label="Do you want local NVMe drives in each server as a cache?",
    )
    existing_storage = RadioAnswerField(
        does=Feeds(("storage.existing",)),
        label="Storage you already have",
        choices=(
            ("shared_fs", "A shared file system"),
            ("object", "Object storage"),
            ("both", "Both"),
            ("none", "None"),
        ),
    )
    existing_storage_details = TextAnswerField(
        does=Requirement(
            "The storage section repeats your storage as you described it and says what the "
            "plan uses it for."
        ),
        label="Details of that storage (optional)",
        help_text="For example “Lustre, about 20 GB/s”.",
    )
    many_small_files = YesNoField(
        does=Feeds(("storage.many_small_files",)),
        label="Is your data millions of small files?",
    )


class PreprocessingForm(QuestionForm):
    online_steps = CheckboxesAnswerField(
        does=Feeds(("data.preprocessing",)),
        label="Work done on the data while training runs",
        help_text="Choose all that apply.",
        choices=(
            ("tokenisation", "Tokenisation"),
            ("image_decoding", "Image decoding"),
            ("video_decoding", "Video decoding"),
            ("audio_decoding", "Audio decoding"),
            ("augmentation", "Augmentation"),
            ("none", "None: data is prepared in advance"),
        ),
    )
    cpu_threads_per_gpu = QuantityField(
        does=Requirement(
            "The CPU and RAM section compares it with the plan's cores per accelerator; where "
            "yours is higher, the servers we quote have your figure."
        ),
        label="CPU threads per accelerator for data loading",
        kind=Kind.COUNT,
        what="the number of CPU threads",
        whole=True,
        maximum=1024,
        width="short",
    )
    ram_working_set_gb = QuantityField(
        does=Requirement(
            "The CPU and RAM section compares it with the plan's memory per server; where yours "
            "is higher, the servers we quote have your figure."
        ),
        label="Memory (RAM) needed per server for data loading",
        help_text="For example 256 GB.",
        kind=Kind.SIZE,
        default_unit="GB",
        what="the memory needed",
        maximum=1e5,
        width="short",
    )
