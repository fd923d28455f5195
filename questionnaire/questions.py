"""The question registry: each of the fifteen questions is defined here once.

The wizard's steps, the review page, the admin, the PDF's "your answers" and the tests all loop
over :data:`QUESTIONS`. Text may mark a glossary term as ``[[shown words|glossary-key]]`` or
``[[glossary-key]]``; templates turn those into tooltips (see ``glossary.py``).

Stored answer shape (``Submission.answers``, schema version :data:`SCHEMA_VERSION`)::

    {
      "<question slug>": {
        "<field>": <value>,        # one item per structured field, JSON-native:
                                   #   choice   -> "bf16" | "not_sure" | ""   (a choice key)
                                   #   checkbox -> ["pytorch", "deepspeed"]  (in choice order)
                                   #   text     -> "as typed"                 ("" when empty)
                                   #   date     -> "2026-03-31"               ("" when empty)
        "<number field>": 7e10,    # a number in the unit the field name carries
                                   #   (_gb, _hours, _pct, _gbps, _gb_per_s; counts have none),
                                   #   None when empty or "not sure"; whole values are ints
        "<number field>_text": "70B",  # exactly what the customer typed (staff read this)
        "not_sure": false,         # the customer ticked "not sure" for the whole question
        "notes": ""                # the free-text "anything else" box
      },
      ...                          # every one of the fifteen slugs is present
    }

Since schema version 2 the answers also hold ``"discovery"`` (the page before question 1,
:data:`DISCOVERY`, same shape; an unvisited page is stored with every part empty). When its
``setup_known`` is "no" or "not sure", the expert questions (``Question.expert``,
:data:`EXPERT_SLUGS`) were skipped and each is stored as "recommend for me": every part empty
and ``"not_sure": true`` (``questionnaire/paths.py``), so the engine decides them and lists what
it chose. Version 1 answers have no ``"discovery"``; they read as the detailed path.

Every field is optional and "not sure yet" is always valid. A unit radio (``dataset_unit``,
``global_batch_unit``) holds the customer's choice or, when they left it empty, the unit they
wrote in the number ("1.2T tokens" -> "tokens"). The same answer always renders the same way via
:meth:`Question.answer_lines` (review page, admin, PDF) and :meth:`Question.flatten` (CSV).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from questionnaire.answers import AnswerLine, answer_lines, flatten, line_labels
from questionnaire.forms.base import QuestionForm
from questionnaire.forms.discovery import DiscoveryForm
from questionnaire.forms.operations import DeploymentForm, ResilienceForm, RoadmapForm
from questionnaire.forms.platform import (
    NetworkForm,
    ParallelismForm,
    PreprocessingForm,
    SoftwareForm,
    StorageForm,
    TeamsForm,
)
from questionnaire.forms.workload import (
    BatchForm,
    DataForm,
    MethodForm,
    ModelForm,
    PrecisionForm,
    TimelineForm,
)

SCHEMA_VERSION = 2
# Question 5's example date: about four months ahead, so the form that refuses past dates takes it.
_EXAMPLE_DEADLINE = (datetime.date.today() + datetime.timedelta(days=120)).isoformat()
TERM_MARK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


@dataclass(frozen=True)
class Example:
    """An example answer: form data the question's form accepts, and the same in words."""

    data: dict[str, Any]
    text: str


@dataclass(frozen=True)
class Question:
    number: int
    slug: str
    title: str
    text: str
    why_it_matters: str
    in_simple_terms: str
    what_to_capture: str
    example: Example
    glossary_terms: tuple[str, ...]
    form_class: type[QuestionForm] = field(repr=False)
    # A set-up question for people who know the training recipe: on the short path
    # (questionnaire/paths.py) it is skipped and recommended for the customer.
    expert: bool = False
    # The title said plainly, for a customer who told us no one knows the training set-up
    # (their review page); empty where the title is plain already.
    plain_title: str = ""

    def answer_lines(self, answer: dict[str, Any] | None) -> list[AnswerLine]:
        return answer_lines(self.form_class, answer)

    def flatten(self, answer: dict[str, Any] | None) -> dict[str, str]:
        return flatten(self.slug, self.form_class, answer)

    def marked_terms(self) -> set[str]:
        """Glossary keys marked in the text shown on the page."""
        shown = " ".join((self.text, self.why_it_matters, self.in_simple_terms))
        return {(key or words).strip() for words, key in TERM_MARK.findall(shown)}


def plain(text: str) -> str:
    """Text without glossary marks, for places without tooltips (PDF, admin, page title)."""
    return TERM_MARK.sub(lambda m: m.group(1), text)


QUESTIONS: tuple[Question, ...] = (
    Question(
        number=1,
        slug="model",
        title="Your model",
        text="Which model do you want to train, and how big is it?",
        why_it_matters="The more [[parameters|parameter]] a model has, the more memory and work ([[FLOPs|flops]]) training takes. In a [[dense]] model, each token uses every parameter. In a [[mixture-of-experts|moe]] model, all the parameters must fit in memory, but each token uses only some: its [[active parameters|active-parameters]].",
        in_simple_terms="Tell us the model's name if it has one. We know the sizes of well-known models, so the name alone often is enough.",
        what_to_capture="Model name, dense or mixture of experts, total parameters, active parameters per token, and for a mixture of experts the number of experts and how many each token uses.",
        example=Example(
            data={
                "model_name": "Llama 3.1 8B",
                "architecture": "dense",
                "total_params": "8B",
            },
            text="Llama 3.1 8B, a dense model.",
        ),
        glossary_terms=("parameter", "flops", "dense", "moe", "active-parameters"),
        form_class=ModelForm,
    ),
    Question(
        number=2,
        slug="method",
        title="How you will train",
        text="Will you train from scratch, continue training an existing model, or [[fine-tune|fine-tuning]] it?",
        why_it_matters="Training from scratch can take hundreds of times more computing than [[LoRA|lora]] fine-tuning of the same model. The number of experiments multiplies the total.",
        in_simple_terms="Fine-tuning adapts a model that already exists. [[PEFT|peft]] methods such as LoRA change only a small part of it and need much less hardware.",
        what_to_capture="Training method, number of training phases, expected number of experiments.",
        example=Example(
            data={"method": "lora", "phases": "2", "experiments": "20"},
            text="LoRA first, then full fine-tuning if needed. About 20 experiments in all.",
        ),
        glossary_terms=("fine-tuning", "lora", "peft"),
        form_class=MethodForm,
    ),
    Question(
        number=3,
        slug="precision",
        title="Number format and optimizer",
        plain_title="Numbers and learning rule",
        text="Which number format ([[precision]]) and which [[optimizer]] will you train with?",
        why_it_matters="Shorter number formats such as BF16 or FP8 make training faster and use less memory than 32-bit formats (FP32 and [[TF32|tf32]]). The optimizer can need more memory than the model itself: AdamW needs the most, [[Adafactor|adafactor]] and [[Lion|lion]] less. [[Gradient checkpointing|gradient-checkpointing]] saves memory at the cost of time.",
        in_simple_terms="If you use a standard recipe, it is most likely BF16 with AdamW. If you are not sure, say so: we will assume that.",
        what_to_capture="Precision, optimizer, gradient checkpointing.",
        example=Example(
            data={
                "precision": "bf16",
                "optimizer": "adamw",
                "gradient_checkpointing": "yes",
            },
            text="We plan to use BF16 with AdamW, and most likely gradient checkpointing.",
        ),
        glossary_terms=(
            "precision",
            "tf32",
            "mixed-precision",
            "optimizer",
            "adafactor",
            "lion",
            "gradient-checkpointing",
        ),
        form_class=PrecisionForm,
        expert=True,
    ),
    Question(
        number=4,
        slug="data",
        title="Your training data",
        text="How much data will you train on, and what kind of data is it?",
        why_it_matters="The amount of data, counted in [[tokens|token]] or samples and multiplied by the number of [[epochs|epoch]], sets the total training work. Its size on disk decides the storage.",
        in_simple_terms="Give whatever number you have: tokens, number of documents or files, or gigabytes. We can convert between them.",
        what_to_capture="Dataset size and unit, kind of data, average sample size, epochs, growth per year.",
        example=Example(
            data={
                "dataset_size": "400,000 documents",
                "dataset_unit": "samples",
                "modality": "text",
                "tokens_per_sample": "1,500",
                "epochs": "3",
                "annual_growth_pct": "30 %",
            },
            text="400,000 labelled documents of about 1,500 tokens each, 3 epochs, growing 30 % a year.",
        ),
        glossary_terms=("token", "epoch"),
        form_class=DataForm,
    ),
    Question(
        number=5,
        slug="timeline",
        title="Time and deadlines",
        text="How long may one training run take, and when do you need results?",
        why_it_matters="The shorter the acceptable [[wall-clock time|wall-clock]], the more [[accelerators|accelerator]] run side by side, and the higher the cost.",
        in_simple_terms="“Overnight” is about 12 hours. The same work can be spread over more accelerators to finish sooner: a job of 3,000 accelerator-hours takes about 16 days on 8 accelerators, or 4 days on 32. A firm date helps us check that the plan is realistic.",
        what_to_capture="Acceptable time per run, deadline, runs per month, acceptable queue time.",
        example=Example(
            data={
                "run_time_hours": "12 hours",
                "deadline": _EXAMPLE_DEADLINE,
                "runs_per_month": "10",
                "queue_time_hours": "2 hours",
            },
            text="Each run should finish overnight; results before the quarterly review.",
        ),
        glossary_terms=("wall-clock", "accelerator", "queue-time"),
        form_class=TimelineForm,
    ),
    Question(
        number=6,
        slug="batch",
        title="Sequence length and batch size",
        plain_title="Text read at a time",
        text="How long are your training examples, and how large are your batches?",
        why_it_matters="The longer each example ([[sequence length|sequence-length]]) and the larger each [[micro-batch]], the more memory each accelerator needs. The [[global batch|batch]] limits how many accelerators can work well together.",
        in_simple_terms="If you use a published recipe, these numbers are in its settings. Leave anything you do not know as “not sure”.",
        what_to_capture="Sequence length, global batch size and its unit, micro-batch size, gradient accumulation, largest acceptable batch.",
        example=Example(
            data={
                "sequence_length": "4k",
                "global_batch": "4M tokens",
                "global_batch_unit": "tokens",
                "micro_batch_size": "1",
                "gradient_accumulation": "8",
            },
            text="Sequence length 4,096; global batch about 4 million tokens.",
        ),
        glossary_terms=("sequence-length", "batch", "micro-batch", "gradient-accumulation"),
        form_class=BatchForm,
        expert=True,
    ),
    Question(
        number=7,
        slug="teams",
        title="People and jobs",
        text="How many teams will use the hardware, and how many jobs run at the same time?",
        why_it_matters="Jobs that run side by side each need their own share of the [[cluster]]. A [[scheduler]] such as [[Slurm|slurm]] or [[Kubernetes|kubernetes]] shares it fairly.",
        in_simple_terms="Think of a busy week: how many training jobs would be running at once?",
        what_to_capture="Teams, concurrent jobs, scheduler preference.",
        example=Example(
            data={
                "teams": "1",
                "concurrent_jobs": "2",
                "scheduler": "slurm",
            },
            text="Two data scientists in one team, at most two runs at once.",
        ),
        glossary_terms=("cluster", "scheduler", "slurm", "kubernetes"),
        form_class=TeamsForm,
    ),
    Question(
        number=8,
        slug="software",
        title="Software and accelerators",
        text="Which [[accelerator]] makers and software can you use?",
        why_it_matters="Some software only runs on NVIDIA hardware, for example custom [[CUDA|cuda]] code. AMD accelerators use [[ROCm|rocm]] instead and can cost less.",
        in_simple_terms="Tell us what your team uses today, for example PyTorch with the Hugging Face [[PEFT|peft]] library. If you run training in [[containers|container]], moving to new hardware is easier.",
        what_to_capture="Frameworks, custom kernels, containers, accelerator maker constraints.",
        example=Example(
            data={
                "frameworks": ["pytorch", "huggingface"],
                "custom_kernels": "no",
                "containers": "yes",
                "accelerator_vendor": "nvidia_only",
            },
            text="PyTorch with Hugging Face Transformers and PEFT; no custom kernels; NVIDIA preferred.",
        ),
        glossary_terms=("accelerator", "cuda", "rocm", "peft", "container"),
        form_class=SoftwareForm,
        # Not a set-up question: a maker rule changes the answer, so the short path asks it too
        # (only the maker is shown there; the software parts fold away, paths.KEY_FIELDS).
    ),
    Question(
        number=9,
        slug="parallelism",
        title="Splitting the work",
        text="How do you split the work across many accelerators ([[parallelism]])?",
        why_it_matters="[[Tensor parallelism|tensor-parallel]] needs very fast links inside a server. [[Data parallelism|data-parallel]] and [[pipeline parallelism|pipeline-parallel]] put more load on the network between servers. [[FSDP or ZeRO|fsdp]] saves memory.",
        in_simple_terms="If your model fits on one server, you may not need to split it at all. If you are not sure, ask us to recommend a plan.",
        what_to_capture="Kinds of parallelism, existing distributed code, orchestration tool.",
        example=Example(
            data={
                "strategies": ["recommend"],
                "existing_distributed_code": "no",
                "orchestration": "torchrun",
            },
            text="Not sure: whatever fits on one server.",
        ),
        glossary_terms=(
            "parallelism",
            "data-parallel",
            "tensor-parallel",
            "pipeline-parallel",
            "expert-parallel",
            "sequence-parallel",
            "fsdp",
        ),
        form_class=ParallelismForm,
        expert=True,
    ),
    Question(
        number=10,
        slug="network",
        title="Network",
        text="What do you need from the network inside and between servers?",
        why_it_matters="When many servers train one model, they swap data after every step. A slow network leaves costly accelerators waiting. [[NVLink|nvlink]] joins the accelerators inside a server. [[InfiniBand|infiniband]] or [[RoCE|roce]] join the servers.",
        in_simple_terms="If you do not know, that is fine: we will recommend a network that suits your model. [[RDMA|rdma]] lets servers copy data straight into each other's memory. [[Oversubscription|oversubscription]] means the network is cheaper but slower when everyone sends at once.",
        what_to_capture="NVLink or NVSwitch, InfiniBand or Ethernet, link speed, RDMA, oversubscription tolerance.",
        example=Example(
            data={
                "fabric": "infiniband",
                "link_speed_gbps": "400 Gb/s",
                "rdma": "yes",
                "oversubscription": "1:1",
            },
            text="InfiniBand at 400 Gb/s with RDMA. Every server can send at full speed at once (1:1).",
        ),
        glossary_terms=("nvlink", "infiniband", "roce", "rdma", "oversubscription"),
        form_class=NetworkForm,
        expert=True,
    ),
    Question(
        number=11,
        slug="storage",
        title="Storage",
        text="How fast must training read its data, and how large are your [[checkpoints|checkpoint]]?",
        why_it_matters="Storage must send data fast enough to keep every accelerator busy ([[throughput]]). It must also save checkpoints quickly. Millions of small files put a strain on the [[metadata]] service.",
        in_simple_terms="Tell us what you already have, for example a [[shared file system|shared-file-system]] or [[object storage|object-storage]], and whether local [[NVMe|nvme]] drives would help.",
        what_to_capture="Read rate, checkpoint size, local NVMe cache, existing storage, many small files.",
        example=Example(
            data={
                "read_rate_gb_per_s": "not sure",
                "checkpoint_size_gb": "2 GB",
                "local_nvme": "yes",
                "existing_storage": "shared_fs",
                "existing_storage_details": "NetApp NFS, about 2 TB of documents",
                "many_small_files": "no",
            },
            text="About 2 TB of documents on NFS; checkpoints are small (adapters only).",
        ),
        glossary_terms=(
            "checkpoint",
            "throughput",
            "metadata",
            "shared-file-system",
            "object-storage",
            "nvme",
        ),
        form_class=StorageForm,
        expert=True,
    ),
    Question(
        number=12,
        slug="preprocessing",
        title="Data preparation during training",
        text="Is data prepared while training runs, for example decoded or [[tokenised|tokenisation]]?",
        why_it_matters="Work done on the data during training ([[preprocessing]]), such as turning video into frames, needs many processor cores and much memory next to each accelerator. It also needs fast [[PCIe|pcie]] links. In a server with a poor [[NUMA|numa]] layout, the accelerators may wait for data.",
        in_simple_terms="If your data is prepared in advance and stored ready to use, choose “None”.",
        what_to_capture="Work done during training, CPU threads, memory working set.",
        example=Example(
            data={"online_steps": ["none"], "cpu_threads_per_gpu": "4"},
            text="We read text from scans and split it into tokens before training, not during it.",
        ),
        glossary_terms=("tokenisation", "preprocessing", "pcie", "numa"),
        form_class=PreprocessingForm,
        expert=True,
    ),
    Question(
        number=13,
        slug="resilience",
        title="Failures and restarts",
        text="How much training time could you accept losing when something fails?",
        why_it_matters="In large [[clusters|cluster]], hardware fails every few days. Saving [[checkpoints|checkpoint]] more often loses less work but slows training; spare [[nodes|node]] shorten the wait for repairs.",
        in_simple_terms="If a run fails halfway, it continues from the last checkpoint. The question is how far back that may be.",
        what_to_capture="Largest acceptable lost compute, checkpoint interval, copies, restart process, spare nodes.",
        example=Example(
            data={
                "max_lost_hours": "12 hours",
                "checkpoint_interval_hours": "1 hour",
                "replication": "none",
                "restart": "manual",
                "spare_nodes": "no",
            },
            text="Losing one night's run is acceptable.",
        ),
        glossary_terms=("cluster", "checkpoint", "node"),
        form_class=ResilienceForm,
    ),
    Question(
        number=14,
        slug="deployment",
        title="Location and security",
        text="Where should the hardware be, and what rules apply to your data?",
        why_it_matters="Owning hardware, [[colocation]] and cloud differ greatly in cost and lead time. [[Data residency|data-residency]] and security rules can rule some options out.",
        in_simple_terms="Tell us about any legal or company rules, for example that data must stay in the EU or that training machines have no internet access.",
        what_to_capture="On-premises, colocation, cloud or hybrid; data residency; encryption; no shared tenancy; internet restrictions; export policy.",
        example=Example(
            data={
                "location": "on_premises",
                "data_residency": "EU only",
                "encryption": ["at_rest", "in_transit"],
                "dedicated": "yes",
                "internet": "none",
                "export_policy": "Data may not leave our own data centre.",
            },
            text="Must stay in the EU, in our own data centre, with no internet access from training machines.",
        ),
        glossary_terms=("colocation", "data-residency"),
        form_class=DeploymentForm,
    ),
    Question(
        number=15,
        slug="roadmap",
        title="The years ahead",
        text="How will your training needs grow over the next few years?",
        why_it_matters="How often you train, and for how long, decides whether renting or owning is cheaper: we price the runs you tell us about, and only the planned runs if you are not sure. Hardware bought today should still fit next year's work, so the [[total cost of ownership|tco]] over several years matters more than the price today.",
        in_simple_terms="A rough idea is enough, for example “twice as much next year”.",
        what_to_capture="Runs per month, hours per run, yearly growth, future model sizes, budget period, in-house operations.",
        example=Example(
            data={
                "future_runs_per_month": "20",
                "future_hours_per_run": "8 hours",
                "annual_growth_pct": "100 %",
                "future_model_sizes": "Two similar use cases next year",
                "budget_years": "3",
                "operations": "some",
            },
            text="This use case plus two similar ones next year; a three-year view.",
        ),
        glossary_terms=("tco",),
        form_class=RoadmapForm,
    ),
)

DISCOVERY = Question(
    number=0,
    slug="discovery",
    title="About your project",
    text="Tell us about your project in a few words.",
    why_it_matters="Your answers here open your proposal, so everyone who reads it starts from the same goal. What matters most to you steers the choices we make where you are not sure.",
    in_simple_terms="Short answers are fine. Leave out anything you do not know yet. If no one on your team knows the training set-up, say so: we will skip those questions and recommend a set-up for you.",
    what_to_capture="Use case in one sentence, who decides, who runs the training, the one constraint that matters most, what success looks like, whether someone knows the training set-up.",
    example=Example(
        data={
            "use_case": "Fine-tune an open 70B model on 2 billion tokens of clinical notes",
            "decider": "Our chief medical information officer",
            "runs_training": "Two data scientists",
            "constraint": "data_location",
            "success": "Summaries our doctors trust, in use by June",
            "setup_known": "no",
        },
        text="Fine-tune an open 70B model on our clinical notes; the data must stay with us; "
        "no one here knows the training set-up.",
    ),
    glossary_terms=(),
    form_class=DiscoveryForm,
)
"""The page before question 1: not one of the fifteen, unnumbered, answered like them."""

PAGES: tuple[Question, ...] = (DISCOVERY, *QUESTIONS)
_BY_SLUG = {question.slug: question for question in PAGES}
SLUGS: tuple[str, ...] = tuple(question.slug for question in QUESTIONS)
EXPERT_SLUGS: tuple[str, ...] = tuple(question.slug for question in QUESTIONS if question.expert)


def get_question(slug: str) -> Question:
    """The question (or the discovery page) with this slug; ``KeyError`` for an unknown one."""
    return _BY_SLUG[slug]


@dataclass(frozen=True)
class AnsweredQuestion:
    """One question with a customer's answer, as every page and document shows it."""

    question: Question
    lines: list[AnswerLine]

    @property
    def number(self) -> int:
        return self.question.number

    @property
    def slug(self) -> str:
        return self.question.slug

    @property
    def title(self) -> str:
        return plain(self.question.title)

    @property
    def heading(self) -> str:
        """ "4. Your training data"; the unnumbered discovery page is its title alone."""
        return f"{self.number}. {self.title}" if self.number else self.title

    @property
    def not_sure(self) -> bool:
        return any(line.not_sure for line in self.lines)


def answered_question(question: Question, answer: dict[str, Any] | None) -> AnsweredQuestion:
    return AnsweredQuestion(question=question, lines=question.answer_lines(answer))


def _pages_of(answers: dict[str, Any]) -> tuple[Question, ...]:
    """The discovery page when the answers hold it (schema 2), then the fifteen questions."""
    return PAGES if DISCOVERY.slug in answers else QUESTIONS


def answered_questions(answers: dict[str, Any] | None) -> list[AnsweredQuestion]:
    """All fifteen questions in registry order with the customer's answer lines: the one list
    behind the review page, the staff page, the PDF and the emails (never a second list).
    Answers with a discovery page list it first."""
    answers = answers or {}
    return [
        answered_question(question, answers.get(question.slug)) for question in _pages_of(answers)
    ]


def answer_columns() -> list[str]:
    """Every "<heading>: <line label>" an answer can give, in registry order (the discovery page,
    then the questions, each part in page order): the order of the CSV's answer columns, whatever
    order the exported submissions happen to come in."""
    return [
        f"{answered_question(question, None).heading}: {label}"
        for question in PAGES
        for label in line_labels(question.form_class)
    ]
