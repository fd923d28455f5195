"""The client's address, read through a configured trust boundary.

Behind a TLS-terminating reverse proxy every request arrives from the proxy's address, so
``REMOTE_ADDR`` alone puts every customer in one rate-limit bucket and every staff login behind
one lockout key. ``X-Forwarded-For`` names the real client, but any client can send one: it is
believed only when the request comes from a proxy we trust.

* ``TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``): the addresses or networks of the proxies that
  connect to gunicorn. A request from anywhere else is keyed on its socket address, whatever
  headers it carries.
* ``TRUSTED_PROXY_COUNT`` (``DJANGO_TRUSTED_PROXY_COUNT``): how many proxies stand in front,
  each appending the address it saw to ``X-Forwarded-For`` (1 for one nginx; the default when
  ``TRUSTED_PROXIES`` is set). With a count and no list, every request is assumed to come
  through the proxies, so use a count alone only where gunicorn cannot be reached directly.

The client is then the entry that the outermost trusted proxy appended: the one ``count`` places
from the right of ``X-Forwarded-For``. Entries further left were sent by the client and are
ignored, so a spoofed header cannot pick the bucket. django-ipware does the header parsing
(ports, brackets, IPv4-mapped IPv6, malformed entries). The rate limits (``config.ratelimit``)
and django-axes (``AXES_CLIENT_IP_CALLABLE``) both use :func:`client_ip`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest
from ipware import get_client_ip

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
UNKNOWN = "unknown"


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``["127.0.0.1", "10.0.0.0/8"]`` as networks; a bad entry raises ValueError."""
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The address that identifies the client for rate limits (``"unknown"`` if none)."""
    return client_ip(request) or UNKNOWN


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, or None when the request has none (django-axes' callable: it
    stores the address in an address column, which refuses a placeholder)."""
    socket_address = request.META.get("REMOTE_ADDR") or None
    networks = parse_networks(settings.TRUSTED_PROXIES)
    count = settings.TRUSTED_PROXY_COUNT
    if count < 1 or (networks and not _is_trusted(socket_address or "", networks)):
        return socket_address
    # ipware's proxy count is the number of proxies listed *inside* the header: the last proxy
    # is the socket peer, so one nginx means a header holding just the client (count 0).
    forwarded, _routable = get_client_ip(
        request,
        proxy_order="left-most",
        proxy_count=count - 1,
        request_header_order=["HTTP_X_FORWARDED_FOR"],
        strict=False,
    )
    return forwarded or socket_address
