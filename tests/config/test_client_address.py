"""The client address from a configured trust boundary (config/client_address.py)."""

import ipaddress

import pytest
from django.test import RequestFactory

from config.client_address import client_address, client_ip, parse_hop

PROXY = "127.0.0.1"


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.TRUSTED_PROXY_COUNT = 1


def address(remote: str, forwarded_for: str | None = None) -> str:
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client_address(RequestFactory().get("/", **extra))


def test_without_a_trusted_proxy_the_socket_address_is_the_client(settings):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = [], 0
    assert address("203.0.113.5", "198.51.100.7") == "203.0.113.5"


def test_from_the_trusted_proxy_the_address_it_appended_is_the_client(behind_proxy):
    assert address(PROXY, "203.0.113.5") == "203.0.113.5"
    # Whatever the client sent itself stands to the left of what the proxy appended.
    assert address(PROXY, "198.51.100.7, 10.0.0.1, 203.0.113.5") == "203.0.113.5"
    assert address(PROXY, "::ffff:203.0.113.5") == "203.0.113.5"
    assert address(PROXY) == PROXY  # no header: the proxy itself


@pytest.mark.parametrize(
    "sent",
    [
        '10.8.0.5, "',  # the finding: the quote swallowed the address the proxy appended
        '"10.8.0.5, ',
        '10.8.0.5, "unknown',
        "10.8.0.5,",
        '"',
        "10.8.0.5 203.0.113.77",
        "for=10.8.0.5",
        "x" * 10_000,
    ],
)
def test_whatever_the_client_writes_the_address_the_proxy_appended_is_the_client(
    behind_proxy, sent
):
    assert address(PROXY, f"{sent}, 203.0.113.5") == "203.0.113.5"


def test_a_malformed_entry_from_the_proxy_counts_as_no_header_not_as_the_clients_word(
    behind_proxy,
):
    for appended in ("unknown", '"', "", "10.8.0.5 203.0.113.5", "300.1.1.1"):
        assert address(PROXY, f"10.8.0.5, {appended}") == PROXY


def test_a_forwarded_for_header_from_an_untrusted_address_is_ignored(behind_proxy):
    assert address("203.0.113.9", "198.51.100.7") == "203.0.113.9"
    assert address("203.0.113.9", '198.51.100.7, "') == "203.0.113.9"


def test_two_proxies_by_count_take_the_entry_the_outer_one_appended(settings):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = ["10.0.0.0/8"], 2
    assert address("10.0.0.2", "198.51.100.7, 203.0.113.5, 10.0.0.1") == "203.0.113.5"
    assert address("10.0.0.2", '198.51.100.7, 198.51.100.8, ", 203.0.113.5, 10.0.0.1') == (
        "203.0.113.5"
    )


def test_with_two_proxies_a_hop_that_is_no_proxy_is_the_client(settings):
    # Straight to the inner proxy: the address it appended is not a proxy's, so it is the
    # client, and the entry left of it (the client's own) is not read.
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = ["10.0.0.0/8"], 2
    assert address("10.0.0.2", "198.51.100.7, 203.0.113.5") == "203.0.113.5"
    # An outer proxy that wrote nothing readable: the outer proxy's address, never the client's.
    assert address("10.0.0.2", '198.51.100.7, ", 10.0.0.1') == "10.0.0.1"


def test_a_count_without_a_list_trusts_the_peer_and_reads_that_many_entries(settings):
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT = [], 1
    assert address("192.0.2.1", '198.51.100.7, ", 203.0.113.5') == "203.0.113.5"
    assert address("192.0.2.1", '198.51.100.7, "') == "192.0.2.1"


def test_a_request_without_an_address_gives_none_to_django_axes_and_unknown_to_the_limits():
    request = RequestFactory().get("/")
    del request.META["REMOTE_ADDR"]
    assert client_ip(request) is None
    assert client_address(request) == "unknown"


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("203.0.113.5", "203.0.113.5"),
        (" \t203.0.113.5 ", "203.0.113.5"),
        ("203.0.113.5:443", "203.0.113.5"),
        ("2001:db8::1", "2001:db8::1"),
        ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("[2001:db8::1]:443", "2001:db8::1"),
        ("::ffff:203.0.113.5", "203.0.113.5"),
        ("[::ffff:cb00:7105]:80", "203.0.113.5"),
    ],
)
def test_an_entry_may_carry_a_port_and_brackets(entry, expected):
    assert parse_hop(entry) == ipaddress.ip_address(expected)


@pytest.mark.parametrize(
    "entry",
    [
        "",
        '"',
        '"203.0.113.5"',
        "unknown",
        "_hidden",
        "for=203.0.113.5",
        "203.0.113.5 198.51.100.7",
        "203.0.113",
        "203.0.113.256",
        "203.000.113.5",
        "203.0.113.5:",
        "203.0.113.5:0",
        "203.0.113.5:65536",
        "203.0.113.5:８０",
        "２０３.0.113.5",
        "[203.0.113.5]",
        "[2001:db8::1",
        "[2001:db8::1]443",
        "[2001:db8::1]:",
        "2001:db8::1:443:",
        "fe80::1%eth0",
        "203.0.113.0/24",
        "1" * 100,
    ],
)
def test_anything_but_one_address_is_malformed(entry):
    assert parse_hop(entry) is None
