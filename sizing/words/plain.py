"""Engineering words said plainly, for a customer who told us no one on their team knows the
training set-up (``questionnaire.paths.setup_unknown``).

One place per term: a term their engineer or supplier will need (``BF16``, ``NVLink``) is said
in plain words first with the term after it in brackets, where the proposal's glossary defines
it; an engineering phrase nobody outside needs ("scale-out fabric") is replaced outright; a
label of the vocabulary (``sizing.engine.vocabulary``) has a plain label of its own. The expert
proposal never passes through here.
"""

from __future__ import annotations

import re

from sizing.adapters import Decision
from sizing.engine.numbers import format_count

# term → plain words said before it ("16-bit numbers (BF16)"); each term has a glossary entry
KEPT_TERMS: dict[str, str] = {
    "BF16": "16-bit numbers",
    "AdamW": "the usual one",
    "InfiniBand": "a fast network between servers",
    "NVLink": "fast links between the accelerators in a server",
    "NVMe": "fast drives",
    "PCIe": "the standard link inside a server",
    "HGX": "an eight-accelerator server board",
    "LoRA": "small add-on pieces",
}
# engineering phrase → plain words, the phrase dropped (nobody outside needs it)
REPLACED: dict[str, str] = {
    # the summary's reasons for the size ("LoRA trains only small adapters, so one node is
    # enough"), QLoRA before the LoRA its name contains
    "QLoRA trains only small adapters": "Training small add-on pieces on a shrunk copy of the "
    "model (QLoRA) leaves the model itself as it is",
    "LoRA trains only small adapters": "Training small add-on pieces (LoRA) leaves the model "
    "itself as it is",
    "LoRA adapters": "small add-on pieces (LoRA)",
    "one node is enough": "one server is enough",
    "fits on one node": "fits on one server",
    "fits in one node": "fits in one server",
    "scale-out fabric": "network between servers",
    # the cooling overhead's ratio is a data-centre operator's figure, said in the label's words
    " (PUE)": "",
    "optimizer's memory": "memory of the learning rule",
    "optimizer state": "memory of the learning rule",
    "the idle time of a pipeline": "the time accelerators wait on each other",
    "the attention compute": "the work of comparing the words of each example",
    "plain data parallelism": "each accelerator holds the whole model and learns from its own "
    "share of the data",
    "cores for loaders, communication and checkpoint staging": "processor cores to feed in the "
    "data, coordinate the accelerators and save checkpoints",
}
# vocabulary label (``sizing.engine.vocabulary.INPUTS``) → its plain label
PLAIN_LABELS: dict[str, str] = {
    "training.precision": "Number size",
    "training.optimizer": "Learning rule",
    "batch.global_batch_tokens": "Text per training step",
    "batch.sequence_length": "Text read at once",
    "data.preprocessing": "Data preparation",
    "network.inter_node": "Network between servers",
}

# a term with its generation ("NVLink 4 + NVSwitch", "PCIe Gen5") is bracketed whole
_BARE = {
    term: re.compile(rf"(?<![\w(-]){re.escape(term)}(?: (?:Gen)?\d+\b)?(?: \+ NVSwitch)?(?![\w)-])")
    for term in KEPT_TERMS
}


def plainly(text: str) -> str:
    """``text`` with each engineering phrase replaced and each kept term said plainly first:
    "Number precision: BF16" reads "16-bit numbers (BF16)"; a term already in brackets
    after its plain words is left as it is."""
    for phrase, words in REPLACED.items():
        text = text.replace(phrase, words)
    for term, words in KEPT_TERMS.items():
        text = _BARE[term].sub(lambda found, words=words: f"{words} ({found[0]})", text)
    return text


def plain_label(path: str, label: str) -> str:
    """The plain label of a vocabulary field, or ``label`` itself where it is plain already."""
    return PLAIN_LABELS.get(path, label)


def plain_decision(decision: Decision) -> Decision:
    """A choice the engine made for a set-up left to it, in plain words under its field's plain
    label: "Number precision: BF16" reads "Number size: 16-bit numbers (BF16)"."""
    label, _, value = decision.what.partition(": ")
    what = f"{plain_label(decision.key, label)}: {plainly(value)}" if decision.key else ""
    return Decision(what, plainly(decision.why), decision.key)


# the engine's reason for the compute names the tokens read (``sizing.engine.explain``)
_TOKENS_READ = re.compile(r"trained on [\d.,]+[KMBT]? tokens")


def plain_driver(line: str, samples: float | None, epochs: float | None) -> str:
    """One reason for the size in plain words: the tokens the run reads said as the samples
    the customer counted, read so many times ("trained on your 50,000 samples, each read 3
    times,"); customer 8, who told us "about 50,000 past tickets", read "154M tokens" in their
    summary. ``line`` unchanged when they gave no count of samples."""
    if not samples:
        return plainly(line)
    read = f", each read {format_count(epochs)} times," if epochs and epochs > 1 else ""
    yours = f"trained on your {format_count(samples)} samples{read}"
    return plainly(_TOKENS_READ.sub(yours, line, count=1))
