"""The one place that knows both vocabularies: questionnaire answers → sizing-engine input.

Answers are stored as ``{slug: {field: value, "not_sure": bool, "notes": str}}`` (see
``questionnaire/questions.py``); the engine takes the nested dict of ``docs/engine-contract.md``.
Anything the customer was not sure about is left out (``None``), so the engine picks its
documented default and lists it as an assumption. Every engine field we set is recorded with
where it came from: ``customer`` (answered), ``not_sure`` (left to the engine's default),
``override`` (an engineer's override).
"""

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sizing.engine import ENGINE_VERSION, InvalidInput, parse_input, size_dict
from sizing.engine.cost.places import DEFAULT_PLACE, place_of
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.numbers import noun_for_count
from sizing.engine.validation import SCHEMA
from sizing.engine.vocabulary import describe_value, in_sentence, input_term
from sizing.notes import dataset_tb_from_words, growth_from_roadmap, shape_from_notes
from sizing.owned_reading import NotUnderstood as OwnedNotUnderstood
from sizing.owned_reading import Owned, read_owned

__all__ = [
    "ENGINE_VERSION",
    "SHARED_INPUTS",
    "BuiltInput",
    "Conflict",
    "SharedInput",
    "answer_conflicts",
    "InvalidInput",
    "build_engine_input",
    "check_engine_input",
    "Decision",
    "constraint_effects",
    "discovery_questions",
    "recommended_setup",
    "setup_decisions",
    "nest_overrides",
    "SizedAnswers",
    "size_answers",
    "size_built",
    "unsure_assumptions",
    "unknown_override_paths",
]

# Every input field of the engine, by section (the engine's own schema). Engineers may override
# any of them.
CONTRACT_FIELDS: dict[str, tuple[str, ...]] = {
    section: tuple(fields) for section, fields in SCHEMA.items()
}


@dataclass(frozen=True)
class BuiltInput:
    """An engine input and, per dotted field, where its value came from."""

    engine_input: dict[str, Any]
    sources: dict[str, str] = field(default_factory=dict)
    question_of: dict[str, str] = field(default_factory=dict)  # dotted field -> question slug


def nest_overrides(overrides: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{"model.total_params": 7e9}`` or ``{"model": {"total_params": 7e9}}`` → nested."""
    nested: dict[str, dict[str, Any]] = {}
    for key, value in (overrides or {}).items():
        if isinstance(value, dict):
            nested.setdefault(key, {}).update(value)
        else:
            section, _, name = str(key).partition(".")
            nested.setdefault(section, {})[name] = value
    return nested


def unknown_override_paths(nested: dict[str, dict[str, Any]]) -> list[str]:
    """Dotted paths in ``nested`` that are not engine input fields."""
    unknown = []
    for section, values in nested.items():
        for name in values:
            if name not in CONTRACT_FIELDS.get(section, ()):
                unknown.append(f"{section}.{name}")
    return unknown


def build_engine_input(
    *,
    answers: dict[str, Any],
    overrides: dict[str, Any] | None = None,
    today: date | None = None,
    contact_country: str = "",
    measured: dict[str, Any] | None = None,
) -> BuiltInput:
    """Map stored answers (plus engineer overrides) to the engine's input dict.

    ``measured`` is the engine's ``measured`` section: what the verification kit measured on
    the customer's hardware (``docs/engine-contract.md``), kept in the stored engine input.

    An answer the engine would refuse (out of its range) is dropped and recorded as
    ``unusable``, so one odd answer becomes an assumption to settle rather than a failed sizing.
    Overrides are never dropped: an engineer gets the engine's refusal instead.
    ``contact_country`` (the contact step's country) places the hardware when question 14
    names no country or region (``deployment.country``, derived).
    """
    engine_input: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    context = _Context(answers or {}, engine_input, sources, today or date.today())
    context.contact_country = contact_country
    for mapper in ANSWER_MAPPERS:
        mapper(context)
    _drop_refused(engine_input, sources)
    for section, values in nest_overrides(overrides or {}).items():
        for name, value in values.items():
            engine_input.setdefault(section, {})[name] = value
            sources[f"{section}.{name}"] = "override"
    if measured:
        engine_input["measured"] = dict(measured)
    return BuiltInput(
        engine_input={k: v for k, v in engine_input.items() if v},
        sources=sources,
        question_of=context.question_of,
    )


@dataclass(frozen=True)
class SizedAnswers:
    """One sizing of a customer's answers: the engine's input, its result, and per input field
    where the value came from (and which question it belongs to)."""

    engine_input: dict[str, Any]
    result: dict[str, Any]
    sources: dict[str, str]
    question_of: dict[str, str]

    @property
    def engine_version(self) -> str:
        return str(self.result.get("engine_version", ENGINE_VERSION))


def size_answers(
    *,
    answers: dict[str, Any],
    overrides: dict[str, Any] | None = None,
    today: date | None = None,
    contact_country: str = "",
    measured: dict[str, Any] | None = None,
) -> SizedAnswers:
    """Size a customer's answers (plus any engineer overrides): the one way to do it.

    The pipeline's task, the demo proposal, the review page and the staff pages all call this.
    Raises ``InvalidInput`` when the engine refuses the input (only an override can cause that:
    an answer the engine would refuse is dropped as ``unusable`` first).
    """
    today = today or date.today()
    built = build_engine_input(
        answers=answers,
        overrides=overrides,
        today=today,
        contact_country=contact_country,
        measured=measured,
    )
    return size_built(built, today=today)


def size_built(built: BuiltInput, *, today: date, alternatives: bool = True) -> SizedAnswers:
    """Size an engine input already built from answers (``build_engine_input``);
    ``alternatives=False`` leaves the other accelerators unsized (``engine.core.size``)."""
    result = size_dict(built.engine_input, today=today, alternatives=alternatives)
    return SizedAnswers(
        engine_input=built.engine_input,
        result=result,
        sources=built.sources,
        question_of=built.question_of,
    )


def assumed_for_unsure_answers(answers: dict[str, Any]) -> dict[str, list[str]]:
    """What the engine will assume for each answer the customer is not sure of, by question slug.

    Shown on the "check your answers" page ("Not sure yet — we will assume BF16"). Runs the
    engine, which takes milliseconds; nothing here renders or queues anything.
    """
    try:
        sized = size_answers(answers=answers)
    except InvalidInput:
        return {}
    return unsure_assumptions(sized)


def unsure_assumptions(sized: SizedAnswers) -> dict[str, list[str]]:
    """:func:`assumed_for_unsure_answers` of answers already sized."""
    assumed: dict[str, list[str]] = {}
    recorded = set()
    for item in sized.result["assumptions"]:
        key = item["key"]
        recorded.add(key)
        if item["provided_by"] == "assumed" and sized.sources.get(key) == "not_sure":
            assumed.setdefault(sized.question_of[key], []).append(_in_words(item))
    for key, words in _LEFT_OPEN.items():
        if key not in recorded and sized.sources.get(key) == "not_sure":
            assumed.setdefault(sized.question_of[key], []).append(words)
    return assumed


# Inputs the engine leaves open when not given, rather than assuming one value: what that
# means, for the review page's "we will assume …" (otherwise a bare "a typical value").
_LEFT_OPEN = {
    "deployment.location": "where the hardware runs: the cheapest place we price",
    "deployment.data_residency": "where the data stays: no rule",
    "deployment.country": "the country: North American power and space prices, in US dollars",
}


@dataclass(frozen=True)
class Decision:
    """One choice the engine made for a question left to it: ``what`` ("Number precision:
    BF16"; empty for a reason about the plan as a whole) and ``why``."""

    what: str
    why: str
    # the engine input chosen (empty for a reason about the plan), for its plain label
    key: str = ""

    def __str__(self) -> str:
        return f"{self.what} — {self.why}" if self.what else self.why


def recommended_setup(answers: dict[str, Any], slugs: tuple[str, ...]) -> dict[str, list[Decision]]:
    """What the engine decides for each question in ``slugs`` that was left to it, and why.

    For the short path ("recommend for me") on the review page: sizes the answers once, then
    :func:`setup_decisions`.
    """
    try:
        sized = size_answers(answers=answers)
    except InvalidInput:
        return {}
    return setup_decisions(sized.result, sized.sources, sized.question_of, slugs)


def setup_decisions(
    result: dict[str, Any],
    sources: dict[str, str],
    question_of: dict[str, str],
    slugs: tuple[str, ...],
) -> dict[str, list[Decision]]:
    """From one sizing: per question in ``slugs`` (the questions left to us), one line per
    input the engine chose ("Number precision: BF16 — the usual choice; it sets ..."), then the
    engine's own reasons for the plan (how the work is split, the network, the CPUs per server).
    The proposal calls this with its stored result; nothing is sized again.
    """
    decided: dict[str, list[Decision]] = {}
    for item in result.get("assumptions") or []:
        key = item["key"]
        slug = question_of.get(key)
        if slug in slugs and item["provided_by"] == "assumed" and sources.get(key) == "not_sure":
            decided.setdefault(slug, []).append(_decision(item))
    reasons = {
        "parallelism": (result.get("parallelism") or {}).get("reason"),
        "preprocessing": (result.get("hosts") or {}).get("rationale"),
    }
    fabric = str((result.get("network") or {}).get("fabric") or "")
    if fabric.startswith("none"):
        reasons["network"] = "no network between servers is needed: each run fits in one server"
        # a technology chosen for a network that is not needed would contradict that
        decided.pop("network", None)
    for slug, reason in reasons.items():
        if slug in slugs and reason:
            decided.setdefault(slug, []).append(
                Decision("", _capfirst(str(reason).rstrip(".")) + ".")
            )
    return decided


def _decision(item: dict[str, Any]) -> Decision:
    """ "Number precision: BF16", "the usual choice; it sets the bytes per number ..."."""
    key = item["key"]
    value = describe_value(key, item["value"], engine_unit=item["unit"])
    source = str(item.get("source") or "")
    usual = source.startswith("our usual assumption")
    detail = source.partition(": ")[2] if usual else ""
    parts = [("the usual choice" if usual else source) + (f" ({detail})" if detail else "")]
    if item.get("rationale"):
        parts.append(f"it {item['rationale']}")
    return Decision(f"{input_term(key).label}: {value}", "; ".join(parts) + ".", key)


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def _in_words(item: dict[str, Any]) -> str:
    """One assumption as the review page says it: "number precision: BF16"."""
    key = item["key"]
    value = describe_value(key, item["value"], engine_unit=item["unit"])
    return f"{in_sentence(input_term(key).label)}: {value}"


def _drop_refused(engine_input: dict[str, dict[str, Any]], sources: dict[str, str]) -> None:
    for _ in range(3):  # each pass removes every field the engine named
        try:
            parse_input(engine_input)
            return
        except InvalidInput as exc:
            refused = {message.split(":", 1)[0].strip() for message in exc.messages}
        dropped = False
        for path in refused:
            section, _, name = path.partition(".")
            if name and name in engine_input.get(section, {}):
                del engine_input[section][name]
                sources[path] = "unusable"
                dropped = True
        if not dropped:
            return


def check_engine_input(engine_input: dict[str, Any]) -> None:
    """Raise ``InvalidInput`` if the engine would refuse this input."""
    parse_input(engine_input)


# --- answers → input ----------------------------------------------------------------------------
# One small function per question (slugs from questionnaire/questions.py); each reads its answer
# and writes engine fields through ``_Context.put``, which records where each value came from.

NOT_GIVEN = (None, "", "not_sure", [], "no_preference", "other")


class _Context:
    def __init__(
        self,
        answers: dict[str, Any],
        engine_input: dict[str, dict[str, Any]],
        sources: dict[str, str],
        today: date,
    ) -> None:
        self.answers = answers
        self.engine_input = engine_input
        self.sources = sources
        self.today = today
        self.question_of: dict[str, str] = {}
        self.contact_country = ""  # the contact step's country, when question 14 names none

    def answer(self, slug: str) -> dict[str, Any]:
        answer = self.answers.get(slug) or {}
        return answer if isinstance(answer, dict) else {}

    def value(self, slug: str, name: str) -> Any:
        value = self.answer(slug).get(name)
        return None if value in NOT_GIVEN else value

    def unsure(self, slug: str) -> bool:
        """The whole question, or one of its parts, was answered "not sure"."""
        answer = self.answer(slug)
        return bool(answer.get("not_sure")) or any(
            value == "not_sure" or (isinstance(value, list) and "not_sure" in value)
            for value in answer.values()
        )

    def put(self, path: str, value: Any, *, slug: str, derived: bool = False) -> None:
        """Set one engine field; a question the customer was unsure about only records that."""
        section, _, name = path.partition(".")
        self.question_of[path] = slug
        if self.unsure(slug) and value is None:
            self.sources.setdefault(path, "not_sure")
            return
        if value is None:
            return
        self.engine_input.setdefault(section, {})[name] = value
        self.sources[path] = "derived" if derived else "customer"

    def left_open(self, path: str, slug: str, name: str) -> None:
        """The customer answered "no preference": the engine chooses, as they told us."""
        if self.answer(slug).get(name) == "no_preference":
            self.question_of[path] = slug
            self.sources[path] = "no_preference"


def _yes_no(value: Any) -> bool | None:
    return {"yes": True, "no": False}.get(value)


def _whole(value: Any) -> int | None:
    return None if value is None else max(1, round(float(value)))


def _model(c: _Context) -> None:
    c.put("model.name", c.value("model", "model_name"), slug="model")
    c.put("model.architecture", c.value("model", "architecture"), slug="model")
    c.put("model.total_params", c.value("model", "total_params"), slug="model")
    if c.value("model", "architecture") == "moe":
        c.put("model.active_params", c.value("model", "active_params"), slug="model")
        # the routing the customer stated ("64 experts, 8 per token"): the expert-parallel
        # layout and the all-to-all traffic are sized from it, not from the typical count
        c.put("model.experts", _whole(c.value("model", "experts")), slug="model")
        per_token = _whole(c.value("model", "experts_per_token"))
        c.put("model.experts_per_token", per_token, slug="model")
    # a shape written in the notes ("32 layers, hidden 4096, 32 heads") is the customer's: the
    # engine keeps it rather than generating one for the parameter count
    for name, figure in shape_from_notes(c.answer("model").get("notes") or "").items():
        c.put(f"model.{name}", figure, slug="model")


_METHODS = {"other_peft": "lora", "finetune_unsure": "finetune"}


def _method(c: _Context) -> None:
    method = c.value("method", "method")
    c.put(
        "training.method", _METHODS.get(method, method), slug="method", derived=method in _METHODS
    )
    # SHARED_INPUTS: the experiments count the runs; the phases stand in when they are empty
    experiments = c.value("method", "experiments") or c.value("method", "phases")
    c.put("training.experiments", _whole(experiments), slug="method")


_PRECISIONS = {"mixed": "bf16"}


def _precision(c: _Context) -> None:
    precision = c.value("precision", "precision")
    c.put(
        "training.precision",
        _PRECISIONS.get(precision, precision),
        slug="precision",
        derived=precision in _PRECISIONS,
    )
    c.put("training.optimizer", c.value("precision", "optimizer"), slug="precision")
    c.put(
        "training.gradient_checkpointing",
        _yes_no(c.value("precision", "gradient_checkpointing")),
        slug="precision",
    )


def _data(c: _Context) -> None:
    size, unit = c.value("data", "dataset_size"), c.value("data", "dataset_unit")
    tokens_per_sample = c.value("data", "tokens_per_sample")
    if size is not None and unit == "tokens":
        c.put("data.tokens", size, slug="data")
    elif size is not None and unit == "samples":
        c.put("data.samples", size, slug="data")
        if tokens_per_sample:
            c.put("data.tokens", size * tokens_per_sample, slug="data", derived=True)
    elif size is not None and unit == "gb":
        # the customer's own size, in the engine's unit (GB to TB): not worked out
        c.put("data.dataset_size_tb", size / 1000.0, slug="data")
    else:
        c.put("data.tokens", None, slug="data")
    c.put("data.modality", c.value("data", "modality"), slug="data")
    sample_gb = c.value("data", "sample_size_gb")
    c.put(
        "data.bytes_per_sample",
        None if sample_gb is None else sample_gb * 1e9,
        slug="data",
        derived=True,
    )
    c.put("data.epochs", c.value("data", "epochs"), slug="data")
    growth = c.value("data", "annual_growth_pct")
    c.put(
        "data.annual_growth", None if growth is None else growth / 100.0, slug="data", derived=True
    )


def _days_until(deadline: Any, today: date) -> int | None:
    """Whole days from ``today`` to a stored ``YYYY-MM-DD`` date; None when unreadable."""
    if not deadline:
        return None
    try:
        return (date.fromisoformat(str(deadline)) - today).days
    except ValueError:
        return None


def needed_by(answers: dict[str, Any]) -> date | None:
    """The date the customer needs results by (question 5's ``deadline``); None when not
    given or unreadable."""
    timeline = (answers or {}).get("timeline")
    given = timeline.get("deadline") if isinstance(timeline, dict) else None
    try:
        return date.fromisoformat(str(given)) if given else None
    except ValueError:
        return None


def _timeline(c: _Context) -> None:
    # SHARED_INPUTS: the time for one run sets the deadline; the date only when it is empty
    hours = c.value("timeline", "run_time_hours")
    if hours is not None:
        c.put("schedule.deadline_days", hours / 24.0, slug="timeline", derived=True)
    elif (days := _days_until(c.value("timeline", "deadline"), c.today)) and days > 0:
        c.put("schedule.deadline_days", days, slug="timeline", derived=True)
    elif (future := c.value("roadmap", "future_hours_per_run")) is not None:
        # not sure of this run's time, but each run "about 10 days" once running (customer 3):
        # the runs they plan are the time one run may take, never a 30-day assumption beside
        # a price for "1 run a month, each of 10 days"
        c.put("schedule.deadline_days", future / 24.0, slug="roadmap", derived=True)
    else:
        c.put("schedule.deadline_days", None, slug="timeline", derived=True)


def _batch(c: _Context) -> None:
    sequence_length = _whole(c.value("batch", "sequence_length"))
    c.put("batch.sequence_length", sequence_length, slug="batch")
    batch, unit = c.value("batch", "global_batch"), c.value("batch", "global_batch_unit")
    if batch is not None and unit == "tokens":
        c.put("batch.global_batch_tokens", batch, slug="batch")
    elif batch is not None and unit == "samples" and sequence_length:
        c.put("batch.global_batch_tokens", batch * sequence_length, slug="batch", derived=True)
    else:  # not given: recorded as the question's "not sure" when it was ticked
        c.put("batch.global_batch_tokens", None, slug="batch")
    c.put("batch.micro_batch_size", _whole(c.value("batch", "micro_batch_size")), slug="batch")


_SCHEDULERS = ("slurm", "kubernetes", "none", "other")


def _teams(c: _Context) -> None:
    c.put("schedule.concurrent_jobs", _whole(c.value("teams", "concurrent_jobs")), slug="teams")
    c.put("schedule.teams", _whole(c.value("teams", "teams")), slug="teams")
    # "other" is an answer here (their own scheduler), so it is read past NOT_GIVEN
    scheduler = c.answer("teams").get("scheduler")
    c.put("schedule.scheduler", scheduler if scheduler in _SCHEDULERS else None, slug="teams")


# Accelerator makers the customer allows (engine ids: platforms.VENDORS); "no preference" and
# "not sure" leave every maker in.
_VENDORS = {
    "nvidia_only": ["nvidia"],
    "amd_only": ["amd"],
    "intel_only": ["intel"],
    "amd_ok": ["nvidia", "amd"],
}


def _software(c: _Context) -> None:
    frameworks = [
        f for f in c.answer("software").get("frameworks") or [] if f not in ("other", "not_sure")
    ]
    c.put("software.frameworks", frameworks or None, slug="software")
    c.put(
        "software.custom_cuda_kernels",
        _yes_no(c.value("software", "custom_kernels")),
        slug="software",
    )
    # who trains (discovery page): "does someone on your team know the training set-up?";
    # "not sure" stays open (sizing/engine/team_experience.py)
    c.put(
        "software.team_knows_setup",
        _yes_no(c.value("discovery", "setup_known")),
        slug="discovery",
    )
    vendor = c.value("software", "accelerator_vendor")
    allowed = _VENDORS.get(vendor) if vendor else None
    c.put("hardware.vendors", allowed, slug="software")
    c.left_open("hardware.vendors", "software", "accelerator_vendor")
    # a preferred accelerator is sized on, unless the customer's own maker rule excludes it
    # (the rule is the firmer answer: "NVIDIA only" beside a preferred MI325X keeps NVIDIA)
    preferred = c.value("software", "preferred_accelerator")
    if preferred in ACCELERATORS and (
        not allowed or ACCELERATORS[preferred].vendor.lower() in allowed
    ):
        c.put("hardware.accelerator", preferred, slug="software")


_OVERSUBSCRIPTION = {"1:1": 1.0, "2:1": 2.0, "4:1": 4.0}


def _network(c: _Context) -> None:
    c.put("network.inter_node", c.value("network", "fabric"), slug="network")
    c.left_open("network.inter_node", "network", "fabric")
    ratio = c.value("network", "oversubscription")
    c.put("network.oversubscription", _OVERSUBSCRIPTION.get(ratio), slug="network", derived=True)
    # the form asks per accelerator or per server; the engine reads it per accelerator
    c.put("network.nic_gbps_per_gpu", c.value("network", "link_speed_gbps"), slug="network")


def _storage(c: _Context) -> None:
    c.put(
        "storage.required_read_gb_per_s",
        c.value("storage", "read_rate_gb_per_s"),
        slug="storage",
    )
    c.put("storage.checkpoint_size_gb", c.value("storage", "checkpoint_size_gb"), slug="storage")
    c.put("storage.existing", c.value("storage", "existing_storage"), slug="storage")
    c.put(
        "storage.many_small_files",
        _yes_no(c.value("storage", "many_small_files")),
        slug="storage",
    )
    # "About 2 TB of raw documents": a size on disk the customer wrote in words answers "how
    # large is the dataset on disk?", which is then never asked again
    if "dataset_size_tb" not in c.engine_input.get("data", {}):
        for slug, name in (("storage", "existing_storage_details"), ("data", "notes")):
            size_tb = dataset_tb_from_words(str(c.answer(slug).get(name) or ""))
            if size_tb:
                c.put("data.dataset_size_tb", size_tb, slug=slug)
                break


def _preprocessing(c: _Context) -> None:
    steps = c.answer("preprocessing").get("online_steps") or []
    mode = None
    if steps == ["not_sure"]:
        mode = None
    elif steps == ["none"]:
        mode = "offline"
    elif steps:
        mode = "on_the_fly"
    c.put("data.preprocessing", mode, slug="preprocessing", derived=True)


def _resilience(c: _Context) -> None:
    c.put("resilience.max_lost_hours", c.value("resilience", "max_lost_hours"), slug="resilience")
    spares = c.value("resilience", "spare_nodes")
    c.put("resilience.spare_nodes", None if spares is None else spares == "yes", slug="resilience")


def _checkpoint_interval(c: _Context) -> None:
    """The interval of question 13, the one question that asks it (issue 26: storage asked it
    too, and the questionnaire then asked which of its own two answers held)."""
    hours = c.value("resilience", "checkpoint_interval_hours")
    c.put("resilience.checkpoint_interval_hours", hours, slug="resilience")


_LOCATIONS = {"on_premises": "on_prem"}


def _deployment(c: _Context) -> None:
    location = c.value("deployment", "location")
    c.put("deployment.location", _LOCATIONS.get(location, location), slug="deployment")
    residency = c.value("deployment", "data_residency")
    c.put(
        "deployment.data_residency", str(residency)[:200] if residency else None, slug="deployment"
    )
    country = c.value("deployment", "country")
    if country:
        c.put("deployment.country", str(country)[:200], slug="deployment")
    elif c.contact_country and place_of(residency) == DEFAULT_PLACE:
        # the country the customer gave with their contact details prices power, space and
        # the currency when question 14 names no place (issue 28: a Swedish customer)
        c.put("deployment.country", c.contact_country[:200], slug="deployment", derived=True)
    c.put(
        "deployment.dedicated_hardware",
        _yes_no(c.value("deployment", "dedicated")),
        slug="deployment",
    )
    internet = c.value("deployment", "internet")
    c.put(
        "deployment.air_gapped",
        None if internet is None else internet == "none",
        slug="deployment",
        derived=True,
    )
    owned = _owned(c.value("deployment", "owned"))
    c.put("estate.accelerator", owned.accelerator if owned else None, slug="deployment")
    c.put("estate.count", owned.count if owned else None, slug="deployment")
    c.put("estate.fabric", owned.fabric if owned else None, slug="deployment")
    c.put("estate.fabric_gbps", owned.fabric_gbps if owned else None, slug="deployment")
    c.put("estate.storage_tb", owned.storage_tb if owned else None, slug="deployment")
    c.put("estate.power_kw", c.value("deployment", "power_kw"), slug="deployment")
    c.put("estate.budget_usd", c.value("deployment", "budget_usd"), slug="deployment")


def _owned(text: Any) -> Owned | None:
    """The accelerators the customer owns, read from their words (None: none, or unread)."""
    try:
        return read_owned(str(text)) if text else None
    except OwnedNotUnderstood:
        return None


def _runs_per_month(c: _Context) -> None:
    """SHARED_INPUTS: runs once up and running (question 15), else those of question 5."""
    future = c.value("roadmap", "future_runs_per_month")
    if future is not None:
        c.put("roadmap.runs_per_month", future, slug="roadmap")
    else:
        c.put("roadmap.runs_per_month", c.value("timeline", "runs_per_month"), slug="timeline")


# The engine's ceiling on yearly growth (validation's ``_GROWTH``: 10, i.e. +1,000 %).
_MOST_GROWTH_PCT = 1000


def _roadmap(c: _Context) -> None:
    c.put("roadmap.hours_per_run", c.value("roadmap", "future_hours_per_run"), slug="roadmap")
    growth = c.value("roadmap", "annual_growth_pct")
    if growth is None:
        # "30B next year, maybe 70B in year three": the larger models are the growth, never
        # "0 %, our usual assumption" beside those words
        read = growth_from_roadmap(
            " ; ".join(
                str(c.answer("roadmap").get(name) or "") for name in ("future_model_sizes", "notes")
            ),
            c.value("model", "total_params"),
        )
        growth = None if read is None else min(round(read * 100.0), _MOST_GROWTH_PCT)
        if read is None and c.value("roadmap", "future_model_sizes"):
            # their words were read but hold no figure: the assumption says so (never a bare
            # "0 %, our usual assumption" beside a roadmap they wrote)
            c.question_of["roadmap.annual_growth"] = "roadmap"
            c.sources["roadmap.annual_growth"] = "unread"
    c.put(
        "roadmap.annual_growth",
        None if growth is None else growth / 100.0,
        slug="roadmap",
        derived=True,
    )
    c.put("roadmap.years", _whole(c.value("roadmap", "budget_years")), slug="roadmap")
    # who runs the cluster day to day: asked with the years ahead, used by the deployment plan
    c.put("deployment.operations", c.value("roadmap", "operations"), slug="roadmap")


# The one constraint that matters most (the discovery page) steers defaults the customer left
# open, never an answer they gave: time keeps a spare server so a failure does not stop the run;
# budget keeps none and accepts a 2:1 network. "Where the data is kept" and "hardware we own"
# ask an open question instead (:func:`discovery_questions`): keeping data in a country or a
# region is met by a cloud region there as well as by hardware of one's own, so it must not
# rule the cloud out (a hospital's one 30-hour fine-tune became a $1.5M purchase that way).
_CONSTRAINT_DEFAULTS: dict[str, tuple[tuple[str, Any], ...]] = {
    "time": (("resilience.spare_nodes", True),),
    "budget": (("resilience.spare_nodes", False), ("network.oversubscription", 2.0)),
}


def _constraint(c: _Context) -> None:
    """SHARED_INPUTS: the constraint fills only inputs the customer's answers left open."""
    constraint = c.value("discovery", "constraint")
    for path, value in _CONSTRAINT_DEFAULTS.get(constraint, ()):
        section, _, name = path.partition(".")
        if name in c.engine_input.get(section, {}):
            continue
        c.put(path, value, slug="discovery", derived=True)


def constraint_effects(answers: dict[str, Any], *, built: BuiltInput | None = None) -> list[str]:
    """What the most important constraint changed, in words (review page and proposal).

    ``built``: the engine input already built from ``answers``, when the caller has it (the
    review page builds it once for all it shows)."""
    built = built or build_engine_input(answers=answers)
    said = {
        "resilience.spare_nodes": {
            True: "we keep a spare server, so a failure does not stop the run",
            False: "we leave out spare servers",
        },
        "network.oversubscription": {2.0: "we accept a cheaper network (2:1)"},
    }
    effects = []
    for path, words in said.items():
        if built.question_of.get(path) == "discovery" and built.sources.get(path) == "derived":
            section, _, name = path.partition(".")
            text = words.get(built.engine_input.get(section, {}).get(name))
            if text:
                effects.append(text)
    return effects


def discovery_questions(answers: dict[str, Any]) -> list[str]:
    """Open questions the discovery page raises: the hardware the customer already owns, or,
    when where the data is kept matters most and question 14 leaves it open, where that is
    and whether a cloud region there will do."""
    discovery = answers.get("discovery") or {}
    constraint = discovery.get("constraint") if isinstance(discovery, dict) else None
    deployment = answers.get("deployment") or {}
    if constraint == "hardware_owned":
        if isinstance(deployment, dict) and _owned(deployment.get("owned")):
            return []  # question 14 says what they own: the plan is sized on it
        return [
            "Which accelerators and servers do you already own, and should the new plan reuse them?"
        ]
    if constraint != "data_location" or not isinstance(deployment, dict):
        return []
    where = str(deployment.get("data_residency") or "").strip()
    # hardware in their own data centre, or theirs in a rented one, is theirs alone
    alone = deployment.get("dedicated") not in NOT_GIVEN or deployment.get("location") in (
        "on_premises",
        "colocation",
    )
    if where and alone:
        return []
    if alone:
        return ["Where must your data stay (a country or a region)?"]
    if where:
        return [
            f"Your data must stay in “{where}”: will a cloud region there do, or must the "
            "hardware be yours alone? We priced both."
        ]
    return [
        "Where must your data stay, and will a cloud region there do, or must the hardware be "
        "yours alone? We priced both."
    ]


ANSWER_MAPPERS = (
    _model,
    _method,
    _precision,
    _data,
    _timeline,
    _batch,
    _teams,
    _software,
    _network,
    _storage,
    _preprocessing,
    _resilience,
    _checkpoint_interval,
    _deployment,
    _runs_per_month,
    _roadmap,
    _constraint,  # last: it fills only what the answers above left open
)


# --- answers that feed one input -----------------------------------------------------------------


@dataclass(frozen=True)
class SharedInput:
    """Answers (``slug.field``) that feed one engine input, and the stated rule combining them.

    ``asks`` is True when the answers can disagree: the proposal then asks an open question
    naming both (:func:`answer_conflicts`), never a silent last-wins.
    """

    path: str
    answers: tuple[str, ...]
    rule: str
    asks: bool = False


SHARED_INPUTS: tuple[SharedInput, ...] = (
    SharedInput(
        "data.tokens",
        ("data.dataset_size", "data.dataset_unit", "data.tokens_per_sample"),
        "A size counted in tokens is used as given; a size in samples is multiplied by the "
        "tokens per sample.",
    ),
    SharedInput(
        "data.samples",
        ("data.dataset_size", "data.dataset_unit"),
        "The size is the number of samples when it is counted in samples.",
    ),
    SharedInput(
        "data.dataset_size_tb",
        ("data.dataset_size", "data.dataset_unit"),
        "The size is the data on disk (in TB) when it is given as a storage size.",
    ),
    SharedInput(
        "batch.global_batch_tokens",
        ("batch.global_batch", "batch.global_batch_unit", "batch.sequence_length"),
        "A batch counted in tokens is used as given; a batch in samples is multiplied by the "
        "sequence length.",
    ),
    SharedInput(
        "training.experiments",
        ("method.experiments", "method.phases"),
        "The number of experiments counts the runs; the number of phases stands in only when "
        "the experiments are not given. Fewer experiments than phases is asked.",
        asks=True,
    ),
    SharedInput(
        "schedule.deadline_days",
        ("timeline.run_time_hours", "timeline.deadline", "roadmap.future_hours_per_run"),
        "The longest time for one run sets the deadline; the first-results date sets it only "
        "when no time per run is given (the days from the date of the answers), and the length "
        "of each future run (question 15) only when neither is. A date that comes before one "
        "run could finish is asked.",
        asks=True,
    ),
    SharedInput(
        "roadmap.runs_per_month",
        ("roadmap.future_runs_per_month", "timeline.runs_per_month"),
        "The runs a month once up and running (question 15, asked only where they differ from "
        "now) price the years; the runs a month of question 5 stand in when those are not "
        "given. Two different figures are the customer's plan to grow, not a conflict.",
    ),
    SharedInput(
        "resilience.spare_nodes",
        ("resilience.spare_nodes", "discovery.constraint"),
        "The answer about spare servers (question 13) is used as given; only when it is not "
        "given does the most important constraint decide: time keeps a spare server, budget "
        "keeps none.",
    ),
    SharedInput(
        "network.oversubscription",
        ("network.oversubscription", "discovery.constraint"),
        "The oversubscription chosen in question 10 is used as given; only when it is not given "
        "and budget matters most is a 2:1 network accepted.",
    ),
)


@dataclass(frozen=True)
class Conflict:
    """Two answers that feed one input and disagree: the proposal asks which holds.

    ``answers`` are the (slug, field) pairs that disagree, in the order to name them; ``used``
    says what the sizing went with, in words.
    """

    path: str
    answers: tuple[tuple[str, str], ...]
    used: str
    ask: str


def answer_conflicts(*, answers: dict[str, Any], today: date) -> tuple[Conflict, ...]:
    """Every :data:`SHARED_INPUTS` rule whose answers disagree (see each rule)."""
    c = _Context(answers or {}, {}, {}, today)
    found: list[Conflict] = []
    hours, days = c.value("timeline", "run_time_hours"), None
    if hours is not None:
        days = _days_until(c.value("timeline", "deadline"), today)
    if hours is not None and days is not None and days * 24.0 < hours:
        found.append(
            Conflict(
                "schedule.deadline_days",
                (("timeline", "deadline"), ("timeline", "run_time_hours")),
                "we sized the cluster to the time for one run",
                "Which comes first: the date, or the time one run may take?",
            )
        )
    experiments, phases = c.value("method", "experiments"), c.value("method", "phases")
    if experiments is not None and phases is not None and experiments < phases:
        found.append(
            Conflict(
                "training.experiments",
                (("method", "experiments"), ("method", "phases")),
                f"we planned {_whole(experiments)} {noun_for_count(experiments, 'full run')}",
                "How many full runs do you plan, counting every phase?",
            )
        )
    return tuple(found)
