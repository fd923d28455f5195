"""Reading the discovery sentence ("What do you want to train, in one sentence?") into answers.

A customer often says in one sentence most of what the questions ask: "LoRA adapters on an 8B
model, 200 million tokens, retrained every week. NVIDIA only. Data must stay in Germany." This
reader finds those figures and rules with fixed patterns (no outside service, no model, the
same answer for the same words every time) and says what it found the way a file's reader does
(:class:`~questionnaire.prefill.found.Found`), so the sentence goes through the same check page,
the same forms and the same merge as a file (``changes.py``): nothing is saved before the
customer confirms, and every value is checked by the question's own form.

What it reads, and into which answer:

* a catalog model's name ("Llama 3.1 8B", "Mixtral 8x7B"), a size ("34B", "120B dense"), a
  mixture of experts, its active parameters, its experts and the experts each token uses
  ("30B mixture-of-experts model (3B active, 64 experts, 8 per token)") → question 1;
* the method ("LoRA adapters", "fully fine-tune", "continued pre-training", "pre-train"; the
  first one named, as the first phase) → question 2;
* the data: tokens ("30 billion tokens"), or samples ("about 50,000 past tickets") and tokens
  each → question 4;
* the time for a run ("within three weeks", "within 45 days", "within a semester") and how
  often it runs ("retrained every week") → question 5; "as fast as we can" → what matters most;
* a maker rule ("NVIDIA only"; two makers named, "AMD preferred, NVIDIA acceptable") and custom
  CUDA kernels → question 8;
* where the data must stay ("Data must stay in Germany"), the country of the site (a data-centre
  city such as "Frankfurt"), "no shared tenancy", "air-gapped", on-premises, renting beside
  what they own ("we would rent extra only if we must": a mix), what they already own ("We own
  two DGX A100 servers ...", read by ``sizing.owned_reading``), the power ("2 MW") and a budget
  ceiling ("at most $40 million") → question 14 (``sentence_site.py``);
* that no one knows the set-up ("No idea about models or GPUs") → the short path, unless they
  chose a path themselves.

Where it is unsure it reads nothing: a number of more than fifteen digits is no figure anyone
plans with, a maker named once with "preferred" is a preference rather than a rule, and a
sentence is read only up to ``MAX_SENTENCE_CHARACTERS``.
"""

from __future__ import annotations

import re

from questionnaire.forms.discovery import SETUP_RECOMMEND
from questionnaire.prefill.found import Found
from questionnaire.prefill.sentence_site import owned_clause, read_site
from questionnaire.prefill.sentence_words import (
    COUNT,
    NUMBER,
    SCALE,
    WORD_NUMBERS,
    find_all,
    said,
)
from sizing.public import MODEL_CATALOG

FORMAT_NAME = "your project sentence"
# The discovery field keeps 500 characters; a sentence posted around the form is cut here so
# that every pattern below runs in time proportional to at most this much text.
MAX_SENTENCE_CHARACTERS = 2000
# What "no idea about ..." must be about to mean that no one knows the training set-up.
_TRAINING_WORDS = (
    r"models?|gpus?|accelerators?|training|machine\s+learning|ml|ai|llms?|hardware|"
    r"fine[\s-]?tuning|infrastructure"
)
# --- question 1: the model ----------------------------------------------------------------------


def _catalog_patterns() -> list[tuple[re.Pattern[str], str]]:
    """Each catalog name and alias as a pattern that allows spaces, dashes or nothing between
    its parts ("Llama 3.1 8B", "llama-3.1-8b"), longest first."""
    patterns = []
    for spec in MODEL_CATALOG:
        for written in {spec.name, *spec.aliases}:
            parts = re.split(r"[\s\-_]+", written.strip().lower())
            body = r"[\s\-_]*".join(re.escape(part) for part in parts if part)
            patterns.append((len(body), body, spec.name))
    patterns.sort(key=lambda item: -item[0])
    return [
        (re.compile(rf"(?<![\w.]){body}(?![\w]|\.\d)", re.IGNORECASE), name)
        for _, body, name in patterns
    ]


_CATALOG = _catalog_patterns()


def _model(found: Found, text: str) -> list[tuple[int, int]]:
    """The catalog model, then a size, dense or MoE and the active parameters; returns the
    spans read as the model's name, so that its "8B" is not read again as a size."""
    taken: list[tuple[int, int]] = []
    for pattern, name in _CATALOG:
        match = pattern.search(text)
        if match:
            found.add("model", "model_name", name, said(match.group(0)))
            taken.append(match.span())
            break
    active = re.search(
        rf"({NUMBER})\s?({SCALE})\b\s*(?:parameters?\s+)?active\b", text, flags=re.IGNORECASE
    )
    if active:
        found.add("model", "active_params", f"{active[1]}{active[2]}", said(active[0]))
        taken.append(active.span())
    for size in find_all(
        rf"({NUMBER})\s?([BTM]|billion|trillion|million)\b(?!\s*(?:tokens?|samples?|dollars?|"
        rf"usd|eur|euros?|hours?|of\s+tokens))(?:[\s-]*param(?:eter)?s?\b)?",
        text,
        flags=0,
    ) + find_all(rf"({NUMBER})\s?(billion|million|trillion)[\s-]+param(?:eter)?s?\b", text):
        if any(start <= size.start() < end for start, end in taken):
            continue
        before = text[max(0, size.start() - 1) : size.start()]
        if before in "$€£" and before:
            continue
        unit = size[2] if len(size[2]) == 1 else f" {size[2].lower()}"
        found.add("model", "total_params", f"{size[1]}{unit}", said(size[0]))
        taken.append(size.span())
        break
    _routing(found, text)
    moe = re.search(
        r"mixture[\s-]+of[\s-]+experts|\bMoE\b|\b\d+\s+(?:routed\s+)?experts\b", text, re.I
    )
    dense = re.search(r"\bdense\b", text, re.I)
    if moe or active:
        what = moe[0] if moe else active[0] if active else ""
        found.add("model", "architecture", "moe", said(what))
    elif dense:
        found.add("model", "architecture", "dense", said(dense[0]))
    return taken


# "64 experts", "128 routed experts"; then the experts a token uses: "8 per token", "8 experts
# per token", "eight active experts per token", "top-8 routing", "2 of 8 experts".
_EXPERTS = re.compile(r"(?<![\d,.])(\d{1,5})\s+(?:routed\s+)?experts\b", re.IGNORECASE)
_PER_TOKEN = re.compile(
    rf"\b(?P<per>{COUNT})\s+(?:(?:active|routed)\s+)?(?:experts?\s+)?"
    rf"(?:per|each|for\s+each|for\s+every)\s+token\b"
    rf"|\btop[\s-]?(?P<top>\d{{1,5}})\b(?:\s+(?:routing|experts?|gating))?"
    rf"|\b(?P<of>{COUNT})\s+of\s+(?:the\s+|its\s+)?\d{{1,5}}\s+(?:routed\s+)?experts\b",
    re.IGNORECASE,
)


def _routing(found: Found, text: str) -> None:
    """A mixture of experts' experts and the experts each token is routed to, as question 1
    takes them; the experts per token only where they are not more than the experts."""
    experts = _EXPERTS.search(text)
    if experts is None or int(experts[1]) < 2:
        return
    found.add("model", "experts", experts[1], said(experts[0]))
    routed = _PER_TOKEN.search(text)
    if routed is None:
        return
    per_token = _count(routed["per"] or routed["top"] or routed["of"])
    if per_token is not None and per_token.is_integer() and 1 <= per_token <= int(experts[1]):
        found.add("model", "experts_per_token", str(int(per_token)), said(routed[0]))


# --- question 2: the method ---------------------------------------------------------------------

# Most specific first at one place ("continued pre-training" before "pre-training"); the first
# method named in the sentence is the first phase, the one sized.
_METHODS = (
    (r"\bq[\s-]?lora\b", "qlora"),
    (r"\blora\b", "lora"),
    (r"\bcontinu(?:ed|e|ing)\s+(?:the\s+)?pre[\s-]?train(?:ing|ed)?\b", "continued_pretrain"),
    (r"\bfull(?:y)?[\s-]+fine[\s-]?tun(?:e|ed|ing)\b", "full_finetune"),
    (r"\bfull[\s-]+parameter\s+fine[\s-]?tun(?:e|ed|ing)\b", "full_finetune"),
    (r"\bpre[\s-]?train(?:ing|ed)?\b|\bfrom\s+scratch\b", "pretrain"),
    (r"\b(?:adapters?|peft|parameter[\s-]efficient)\b", "other_peft"),
    (r"\bfine[\s-]?tun(?:e|ed|ing)\b", "finetune_unsure"),
)


def _method(found: Found, text: str) -> None:
    named = [
        (match.start(), -len(match[0]), choice, match[0])
        for pattern, choice in _METHODS
        for match in find_all(pattern, text)
    ]
    if named:
        _, _, choice, words = min(named)
        found.add("method", "method", choice, said(words))


# --- question 4: the data -----------------------------------------------------------------------

_SAMPLE_NOUNS = (
    "documents|docs|tickets|samples|examples|records|conversations|dialogues|chats|emails|"
    "messages|transcripts|images|pictures|photos|clips|videos|files|pages|articles|reports|"
    "pairs|questions|rows|recordings|papers|contracts|claims|notes"
)
# A word between the number and its noun ("50,000 past tickets"), never one that makes it a
# rate or a share ("8 per token").
_ONE_WORD = r"(?:(?!(?:per|each|every|a|an|of|the|in|on|for)\b)[a-z][a-z-]*\s+)?"


def _data(found: Found, text: str) -> None:
    per_sample = re.search(
        rf"({NUMBER})\s?({SCALE})?\s*tokens?\s+(?:each|per|a|on\s+average)\b", text, re.I
    )
    tokens = [
        match
        for match in find_all(rf"({NUMBER})\s?({SCALE})?\s+{_ONE_WORD}tokens?\b", text)
        if not per_sample or match.start() != per_sample.start()
    ]
    samples = find_all(rf"({NUMBER})\s?({SCALE})?\s+{_ONE_WORD}(?:{_SAMPLE_NOUNS})\b", text)
    if tokens:
        match = tokens[0]
        found.add("data", "dataset_size", _number_text(match[1], match[2]), said(match[0]))
        found.add("data", "dataset_unit", "tokens", said(match[0]))
    elif samples:
        match = samples[0]
        found.add("data", "dataset_size", _number_text(match[1], match[2]), said(match[0]))
        found.add("data", "dataset_unit", "samples", said(match[0]))
        if per_sample:
            found.add(
                "data",
                "tokens_per_sample",
                _number_text(per_sample[1], per_sample[2]),
                said(per_sample[0]),
            )


def _number_text(digits: str, scale: str | None) -> str:
    if not scale:
        return digits
    return f"{digits}{scale}" if len(scale) <= 2 else f"{digits} {scale.lower()}"


# --- question 5: time and how often -------------------------------------------------------------

_UNIT = r"(?:hours?|days?|weeks?|months?|years?)"
# Periods people name that the duration field reads once written in its units.
_PERIODS = {
    "semester": "4 months",  # an academic term of 15 to 18 weeks: about four months
    "term": "4 months",
    "quarter": "3 months",
    "fortnight": "2 weeks",
    "weekend": "2 days",
    "week": "1 week",
    "month": "1 month",
    "day": "1 day",
    "year": "12 months",
}
_AMOUNT = rf"(?:about\s+|around\s+|roughly\s+)?(?:{COUNT}|a\s+few|a\s+couple\s+of)\s+{_UNIT}"
_PERIOD = rf"(?:a|an|one|the|this|next)\s+(?P<period>{'|'.join(_PERIODS)})\b"
_RUN_TIME = (
    rf"\b(?:within|in\s+under|in\s+less\s+than|in\s+at\s+most|no\s+longer\s+than|"
    rf"(?:finish(?:es|ed)?|done|complete[ds]?|take[s]?|ready|run[s]?)\s+(?:in|within))\s+"
    rf"(?P<when>{_AMOUNT}|{_PERIOD})"
)
_PER_RUN = rf"(?P<when>{_AMOUNT})\s+(?:per|a|each)\s+run\b"
_AS_FAST = r"\bas\s+(?:fast|quickly|soon)\s+as\s+(?:we\s+can|possible)\b|\basap\b"
# Runs a month for each period, on an average month (52 weeks / 12, 12 months / 4, / 12).
_RUNS_A_MONTH = {
    "day": 30.0,
    "week": 52 / 12,
    "fortnight": 26 / 12,
    "month": 1.0,
    "quarter": 1 / 3,
    "year": 1 / 12,
}
_ADVERBS = {
    "daily": "day",
    "nightly": "day",
    "weekly": "week",
    "fortnightly": "fortnight",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
    "annually": "year",
}


# "results within 10 weeks" is a date for the results, not the time of one run: not read as one.
_NOT_A_RUN = r"\b(?:results?|answers?|demo|review|deadline|launch|decision)\s+(?:\w+\s+)?$"


def _timeline(found: Found, text: str) -> None:
    per_run = re.search(_PER_RUN, text, re.I)
    overnight = re.search(r"\bruns?\b[^.;]{0,40}?\bovernight\b", text, re.I)
    within = [
        match
        for match in re.finditer(_RUN_TIME, text, re.I)
        if not re.search(_NOT_A_RUN, text[max(0, match.start() - 30) : match.start()], re.I)
    ]
    if per_run or within:
        run = per_run or within[0]
        period = run.groupdict().get("period")
        when = _PERIODS[period.lower()] if period else " ".join(run["when"].split())
        found.add("timeline", "run_time_hours", when, said(run[0]))
    elif overnight:
        found.add("timeline", "run_time_hours", "overnight", said(overnight[0]))
    fast = re.search(_AS_FAST, text, re.I)
    if fast:
        found.add("discovery", "constraint", "time", said(fast[0]), guessed=True)
    often = re.search(
        rf"\b(?P<count>{COUNT})\s+(?:runs?\s+|times\s+)?(?:a|per|each|every)\s+"
        rf"(?P<period>{'|'.join(_RUNS_A_MONTH)})\b"
        rf"|\b(?:every|each)\s+(?P<every>{'|'.join(_RUNS_A_MONTH)})\b"
        rf"|\b(?P<adverb>{'|'.join(_ADVERBS)})\b",
        text,
        re.I,
    )
    if often:
        period = (
            often["period"] or often["every"] or _ADVERBS.get((often["adverb"] or "").lower(), "")
        ).lower()
        count = _count(often["count"]) if often["count"] else 1
        if period and count:
            runs = count * _RUNS_A_MONTH[period]
            found.add("timeline", "runs_per_month", _short(runs), said(often[0]))


def _count(written: str) -> float | None:
    word = written.lower()
    if word in WORD_NUMBERS:
        return float(WORD_NUMBERS[word])
    try:
        return float(word.replace(",", ""))
    except ValueError:  # pragma: no cover - the pattern only lets numbers through
        return None


def _short(value: float) -> str:
    """A rate as a person writes it: 4.3, 1, 0.33."""
    return f"{value:.2g}" if value < 1 else f"{value:.1f}".removesuffix(".0")


# --- question 8: makers -------------------------------------------------------------------------

_MAKERS = {"nvidia": "nvidia", "amd": "amd", "intel": "intel"}
_MAKER = r"\b(?P<maker>nvidia|amd|intel)\b"


# Accelerators named as a preference ("AMD MI325X preferred", "we prefer H200"), as the
# catalog keys question 8's preferred accelerator offers.
_PARTS = {
    "h100": "h100-sxm",
    "h200": "h200",
    "b200": "b200",
    "mi300x": "mi300x",
    "mi325x": "mi325x",
    "gaudi3": "gaudi3",
    "a100": "a100-80gb",
    "l40s": "l40s",
}
_PART_NAMES = r"h100|h200|b200|mi300x|mi325x|gaudi\s?3|a100|l40s"


def _part(group: str) -> str:
    return rf"\b(?P<{group}>{_PART_NAMES})\b"


def _software(found: Found, text: str) -> None:
    named = {_MAKERS[m["maker"].lower()]: m for m in reversed(find_all(_MAKER, text))}
    only = re.search(
        r"\b(?P<maker>nvidia|amd|intel)(?:\s+[\w-]+){0,2}?\s+only\b"
        r"|\bonly\s+(?:[\w-]+\s+)?(?P<after>nvidia|amd|intel)\b",
        text,
        re.I,
    )
    if only and len(named) == 1:
        maker = _MAKERS[(only["maker"] or only["after"]).lower()]
        found.add("software", "accelerator_vendor", f"{maker}_only", said(only[0]))
    elif set(named) == {"nvidia", "amd"}:
        first, second = sorted(named.values(), key=lambda m: m.start())
        clause_end = re.search(r"[.;!?(]|$", text[second.end() :])
        stop = second.end() + (clause_end.start() if clause_end else 0)
        found.add("software", "accelerator_vendor", "amd_ok", said(text[first.start() : stop]))
    preferred = re.search(
        rf"(?:\bprefer(?:ably|red)?\s+(?:the\s+)?(?:(?:nvidia|amd|intel)\s+)?{_part('part')}"
        rf"|{_part('part2')}\s+(?:is\s+|are\s+)?preferred\b)",
        text,
        re.I,
    )
    if preferred:
        part = (preferred["part"] or preferred["part2"]).lower().replace(" ", "")
        found.add("software", "preferred_accelerator", _PARTS[part], said(preferred[0]))
    kernels = re.search(r"\bcustom\s+(?:cuda\s+|gpu\s+|triton\s+)?kernels?\b", text, re.I)
    if kernels:
        found.add("software", "custom_kernels", "yes", said(kernels[0]))


# --- the path: no one knows the set-up ----------------------------------------------------------

# "No idea about models or GPUs", "we know nothing about training": no one on the team knows the
# set-up, so the short path, where we recommend it. Never over an answer they chose themselves.
_ABOUT_TRAINING = (
    rf"(?:\w+\s+){{0,2}}?(?:{_TRAINING_WORDS})\b(?:\s+(?:or|and|nor)\s+(?:{_TRAINING_WORDS})\b)?"
)
_NOVICE = (
    rf"\bno\s+(?:idea|clue|experience)\s+(?:about|of|with|in)\s+{_ABOUT_TRAINING}"
    rf"|\bknows?\s+(?:nothing|little)\s+(?:about|of)\s+{_ABOUT_TRAINING}"
    rf"|\b(?:don[\'’]?t|do\s+not)\s+know\s+(?:anything\s+)?(?:about\s+)?{_ABOUT_TRAINING}"
    rf"|\bnew\s+to\s+{_ABOUT_TRAINING}"
)


def _path(found: Found, text: str) -> None:
    novice = re.search(_NOVICE, text, re.I)
    if novice:
        found.add("discovery", "setup_known", SETUP_RECOMMEND, said(novice[0]), guessed=True)


# --- the whole sentence -------------------------------------------------------------------------


def read_sentence(text: str) -> Found:
    """Everything the sentence says that a question asks, as proposed answers.

    Each value is written as a customer types it on the question ("34B", "three weeks",
    "$40 million"); the question's own form reads it when the customer confirms."""
    found = Found(FORMAT_NAME)
    text = " ".join((text or "")[:MAX_SENTENCE_CHARACTERS].split())
    if not text:
        return found
    owned = owned_clause(text)
    # What they own is no part of the model or the data ("We own 512 H100 already"): blanked,
    # positions kept.
    about_work = (
        text
        if owned is None
        else text[: owned.start] + " " * (owned.end - owned.start) + text[owned.end :]
    )
    _model(found, about_work)
    _method(found, about_work)
    _data(found, about_work)
    _timeline(found, text)
    _software(found, text)
    _path(found, text)
    read_site(found, text, owned)
    return found
