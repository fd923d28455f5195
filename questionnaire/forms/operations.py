"""Questions 13–15: failures and restarts, where the hardware lives, and the years ahead."""

from __future__ import annotations

from django import forms

from questionnaire.fields import (
    CheckboxesAnswerField,
    QuantityField,
    RadioAnswerField,
    TextAnswerField,
    YesNoField,
)
from questionnaire.forms.base import QuestionForm
from questionnaire.quantities import Kind
from questionnaire.roles import Feeds, Noted, Requirement
from sizing.public import OWNED_SUGGESTIONS, OwnedNotUnderstood, read_owned


class ResilienceForm(QuestionForm):
    max_lost_hours = QuantityField(
        does=Feeds(("resilience.max_lost_hours",)),
        label="Most training time you could lose to a failure",
        help_text="For example 2 or 12 hours.",
        kind=Kind.DURATION,
        default_unit="hours",
        what="the time you could lose",
        allow_zero=True,
        maximum=24 * 365,
        width="short",
    )
    checkpoint_interval_hours = QuantityField(
        does=Feeds(("resilience.checkpoint_interval_hours",)),
        label="How often you save a checkpoint",
        help_text="For example 2 hours or 30 minutes.",
        kind=Kind.DURATION,
        default_unit="hours",
        what="the time between checkpoints",
        maximum=24 * 365,
        width="short",
    )
    replication = RadioAnswerField(
        does=Requirement(
            "The checkpointing section says where the extra copies go and how much storage "
            "they take."
        ),
        label="Extra copies of checkpoints",
        choices=(
            ("none", "One copy is enough"),
            ("second_system", "A second copy on other storage"),
            ("offsite", "A copy in another building or region"),
        ),
    )
    restart = RadioAnswerField(
        does=Requirement(
            "The checkpointing section says how a failed run restarts; where you restart by "
            "hand and the plan expects interruptions, it says what automatic restart saves."
        ),
        label="How a failed run restarts",
        choices=(
            ("automatic", "Automatically"),
            ("manual", "By hand"),
        ),
    )
    spare_nodes = YesNoField(
        does=Feeds(("resilience.spare_nodes",)),
        label="Do you want spare servers to replace a failed one?",
    )


class DeploymentForm(QuestionForm):
    location = RadioAnswerField(
        does=Feeds(("deployment.location",)),
        label="Where should the hardware be?",
        choices=(
            ("on_premises", "In our own data centre (on-premises)"),
            ("colocation", "A rented data centre (colocation)"),
            ("cloud", "In the cloud"),
            ("hybrid", "A mix (hybrid)"),
        ),
    )
    country = TextAnswerField(
        does=Feeds(("deployment.country",)),
        label="Country the hardware will run in (optional)",
        help_text="It sets power prices and currency. For example “Sweden”.",
        width="medium",
    )
    data_residency = TextAnswerField(
        does=Feeds(("deployment.data_residency",)),
        label="Countries or regions your data must stay in",
        help_text="For example “EU only”.",
        width="medium",
    )
    encryption = CheckboxesAnswerField(
        does=Requirement(
            "The deployment section says how the plan encrypts what you need encrypted."
        ),
        label="Encryption you need",
        help_text="Choose all that apply.",
        choices=(
            ("at_rest", "Data encrypted when stored"),
            ("in_transit", "Data encrypted on the network"),
        ),
    )
    dedicated = YesNoField(
        does=Feeds(("deployment.dedicated_hardware",)),
        label="Must the hardware be yours alone (no sharing with others)?",
    )
    internet = RadioAnswerField(
        does=Feeds(("deployment.air_gapped",)),
        label="Internet access from the training machines",
        choices=(
            ("full", "Allowed"),
            ("restricted", "Only to approved addresses"),
            ("none", "None (air-gapped)"),
        ),
    )
    export_policy = TextAnswerField(
        does=Requirement("The deployment section repeats your rule for taking models or data out."),
        label="Rules for taking models or data out (optional)",
        help_text="For example “trained models may leave, data may not”.",
    )
    # What they own and their ceilings: the engine sizes on the owned accelerators first
    # (sizing/engine/owned_first.py) and honours the two ceilings.
    owned = TextAnswerField(
        does=Feeds(
            (
                "estate.accelerator",
                "estate.count",
                "estate.fabric",
                "estate.fabric_gbps",
                "estate.storage_tb",
            )
        ),
        label="Accelerators you already own",
        help_text="For example 16 A100 80GB.",
        suggestions=OWNED_SUGGESTIONS,
        width="medium",
        max_length=200,
        reads="accelerators and a count",
    )
    power_kw = QuantityField(
        does=Feeds(("estate.power_kw",)),
        label="Power available (kW)",
        kind=Kind.POWER,
        default_unit="kW",
        what="the power available",
        maximum=1e7,
        width="short",
    )
    budget_usd = QuantityField(
        does=Feeds(("estate.budget_usd",)),
        label="Budget ceiling (USD)",
        kind=Kind.MONEY,
        what="the budget",
        maximum=1e12,
        width="short",
    )

    def clean_owned(self) -> str:
        text = self.cleaned_data.get("owned") or ""
        try:
            read_owned(text)
        except OwnedNotUnderstood:
            raise forms.ValidationError(
                "Name the accelerators and how many, for example “16 A100 80GB” or “4 L40S”.",
                code="owned",
            ) from None
        return text


RUNS_LATER_HINT = "Leave empty if unchanged."


class RoadmapForm(QuestionForm):
    future_runs_per_month = QuantityField(
        does=Feeds(("roadmap.runs_per_month",)),
        # Asked only when it differs from the runs a month of "Time and deadlines": asked twice,
        # the two figures came back as a contradiction the questionnaire itself had made.
        label="Training runs per month later, if different",
        help_text=RUNS_LATER_HINT,
        kind=Kind.COUNT,
        what="the number of runs per month",
        maximum=1e4,
        width="short",
    )
    future_hours_per_run = QuantityField(
        # with no time per run nor date given, it also sets the deadline (SHARED_INPUTS)
        does=Feeds(("roadmap.hours_per_run", "schedule.deadline_days")),
        label="Typical length of those runs",
        help_text="For example 10 days.",
        kind=Kind.DURATION,
        default_unit="hours",
        what="the length of a run",
        maximum=24 * 365 * 2,
        width="short",
    )
    annual_growth_pct = QuantityField(
        does=Feeds(("roadmap.annual_growth",)),
        label="Growth in training work per year",
        help_text="For example 50 %, or 0.",
        kind=Kind.PERCENT,
        what="the yearly growth",
        allow_zero=True,
        maximum=10_000,
        width="short",
    )
    future_model_sizes = TextAnswerField(
        does=Noted(
            "The cluster is sized for the model of question 1; larger models later are for our "
            "engineer to plan as an extension. When the growth per year above is left empty, "
            "the larger models named with a year (“70B in year three”) are read as that growth, "
            "and the proposal says so when no figure can be read from them."
        ),
        label="Model sizes you expect later (optional)",
        help_text="For example “30B next year, 70B in year three”.",
    )
    budget_years = QuantityField(
        does=Feeds(("roadmap.years",)),
        label="Budget period in years",
        kind=Kind.COUNT,
        what="the budget period",
        whole=True,
        maximum=15,
        width="short",
    )
    operations = RadioAnswerField(
        does=Feeds(("deployment.operations",)),
        label="Who will run the hardware day to day?",
        choices=(
            ("in_house", "Our own team, with experience of clusters"),
            ("some", "Our own team, but we will need help"),
            ("none", "We want someone else to run it"),
        ),
    )
