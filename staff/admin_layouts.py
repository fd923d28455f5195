"""Layouts of the staff forms shown inside the admin (issue 31): crispy layouts whose templates
(``templates/admin/crispy/``) draw the admin's own rows and fieldsets, because these pages use
the admin's styles, not Bootstrap's."""

from __future__ import annotations

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Field, Fieldset, Layout, LayoutObject

from questionnaire.layouts import Fold

ROW_TEMPLATE = "admin/crispy/form_row.html"


def admin_rows(*names: str) -> list[Field]:
    """Each field as an admin form row: its errors, label, input and help."""
    return [Field(name, template=ROW_TEMPLATE) for name in names]


def admin_fieldset(legend: str, *names: str) -> Fieldset:
    return Fieldset(
        legend,
        *admin_rows(*names),
        css_class="module aligned",
        template="admin/crispy/fieldset.html",
    )


def admin_fold(summary: str, *names: str, is_open: bool, css_class: str) -> Fold:
    """A section folded in ``<details>``, its heading in the summary (the admin's ``h2``)."""
    return Fold(
        summary,
        *admin_rows(*names),
        css_class=f"module aligned {css_class}",
        is_open=is_open,
        template="admin/crispy/fold.html",
    )


def admin_helper(*items: LayoutObject) -> FormHelper:
    """Fields only: the page's template holds the form tag, the CSRF token and the buttons."""
    helper = FormHelper()
    helper.form_tag = False
    helper.disable_csrf = True
    helper.form_show_errors = False  # the page shows the form's own errors above the fields
    helper.layout = Layout(*items)
    return helper
