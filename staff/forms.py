"""Forms for the staff workflow: assignment, notes, sending, engineer overrides.

The override form is derived from the engine's own input schema, so every field the engine
accepts can be overridden and a field added to the engine appears here without an edit; each
field says what the engine chose in the current version.
"""

from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q

from questionnaire.models import Submission
from sizing.public import (
    SCHEMA,
    SOURCES,
    describe_value,
    form_label,
    read_result,
    value_words,
)
from staff.admin_layouts import admin_fieldset, admin_fold, admin_helper
from staff.sending import NOTE_MAX_CHARS
from staff.workflow import account_managers, full_name

# Shown open at the top of the override form; the other sections sit folded below.
PRIMARY_SECTIONS = ("hardware", "schedule", "parallelism", "prices", "training", "roadmap")


class AccountManagerField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return full_name(obj)


class SubmissionWorkflowForm(forms.ModelForm):
    """The one field staff edit on a submission: who owns it. The status moves only through
    the workflow's actions (approve, send, won, lost, close, reopen)."""

    class Meta:
        model = Submission
        fields = ["assignee"]
        field_classes = {"assignee": AccountManagerField}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if "assignee" in self.fields:
            # Account managers, plus whoever holds it now (even if no longer one).
            self.fields["assignee"].queryset = (
                get_user_model()
                .objects.filter(
                    Q(pk__in=account_managers().values("pk")) | Q(pk=self.instance.assignee_id)
                )
                .order_by("first_name", "last_name", "username")
            )
            self.fields[
                "assignee"
            ].help_text = (
                "The account manager who owns it gets its emails (all of them while nobody does)."
            )


class SendForm(forms.Form):
    note = forms.CharField(
        label="Personal note to the customer",
        max_length=NOTE_MAX_CHARS,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        help_text="Put at the top of the email, above the link. A few friendly sentences.",
    )


class NoteForm(forms.Form):
    text = forms.CharField(
        label="Internal note",
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Visible to staff only; stamped with your name and the time.",
    )


def engine_choices(result: dict | None) -> dict[str, tuple[Any, str]]:
    """Per engine input path, the value the engine used in a version and where it came from:
    ``{"hardware.accelerator": ("h100-sxm", "assumed")}``, from the result's assumptions, and
    the parallelism and cluster it chose."""
    stored = read_result(result)
    chosen: dict[str, tuple[Any, str]] = {
        item.key: (item.value, item.provided_by) for item in stored.assumptions if "." in item.key
    }
    for name, value in stored.section("parallelism").items():
        if name in SCHEMA["parallelism"] and not isinstance(value, dict | list):
            chosen.setdefault(f"parallelism.{name}", (value, "engine"))
    if stored.accelerator:
        chosen.setdefault("hardware.accelerator", (stored.accelerator, "engine"))
    if stored.gpus:
        chosen.setdefault("hardware.count", (stored.gpus, "engine"))
    return chosen


# Where a value came from, for the override form (the customer's words are in SOURCES).
_PROVIDED_BY = {"assumed": "assumed by the engine", "engine": "chosen by the engine"}


def _chose(path: str, chosen: tuple[Any, str] | None, current: Any) -> str:
    """ "Engine used: NVIDIA H100 SXM5 80GB (chosen by the engine)"."""
    if chosen is None:
        if current is None:
            return "Engine used: its documented default."
        return f"Engine used: {describe_value(path, current)}."
    value, provided_by = chosen
    source = _PROVIDED_BY.get(provided_by) or SOURCES.get(provided_by) or provided_by
    return f"Engine used: {describe_value(path, value)} ({source})."


def _field_for(
    section: str, name: str, spec: Any, current: Any, chosen: tuple[Any, str] | None
) -> forms.Field:
    """One override field, named by the vocabulary: its label and unit (``form_label``), the
    words of each choice (``value_words``) and, as help, what it accepts and what the engine
    used. The dotted engine path stays the field's name only."""
    path = f"{section}.{name}"
    shown_value = chosen[0] if chosen is not None else current
    attrs = {"placeholder": "" if shown_value is None else str(_initial(shown_value))}
    used = _chose(path, chosen, current)
    help_text = (
        used if spec.kind in ("enum", "enum_list", "bool") else f"{_capfirst(spec.what)}. {used}"
    )
    common = {"required": False, "label": form_label(path), "help_text": help_text}
    if spec.kind == "number":
        return forms.FloatField(widget=forms.NumberInput(attrs={**attrs, "step": "any"}), **common)
    if spec.kind == "int":
        return forms.IntegerField(widget=forms.NumberInput(attrs=attrs), **common)
    if spec.kind == "bool":
        return forms.NullBooleanField(**common)
    choices = [(c, value_words(path, c)) for c in spec.choices]
    if spec.kind == "enum":
        return forms.ChoiceField(choices=[("", "—"), *choices], **common)
    if spec.kind == "enum_list":
        return forms.MultipleChoiceField(
            choices=choices, widget=forms.CheckboxSelectMultiple, **common
        )
    if spec.kind == "text_list":
        common["help_text"] = f"{help_text} Comma-separated."
    return forms.CharField(max_length=200, widget=forms.TextInput(attrs=attrs), **common)


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


class OverrideForm(forms.Form):
    """Engineer overrides of any engine input; blank means "use the customer's answer"."""

    reason = forms.CharField(
        label="Why",
        max_length=500,
        required=False,
        widget=forms.TextInput(attrs={"size": 80}),
        help_text="Optional; saved as a note with the re-run.",
    )

    def __init__(
        self,
        *args,
        current_input: dict | None = None,
        current_overrides: dict | None = None,
        current_result: dict | None = None,
        **kw,
    ) -> None:
        flat = _flatten(current_overrides or {})
        kw.setdefault(
            "initial", {k: v if _kind(k) == "enum_list" else _initial(v) for k, v in flat.items()}
        )
        super().__init__(*args, **kw)
        current_input = current_input or {}
        chosen = engine_choices(current_result)
        self.sections: list[tuple[str, list[str], bool]] = []
        for section, fields in SCHEMA.items():
            names = []
            for name, spec in fields.items():
                key = f"{section}.{name}"
                shown = (current_input.get(section) or {}).get(name)
                self.fields[key] = _field_for(section, name, spec, shown, chosen.get(key))
                names.append(key)
            self.sections.append((section, names, section in PRIMARY_SECTIONS))
        self.sections.sort(key=lambda s: (not s[2], _order(s[0])))

    def section_fields(self):
        """(section, bound fields, open) in display order, for the template."""
        for section, names, primary in self.sections:
            yield section, [self[name] for name in names], primary or self._has_values(names)

    @property
    def helper(self) -> FormHelper:
        """The reason, then one folded section of engine inputs each (open when it matters)."""
        return admin_helper(
            admin_fieldset("Reason", "reason"),
            *(
                admin_fold(
                    _capfirst(section),
                    *(field.name for field in fields),
                    is_open=is_open,
                    css_class="override-section",
                )
                for section, fields, is_open in self.section_fields()
            ),
        )

    def _has_values(self, names: list[str]) -> bool:
        return any(self[name].value() not in (None, "", "unknown") for name in names)

    def overrides(self) -> dict[str, Any]:
        """The filled-in fields as dotted engine paths (what ``rerun_sizing`` accepts)."""
        result: dict[str, Any] = {}
        for key, value in self.cleaned_data.items():
            if key == "reason" or value in (None, "", []):
                continue
            section, _, name = key.partition(".")
            if SCHEMA[section][name].kind == "text_list":
                value = [item.strip() for item in value.split(",") if item.strip()]
            result[key] = value
        return result


def _order(section: str) -> int:
    return PRIMARY_SECTIONS.index(section) if section in PRIMARY_SECTIONS else len(SCHEMA)


def _kind(key: str) -> str:
    section, _, name = key.partition(".")
    spec = SCHEMA.get(section, {}).get(name)
    return spec.kind if spec is not None else ""


def _flatten(nested: dict) -> dict[str, Any]:
    flat = {}
    for section, values in nested.items():
        if isinstance(values, dict):
            for name, value in values.items():
                flat[f"{section}.{name}"] = value
        else:
            flat[section] = values
    return flat


def _initial(value: Any) -> Any:
    return ", ".join(str(v) for v in value) if isinstance(value, list) else value
