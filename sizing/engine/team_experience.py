"""Who trains: what the team's experience does to the efficiency prior and its range.

The discovery page asks whether someone on the customer's team knows the training set-up
(number format, batch size, splitting the work); the answer reaches the engine as
``software.team_knows_setup``.  A team that does not know it has, in all likelihood, not trained
at this scale before.

No published run records its team's experience.  Each records who trained it
(``tests/sizing/data/published_runs.json``, ``trainer``): a framework's maker benchmarking its
own stack, a frontier lab, or a team like most customers (:data:`TEAM_TRAINERS`: BigScience's
BLOOM, Bloomberg's BloombergGPT, EleutherAI's Pythia, JetMoE, Microsoft's Phi models, nanoGPT
and llm.c [1]_).  Those teams' runs are the nearest published evidence, and
``benchmarks/team_experience.py`` measures them against the engine, each source left out in turn
[2]_:

* **The centre does not move.**  The teams' median source took 1.09 times the engine's
  accelerator-hours, the other sources' 0.97 times; on 9 sources scattered from 0.44 to 1.96
  times, the standard error of that median (a factor of 1.2) is larger than the shift.  So the
  estimate stays at the typical published run's speed (the software family's factor,
  :mod:`.stack_efficiency`), whatever the answer.
* **The slow end widens.**  With "no", the range of accelerator-hours reaches at least
  ``team_new_to_setup_hours_high`` times the estimate: the teams' runs at the percentile of
  their errors that holds them about as often as the ranges say (:func:`slow_end_factor`).  It
  widens only that end: a team new to its set-up is slower than planned more often than faster.
  The teams knew their set-ups, so for a team that does not this is a floor on the width, not
  a measurement of it.

With "yes", "not sure" or no answer the range is the regime's, as measured on every published
run.

References
----------
.. [1] The rows' sources and dates: BLOOM model README (2022), BloombergGPT arXiv 2303.17564
       (2023), Pythia arXiv 2304.01373 (2023), JetMoE arXiv 2404.07413 (2024), phi-1, phi-1.5
       model cards and the phi-2 blog (2023), nanoGPT and llm.c READMEs (2023-2024).
.. [2] ``docs/calibration.md``, "Who trains: a team new to its set-up": the figures and how
       they were measured.
"""

from __future__ import annotations

from .assumptions import value
from .numbers import format_count, format_percent
from .stack_efficiency import TYPICAL, stack_factor

# The ``trainer`` of the published rows that stand for teams like most customers.
TEAM_TRAINERS = frozenset({"research team", "company team"})

# The "who trains" row of the proposal's assumptions (key, read as "Who trains").
WHO_TRAINS = "who_trains"

_FAMILY_WORDS = {
    TYPICAL: "the typical published training run",
    "megatron": "published runs on Megatron-LM and NeMo",
    "pytorch": "the typical published training run",
    "deepspeed": "the typical published training run",
    "huggingface": "the typical published training run",
}


def slow_end_factor(team_knows_setup: bool | None) -> float:
    """The least high end of the accelerator-hours' range for this team [x]: 1 unless no one
    on the team knows the training set-up."""
    return value("team_new_to_setup_hours_high") if team_knows_setup is False else 1.0


def who_trains_words(team_knows_setup: bool | None) -> str:
    """The "who trains" assumption's value in words."""
    return {
        True: "someone on your team knows the training set-up",
        False: "a team new to this training set-up",
        None: "a team like those of typical published runs",
    }[team_knows_setup]


def who_trains_effect(family: str, team_knows_setup: bool | None) -> str:
    """What the answer does to the estimate, in words (the assumption's rationale)."""
    text = (
        f"we size at the speed of {_FAMILY_WORDS[family]}, "
        f"{format_percent(stack_factor(family))} of what our model of the hardware gives"
    )
    if team_knows_setup is not False:
        return text
    high = format_count(slow_end_factor(False), digits=2)
    return (
        f"{text}. No one on your team knows the set-up yet: published runs by teams outside "
        "the largest labs and the frameworks' makers took about our estimate at the median, so "
        f"it stays, but their slow runs took {high} times it or more, so the range reaches "
        f"{high} times"
    )
