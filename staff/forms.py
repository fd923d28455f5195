"""Forms for the staff workflow: status and assignment, notes, engineer overrides.

The override form is derived from the engine's own input schema, so every field the engine
accepts can be overridden and a field added to the engine appears here without an edit.
"""

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q

from questionnaire.models import Submission
from sizing.engine import ACCELERATORS
from sizing.engine.validation import SCHEMA
from staff.workflow import Status, account_managers, allowed_transitions

# Shown open at the top of the override form; the other sections sit folded below.
PRIMARY_SECTIONS = ("hardware", "schedule", "parallelism", "prices", "training", "roadmap")


class SubmissionWorkflowForm(forms.ModelForm):
    """The only fields staff edit on a submission: where it stands and who owns it."""

    class Meta:
        model = Submission
        fields = ["status", "assignee"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        current = self.instance.status if self.instance.pk else Status.NEW
        if "status" in self.fields:
            allowed = {current, *allowed_transitions(current)}
            self.fields["status"].choices = [
                (value, label) for value, label in Status.choices if value in allowed
            ]
            self.fields["status"].help_text = "Only the next steps of the workflow are offered."
        if "assignee" in self.fields:
            # Account managers, plus whoever holds it now (even if no longer one).
            self.fields["assignee"].queryset = get_user_model().objects.filter(
                Q(pk__in=account_managers().values("pk")) | Q(pk=self.instance.assignee_id)
            )
            self.fields["assignee"].help_text = "An account manager."

    def clean_status(self) -> str:
        status = self.cleaned_data["status"]
        current = self.instance.status
        if status != current and status not in allowed_transitions(current):
            raise ValidationError("That step is not allowed from the current status.")
        return status


class NoteForm(forms.Form):
    text = forms.CharField(
        label="Internal note",
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Visible to staff only; stamped with your name and the time.",
    )


def _field_for(section: str, name: str, spec: Any, current: Any) -> forms.Field:
    attrs = {"placeholder": "" if current is None else str(current)}
    shown = "not set (engine default)" if current is None else _initial(current)
    help_text = f"{section}.{name}: {spec.what}. Current run: {shown}."
    if spec.kind == "enum":
        help_text = f"{section}.{name}. Current run: {shown}."
    label = name.replace("_", " ").capitalize()
    common = {"required": False, "label": label, "help_text": help_text}
    if spec.kind == "number":
        return forms.FloatField(widget=forms.NumberInput(attrs={**attrs, "step": "any"}), **common)
    if spec.kind == "int":
        return forms.IntegerField(widget=forms.NumberInput(attrs=attrs), **common)
    if spec.kind == "bool":
        return forms.NullBooleanField(**common)
    if spec.kind == "enum":
        names = {a.id: f"{a.name} ({a.id})" for a in ACCELERATORS.values()}
        choices = [("", "—")] + [(c, names.get(c, c)) for c in spec.choices]
        return forms.ChoiceField(choices=choices, **common)
    if spec.kind == "text_list":
        common["help_text"] = f"{help_text} Comma-separated."
    return forms.CharField(max_length=200, widget=forms.TextInput(attrs=attrs), **common)


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
        self, *args, current_input: dict | None = None, current_overrides: dict | None = None, **kw
    ) -> None:
        flat = _flatten(current_overrides or {})
        kw.setdefault("initial", {k: _initial(v) for k, v in flat.items()})
        super().__init__(*args, **kw)
        current_input = current_input or {}
        self.sections: list[tuple[str, list[str], bool]] = []
        for section, fields in SCHEMA.items():
            names = []
            for name, spec in fields.items():
                key = f"{section}.{name}"
                shown = (current_input.get(section) or {}).get(name)
                self.fields[key] = _field_for(section, name, spec, shown)
                names.append(key)
            self.sections.append((section, names, section in PRIMARY_SECTIONS))
        self.sections.sort(key=lambda s: (not s[2], _order(s[0])))

    def section_fields(self):
        """(section, bound fields, open) in display order, for the template."""
        for section, names, primary in self.sections:
            yield section, [self[name] for name in names], primary or self._has_values(names)

    def _has_values(self, names: list[str]) -> bool:
        return any(self[name].value() not in (None, "", "unknown") for name in names)

    def overrides(self) -> dict[str, Any]:
        """The filled-in fields as dotted engine paths (what ``rerun_sizing`` accepts)."""
        result: dict[str, Any] = {}
        for key, value in self.cleaned_data.items():
            if key == "reason" or value in (None, ""):
                continue
            section, _, name = key.partition(".")
            if SCHEMA[section][name].kind == "text_list":
                value = [item.strip() for item in value.split(",") if item.strip()]
            result[key] = value
        return result


def _order(section: str) -> int:
    return PRIMARY_SECTIONS.index(section) if section in PRIMARY_SECTIONS else len(SCHEMA)


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
