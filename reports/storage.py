"""Storage for proposal PDFs: files that must never have a public address."""

from django.core.files.storage import FileSystemStorage, storages


class PrivateFileSystemStorage(FileSystemStorage):
    """A file system storage without URLs.

    Django's FileSystemStorage falls back to MEDIA_URL when ``base_url`` is None, which would
    hand out a guessable public path. Proposals are only ever streamed by the download view,
    which checks permissions, so asking for a URL is a programming error.
    """

    def url(self, name: str | None) -> str:
        raise NotImplementedError(
            "proposal files have no public URL; link to the permission-checked download view"
        )


def proposal_storage():
    """The storage of proposal PDFs; a callable, so tests and deployments can swap it."""
    return storages["proposals"]


def proposal_path(instance, filename: str) -> str:
    """Where one proposal version's PDF is kept: under the submission's public id."""
    return f"proposals/{instance.submission.public_id}/v{instance.version}-{filename}"
