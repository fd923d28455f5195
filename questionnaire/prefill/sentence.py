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
  mixture of experts and its active parameters ("30B mixture-of-experts model (3B active)")
  → question 1;
* the method ("LoRA adapters", "fully fine-tune", "continued pre-training", "pre-train"; the
  first one named, as the first phase) → question 2;
* the data: tokens ("30 billion tokens"), or samples ("about 50,000 past tickets") and tokens
  each → question 4;
* the time for a run ("within three weeks", "within 45 days", "within a semester") and how
  often it runs ("retrained every week") → question 5; "as fast as we can" → what matters most;
* a maker rule ("NVIDIA only"; two makers named, "AMD preferred, NVIDIA acceptable") and custom
  CUDA kernels → question 8;
* where the data must stay ("Data must stay in Germany"), the country of the site (a data-centre
  city such as "Frankfurt"), "no shared tenancy", "air-gapped", on-premises, what they already
  own ("We own two DGX A100 servers ...", read by ``sizing.owned_reading``), the power ("2 MW")
  and a budget ceiling ("at most $40 million") → question 14.

Where it is unsure it reads nothing: a number of more than fifteen digits is no figure anyone
plans with, a maker named once with "preferred" is a preference rather than a rule, and a
sentence is read only up to ``MAX_SENTENCE_CHARACTERS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from questionnaire.prefill.found import Found
from sizing.public import (
    DEFAULT_PLACE,
    MODEL_CATALOG,
    OwnedNotUnderstood,
    place_of,
    read_owned,
)

FORMAT_NAME = "your project sentence"
# The discovery field keeps 500 characters; a sentence posted around the form is cut here so
# that every pattern below runs in time proportional to at most this much text.
MAX_SENTENCE_CHARACTERS = 2000
# A figure of more digits than this is no plan's (the largest budget or token count anyone
# writes has twelve or thirteen); longer runs of digits are not read as numbers at all.
_MAX_DIGITS = 15

_N = rf"(?<![\d,.])(?:\d{{1,3}}(?:,\d{{3}})+|\d{{1,{_MAX_DIGITS}}})(?:\.\d{{1,6}})?(?![\d,]\d)"
_WORD_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "once": 1,
    "twice": 2,
}
_COUNT = rf"(?:{_N}|{'|'.join(sorted(_WORD_NUMBERS, key=len, reverse=True))})"
_SCALE = r"(?:thousand|million|billion|trillion|[kKmMbBtT]n?)"


def _said(fragment: str) -> str:
    """Where a value came from, in the words of the check page (a capital: shown as words)."""
    return f"Your words “{' '.join(fragment.split())}”"


@dataclass(frozen=True)
class _Match:
    start: int
    end: int
    text: str


def _find(pattern: str, text: str, flags: int = re.IGNORECASE) -> list[re.Match[str]]:
    return list(re.finditer(pattern, text, flags))


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
            found.add("model", "model_name", name, _said(match.group(0)))
            taken.append(match.span())
            break
    active = re.search(
        rf"({_N})\s?({_SCALE})\b\s*(?:parameters?\s+)?active\b", text, flags=re.IGNORECASE
    )
    if active:
        found.add("model", "active_params", f"{active[1]}{active[2]}", _said(active[0]))
        taken.append(active.span())
    for size in _find(
        rf"({_N})\s?([BTM]|billion|trillion|million)\b(?!\s*(?:tokens?|samples?|dollars?|"
        rf"usd|eur|euros?|hours?|of\s+tokens))(?:[\s-]*param(?:eter)?s?\b)?",
        text,
        flags=0,
    ) + _find(rf"({_N})\s?(billion|million|trillion)[\s-]+param(?:eter)?s?\b", text):
        if any(start <= size.start() < end for start, end in taken):
            continue
        before = text[max(0, size.start() - 1) : size.start()]
        if before in "$€£" and before:
            continue
        unit = size[2] if len(size[2]) == 1 else f" {size[2].lower()}"
        found.add("model", "total_params", f"{size[1]}{unit}", _said(size[0]))
        taken.append(size.span())
        break
    moe = re.search(r"mixture[\s-]+of[\s-]+experts|\bMoE\b|\b\d+\s+experts\b", text, re.I)
    dense = re.search(r"\bdense\b", text, re.I)
    if moe or active:
        what = moe[0] if moe else active[0] if active else ""
        found.add("model", "architecture", "moe", _said(what))
    elif dense:
        found.add("model", "architecture", "dense", _said(dense[0]))
    return taken


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
        for match in _find(pattern, text)
    ]
    if named:
        _, _, choice, words = min(named)
        found.add("method", "method", choice, _said(words))


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
        rf"({_N})\s?({_SCALE})?\s*tokens?\s+(?:each|per|a|on\s+average)\b", text, re.I
    )
    tokens = [
        match
        for match in _find(rf"({_N})\s?({_SCALE})?\s+{_ONE_WORD}tokens?\b", text)
        if not per_sample or match.start() != per_sample.start()
    ]
    samples = _find(rf"({_N})\s?({_SCALE})?\s+{_ONE_WORD}(?:{_SAMPLE_NOUNS})\b", text)
    if tokens:
        match = tokens[0]
        found.add("data", "dataset_size", _number_text(match[1], match[2]), _said(match[0]))
        found.add("data", "dataset_unit", "tokens", _said(match[0]))
    elif samples:
        match = samples[0]
        found.add("data", "dataset_size", _number_text(match[1], match[2]), _said(match[0]))
        found.add("data", "dataset_unit", "samples", _said(match[0]))
        if per_sample:
            found.add(
                "data",
                "tokens_per_sample",
                _number_text(per_sample[1], per_sample[2]),
                _said(per_sample[0]),
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
_AMOUNT = rf"(?:about\s+|around\s+|roughly\s+)?(?:{_COUNT}|a\s+few|a\s+couple\s+of)\s+{_UNIT}"
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
        found.add("timeline", "run_time_hours", when, _said(run[0]))
    elif overnight:
        found.add("timeline", "run_time_hours", "overnight", _said(overnight[0]))
    fast = re.search(_AS_FAST, text, re.I)
    if fast:
        found.add("discovery", "constraint", "time", _said(fast[0]), guessed=True)
    often = re.search(
        rf"\b(?P<count>{_COUNT})\s+(?:runs?\s+|times\s+)?(?:a|per|each|every)\s+"
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
            found.add("timeline", "runs_per_month", _short(runs), _said(often[0]))


def _count(written: str) -> float | None:
    word = written.lower()
    if word in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[word])
    try:
        return float(word.replace(",", ""))
    except ValueError:  # pragma: no cover - the pattern only lets numbers through
        return None


def _short(value: float) -> str:
    """A rate as a person writes it: 4.3, 1, 0.33."""
    return f"{value:.2g}" if value < 1 else f"{value:.1f}".removesuffix(".0")


# --- question 8: makers -------------------------------------------------------------------------

_MAKERS = {"nvidia": "nvidia", "cuda": "nvidia", "amd": "amd", "rocm": "amd", "intel": "intel"}
_MAKER = r"\b(?P<maker>nvidia|amd|intel)\b"


def _software(found: Found, text: str) -> None:
    named = {_MAKERS[m["maker"].lower()]: m for m in reversed(_find(_MAKER, text))}
    only = re.search(
        r"\b(?P<maker>nvidia|amd|intel)(?:\s+[\w-]+){0,2}?\s+only\b"
        r"|\bonly\s+(?:[\w-]+\s+)?(?P<after>nvidia|amd|intel)\b",
        text,
        re.I,
    )
    if only and len(named) == 1:
        maker = _MAKERS[(only["maker"] or only["after"]).lower()]
        found.add("software", "accelerator_vendor", f"{maker}_only", _said(only[0]))
    elif set(named) == {"nvidia", "amd"}:
        first, second = sorted(named.values(), key=lambda m: m.start())
        clause_end = re.search(r"[.;!?(]|$", text[second.end() :])
        stop = second.end() + (clause_end.start() if clause_end else 0)
        found.add("software", "accelerator_vendor", "amd_ok", _said(text[first.start() : stop]))
    kernels = re.search(r"\bcustom\s+(?:cuda\s+|gpu\s+|triton\s+)?kernels?\b", text, re.I)
    if kernels:
        found.add("software", "custom_kernels", "yes", _said(kernels[0]))


# --- question 14: where, rules, what they own, power and budget ---------------------------------

# Data-centre cities people name instead of the country, with the country the site is priced in.
_CITIES = {
    "frankfurt": "Germany",
    "munich": "Germany",
    "berlin": "Germany",
    "hamburg": "Germany",
    "amsterdam": "the Netherlands",
    "paris": "France",
    "marseille": "France",
    "london": "the United Kingdom",
    "manchester": "the United Kingdom",
    "dublin": "Ireland",
    "stockholm": "Sweden",
    "zurich": "Switzerland",
    "geneva": "Switzerland",
    "oslo": "Norway",
    "copenhagen": "Denmark",
    "helsinki": "Finland",
    "warsaw": "Poland",
    "madrid": "Spain",
    "milan": "Italy",
    "vienna": "Austria",
    "brussels": "Belgium",
    "toronto": "Canada",
    "montreal": "Canada",
}
_STAY = (
    r"\b(?:stays?|remains?|be\s+kept|kept|resides?|be\s+stored|stored|be\s+hosted|hosted|"
    r"be\s+processed|processed)\s+(?:with)?in\s+(?P<where>[^.;:,()!?]{1,60})"
    r"|\b(?:not|never)\s+leave\s+(?P<where2>[^.;:,()!?]{1,60})"
)
# "UK and EU only", "Germany only": capitalised names joined by "and" or "or" (case matters).
_ONLY = r"\b(?P<where>[A-Z][\w]*(?:\s+(?:and|or|&)\s+[A-Z][\w]*)*)\s+only\b"
# "US region", "an EU region": where the cloud capacity runs.
_REGION = r"\b(?P<where>[A-Z][A-Za-z]+)\s+(?:cloud\s+)?region\b"


def _deployment(found: Found, text: str, owned: _OwnedClause | None) -> None:
    _where(found, text)
    for pattern, name, value in (
        (
            r"\bno\s+shared\s+tenancy\b|\bsingle[\s-]tenan(?:t|cy)\b|\bnot\s+shared\b|"
            r"\bno\s+sharing\b|\bdedicated\s+(?:hardware|servers?|capacity|nodes?)\b|"
            r"\bbare[\s-]metal\b",
            "dedicated",
            "yes",
        ),
        (
            r"\bair[\s-]?gapped\b|\bno\s+internet(?:\s+access)?\b|\bwithout\s+internet\b|"
            r"\boffline\s+only\b",
            "internet",
            "none",
        ),
        (
            r"\bon[\s-]prem(?:ise|ises)?\b|\bour\s+own\s+(?:data\s+cent(?:re|er)|server\s+room)\b",
            "location",
            "on_premises",
        ),
        (r"\bcolocation\b|\bco-location\b", "location", "colocation"),
    ):
        match = re.search(pattern, text, re.I)
        if match and not any(v.field == name for v in found.values):
            found.add("deployment", name, value, _said(match[0]))
    if owned is not None:
        found.add("deployment", "owned", owned.clause, _said(owned.said))
    power = re.search(rf"({_N})\s?(MW|kW|megawatts?|kilowatts?)\b", text, re.I)
    if power:
        found.add("deployment", "power_kw", f"{power[1]} {power[2]}", _said(power[0]))
    _budget(found, text)


def _where(found: Found, text: str) -> None:
    stays = [*re.finditer(_STAY, text, re.I), *re.finditer(_ONLY, text)]
    for match in sorted(stays, key=lambda m: m.start()):
        where = (match["where"] or match.groupdict().get("where2") or "").strip()
        if where and place_of(where) != DEFAULT_PLACE:
            found.add("deployment", "data_residency", where, _said(match[0]))
            break
    city = re.search(rf"\b(?P<city>{'|'.join(_CITIES)})\b", text, re.I)
    region = re.search(_REGION, text)
    if city:
        found.add("deployment", "country", _CITIES[city["city"].lower()], _said(city[0]))
    elif region and place_of(region["where"]) != DEFAULT_PLACE:
        found.add("deployment", "country", region["where"], _said(region[0]))


_OWN = r"\b(?:we|i)\s+(?:already\s+)?(?:own|have|operate|run)\b|\balready\s+own\b"
# Where the list of what they own ends: the sentence, or the start of what they want.
_OWN_END = r"[.;!?]|\s+(?:and|but|so)\s+(?:we\s+)?(?:want|would|need|plan|could|will|can|hope)\b"


@dataclass(frozen=True)
class _OwnedClause:
    start: int  # where what they own is named, after "we own"
    end: int
    clause: str  # as they wrote it, which question 14 reads back
    said: str


def _owned_clause(text: str) -> _OwnedClause | None:
    """The first "we own ..." that names catalog accelerators and a count, read by the
    engine's own reader of owned hardware ("We have about 50,000 past tickets" owns nothing)."""
    for own in re.finditer(_OWN, text, re.I):
        rest = text[own.end() :]
        end = re.search(_OWN_END, rest, re.I)
        stop = own.end() + (end.start() if end else len(rest))
        clause = text[own.end() : stop].strip(" ,")
        clause = re.sub(r"\s+already$", "", clause, flags=re.I)
        if not clause or len(clause) > 200:
            continue
        try:
            owned = read_owned(clause)
        except OwnedNotUnderstood:
            continue
        if owned is not None:
            return _OwnedClause(own.end(), stop, clause, text[own.start() : stop])
    return None


_MONEY = (
    rf"(?:US\$|\$|USD\s?)\s?(?P<a>{_N})\s?(?P<sa>thousand|million|billion|[kKmMbB]n?)?\b"
    rf"|(?P<b>{_N})\s?(?P<sb>thousand|million|billion|[kKmMbB]n?)?\s+(?:US\s+)?(?:dollars|USD)\b"
)


def _budget(found: Found, text: str) -> None:
    amounts = list(re.finditer(_MONEY, text))
    if not amounts:
        return
    ceilings = []
    for match in amounts:
        before = text[max(0, match.start() - 30) : match.start()]
        ceiling = re.search(
            r"(?:at\s+most|up\s+to|no\s+more\s+than|under|below|max(?:imum)?|budget(?:\s+of)?|"
            r"ceiling(?:\s+of)?|cap(?:\s+of)?|within)\s*(?:of\s+)?(?:about\s+)?$",
            before,
            re.I,
        )
        if ceiling:
            ceilings.append((match, before[ceiling.start() :] + match[0]))
    match, said = ceilings[0] if ceilings else (amounts[0], amounts[0][0])
    digits, scale = (match["a"], match["sa"]) if match["a"] else (match["b"], match["sb"])
    value = f"${digits}" + (f" {scale.lower()}" if scale and len(scale) > 2 else scale or "")
    found.add("deployment", "budget_usd", value, _said(said))


# --- the whole sentence -------------------------------------------------------------------------


def read_sentence(text: str) -> Found:
    """Everything the sentence says that a question asks, as proposed answers.

    Each value is written as a customer types it on the question ("34B", "three weeks",
    "$40 million"); the question's own form reads it when the customer confirms."""
    found = Found(FORMAT_NAME)
    text = " ".join((text or "")[:MAX_SENTENCE_CHARACTERS].split())
    if not text:
        return found
    owned = _owned_clause(text)
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
    _deployment(found, text, owned)
    return found
