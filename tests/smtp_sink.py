"""A tiny SMTP server for tests: accepts every message on 127.0.0.1 and keeps it.

Enough of RFC 5321 for Django's SMTP backend (smtplib): greeting, EHLO/HELO, MAIL, RCPT, DATA
with dot-unstuffing, RSET, NOOP, QUIT; no TLS, no authentication. The standard library only
(``smtpd`` is deprecated and gone in Python 3.12), so a CI run sends real SMTP without a package.
"""

import email
import socketserver
import threading
import time
from email.message import EmailMessage
from email.policy import default


def subject(message: EmailMessage) -> str:
    """The subject as a reader sees it (a folded, encoded header unfolds with a leading space)."""
    return " ".join(str(message["Subject"]).split())


class _Session(socketserver.StreamRequestHandler):
    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.reply("220 sink ESMTP ready")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line.decode(errors="replace").strip().split(" ", 1)[0].upper()
            if verb == "EHLO":
                self.wfile.write(b"250-sink\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
            elif verb in ("HELO", "MAIL", "RCPT", "RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                self.server.sink.received(self._read_data())
                self.reply("250 OK: queued")
            elif verb == "QUIT":
                self.reply("221 Bye")
                return
            else:
                self.reply("502 Command not implemented")

    def _read_data(self) -> bytes:
        lines = []
        while True:
            line = self.rfile.readline()
            if line in (b".\r\n", b".\n", b""):
                return b"".join(lines)
            lines.append(line[1:] if line.startswith(b"..") else line)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class SmtpSink:
    """Start with ``SmtpSink()``; ``port`` to point EMAIL_PORT at; ``stop()`` when done."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Session)
        self._server.sink = self
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def received(self, data: bytes) -> None:
        message = email.message_from_bytes(data, policy=default)
        with self._lock:
            self.messages.append(message)

    def wait_for(self, *, to: str, subject_starts: str, timeout: float = 60) -> EmailMessage:
        """The first message to ``to`` whose subject starts so; fails after ``timeout`` [s]."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for message in self.messages:
                    if to in str(message["To"]) and subject(message).startswith(subject_starts):
                        return message
            time.sleep(0.2)
        with self._lock:
            seen = [(str(m["To"]), subject(m)) for m in self.messages]
        raise AssertionError(f"no email to {to} starting {subject_starts!r}; got {seen}")

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
