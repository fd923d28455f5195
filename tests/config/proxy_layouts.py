"""The trusted-proxy layouts the documentation describes, and what gunicorn receives through
them: each proxy appends the address that connected to it to ``X-Forwarded-For``, as nginx's
``$proxy_add_x_forwarded_for`` does (tests of config/client_address.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Layout:
    trusted: tuple[str, ...]  # DJANGO_TRUSTED_PROXIES
    count: int  # DJANGO_TRUSTED_PROXY_COUNT
    proxies: tuple[str, ...]  # their addresses, outermost first; the last is gunicorn's peer

    def apply(self, settings) -> None:
        settings.TRUSTED_PROXIES = list(self.trusted)
        settings.TRUSTED_PROXY_COUNT = self.count

    def forwarded(self, client: str, sent: str | None = None) -> tuple[str, str]:
        """(socket address, X-Forwarded-For) for a client at ``client`` sending ``sent``."""
        header, peer = sent, client
        for proxy in self.proxies:
            header = peer if header is None else f"{header}, {peer}"
            peer = proxy
        assert header is not None
        return peer, header

    def meta(self, client: str, sent: str | None = None) -> dict[str, str]:
        """The request's META entries, for Django's test client."""
        socket_address, header = self.forwarded(client, sent)
        return {"REMOTE_ADDR": socket_address, "HTTP_X_FORWARDED_FOR": header}


# One nginx on the host (README, "Running it for real"); a TLS proxy then the compose `proxy`
# on the compose network (docker-compose.yml, .env.example).
ONE_PROXY = Layout(("127.0.0.1",), 1, ("127.0.0.1",))
TWO_PROXIES = Layout(("172.30.16.0/24",), 2, ("172.30.16.2", "172.30.16.3"))
EACH_LAYOUT = pytest.mark.parametrize("layout", [ONE_PROXY, TWO_PROXIES], ids=["one", "two"])
