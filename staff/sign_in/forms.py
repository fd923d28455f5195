from crispy_forms.helper import FormHelper
from django import forms

from staff.admin_layouts import admin_helper, admin_rows
from staff.sign_in.devices import is_code_shaped, normalize_code


class CodeForm(forms.Form):
    """One box for the authenticator's six digits or a recovery code."""

    code = forms.CharField(
        label="Code",
        max_length=32,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "one-time-code",
                "autocapitalize": "none",
                "spellcheck": "false",
                "autofocus": True,
            }
        ),
    )

    @property
    def helper(self) -> FormHelper:
        return admin_helper(*admin_rows("code"))

    def clean_code(self) -> str:
        code = normalize_code(self.cleaned_data["code"])
        if not is_code_shaped(code):
            raise forms.ValidationError(
                "Type the six digits your authenticator app shows now, or one of your "
                "recovery codes."
            )
        return code
