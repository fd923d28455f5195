"""The one room for words: every figure and sentence a person reads about a sizing result.

The review page (``questionnaire``), the confirmation and status pages and the emails
(``pipeline``), the proposal (``reports``) and the staff pages and CSV (``staff``) state a
result through here, so the same figure is said the same way everywhere. Decided here, once:

- a count and its noun (``plural``: Django's ``ngettext``),
- one run's time and its range (``durations``),
- the counts of a plan: one run, the cluster, what is bought (``counts``),
- the cost headline and its likely range, always of the same measure (``cost``),
- who set each value: the customer, worked out from their answers, assumed by us, or our
  engineer (``provenance``: the input sources are passed in as plain data),
- the figures every surface shows and the first estimate (``estimate``), and why one run's
  cluster is this size (``why_size``).

Imports point down: this package reads ``sizing.stored_result`` and the engine's formatter and
vocabulary; the apps above import it.
"""

from sizing.words.cost import CostHeadline, cost_headline
from sizing.words.counts import Counts, plan_text, read_counts
from sizing.words.durations import run_time, run_time_range
from sizing.words.estimate import Figures, FirstEstimate, figures_of, first_estimate
from sizing.words.plural import count_of, in_words
from sizing.words.project import project_from_answers
from sizing.words.provenance import Setter, chosen_words, the_deadline, who_set

__all__ = [
    "CostHeadline",
    "Counts",
    "Figures",
    "FirstEstimate",
    "Setter",
    "chosen_words",
    "cost_headline",
    "count_of",
    "figures_of",
    "first_estimate",
    "in_words",
    "plan_text",
    "project_from_answers",
    "read_counts",
    "run_time",
    "run_time_range",
    "the_deadline",
    "who_set",
]
