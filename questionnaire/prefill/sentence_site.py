"""Question 14 from the discovery sentence: where the data must stay and where the site is,
single tenancy, air-gap, on-premises or renting beside it (hybrid), what they already own, the
power and a budget ceiling.

Part of the sentence's reader (``sentence.py``); what they own is read by the engine's own
reader of owned hardware (``sizing/owned_reading.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from questionnaire.prefill.found import Found
from questionnaire.prefill.sentence_words import NUMBER, said
from sizing.public import DEFAULT_PLACE, OwnedNotUnderstood, place_of, read_owned

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


def read_site(found: Found, text: str, owned: OwnedClause | None) -> None:
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
        # renting beside what they own ("we would rent extra only if we must", "could rent
        # more", "cloud for overflow"): a mix, ahead of the on-premises it adds to
        (
            r"\brent(?:ing)?\s+(?:extra|more|additional)\b(?:\s+only\s+if\s+(?:we|I)\s+must\b)?|"
            r"\bcloud\s+(?:for|as)\s+overflow\b|"
            r"\bburst(?:ing)?\s+(?:in)?to\s+(?:the\s+)?cloud\b",
            "location",
            "hybrid",
        ),
        (
            r"\bon[\s-]prem(?:ise|ises)?\b|\bour\s+own\s+(?:data\s+cent(?:re|er)|server\s+room)\b",
            "location",
            "on_premises",
        ),
        (r"\bcolocation\b|\bco-location\b", "location", "colocation"),
        # a power figure for their own hall: the hardware stands in their building
        (
            r"\b(?:the|our)\s+(?:data\s+)?hall\s+(?:has|holds|offers|gives)\b",
            "location",
            "on_premises",
        ),
    ):
        match = re.search(pattern, text, re.I)
        if match and not any(v.field == name for v in found.values):
            found.add("deployment", name, value, said(match[0]))
    if owned is not None:
        found.add("deployment", "owned", owned.clause, said(owned.words))
        # what they own, and rented capacity beside it: the mix of both (hybrid)
        rent = re.search(r"\brent\s+(?:some\s+)?(?:more|extra|additional)\b", text, re.I)
        if rent and not any(v.field == "location" for v in found.values):
            found.add("deployment", "location", "hybrid", said(rent[0]))
    power = re.search(rf"({NUMBER})\s?(MW|kW|megawatts?|kilowatts?)\b", text, re.I)
    if power:
        found.add("deployment", "power_kw", f"{power[1]} {power[2]}", said(power[0]))
    _budget(found, text)


def _where(found: Found, text: str) -> None:
    stays = [*re.finditer(_STAY, text, re.I), *re.finditer(_ONLY, text)]
    for match in sorted(stays, key=lambda m: m.start()):
        where = (match["where"] or match.groupdict().get("where2") or "").strip()
        if where and place_of(where) != DEFAULT_PLACE:
            found.add("deployment", "data_residency", where, said(match[0]))
            break
    city = re.search(rf"\b(?P<city>{'|'.join(_CITIES)})\b", text, re.I)
    region = re.search(_REGION, text)
    if city:
        found.add("deployment", "country", _CITIES[city["city"].lower()], said(city[0]))
    elif region and place_of(region["where"]) != DEFAULT_PLACE:
        found.add("deployment", "country", region["where"], said(region[0]))


_OWN = r"\b(?:we|i)\s+(?:already\s+)?(?:own|have|operate|run)\b|\balready\s+own\b"
# Where the list of what they own ends: the sentence, or the start of what they want.
_OWN_END = r"[.;!?]|\s+(?:and|but|so)\s+(?:we\s+)?(?:want|would|need|plan|could|will|can|hope)\b"


@dataclass(frozen=True)
class OwnedClause:
    start: int  # where what they own is named, after "we own"
    end: int
    clause: str  # as they wrote it, which question 14 reads back
    words: str  # the words that name it, for the check page


def owned_clause(text: str) -> OwnedClause | None:
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
            return OwnedClause(own.end(), stop, clause, text[own.start() : stop])
    return None


_MONEY = (
    rf"(?:US\$|\$|USD\s?)\s?(?P<a>{NUMBER})\s?(?P<sa>thousand|million|billion|[kKmMbB]n?)?\b"
    rf"|(?P<b>{NUMBER})\s?(?P<sb>thousand|million|billion|[kKmMbB]n?)?\s+(?:US\s+)?(?:dollars|USD)\b"
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
    match, words = ceilings[0] if ceilings else (amounts[0], amounts[0][0])
    digits, scale = (match["a"], match["sa"]) if match["a"] else (match["b"], match["sb"])
    value = f"${digits}" + (f" {scale.lower()}" if scale and len(scale) > 2 else scale or "")
    found.add("deployment", "budget_usd", value, said(words))
