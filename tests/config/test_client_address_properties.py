"""Property tests of the client address (config/client_address.py) over generated headers.

A client controls everything it sends in ``X-Forwarded-For``; each trusted proxy then appends,
after a comma, the address that connected to it (nginx's ``$proxy_add_x_forwarded_for``). The
properties: the key a client gets is the address its nearest proxy saw, whatever it wrote
(quotes, commas, spaces, IPv6, ports, garbage, empty entries, very long headers), so it never
depends on the client's own text and never equals an address the client invented; a proxy that
appends something unreadable gives a proxy's address, never one the client wrote; and a
request that does not come from a trusted proxy is keyed on its socket address.
"""

from __future__ import annotations

import ipaddress

from django.test import RequestFactory, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.client_address import client_ip, parse_networks
from tests.config.proxy_layouts import EACH_LAYOUT, Layout

MANY = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def key(layout: Layout, socket_address: str, header: str | None) -> str | None:
    """The key the rate limits and django-axes give this request (:func:`client_ip`)."""
    meta = {"REMOTE_ADDR": socket_address}
    if header is not None:
        meta["HTTP_X_FORWARDED_FOR"] = header
    with override_settings(TRUSTED_PROXIES=list(layout.trusted), TRUSTED_PROXY_COUNT=layout.count):
        return client_ip(RequestFactory().get("/", **meta))


def canonical(address: str) -> str:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


addresses = st.ip_addresses().map(str)


def as_written(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, form: str, port: int):
    """(what a proxy writes for the address that connected to it, the key it must give)."""
    expected = canonical(str(ip))
    if form == "dual-stack" and ip.version == 4:  # IPv4 as a dual-stack listener writes it
        return f"::ffff:{ip}", expected
    if form == "port":
        return (f"{ip}:{port}" if ip.version == 4 else f"[{ip}]:{port}"), expected
    return str(ip), expected


peers = st.builds(
    as_written,
    st.ip_addresses(),
    st.sampled_from(["plain", "dual-stack", "port"]),
    st.integers(1, 65535),
)
# What a client may write in one entry: addresses in every form, quotes, junk, nothing.
invented_entries = st.one_of(
    peers.map(lambda peer: peer[0]),
    addresses.map(lambda a: f'"{a}"'),
    addresses.map(lambda a: f"[{a}]"),
    addresses.map(lambda a: f"for={a}"),
    st.sampled_from(['"', '""', "'", "unknown", "_hidden", "[", "]", ":", ";", "", " ", "\t"]),
    # header characters: visible ASCII, space, tab and obs-text (latin-1), never CR or LF
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF) | st.just("\t"), max_size=60),
)
separators = st.sampled_from([",", ", ", " ,", ",,", ', "', '" ,', ",\t"])


@st.composite
def client_headers(draw: st.DrawFn) -> str | None:
    """A header a client might send, or none at all."""
    shape = draw(st.sampled_from(["none", "entries", "text", "long"]))
    if shape == "none":
        return None
    if shape == "text":
        return draw(invented_entries)
    entries = draw(st.lists(invented_entries, max_size=12))
    gaps = draw(st.lists(separators, min_size=len(entries), max_size=len(entries)))
    text = "".join(entry + gap for entry, gap in zip(entries, gaps, strict=True))
    if shape == "long":  # past any header-size limit a server would let through
        text = (text or "203.0.113.1, ") * draw(st.integers(200, 2000))
    return text + draw(st.sampled_from(["", '"', "'", ",", ", "]))


malformed_entries = st.one_of(
    st.sampled_from(['"', "unknown", "_hidden", "", "300.1.1.1", "[::1", "1.2.3.4:0", "::1%lo"]),
    st.text(st.characters(min_codepoint=ord("g"), max_codepoint=ord("z")), min_size=1),
    addresses.map(lambda a: f'"{a}"'),
)


@EACH_LAYOUT
@MANY
@given(sent=client_headers(), client=peers)
def test_the_key_is_the_address_the_nearest_proxy_saw_whatever_the_client_wrote(
    layout, sent, client
):
    written, expected = client
    assert key(layout, *layout.forwarded(written, sent)) == expected


@EACH_LAYOUT
@MANY
@given(sent=client_headers(), other=client_headers(), client=peers)
def test_the_key_never_depends_on_the_clients_own_text(layout, sent, other, client):
    first = key(layout, *layout.forwarded(client[0], sent))
    second = key(layout, *layout.forwarded(client[0], other))
    assert first == second


@EACH_LAYOUT
@MANY
@given(invented=st.lists(peers, min_size=1, max_size=4), tail=separators, client=peers)
def test_the_key_is_never_an_address_the_client_invented(layout, invented, tail, client):
    written, real = client
    sent = ", ".join(text for text, _ in invented) + tail + '"'
    result = key(layout, *layout.forwarded(written, sent))
    assert result not in {invented_key for _, invented_key in invented} - {real}


@EACH_LAYOUT
@MANY
@given(sent=client_headers(), unreadable=malformed_entries)
def test_an_unreadable_entry_from_the_nearest_proxy_gives_that_proxys_address(
    layout, sent, unreadable
):
    # The outermost proxy appended something that is not an address: the client is then the
    # last hop we can read, which is a proxy (the socket peer with one, the outer one with two).
    socket_address, header = layout.forwarded(unreadable, sent)
    assert key(layout, socket_address, header) == layout.proxies[0]


@EACH_LAYOUT
@MANY
@given(sent=client_headers(), direct=addresses)
def test_a_request_that_bypasses_the_proxies_is_keyed_on_its_socket_address(layout, sent, direct):
    if any(
        ipaddress.ip_address(canonical(direct)) in net for net in parse_networks(layout.trusted)
    ):
        direct = "192.0.2.1"  # a proxy's own address is not a bypass
    assert key(layout, direct, sent) == canonical(direct)
