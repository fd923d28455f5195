"""How long a path through the questionnaire takes: words read, fields answered, characters typed.

The promise (issue 26): the short path within 10 minutes, the detailed path within 20. A browser
walk counts, on each page as it opens, the words a sighted reader sees in ``<main>`` (closed
``<details>`` and screen-reader text left out, ``test_non_expert_path.visible_words``) and the
fields they see; the walk adds the fields it fills and the characters it types. The time is then

    minutes = words / 238
              + (fields seen * 1.35 s + fields filled * 1.3 s + fields typed * 0.4 s
                 + characters * 0.28 s + pages * 2.65 s) / 60

References
----------
1. Brysbaert, M. (2019). "How many words do we read per minute? A review and meta-analysis of
   reading rate." Journal of Memory and Language 109, 104047: silent reading of English
   non-fiction by adults, 238 words per minute on average (190 studies, 18,573 readers).
2. Card, S. K., Moran, T. P. and Newell, A. (1980). "The keystroke-level model for user
   performance time with interactive systems." Communications of the ACM 23(7), 396-410,
   table of operators: M (mental preparation) 1.35 s, P (point with a mouse) 1.1 s, B (press or
   release a mouse button) 0.1 s, H (move the hand between mouse and keyboard) 0.4 s, K (one
   keystroke of an average non-secretary typist, about 40 words a minute) 0.28 s.

Each field the customer sees costs a decision (M), answered or left empty; each field they fill
a point and a click (P + BB = 1.3 s), each typed one a hand move to the keyboard (H) and a
keystroke a character (K); each page its "Continue" (M + P + BB = 2.65 s). Reading the question
and its choices is in the word count, so M is the decision only. The model charges an operator
only when it is performed, as the keystroke-level model does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

READING_WORDS_PER_MINUTE = 238  # [words/min] reference 1
DECISION_S = 1.35  # [s] M, reference 2
POINT_S = 1.1  # [s] P, reference 2
CLICK_S = 2 * 0.1  # [s] B press and release, reference 2
HOME_S = 0.4  # [s] H, reference 2
KEYSTROKE_S = 0.28  # [s] K, reference 2
CONTINUE_S = DECISION_S + POINT_S + CLICK_S  # [s] a page's "Continue": decide, point, click

# Visible fields in <main>'s form: a radio group or a checkbox group counts once (by name), a
# text box or a lone checkbox once each; what a closed <details> holds is not rendered, so not
# seen (``checkVisibility``: Chromium lays out a closed <details>'s content, hidden), but the
# closed fold itself ("More detail") is a decision, whether to open it, so it counts as one
# field; hidden inputs and buttons are no fields. A check page counts each answer's box
# (``check_page_decisions``).
VISIBLE_FIELDS = """() => {
  const names = new Set();
  for (const e of document.querySelectorAll('main form input, main form select, main form textarea')) {
    if (e.type === 'hidden' || e.type === 'submit' || !e.checkVisibility()) continue;
    names.add(e.name || e.id);
  }
  const folds = [...document.querySelectorAll('main form details:not([open]) > summary')]
    .filter(e => e.checkVisibility()).length;
  return names.size + folds;
}"""


def visible_fields(page) -> int:
    """Fields a sighted customer sees on the page as it opens."""
    return int(page.evaluate(VISIBLE_FIELDS))


# A check page (the answers read from the customer's words or file) lists each answer with a box
# to keep it: the boxes share one name, but each is a decision of its own (keep this answer?),
# not one choice among options.
CHECK_PAGE_BOXES = """() => [...document.querySelectorAll("main form input[name='answer']")]
  .filter(e => e.checkVisibility()).length"""


def check_page_decisions(page) -> int:
    """The answers a check page asks the customer to keep or untick, one decision each."""
    return int(page.evaluate(CHECK_PAGE_BOXES))


@dataclass
class PathTime:
    """Words, fields and typing of one walk, page by page."""

    words: dict[str, int] = field(default_factory=dict)
    fields: dict[str, int] = field(default_factory=dict)
    filled_fields: int = 0
    typed_fields: int = 0
    typed_characters: int = 0

    def chose(self) -> None:
        """One choice clicked (a radio button or a box)."""
        self.filled_fields += 1

    def typed(self, text: str) -> None:
        self.chose()
        self.typed_fields += 1
        self.typed_characters += len(text)

    @property
    def minutes(self) -> float:
        """[min] reading at 238 words a minute, then answering by the keystroke-level model."""
        reading = sum(self.words.values()) / READING_WORDS_PER_MINUTE
        answering_s = (
            sum(self.fields.values()) * DECISION_S
            + self.filled_fields * (POINT_S + CLICK_S)
            + self.typed_fields * HOME_S
            + self.typed_characters * KEYSTROKE_S
            + len(self.words) * CONTINUE_S
        )
        return reading + answering_s / 60

    def report(self) -> str:
        return (
            f"{sum(self.words.values())} words, {sum(self.fields.values())} fields seen, "
            f"{self.filled_fields} filled, {self.typed_characters} characters typed in "
            f"{self.typed_fields} over "
            f"{len(self.words)} pages: {self.minutes:.1f} minutes; words {self.words}; "
            f"fields {self.fields}"
        )
