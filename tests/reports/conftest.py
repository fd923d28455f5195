"""Fixtures for the proposal tests: a canary HTTP server that counts every request it gets."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO

import pytest
from pypdf import PdfReader


class Canary:
    def __init__(self) -> None:
        self.requests: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _handler(self):
        canary = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server API
                canary.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "text/css")
                self.end_headers()
                self.wfile.write(b"body { color: red }")

            def log_message(self, *args):
                pass

        return Handler


@pytest.fixture
def canary():
    server = Canary()
    server.thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(BytesIO(pdf))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def squash(text: str) -> str:
    """Whitespace-insensitive form, for comparing text extracted from a PDF."""
    return "".join(text.split())


def embedded_files(pdf: bytes) -> list:
    """Names of embedded files and file-attachment annotations in a PDF."""
    reader = PdfReader(BytesIO(pdf))
    found = []
    names = reader.trailer["/Root"].get("/Names")
    if names is not None and "/EmbeddedFiles" in names.get_object():
        found.append("/EmbeddedFiles")
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            if annotation.get_object().get("/Subtype") == "/FileAttachment":
                found.append("/FileAttachment")
    return found
