"""The summary is read by people who do not train models: every technical word on it is
explained in the proposal's glossary (a novice customer saw rail-optimised, HDR, HGX, SXM5 and
gang-scheduled there with no definition anywhere)."""

from __future__ import annotations

import html as entities
import re

import pytest

from reports.document import glossary_for, render_html
from tests.reports.stories import STORIES, story_data

# The words of our trade that a summary may use only with a definition in the glossary.
JARGON = (
    "rail-optimised",
    "rail-optimized",
    "HDR",
    "NDR",
    "XDR",
    "EDR",
    "gang-scheduled",
    "HGX",
    "SXM4",
    "SXM5",
    "QLC",
    "BeeGFS",
    "Lustre",
    "WEKA",
    "GPFS",
    "TP",
    "PP",
    "DP",
    "EP",
    "ZeRO",
    "FSDP",
    "micro-batch",
    "micro-batches",
    "Slurm",
    "Kubernetes",
    "PCIe",
    "NVLink",
    "NVSwitch",
    "InfiniBand",
    "RoCE",
    "RDMA",
    "MFU",
    "BF16",
    "FP8",
    "FP16",
    "TF32",
    "LoRA",
    "QLoRA",
    "NVMe",
    "leaf-spine",
    "fat tree",
    "oversubscription",
    "non-blocking",
    "checkpoint",
    "checkpoints",
    "tensor parallelism",
    "pipeline parallelism",
    "data parallelism",
    "expert parallelism",
    "CUDA",
    "ROCm",
    "NUMA",
    "PEFT",
    "epoch",
    "epochs",
    "token",
    "tokens",
)


def _summary_text(html: str) -> str:
    """The executive summary as a reader sees it, without the customer's own words."""
    start = html.index('<h2 id="summary">')
    section = html[start : html.index("</section>", start)]
    section = re.sub(
        r'<(\w+)[^>]*class="[^"]*verbatim[^"]*"[^>]*>.*?</\1>', " ", section, flags=re.S
    )
    return entities.unescape(re.sub(r"<[^>]+>", " ", section))


def _used(word: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", text) is not None


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s or "demo")
def test_every_technical_word_on_the_summary_is_in_the_glossary(story):
    html = render_html(story_data(story))
    summary = _summary_text(html)
    appendix = html[html.index('id="glossary"') :] if 'id="glossary"' in html else ""
    missing = []
    for word in JARGON:
        if not _used(word, summary):
            continue
        terms = glossary_for(f"<p>{word}</p>")
        if not terms or not any(f"<dt>{t.name}</dt>" in entities.unescape(appendix) for t in terms):
            missing.append(word)
    assert not missing, f"on the summary without a glossary entry: {missing}"
