"""Storage for proposal PDFs: files that must never have a public address.

Two backends, chosen by ``config/settings.py``: a folder under ``var/`` (the embedded default,
one host) or a private bucket of an S3-compatible object store (``S3_BUCKET``: any number of
web hosts and workers). Either way a proposal leaves storage only through the download views of
``staff.downloads``, after their permission check, streamed by the web process.
"""

from django.core.files.storage import FileSystemStorage, storages
from storages.backends.s3 import S3Storage

NO_URL = "proposal files have no public URL; link to the permission-checked download view"


class PrivateFileSystemStorage(FileSystemStorage):
    """A file system storage without URLs.

    Django's FileSystemStorage falls back to MEDIA_URL when ``base_url`` is None, which would
    hand out a guessable public path. Proposals are only ever streamed by the download view,
    which checks permissions, so asking for a URL is a programming error.
    """

    def url(self, name: str | None) -> str:
        raise NotImplementedError(NO_URL)


class PrivateS3Storage(S3Storage):
    """django-storages' S3 backend without URLs, for a private bucket.

    S3Storage would sign a URL that anyone holding it can use until it expires, outside the
    download log and the share link's revocation; the download views stream the object instead
    (docs/scaling.md says why). Objects are written without an ACL, so they keep the bucket's
    private default.
    """

    def url(self, name, parameters=None, expire=None, http_method=None) -> str:
        raise NotImplementedError(NO_URL)


def proposal_storage():
    """The storage of proposal PDFs; a callable, so tests and deployments can swap it."""
    return storages["proposals"]


def proposal_path(instance, filename: str) -> str:
    """Where one proposal version's PDF is kept: under the submission's public id."""
    return f"proposals/{instance.submission.public_id}/v{instance.version}-{filename}"
