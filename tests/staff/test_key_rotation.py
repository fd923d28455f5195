"""Rotating DJANGO_SECRET_KEY keeps the links it signed (issue 31): the old key goes to
DJANGO_SECRET_KEY_FALLBACKS (config/settings.py) until they expire."""

from urllib.parse import urlsplit

import pytest
from django.test import Client, override_settings

from staff import sharing
from tests.staff.factories import make_ready_submission

pytestmark = pytest.mark.django_db

KEY = "a-long-random-production-secret-" + "x7Qp2Lm9" * 6
OLD_KEY = "the-previous-production-secret-" + "Hn4Tq8Zc" * 6


def test_a_share_link_sent_before_the_key_was_rotated_still_opens(engineer):
    submission, _, proposal = make_ready_submission()
    with override_settings(SECRET_KEY=OLD_KEY, SECRET_KEY_FALLBACKS=[]):
        link = sharing.create_share_link(proposal=proposal, user=engineer)
        path = urlsplit(sharing.share_url(link)).path
    with override_settings(SECRET_KEY=KEY, SECRET_KEY_FALLBACKS=[]):
        assert Client().get(path).status_code == 404  # what rotation did before
    with override_settings(SECRET_KEY=KEY, SECRET_KEY_FALLBACKS=[OLD_KEY]):
        page = Client().get(path)
        assert page.status_code == 200
        assert submission.reference in page.content.decode()
