"""Refuse file uploads where none is expected, reading at most a small form's worth of body.

Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` does not count the file parts of a multipart body, so
a 200 MB "file" posted to any form was read and spooled to disk. No page of this service takes a
file today, so on every page not listed in ``UPLOAD_LIMITS`` a multipart request is

* answered 413 from its headers alone when its declared length is unknown or above
  ``DATA_UPLOAD_MAX_MEMORY_SIZE``: nothing of the body is read;
* otherwise parsed here (ahead of the CSRF middleware, which would parse it for its token) with
  an upload handler that stops at the first file part, and answered 415 if there was one.

A multipart form without files (what Django's test client sends) is still accepted. A page
that does take a file is listed in ``UPLOAD_LIMITS`` (path regex -> most bytes of the body),
and a larger body, or one of unknown length, is answered 413 there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class _RefuseFiles(FileUploadHandler):
    """Stops parsing at the first file part and remembers that there was one."""

    saw_file = False

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        self.saw_file = True
        raise StopUpload(connection_reset=True)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        return None

    def file_complete(self, file_size: int) -> None:
        return None


def _upload_limit(path: str) -> int | None:
    for pattern, max_bytes in settings.UPLOAD_LIMITS.items():
        if re.match(pattern, path):
            return max_bytes
    return None


def _content_length(request: HttpRequest) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def _refused(request: HttpRequest, status: int, limit: int) -> HttpResponse:
    return render(
        request,
        "upload_refused.html",
        {"too_large": status == 413, "limit_kb": limit // 1024},
        status=status,
    )


class RefuseUnexpectedUploadsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.META.get("CONTENT_TYPE", "").lower().startswith("multipart/"):
            return self.get_response(request)
        length = _content_length(request)
        upload_limit = _upload_limit(request.path_info)
        if upload_limit is not None:
            if length is None or length > upload_limit:
                return _refused(request, 413, upload_limit)
            return self.get_response(request)
        form_limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if length is None or length > form_limit:
            return _refused(request, 413, form_limit)
        handler = _RefuseFiles(request)
        request.upload_handlers = [handler]
        request.POST  # noqa: B018 - parse now, with the handler above
        if handler.saw_file:
            return _refused(request, 415, form_limit)
        return self.get_response(request)
