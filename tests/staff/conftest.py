import pytest

from tests.staff.factories import make_user


@pytest.fixture(autouse=True)
def _private_storage(settings, tmp_path):
    """Each test writes proposal PDFs into its own private directory."""
    settings.STORAGES = {
        **settings.STORAGES,
        "proposals": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": tmp_path / "private", "base_url": None},
        },
    }
    # Django's setting_changed handler resets the storage cache when STORAGES changes.


@pytest.fixture
def account_manager(db):
    return make_user("Account managers")


@pytest.fixture
def engineer(db):
    return make_user("Engineers")


@pytest.fixture
def superuser(db):
    return make_user("superuser")
