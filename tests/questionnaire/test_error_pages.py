"""Error pages and messages a customer can act on: branded pages for 403, 404 and 500, and
contact-details errors that name the field."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.views import defaults

from questionnaire.forms.steps import ContactForm

pytestmark = pytest.mark.django_db


def test_an_unknown_address_gets_the_services_own_page_not_found(client):
    response = client.get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in page
    assert "Training infrastructure sizing" in page  # the site's header, not Django's bare page
    assert "your answers are saved" in page


def test_a_refused_page_says_why_and_where_to_go(rf: RequestFactory):
    response = defaults.permission_denied(rf.get("/staff/"), PermissionDenied())
    page = response.content.decode()
    assert response.status_code == 403
    assert "<h1>You cannot open this page</h1>" in page and 'href="/"' in page


def test_a_server_error_apologises_in_the_services_own_page(rf: RequestFactory):
    response = defaults.server_error(rf.get("/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Sorry, there is a problem with the service" in page
    assert "Training infrastructure sizing" in page


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", "Enter your full name."),
        ("email", "", "Enter your work email address."),
        ("email", "alex(at)example", "Enter an email address in the correct format"),
        ("company", "", "Enter the name of your company or organisation."),
        ("name", "x" * 201, "Your full name must be 200 characters or fewer."),
    ],
)
def test_each_contact_error_names_its_field(field: str, value: str, message: str):
    data = {
        "name": "Alex Example",
        "email": "alex@example.com",
        "company": "Example Research",
        "consent": "on",
        field: value,
    }
    form = ContactForm(data=data)
    assert not form.is_valid()
    assert [error for error in form.errors[field] if error.startswith(message)]
    assert "This field is required." not in str(form.errors)
