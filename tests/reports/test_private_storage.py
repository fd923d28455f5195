import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages


def test_proposal_storage_never_hands_out_a_public_url(tmp_path, settings):
    storage = storages["proposals"]
    name = storage.save("proposals/check/v1-proposal.pdf", ContentFile(b"%PDF-1.7 test"))
    try:
        assert storage.exists(name)
        with pytest.raises(NotImplementedError):
            storage.url(name)
    finally:
        storage.delete(name)
