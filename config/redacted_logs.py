"""Logs without share-link or resume tokens.

A share link (``/proposals/shared/<signed token>/``) opens a customer's proposal, and a resume
link emailed before tokens moved after ``#`` (``/q/resume/<token>/``) opens a questionnaire;
both are paths, so a plain log keeps a working link for as long as the log is kept. Every log
line that names such a path writes ``[token]`` in the token's place: gunicorn's access log
(``TokenRedactingLogger``, selected in ``gunicorn.conf.py``: request line, path, referrer, any
header or environment atom) and Django's own log (``TokenRedactingFilter`` on the console
handler, e.g. "Not Found: /proposals/shared/…/"). nginx's access log does the same
(``deploy/nginx/web.conf.template``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

# The two URL prefixes whose next path segment is a secret (config/urls.py mounts
# staff.download_urls at /proposals/ and questionnaire.urls at the root);
# tests/config/test_redacted_logs.py checks them against the URLconf.
_TOKEN_IN_PATH = re.compile(r"(/proposals/shared/|/q/resume/)[^/?#\s\"]+")


def without_tokens(text: str) -> str:
    """``text`` with every share-link or resume token replaced by ``[token]``."""
    return _TOKEN_IN_PATH.sub(r"\1[token]", text)


class TokenRedactingLogger(Logger):
    """Gunicorn's logger, its access-log values without tokens."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            key: without_tokens(value) if isinstance(value, str) else value
            for key, value in atoms.items()
        }


class TokenRedactingFilter(logging.Filter):
    """Rewrites each record's message without tokens; drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = without_tokens(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True
