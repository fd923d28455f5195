"""The front door of ``sizing``: everything the other apps may use, listed once in ``__all__``.

``questionnaire``, ``reports``, ``pipeline`` and ``staff`` import from here and from nowhere else in
``sizing`` (the import-linter contract "Other apps use only the public face of sizing" in
``pyproject.toml``; ``tests/test_architecture.py`` breaks it on purpose). What sits behind the
door (the engine's modules, the adapter, the typed reader of a stored result, the shared words)
can then be moved, split or renamed without touching another app, as long as this list holds.
Tests and benchmarks may still reach inside.

Why a module of its own and not ``sizing/__init__.py``: Python runs a package's ``__init__`` for
every import below it, so a front door there would load the adapter and the readers whenever
the pure engine is imported (``python -m sizing.engine``, ``benchmarks/same_results.py``, which
extracts only ``sizing/__init__.py`` and ``sizing/engine`` from an older revision, and the test
that the engine loads only the standard library).

The names, by what they are for:

- sizing answers: the adapter that turns questionnaire answers into engine input and back;
- reading a stored result: the typed reader (``read_result``) and what it returns;
- the one room for words (``sizing/words/``): every figure and sentence other apps show about a
  result, from the review page's first estimate to the proposal's tables;
- catalogues the forms offer (accelerators, models) and reading a model's shape from a file;
- the one vocabulary of labels and units, and the one number formatter;
- the few assumptions and constants other apps quote by name.
"""

from sizing.adapters import (
    ENGINE_VERSION,
    NOT_GIVEN,
    SHARED_INPUTS,
    BuiltInput,
    Conflict,
    Decision,
    InvalidInput,
    SizedAnswers,
    answer_conflicts,
    assumed_for_unsure_answers,
    build_engine_input,
    check_engine_input,
    constraint_effects,
    discovery_questions,
    needed_by,
    nest_overrides,
    recommended_setup,
    setup_decisions,
    size_answers,
    unknown_override_paths,
    unsure_assumptions,
)
from sizing.engine.assumptions import value as assumption_value
from sizing.engine.assumptions import whole as whole_assumption
from sizing.engine.cost.places import DEFAULT_PLACE, place_of
from sizing.engine.cost.price_set import dated_note
from sizing.engine.cost.sensitivity import USAGE_KEYS
from sizing.engine.hardware import ACCELERATORS, peak_tflops
from sizing.engine.inputs import ADAPTER_METHODS, PRETRAINING_METHODS
from sizing.engine.measured import accelerator_of_device
from sizing.engine.models import MODEL_CATALOG, ModelSpec, find_model
from sizing.engine.numbers import (
    NO_VALUE,
    Money,
    currency_sign,
    format_count,
    format_days,
    format_days_range,
    format_decimal,
    format_dollars,
    format_money,
    format_money_range,
    format_money_short,
    format_number,
    format_percent,
    format_quantity,
    format_range,
    format_small_percent,
    format_table_money,
    format_times,
    money_step,
    round_to_add_up,
    table_money_step,
)
from sizing.engine.parameter_count import DecoderShape, ParameterCount, count_parameters
from sizing.engine.resolve.run import ASK_DATA_READY, SIZE_READ_AS_TEXT
from sizing.engine.stack_efficiency import FAMILIES, TYPICAL, stack_family
from sizing.engine.validation import SCHEMA, check_shape
from sizing.engine.vocabulary import (
    BOM_ITEMS,
    CONSTANTS,
    COST_OPTIONS,
    COST_PARTS,
    LOCATION_RULES,
    OUTPUT_VALUES,
    REGIONS,
    RULES,
    SHARES,
    SOURCES,
    VALUES,
    describe_price,
    describe_value,
    form_label,
    in_sentence,
    input_term,
    net_words,
    output_label_and_unit,
    value_words,
)
from sizing.owned_reading import OWNED_SUGGESTIONS, read_owned
from sizing.owned_reading import NotUnderstood as OwnedNotUnderstood
from sizing.sized_once import size_answers_once, size_built_once
from sizing.stored_result import (
    CostOption,
    HardwareBought,
    StoredResult,
    UsedAssumption,
    read_result,
)
from sizing.words.approval import Checked, InputChange, change_from_first
from sizing.words.cooling import cooling_words
from sizing.words.cost import (
    cost_figures,
    cost_headline,
    cost_line,
    exchange_note,
    money_of,
    prices_hold_until,
    recurring_line,
    region_line,
    rule_words,
    validity_sentence,
    validity_words,
)
from sizing.words.counts import (
    OWNED,
    cluster_short,
    no_network_text,
    one_server_word,
    open_question,
    plan_text,
    read_counts,
    rented_text,
    run_text,
)
from sizing.words.durations import (
    accelerator_hours,
    run_time,
    run_time_range,
)
from sizing.words.estate import (
    estate_lines,
    help_beside,
    help_cost,
    helped_time,
    on_owned_estate,
    owned_network_sentence,
    owned_storage_sentence,
    rented_apart_sentence,
)
from sizing.words.estimate import (
    DEADLINE,
    DEADLINE_MISSED,
    FEWEST_HOURS,
    MEMORY,
    Figures,
    FirstEstimate,
    estimate_of,
    fewest_hours_reason,
    figures_of,
    first_estimate,
    size_set_by,
)
from sizing.words.measured import KIT_FIGURES, AgainstEstimate, against_estimate, kit_figure_rows
from sizing.words.owned_servers import (
    owned_hosts_sentence,
    owned_run_days,
    owned_run_usd,
    owned_run_words,
)
from sizing.words.plain import plain_decision, plain_driver, plain_label, plainly
from sizing.words.plural import (
    count_of,
    noun_for,
)
from sizing.words.project import project_from_answers
from sizing.words.provenance import (
    accelerator_by,
    accelerator_label,
    as_fast_as_the_budget_allows,
    chosen_label,
    chosen_words,
    credited,
    deadline_by,
    the_deadline,
)
from sizing.words.ranges import (
    backing,
    days_with_range,
    gpus_needed,
)
from sizing.words.rival import experts_elsewhere, platform_lines, reads_alternatives
from sizing.words.rows import (
    accelerator_choice,
    assumption_rows,
    excluded_groups,
    price_rows,
    risk_rows,
)
from sizing.words.why_size import (
    memory_tight,
    size_reason,
)

__all__ = [
    # sizing answers (sizing/adapters.py)
    "ENGINE_VERSION",
    "NOT_GIVEN",
    "SHARED_INPUTS",
    "BuiltInput",
    "Conflict",
    "Decision",
    "InvalidInput",
    "SizedAnswers",
    "answer_conflicts",
    "assumed_for_unsure_answers",
    "build_engine_input",
    "check_engine_input",
    "constraint_effects",
    "discovery_questions",
    "nest_overrides",
    "recommended_setup",
    "setup_decisions",
    "needed_by",
    "size_answers",
    "size_answers_once",
    "size_built_once",
    "unknown_override_paths",
    "unsure_assumptions",
    # reading a stored result (sizing/stored_result.py)
    "CostOption",
    "HardwareBought",
    "StoredResult",
    "UsedAssumption",
    "read_result",
    # what a customer says they own, read as a catalog accelerator and a count
    "OWNED_SUGGESTIONS",
    "OwnedNotUnderstood",
    "read_owned",
    # where a sentence names a country or region (the discovery sentence's reader)
    "DEFAULT_PLACE",
    "place_of",
    # what they own and their ceilings, in sentences (sizing/words/estate.py)
    "estate_lines",
    # how the racks are cooled, and why (sizing/words/cooling.py)
    "cooling_words",
    "helped_time",
    "help_beside",
    "help_cost",
    "on_owned_estate",
    "owned_network_sentence",
    "owned_hosts_sentence",
    "owned_run_days",
    "owned_run_usd",
    "owned_run_words",
    "rented_apart_sentence",
    "owned_storage_sentence",
    "platform_lines",
    "reads_alternatives",
    "experts_elsewhere",
    # the one room for words (sizing/words/): every figure and sentence about a result
    "OWNED",
    "cluster_short",
    "open_question",
    "plain_decision",
    "plain_driver",
    "plain_label",
    "plainly",
    "plan_text",
    "project_from_answers",
    "read_counts",
    "no_network_text",
    "one_server_word",
    "rented_text",
    "run_text",
    "DEADLINE",
    "DEADLINE_MISSED",
    "FEWEST_HOURS",
    "MEMORY",
    "Figures",
    "FirstEstimate",
    "estimate_of",
    "fewest_hours_reason",
    "figures_of",
    "first_estimate",
    "size_set_by",
    "Checked",
    "InputChange",
    "change_from_first",
    "cost_figures",
    "cost_headline",
    "exchange_note",
    "prices_hold_until",
    "validity_sentence",
    "validity_words",
    "money_of",
    "currency_sign",
    "Money",
    "cost_line",
    "recurring_line",
    "region_line",
    "rule_words",
    "accelerator_hours",
    "run_time",
    "run_time_range",
    "count_of",
    "noun_for",
    "accelerator_by",
    "accelerator_label",
    "as_fast_as_the_budget_allows",
    "chosen_label",
    "chosen_words",
    "credited",
    "deadline_by",
    "the_deadline",
    "backing",
    "days_with_range",
    "gpus_needed",
    "accelerator_choice",
    "assumption_rows",
    "excluded_groups",
    "price_rows",
    "risk_rows",
    "memory_tight",
    "size_reason",
    # catalogues and a model's shape
    "ACCELERATORS",
    "FAMILIES",
    "TYPICAL",
    "stack_family",
    "accelerator_of_device",
    # measured reality: the kit's figures and actual runs (sizing/words/measured.py)
    "KIT_FIGURES",
    "AgainstEstimate",
    "against_estimate",
    "kit_figure_rows",
    "peak_tflops",
    "MODEL_CATALOG",
    "ModelSpec",
    "find_model",
    "DecoderShape",
    "ParameterCount",
    "check_shape",
    "count_parameters",
    "ADAPTER_METHODS",
    "PRETRAINING_METHODS",
    "SCHEMA",
    # the one vocabulary of labels and units
    "BOM_ITEMS",
    "CONSTANTS",
    "COST_OPTIONS",
    "COST_PARTS",
    "OUTPUT_VALUES",
    "REGIONS",
    "LOCATION_RULES",
    "RULES",
    "SHARES",
    "SOURCES",
    "VALUES",
    "describe_price",
    "describe_value",
    "form_label",
    "in_sentence",
    "input_term",
    "net_words",
    "output_label_and_unit",
    "value_words",
    # the one number formatter
    "NO_VALUE",
    "format_count",
    "format_days",
    "format_days_range",
    "format_decimal",
    "format_money",
    "format_money_range",
    "format_dollars",
    "format_money_short",
    "format_number",
    "format_percent",
    "format_quantity",
    "format_range",
    "format_small_percent",
    "format_times",
    "money_step",
    "round_to_add_up",
    "table_money_step",
    "format_table_money",
    "dated_note",
    # assumptions and constants quoted by name
    "ASK_DATA_READY",
    "SIZE_READ_AS_TEXT",
    "USAGE_KEYS",
    "assumption_value",
    "whole_assumption",
]
