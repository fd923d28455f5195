"""Builds the proposal document: context from a Recommendation, HTML, then PDF bytes.

Plain data in (``ProposalData``: the submission's identity, its answers and the engine's input
and result), a template context out. The wording of each section lives here and in the
template; every figure comes from the engine's result, so the PDF says what the engine said.
"""

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import HTML
from weasyprint.urls import FatalURLFetchingError

from questionnaire.glossary import GLOSSARY
from reports import charts, wording
from reports.fetcher import BASE_URL, BlockedResource, ProposalURLFetcher
from reports.figures import (
    COST_OPTION_LABELS,
    figure_rows,
    format_quantity,
    input_rows,
    money,
    money_short,
    number,
)
from sizing.models import Recommendation


@dataclass(frozen=True)
class RenderedPdf:
    pdf: bytes
    page_count: int


@dataclass(frozen=True)
class ProposalData:
    """Everything one proposal shows, as plain data (a stored Recommendation or the demo)."""

    reference: str
    company: str
    contact_name: str
    contact_role: str
    issued_on: date
    version: int
    answers: dict[str, Any]
    engine_input: dict[str, Any]
    result: dict[str, Any]
    engine_version: str
    overrides: dict[str, Any] = field(default_factory=dict)


def data_from_recommendation(recommendation: Recommendation) -> ProposalData:
    submission = recommendation.submission
    return ProposalData(
        reference=submission.reference,
        company=submission.company,
        contact_name=submission.contact_name,
        contact_role=submission.contact_role,
        issued_on=timezone.localdate(recommendation.finished_at or timezone.now()),
        version=recommendation.version,
        answers=submission.answers or {},
        engine_input=recommendation.engine_input or {},
        result=recommendation.result or {},
        engine_version=recommendation.engine_version,
        overrides=recommendation.overrides or {},
    )


def render_pdf(*, recommendation: Recommendation) -> RenderedPdf:
    return render_data(data_from_recommendation(recommendation))


def render_data(data: ProposalData) -> RenderedPdf:
    html = render_to_string("reports/proposal.html", build_context(data))
    return html_to_pdf(html)


def html_to_pdf(html: str) -> RenderedPdf:
    """Lay out HTML as a PDF with the locked-down fetcher; a blocked URL raises BlockedResource."""
    fetcher = ProposalURLFetcher()
    try:
        document = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher).render()
        pdf = document.write_pdf()
    except FatalURLFetchingError as exc:  # a BaseException: turn it into an ordinary error
        raise BlockedResource(str(exc)) from None
    return RenderedPdf(pdf=pdf, page_count=len(document.pages))


# --- context ----------------------------------------------------------------------------------


def _get(mapping: Any, *path: str, default: Any = None) -> Any:
    for key in path:
        if not isinstance(mapping, dict) or key not in mapping:
            return default
        mapping = mapping[key]
    return default if mapping is None else mapping


def _as_text_list(items: Any) -> list[str]:
    """Engine lists hold strings or small dicts (``{"title", "detail"}``): plain strings out."""
    texts = []
    for item in items or []:
        if isinstance(item, dict):
            head = item.get("title") or item.get("name") or item.get("risk") or item.get("key")
            body = (
                item.get("detail")
                or item.get("explanation")
                or item.get("text")
                or item.get("description")
                or item.get("mitigation")
            )
            texts.append(f"{head}: {body}" if head and body else str(head or body or ""))
        elif item:
            texts.append(str(item))
    return [t for t in texts if t]


def cost_options(result: dict[str, Any]) -> list[dict[str, Any]]:
    cost = result.get("cost") or {}
    options = []
    for key, label in COST_OPTION_LABELS.items():
        option = cost.get(key)
        if isinstance(option, dict):
            by_year = option.get("by_year_usd") or option.get("by_year") or []
            low, high = (option.get("range_usd") or [None, None])[:2]
            low = option.get("low_usd", low)
            high = option.get("high_usd", high)
            options.append(
                {
                    "key": key,
                    "label": label,
                    "by_year": [float(v or 0) for v in by_year],
                    "total_usd": option.get("total_usd"),
                    "low_usd": low,
                    "high_usd": high,
                    "basis": option.get("basis", ""),
                    "recommended": cost.get("recommended_option") == key,
                    "by_year_short": [money_short(v) for v in by_year],
                    "total_short": money_short(option.get("total_usd")),
                    "range_short": f"{money_short(low)} – {money_short(high)}",
                    "total_text": money(option.get("total_usd")),
                    "range_text": f"{money(low)} – {money(high)}",
                }
            )
    return options


def headline(result: dict[str, Any]) -> dict[str, Any]:
    """The executive-summary box: one line per element of the recommended configuration."""
    cluster = result.get("cluster") or {}
    network = result.get("network") or {}
    storage = result.get("storage") or {}
    options = cost_options(result)
    lows = [o["low_usd"] for o in options if o["low_usd"] is not None]
    highs = [o["high_usd"] for o in options if o["high_usd"] is not None]
    accelerator = cluster.get("accelerator_name") or cluster.get("accelerator") or "—"
    if network.get("nic_gbps"):
        network_text = (
            f"{network.get('technology')}, {network.get('nics_per_node', 1)} × "
            f"{number(network['nic_gbps'])} Gb/s per node, {network.get('fabric')}"
        )
    else:
        network_text = str(network.get("fabric") or "—")
    return {
        "accelerator": accelerator,
        "gpus": cluster.get("gpus"),
        "nodes": cluster.get("nodes"),
        "gpus_per_node": cluster.get("gpus_per_node"),
        "network": network_text or "—",
        "storage": (
            f"{format_quantity(storage.get('total_capacity_tb'), 'TB')} total, "
            f"{format_quantity(storage.get('read_gb_per_s'), 'GB/s')} read, "
            f"{format_quantity(storage.get('checkpoint_write_gb_per_s'), 'GB/s')} checkpoint write"
        )
        if storage
        else "—",
        "wall_clock_days": _get(result, "timeline", "wall_clock_days"),
        "cost_low": min(lows) if lows else None,
        "cost_high": max(highs) if highs else None,
        "cost_low_text": money(min(lows)) if lows else "",
        "cost_high_text": money(max(highs)) if highs else "",
        "years": _get(result, "cost", "years", default=3),
    }


AREAS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # (result key, title, engine-input fields the customer's answers feed)
    (
        "compute",
        "Compute and timeline",
        (
            "model",
            "data.tokens",
            "data.epochs",
            "training.method",
            "training.experiments",
            "schedule.deadline_days",
        ),
    ),
    (
        "memory",
        "Memory",
        (
            "training.precision",
            "training.optimizer",
            "training.gradient_checkpointing",
            "batch.sequence_length",
            "batch.micro_batch_size",
            "training.lora_rank",
        ),
    ),
    ("parallelism", "Parallelism plan", ("parallelism", "batch.global_batch_tokens")),
    ("cluster", "Cluster and concurrency", ("hardware", "schedule.concurrent_jobs")),
    ("network", "Network", ("network",)),
    (
        "storage",
        "Storage",
        (
            "data.dataset_size_tb",
            "data.modality",
            "data.samples",
            "data.bytes_per_sample",
            "data.files",
            "data.annual_growth",
            "storage",
        ),
    ),
    ("hosts", "CPU and RAM", ("data.preprocessing", "data.modality")),
    (
        "resilience",
        "Checkpointing and resilience",
        ("resilience", "storage.checkpoint_minutes_max"),
    ),
    ("deployment", "Deployment and security", ("deployment", "software")),
    ("cost", "Cost", ("roadmap", "prices")),
)


def build_context(data: ProposalData) -> dict[str, Any]:
    result = data.result
    sources = result.get("input_sources") or {}
    sections = []
    for key, title, fields in AREAS:
        sections.append(
            {
                "key": key,
                "anchor": f"area-{key}",
                "title": title,
                "told": input_rows(data.engine_input, fields, sources),
                "recommend": wording.recommendation_sentence(key, result),
                "why": wording.why_sentences(key, result),
                "figures": figure_rows(key, result.get(key) or {})
                + (
                    figure_rows("concurrency", result.get("concurrency") or {})
                    if key == "cluster"
                    else []
                ),
                "chart": _chart_for(key, result, data.engine_input),
            }
        )
    options = cost_options(result)
    assumptions = wording.assumption_rows(result, data.answers, sources)
    return {
        "data": data,
        "headline": headline(result),
        "drivers": _as_text_list(result.get("drivers"))[:3],
        "sections": sections,
        "cost_options": options,
        "alternatives": [
            {**a, "run_cost_text": money(a.get("run_cost_usd"))}
            for a in result.get("alternatives") or []
            if isinstance(a, dict)
        ][:6],
        "answers": wording.answer_rows(data.answers),
        "assumptions": assumptions,
        "open_questions": _as_text_list(result.get("open_questions")),
        "risks": _as_text_list(result.get("risks")),
        "warnings": _as_text_list(result.get("warnings")),
        "glossary": sorted(GLOSSARY.values(), key=lambda term: term.name.lower()),
        "sources": wording.source_rows(result),
    }


def _figures(key: str, result: dict[str, Any]) -> list[tuple[str, str]]:
    rows = figure_rows(key, result.get(key) or {})
    if key == "cluster":  # concurrency is part of the cluster section
        rows += figure_rows("concurrency", result.get("concurrency") or {})
    unique: dict[str, str] = {}
    for label, value in rows:
        unique.setdefault(label, value)
    return list(unique.items())


def _chart_for(key: str, result: dict[str, Any], engine_input: dict[str, Any]):
    if key == "compute":
        options = _get(result, "timeline", "options", default=[])
        points = [(o.get("gpus"), o.get("wall_clock_days")) for o in options if isinstance(o, dict)]
        deadline = _get(result, "timeline", "deadline_days") or _get(
            engine_input, "schedule", "deadline_days"
        )
        return charts.timeline_chart(
            points,
            deadline_days=deadline,
            recommended_gpus=_get(result, "cluster", "gpus_per_job")
            or _get(result, "cluster", "gpus"),
        )
    if key == "memory":
        return charts.memory_chart(
            _get(result, "memory", "breakdown_gb", default={}),
            usable_gb=_get(result, "memory", "usable_gpu_gb"),
        )
    if key == "cost":
        by_year = {o["key"]: o["by_year"] for o in cost_options(result)}
        return charts.cost_chart(by_year, labels=COST_OPTION_LABELS)
    if key == "storage":
        storage = result.get("storage") or {}
        bars = [
            charts.Bar("Training data read", storage.get("read_gb_per_s")),
            charts.Bar(
                "Checkpoint write", storage.get("checkpoint_write_gb_per_s"), charts.PALETTE[1]
            ),
        ]
        return charts.bar_chart(
            [b for b in bars if b.value is not None],
            unit="GB/s",
            title="Storage throughput needed",
        )
    return ""
