"""Receiving the uploaded file in memory only, whatever its size.

Django writes an upload above ``FILE_UPLOAD_MAX_MEMORY_SIZE`` to a temporary file. This handler
never does: it keeps the first ``MAX_FILE_BYTES + 1`` bytes (enough to tell the customer the
file is too large), counts the rest and drops it. The whole request body is bounded before this
by ``UPLOAD_LIMITS`` (config/uploads.py).
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler

from questionnaire.prefill.reading import MAX_FILE_BYTES


class InMemoryCappedUpload(FileUploadHandler):
    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.buffer = BytesIO()
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self.received += len(raw_data)
        room = MAX_FILE_BYTES + 1 - self.buffer.tell()
        if room > 0:
            self.buffer.write(raw_data[:room])
        return None

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.buffer.seek(0)
        return InMemoryUploadedFile(
            file=self.buffer,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=self.received,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )
