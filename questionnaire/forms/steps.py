"""The pages around the questions: welcome, contact details and the review page."""

from __future__ import annotations

from crispy_forms.layout import HTML
from django import forms

from questionnaire.layouts import LaidOut, answer_fields


class WelcomeForm(forms.Form):
    """No fields: the welcome page only explains what happens and has a Start button."""


class ContactForm(LaidOut, forms.Form):
    # Each message names its field (GOV.UK error messages): "This field is required." three
    # times over says nothing about which box is empty.
    name = forms.CharField(
        label="Your full name",
        max_length=200,
        error_messages={
            "required": "Enter your full name.",
            "max_length": "Your full name must be 200 characters or fewer.",
        },
    )
    email = forms.EmailField(
        label="Work email address",
        max_length=254,
        error_messages={
            "required": "Enter your work email address.",
            "invalid": "Enter an email address in the correct format, like name@example.com.",
            "max_length": "Your email address must be 254 characters or fewer.",
        },
    )
    company = forms.CharField(
        label="Company or organisation",
        max_length=200,
        error_messages={
            "required": "Enter the name of your company or organisation.",
            "max_length": "The name of your company or organisation must be 200 characters or "
            "fewer.",
        },
    )
    role = forms.CharField(
        label="Your role (optional)",
        max_length=200,
        required=False,
        error_messages={"max_length": "Your role must be 200 characters or fewer."},
    )
    country = forms.CharField(
        label="Country (optional)",
        max_length=100,
        required=False,
        error_messages={"max_length": "The country must be 100 characters or fewer."},
    )
    consent = forms.BooleanField(
        label="I agree that you store my answers and contact details to prepare my proposal, "
        "as described in the privacy notice.",
        error_messages={"required": "Tick the box to agree to the privacy notice."},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        autocomplete = {
            "name": "name",
            "email": "email",
            "company": "organization",
            "role": "organization-title",
            "country": "country-name",
        }
        for name, token in autocomplete.items():
            self.fields[name].widget.attrs["autocomplete"] = token
        self.fields["email"].widget.attrs["spellcheck"] = "false"

    def layout_items(self) -> list:
        # The consent names the privacy notice: the notice comes right before it.
        details = [name for name in self.fields if name != "consent"]
        return [
            *answer_fields(self, details),
            HTML('{% include "questionnaire/_privacy_notice.html" %}'),
            *answer_fields(self, ["consent"]),
        ]

    def contact(self) -> dict[str, str | bool]:
        return {name: self.cleaned_data[name] for name in self.fields}


class ReviewForm(forms.Form):
    """The check-your-answers page: submitting it sends the questionnaire."""
