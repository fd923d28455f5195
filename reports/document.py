"""Builds the proposal document: plain data in, HTML, then PDF bytes.

Plain data in (``ProposalData``: the submission's identity, its answers and the engine's input,
result and input sources; the pipeline builds it from a stored version, the demo from the
built-in answers), a template context out. The wording of each section lives here and in the
template; every figure comes from the engine's result, so the PDF says what the engine said.
"""

import functools
import re
import string
import threading
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString
from weasyprint import CSS, HTML, Document
from weasyprint import html as weasyprint_html
from weasyprint.css.counters import CounterStyle
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import FatalURLFetchingError

from questionnaire.glossary import GLOSSARY
from questionnaire.paths import setup_unknown
from reports import answer_trace, charts, wording
from reports.bill import (
    bill_of_materials,
    fabric_bought,
    fabric_growth,
    purchase_terms,
    run_servers_usd,
)
from reports.cost_page import cost_page
from reports.data_reading import data_reading
from reports.fetcher import BASE_URL, BlockedResource, ProposalURLFetcher
from reports.figures import figure_rows, input_rows
from reports.html_parsing import cache_character_patterns
from reports.inline_lengths import resolve_inline_lengths_once
from reports.kept_layouts import keep_layouts_until_drawn_once
from reports.layout import page_fill
from reports.line_fonts import remember_line_fonts_once
from reports.method import method_rows
from reports.page_references import keep_page_references_once
from reports.pdf_compression import use_proposal_deflate_level
from reports.per_style import forget_styles
from reports.plain_backgrounds import remember_plain_backgrounds_once
from reports.proposal_check import Finding, check_proposal
from reports.stylesheet import proposal_stylesheet
from reports.summary import executive_summary
from sizing.public import (
    NO_VALUE,
    SOURCES,
    StoredResult,
    accelerator_choice,
    assumption_rows,
    backing,
    credited,
    excluded_groups,
    format_number,
    format_quantity,
    format_range,
    gpus_needed,
    money_of,
    needed_by,
    output_label_and_unit,
    owned_hosts_sentence,
    owned_network_sentence,
    plain_driver,
    plain_label,
    plainly,
    price_rows,
    project_from_answers,
    read_counts,
    read_result,
    risk_rows,
    validity_sentence,
    validity_words,
)


@dataclass(frozen=True)
class RenderedPdf:
    pdf: bytes
    page_count: int
    # What the proposal checker found (``reports.proposal_check``); empty for a clean proposal.
    findings: tuple[Finding, ...] = ()
    # How full each page is, from its top (reports.layout.page_fill).
    page_fill: tuple[float, ...] = ()
    # How many times it was laid out: 2 when the first layout ended on an almost empty page or
    # past MAX_PAGES (see render_data); each layout is most of a render's time.
    layouts: int = 1


@dataclass(frozen=True)
class ProposalData:
    """Everything one proposal shows, as plain data (a stored version or the demo)."""

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
    # Per engine-input field, where its value came from ("customer", "not_sure", "override" …).
    input_sources: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    # Once an engineer approved the version: who checked it and when, and what changed from the
    # first estimate ("Checked by our engineer … on 4 December 2026. The 3-year cost moved …").
    checked: str = ""


def proposal_context(data: ProposalData, *, compact_end: bool = False) -> dict[str, Any]:
    """The template context of the proposal's body (``reports/_proposal_body.html``), the
    glossary of the terms the body uses included: the PDF and the web version both render it."""
    context = {**build_context(data), "compact_end": compact_end}
    body = render_to_string("reports/_proposal_body.html", {**context, "glossary": None})
    glossary = glossary_for(body)
    return {**context, "glossary": glossary, "glossary_columns": glossary_columns(glossary)}


def render_html(data: ProposalData, *, compact_end: bool = False) -> str:
    """The proposal as HTML for the PDF: the body, then the glossary of the terms it uses;
    ``compact_end`` sets the appendices tighter (see :func:`render_data`)."""
    return render_to_string(PROPOSAL_TEMPLATE, proposal_context(data, compact_end=compact_end))


PROPOSAL_TEMPLATE = "reports/proposal.html"


# A last page filled less than this reads as a mistake (a few rows of the method's table alone).
LAST_PAGE_MIN_FILL = 0.35


# A proposal longer than this is more than a reader takes in (the demo scenarios' 12 to 14).
MAX_PAGES = 14


def render_data(data: ProposalData) -> RenderedPdf:
    """The proposal's PDF; laid out a second time with tighter appendices when its last page
    would be almost empty or it runs past :data:`MAX_PAGES`, and that layout kept when it ends
    on fewer pages. Only the layout kept is written as a PDF and checked: writing and checking a
    layout that is thrown away would cost a third of a render."""
    context = proposal_context(data)
    html = render_to_string(PROPOSAL_TEMPLATE, context)
    document = lay_out(html)
    fill = page_fill(document.pages)
    almost_empty_end = len(fill) > 1 and fill[-1] < LAST_PAGE_MIN_FILL
    if almost_empty_end or len(document.pages) > MAX_PAGES:
        # the same context (its figures and glossary), the appendices set tighter
        tighter_html = render_to_string(PROPOSAL_TEMPLATE, {**context, "compact_end": True})
        tighter = lay_out(tighter_html)
        if len(tighter.pages) < len(document.pages):
            return _finish(tighter, tighter_html, layouts=2)
        return _finish(document, html, fill, layouts=2)
    return _finish(document, html, fill)


# Tagged for screen readers as PDF/UA-1 (ISO 14289-1): a structure tree of headings, lists,
# tables and figures in reading order, the document's title shown as its name and its language
# (from <title> and <html lang>); each chart is a figure whose alternative text is its SVG
# <title>. WeasyPrint 70, "PDF variants" and ``weasyprint/pdf/tags.py``.
PDF_OPTIONS: dict[str, Any] = {"pdf_variant": "pdf/ua-1"}


def html_to_pdf(html: str) -> RenderedPdf:
    """Lay out HTML as a PDF with the locked-down fetcher and check what was laid out; a blocked
    URL raises BlockedResource."""
    return _finish(lay_out(html), html)


# How the user-agent rules on attributes a proposal never has begin (see _lean_user_agent_css).
_NEVER_IN_A_PROPOSAL = (
    "[dir",
    "dd[dir",
    ":is(dir, menu, ol, ul)[dir",
    "table:is([rules], [frame])",
    ":is(colgroup, col, thead, tbody, tfoot, tr, td, th)[hidden]",
)


def _lean_user_agent_css() -> CSS:
    """WeasyPrint's own stylesheet for HTML, less the rules that match every element for
    pseudo-elements a proposal never has. Its ``::marker`` and five footnote and note rules
    (``::footnote-call`` …) make WeasyPrint compute six styles no box uses for each of the
    proposal's 1,400 elements: 8,800 of its 9,500 styles, a tenth of a layout. Markers are
    drawn for list items only (``li``); a proposal has no footnotes (``float: footnote``).
    Less too the one-line rules on attributes a proposal never has (``dir``, ``hidden`` on a
    table part, ``rules`` and ``frame``: our templates write none and a customer's text is
    escaped, never markup): their selectors name no element or class, so each was tried on
    every element: 13 of its 18 such selectors, 4 ms of a demo layout (issue 29).
    Parsed once per process. WeasyPrint 70 (pinned), ``weasyprint/css/html5_ua.css``."""
    lines = weasyprint_html.UA.replace("\n::marker {", "\nli::marker {").splitlines()
    unused = ("::footnote-call", "::footnote-marker", "::note-call", "::note-marker")
    kept = [
        line
        for line in lines
        if not line.startswith((*unused, "::note-callback", *_NEVER_IN_A_PROPOSAL))
    ]
    # its @counter-style rules land in a throwaway registry: each render starts from WeasyPrint's
    # own (``HTML._ua_counter_style``), which already holds them
    return CSS(string="\n".join(kept), counter_style=CounterStyle())


_USER_AGENT_CSS = _lean_user_agent_css()
use_proposal_deflate_level()  # before any proposal is written
resolve_inline_lengths_once()  # before any proposal is laid out
remember_line_fonts_once()  # before any proposal is laid out
remember_plain_backgrounds_once()  # before any proposal is laid out
keep_layouts_until_drawn_once()  # before any proposal is laid out
keep_page_references_once()  # before any PDF is written
cache_character_patterns()  # before any proposal is parsed


class _ProposalHTML(HTML):
    """A proposal's HTML, styled with :func:`_lean_user_agent_css` as its defaults."""

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return [_USER_AGENT_CSS]


_fonts = threading.local()


def _font_config() -> FontConfiguration:
    """This thread's font configuration, kept from one render to the next.

    Left to itself WeasyPrint builds one per render: it loads fontconfig's configuration and
    font list again (``FcInitLoadConfigAndFonts``), opens each font again in a new Pango font
    map, and starts with an empty cache of line heights (``strut_layouts``). Keeping it, the
    PDF is byte for byte the same and a demo render took up to 0.3 s less CPU (within the noise
    in some runs on a busy machine: docs/load-results.md, issue 29). One per thread, made on first use: a Pango font map is not for two threads at
    once, and a process forked after import (Celery's pool) makes its own. A proposal has no
    ``@font-face``, so the configuration holds the system's fonts only and does not grow."""
    config = getattr(_fonts, "config", None)
    if config is None:
        config = _fonts.config = FontConfiguration()
    return config


def lay_out(html: str) -> Document:
    """WeasyPrint's layout of ``html`` (its pages) with the proposal's stylesheet, through the
    locked-down fetcher."""
    try:
        return _ProposalHTML(
            string=html, base_url=BASE_URL, url_fetcher=ProposalURLFetcher()
        ).render(font_config=_font_config(), stylesheets=[proposal_stylesheet()])
    except FatalURLFetchingError as exc:  # a BaseException: turn it into an ordinary error
        raise BlockedResource(str(exc)) from None


def _finish(
    document: Document, html: str, fill: list[float] | None = None, layouts: int = 1
) -> RenderedPdf:
    """Write a laid-out proposal as a PDF and check what was laid out."""
    try:
        pdf = document.write_pdf(**PDF_OPTIONS)
    except FatalURLFetchingError as exc:
        raise BlockedResource(str(exc)) from None
    finally:
        forget_styles()  # its styles are done with: drawing was the last to ask of them
    findings = tuple(check_proposal(html=html, pages=document.pages))
    return RenderedPdf(
        pdf=pdf,
        page_count=len(document.pages),
        findings=findings,
        page_fill=tuple(fill if fill is not None else page_fill(document.pages)),
        layouts=layouts,
    )


# --- context ----------------------------------------------------------------------------------


def headline(result: StoredResult) -> dict[str, Any]:
    """The executive-summary box: one line per element of the recommended configuration."""
    network = result.section("network")
    storage = result.section("storage")
    best = result.recommended_cost
    if network.get("nic_gbps"):
        network_text = (
            f"{network.get('technology')}, {network.get('nics_per_node', 1)} × "
            f"{format_number(network['nic_gbps'])} Gb/s per server, {fabric_bought(result)}"
        )
    else:
        network_text = str(network.get("fabric") or NO_VALUE)
    network_text = owned_network_sentence(result) or network_text  # theirs, when it runs on it
    return {
        "accelerator": result.accelerator_name or NO_VALUE,
        "gpus": result.gpus,
        "nodes": result.nodes,
        "gpus_per_node": result.gpus_per_node,
        "network": network_text or NO_VALUE,
        "storage": (
            f"{format_quantity(storage.get('total_capacity_tb'), 'TB')} total, "
            f"{format_quantity(storage.get('read_gb_per_s'), 'GB/s')} read, "
            f"{format_quantity(storage.get('checkpoint_write_gb_per_s'), 'GB/s')} checkpoint write"
        )
        if storage
        else NO_VALUE,
        "wall_clock_days": result.wall_clock_days,
        **_ranges(result),
        # The recommended option's net figure and likely range (never the low of one option
        # with the high of another): the same figures as the cost page's.
        "cost_option": best.label if best else "",
        "cost_total": best.net_usd if best else None,
        "cost_low": best.low_usd if best else None,
        "cost_high": best.high_usd if best else None,
        "cost_total_text": money_of(result)(best.net_usd) if best else "",
        "cost_low_text": money_of(result)(best.low_usd) if best else "",
        "cost_high_text": money_of(result)(best.high_usd) if best else "",
        "years": result.years,
    }


def _ranges(result: StoredResult) -> dict[str, str]:
    """The headline figures' ranges and what backs them, in words ("" for older results)."""
    days, hours = result.wall_clock_days_range, result.gpu_hours_range
    run_cost, run_cost_range = result.one_run_cloud_usd, result.one_run_cloud_range_usd
    sure = result.confidence
    return {
        "days_text": format_number(result.wall_clock_days),
        "days_range_text": format_range(*days, "days") if days else "",
        "gpus_needed_text": gpus_needed(result),
        "gpu_hours_text": format_number(result.gpu_hours),
        "gpu_hours_range_text": format_range(*hours) if hours else "",
        "run_cost_label": output_label_and_unit("one_run_cloud_usd")[0],
        "run_cost_text": money_of(result)(run_cost) if run_cost is not None else "",
        "run_cost_range_text": money_of(result).range(*run_cost_range) if run_cost_range else "",
        "backing_text": backing(result),
        "confidence_summary": sure.summary if sure else "",
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
    ("parallelism", "How the work is split", ("parallelism", "batch.global_batch_tokens")),
    ("cluster", "Accelerators and servers", ("hardware", "schedule.concurrent_jobs")),
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
    ("hosts", "CPU and RAM", ("data.preprocessing",)),
    (
        "resilience",
        "Checkpoints and failures",
        ("resilience", "storage.checkpoint_minutes_max"),
    ),
    ("deployment", "Where it runs, power and security", ("deployment", "software")),
)
# The answers behind the cost chapter (told back there, like an area's).
COST_FIELDS = ("roadmap", "prices")
# Figures in engineering terms (ZeRO, micro-batches, MFU, FLOPs, NVMe, PCIe, Slurm) that a
# customer who told us no one knows the set-up never needs to read: their proposal leaves them
# to "What we assumed" and the appendices, which an engineer reads.
ENGINEERS_FIGURES = frozenset(
    {
        "training_flops",
        "assumed_mfu",
        "peak_tflops",
        "tokens_per_s",
        "step_time_s",
        "zero_stage",
        "recompute",
        "virtual_pipeline_stages",
        "tensor",
        "pipeline",
        "data",
        "expert",
        "local_nvme_tb_per_node",
        "pcie_generation",
        "scheduler",
    }
)


def _told_partial(key: str) -> str:
    """The "what you told us" partial of an area, when one exists (``reports/told/<key>.html``)."""
    name = f"reports/told/{key}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return ""
    return name


def _told(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Rows under "What you told us", each naming its source only when the customer did not
    give the value themselves ("worked out from your answers"): the heading says the rest."""
    told = SOURCES["customer"]
    return [(label, value, "" if source == told else source) for label, value, source in rows]


# Assumptions only an engineer reads (the model's inner shape, the adapters' layers, the
# share of a step spent communicating): the plain proposal leaves them to our engineer.
ENGINEERS_ASSUMPTIONS = frozenset(
    {
        "model.shape",
        "model.vocab_size",
        "model.active_params",
        "training.lora_rank",
        "training.lora_targets",
        "network.max_comm_share",
    }
)


def _plain_assumptions(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The assumptions of a customer who told us no one knows the set-up, in plain words."""
    return [
        {
            **row,
            "label": plain_label(row["key"], row["label"]),
            "value": plainly(row["value"]),
            "rationale": plainly(row["rationale"] or ""),
            "source": plainly(row["source"]),
        }
        for row in rows
        if row["key"] not in ENGINEERS_ASSUMPTIONS
    ]


def _plain_prices(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The prices in plain words: where each was published is an engineer's reading (the
    account manager sends the list), but our own assumption says why in plain words."""
    return [
        {
            **row,
            "item": plainly(row["item"]),
            "source": plainly(row["source"]) if row["flag"] == "our assumption" else "",
        }
        for row in rows
    ]


def _plain_summary(
    summary: dict[str, Any], result: StoredResult, engine_input: dict[str, Any]
) -> dict[str, Any]:
    """The summary's sentences in plain words: its reasons for the size ("LoRA trains only
    small adapters, so one node is enough", the tokens read as the samples they counted), why
    this option, how sure we are and what to decide next."""
    samples = (engine_input.get("data") or {}).get("samples")
    epochs = next((a.value for a in result.assumptions if a.key == "data.epochs"), None)
    return {
        **summary,
        "drivers": [plain_driver(line, samples, epochs) for line in summary["drivers"]],
        "why": [plainly(line) for line in summary["why"]],
        "decisions": [plainly(line) for line in summary["decisions"]],
        "backing": plainly(summary["backing"]),
    }


def _plain_lines(lines: list[str], *, plain: bool) -> list[str]:
    return [plainly(line) for line in lines] if plain else lines


def _plain_bill(bill: dict[str, Any]) -> dict[str, Any]:
    """The bill of materials in plain words: its servers, network and drives."""
    return {
        **bill,
        "rented": plainly(str(bill.get("rented") or "")),
        "racks": plainly(str(bill.get("racks") or "")),
        "lines": [
            {**line, "item": plainly(str(line["item"])), "what": plainly(str(line["what"]))}
            for line in bill.get("lines") or []
        ],
    }


def build_context(data: ProposalData) -> dict[str, Any]:
    # the engine's own sentences credit whoever set each value (an engineer's override)
    result = credited(read_result(data.result), data.input_sources)
    sources = answer_trace.customer_sources(data.answers, data.input_sources)

    def own(path: str) -> str | None:
        return answer_trace.own_answer(path, data.answers)

    plain = setup_unknown(data.answers)
    sections = []
    for key, title, fields in AREAS:
        section = dict(result.section(key))
        if key == "cluster" and section.get("gpus_per_node"):
            # the server bought or rented, as every other page says it: one of the plan's size
            # when the plan fills only part of one
            section["gpus_per_node"] = read_counts(result).server_size
        figures = figure_rows(key, section)
        if key == "cluster":
            figures += figure_rows("concurrency", dict(result.section("concurrency")))
        if plain:
            figures = [row for row in figures if row[2] not in ENGINEERS_FIGURES]
        split_plainly = plain and key == "parallelism"
        if key == "deployment" and result.section(key).get("recommended_model") == "cloud":
            figures = []  # the provider's racks and power: nothing for the customer to plan
        if key == "hosts" and owned_hosts_sentence(result):
            figures = []  # their own servers came with their hosts: nothing to size or buy
        if key == "network" and not result.section(key).get("nic_gbps"):
            figures = []  # each run fits one server: no "0 Gb/s" rows under "no fabric needed"
        sections.append(
            {
                "key": key,
                "anchor": f"area-{key}",
                "title": title,
                "told": _told(input_rows(data.engine_input, fields, sources, own)),
                "told_partial": _told_partial(key),
                "recommend": (
                    wording.plain_split_sentence(result)
                    if split_plainly
                    else wording.recommendation_sentence(key, result)
                ),
                "why": []
                if split_plainly
                else _plain_lines(
                    wording.why_sentences(key, result, data.input_sources, plain=plain)
                    + ([growth] if key == "network" and (growth := fabric_growth(result)) else []),
                    plain=plain,
                ),
                "figures": figures,
                "chart": _chart_for(key, result, data.engine_input),
                "told_answers": answer_trace.told_lines(key, data.answers, result),
            }
        )
    prices = price_rows(
        result,
        today=data.issued_on,
        region_given=bool(
            {"data_residency", "country"} & set(data.engine_input.get("deployment") or {})
        ),
    )
    return {
        "project_restated": project_from_answers(data.engine_input, data.input_sources or {}),
        "data": data,
        "headline": headline(result),
        "summary": _plain_summary(
            executive_summary(result, data.input_sources), result, data.engine_input
        )
        if plain
        else executive_summary(result, data.input_sources),
        "data_reading": data_reading(result),
        "sections": sections,
        "cost": cost_page(result),
        "cost_told": _told(input_rows(data.engine_input, COST_FIELDS, sources, own)),
        # The cost chapter's answers the engine input does not carry (question 15).
        "cost_section": {"told_answers": answer_trace.told_lines("cost", data.answers, result)},
        "cost_reasons": list(result.cost_reasons[2:]),
        "plain": plain,
        "bill": _plain_bill(bill_of_materials(result)) if plain else bill_of_materials(result),
        "terms": purchase_terms(result, data.issued_on),
        # until when the prices hold: the proposal's date plus the one setting (sizing.words)
        "validity": {
            "until": validity_words(data.issued_on),
            "sentence": validity_sentence(data.issued_on),
        },
        "accelerator_choice": accelerator_choice(result, data.input_sources),
        "alternatives": wording.alternative_rows(result),
        "alternatives_cost_heading": wording.alternatives_cost_heading(result),
        # a buyer compares the servers each accelerator needs, not only a cloud price
        "alternatives_bought": run_servers_usd(result) is not None,
        "excluded_accelerators": excluded_groups(result),
        "assumptions": (
            assumptions := _plain_assumptions(assumption_rows(result, sources))
            if plain
            else assumption_rows(result, sources)
        ),
        "assumptions_not_sure": any(row["not_sure"] for row in assumptions),
        "assumptions_delegated": any(row["delegated"] for row in assumptions),
        "prices": _plain_prices(prices) if plain else prices,
        "open_questions": answer_trace.open_questions(
            answers=data.answers, result=result, today=data.issued_on
        ),
        "risks": risk_rows(
            result, data.input_sources, needed_by=needed_by(data.answers), today=data.issued_on
        ),
        "warnings": result.warnings,
        # the constants' sources are an engineer's reading: the plain proposal points to them
        "method": [] if plain else method_rows(result, data.engine_input),
    }


def glossary_for(html: str) -> list[Any]:
    """The glossary terms the proposal uses: a term's name (or its bracketed short form, or a
    part of an "A and B" name) as a whole word, plural or not ("processor" is not RoCE)."""
    text = html.lower()
    used = []
    for term in GLOSSARY.values():
        names = [n.strip().lower() for n in term.name.replace(")", "").split("(")]
        names += [n.strip() for n in names[0].split(" and ")] if " and " in names[0] else []
        # "Precision (FP32, BF16, FP8)" is named by each of its forms; "also" by its other words
        names += [p.strip() for n in names for p in re.split(r",| and ", n) if "," in n]
        names += list(term.also)
        if any(n and _uses_word(text, n) for n in names):
            used.append(term)
    return sorted(used, key=lambda term: term.name.lower())


def _uses_word(text: str, name: str) -> bool:
    """Whether ``name`` is in ``text`` as a whole word, plural or not: not preceded nor
    followed by a letter a-z or a digit. The name is searched for first and the character
    before it checked after: a look-behind at the start of the pattern made the search try it
    at every place of the proposal's 80 KB, 90 ms of each render."""
    pattern = _name_then_word_end(name)
    match = pattern.search(text)
    while match:
        start = match.start()
        if start == 0 or text[start - 1] not in _WORD_CHARACTERS:
            return True
        match = pattern.search(text, start + 1)
    return False


_WORD_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)


@functools.cache
def _name_then_word_end(name: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(name)}(?:s|es)?(?![a-z0-9])")


def glossary_columns(terms: list[Any], count: int = 3) -> list[list[Any]]:
    """The glossary split, in order, into ``count`` columns of about equal length (by the
    characters of each entry). Laid out as columns of a fixed table: WeasyPrint balances CSS
    columns by laying them out again and again, and sizes grid tracks by measuring every
    entry (about a second of each render)."""
    sizes = [len(t.name) + len(t.definition) + _ENTRY_OVERHEAD_CHARS for t in terms]
    target = sum(sizes) / count
    columns: list[list[Any]] = [[]]
    filled = 0.0
    for term, size in zip(terms, sizes, strict=True):
        # Start the next column when this entry would take the current one further past its
        # share than stopping short of it does.
        if len(columns) < count and filled + size / 2 > target * len(columns):
            columns.append([])
        columns[-1].append(term)
        filled += size
    return columns


# An entry's name line and spacing, as characters of definition text (estimated).
_ENTRY_OVERHEAD_CHARS = 60


def timeline_chart_of(result: StoredResult, engine_input: dict[str, Any]) -> SafeString:
    """One run's wall-clock days against the number of accelerators, as the compute chapter
    draws it (the review and confirmation pages show the same chart)."""
    # A size that does not fit in memory cannot run: it has no time to draw.
    points = [
        (o.get("gpus"), o.get("wall_clock_days"))
        for o in result.timeline_options
        if o.get("fits", True)
    ]
    deadline = result.deadline_days or (engine_input.get("schedule") or {}).get("deadline_days")
    return charts.timeline_chart(
        points, deadline_days=deadline, recommended_gpus=result.gpus_per_job
    )


def _chart_for(key: str, result: StoredResult, engine_input: dict[str, Any]):
    if key == "compute":
        return timeline_chart_of(result, engine_input)
    if key == "memory":
        memory = result.section("memory")
        return charts.memory_chart(
            memory.get("breakdown_gb") or {}, usable_gb=memory.get("usable_gpu_gb")
        )
    return ""
