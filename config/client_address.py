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

Each trusted proxy appends, after a comma, the address that connected to it. So the hops are
read from the right: the socket peer, then the last entry (what that proxy saw), then the one
before it, and so on, at most ``count`` entries. The client is the first hop that is not a
trusted proxy, or the entry the outermost proxy appended. Everything left of those entries was
written by the client and is never read: not its quotes (a quote does not group entries here,
which is how django-ipware's lenient parse let ``X-Forwarded-For: 10.8.0.5, "`` choose the
address, issue 25), not its commas, not its length. An entry that is not exactly one address
(an optional port, brackets around IPv6) stops the walk: the client is then the last hop we
could read, a proxy's address rather than anything the client wrote. The rate limits
(``config.ratelimit``) and django-axes (``AXES_CLIENT_IP_CALLABLE``) both use :func:`client_ip`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
UNKNOWN = "unknown"
# Longest entry worth parsing: a bracketed IPv6 address with a port ("[" + 39 + "]:65535").
_LONGEST_ENTRY = 47
_HTTP_WHITESPACE = " \t"


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``["127.0.0.1", "10.0.0.0/8"]`` as networks; a bad entry raises ValueError."""
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def parse_hop(entry: str) -> Address | None:
    """One hop as an address, or None when ``entry`` is not exactly one.

    Accepted: ``203.0.113.5``, ``203.0.113.5:443``, ``2001:db8::1``, ``[2001:db8::1]`` and
    ``[2001:db8::1]:443``, with spaces or tabs around; an IPv4-mapped IPv6 address is its IPv4
    address (a dual-stack proxy writes ``::ffff:203.0.113.5``). A scope (``fe80::1%eth0``) is
    refused: no proxy appends one, and it would give one client several keys.
    """
    text = entry.strip(_HTTP_WHITESPACE)
    if not text.isascii() or len(text) > _LONGEST_ENTRY:
        return None
    host, port, bracketed = text, None, text.startswith("[")
    if bracketed:
        host, closed, after = text[1:].partition("]")
        if not closed or after[:1] not in ("", ":"):
            return None
        port = after[1:] if after else None
    elif text.count(":") == 1:  # IPv4 with a port; IPv6 has two colons at least
        host, _, port = text.partition(":")
    if port is not None and not (port.isdigit() and 0 < int(port) < 65536):
        return None
    if "%" in host:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if bracketed and not isinstance(address, ipaddress.IPv6Address):
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_from_hops(
    socket_address: str,
    forwarded_for: str | None,
    *,
    trusted: tuple[Network, ...],
    count: int,
) -> str | None:
    """The client's address from the socket peer and ``X-Forwarded-For`` (None if unknown).

    ``trusted`` are the proxies' networks (empty: any peer is taken for a proxy) and ``count``
    how many proxies stand in front (0: the header is never read).
    """
    known = parse_hop(socket_address)
    if count < 1 or (trusted and not _is_trusted(known, trusted)):
        return None if known is None else str(known)
    # The last `count` entries are the ones our proxies appended; rsplit never looks further.
    appended = (forwarded_for or "").rsplit(",", count)[-count:]
    for entry in reversed(appended):
        hop = parse_hop(entry)
        if hop is None:  # malformed: as if that proxy had sent no header
            break
        known = hop
        if trusted and not _is_trusted(hop, trusted):  # the right-most hop that is no proxy
            break
    return None if known is None else str(known)


def _is_trusted(address: Address | None, networks: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The address that identifies the client for rate limits (``"unknown"`` if none)."""
    return client_ip(request) or UNKNOWN


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, or None when the request has none (django-axes' callable: it
    stores the address in an address column, which refuses a placeholder)."""
    return client_from_hops(
        request.META.get("REMOTE_ADDR") or "",
        request.META.get("HTTP_X_FORWARDED_FOR"),
        trusted=parse_networks(settings.TRUSTED_PROXIES),
        count=settings.TRUSTED_PROXY_COUNT,
    )
