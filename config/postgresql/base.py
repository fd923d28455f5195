"""Django's PostgreSQL backend, its check of a kept connection at the start of each request made
without a round trip to the server (issue 29).

Connections are kept between requests (``CONN_MAX_AGE``) and checked before a request's first
query (``CONN_HEALTH_CHECKS``), so a request after a restart or a failover reconnects instead of
failing. Django checks with ``SELECT 1``: one more round trip in every request, a third of the
round trips of a questionnaire page, each waiting for PostgreSQL to be scheduled when the cores
are busy. Under the load test's scenario b it was 8 % of the web workers' time
(docs/load-results.md).

Whatever ends a connection from the server's side (a restart or a shutdown, a crash,
``pg_terminate_backend``, an idle-session timeout) sends its error, if it can, and closes the
socket; an idle connection of ours is sent nothing else, since nothing here LISTENs. So the
check here asks the kernel whether the socket has anything to read, or has been hung up, and
treats anything at all as a connection to drop: it costs no round trip, and a false alarm costs
only a new connection. A connection left inside a transaction is checked Django's way, as is one
after an error (``close_if_unusable_or_obsolete``, unchanged). What neither check can see is a
link cut without a word from the server; ``SELECT 1`` would wait on it the same way.
https://docs.djangoproject.com/en/5.2/ref/databases/#persistent-connections
https://www.postgresql.org/docs/15/protocol-flow.html#PROTOCOL-ASYNC (what the server sends
unasked)
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        """Django's check of a kept connection before a request's first query, made by asking the
        kernel (``nothing_to_read``) instead of the server."""
        if (
            self.pool  # the pool checks its own connections
            or self.connection is None
            or not self.health_check_enabled
            or self.health_check_done
        ):
            return
        if not self.nothing_to_read():
            self.close()
        self.health_check_done = True

    def nothing_to_read(self) -> bool:
        """Whether the connection is open, idle, and has been sent nothing since its last reply
        (module docstring); a connection inside a transaction is asked ``SELECT 1``."""
        connection = self.connection
        if connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return self.is_usable()
        poller = select.poll()
        # POLLHUP and POLLERR are reported whether asked for or not.
        poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
