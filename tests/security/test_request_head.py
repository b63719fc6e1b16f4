"""A request head is bounded: past ``server.max_head_bytes`` or ``server.max_headers`` a 431, and
a huge head streamed at the gateway costs it no more memory than the limit."""

from __future__ import annotations

import select
import socket

import orjson

from tests.conftest import GatewayFactory

MB = 1 << 20


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _stream_head(url: str, total: int) -> tuple[int, bytes]:
    """Send ``GET /healthz`` with one header of ``total`` bytes, 1 MB at a time, until the server
    answers; (bytes sent, the answer)."""
    sock = socket.create_connection(_address(url), timeout=60)
    piece = b"a" * MB
    sent = 0
    with sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nhost: gateway\r\nx-big: ")
        while sent < total:
            sock.sendall(piece)
            sent += len(piece)
            if select.select([sock], [], [], 0)[0]:
                break
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return sent, answer


def _status_and_error(answer: bytes) -> tuple[int, dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), orjson.loads(body)["error"]


def test_a_huge_streamed_head_gets_431_and_costs_no_memory(gateway: GatewayFactory) -> None:
    with gateway() as url:
        before = _rss_mb()
        results = [_stream_head(url, 64 * MB) for _ in range(3)]
        grown = _rss_mb() - before
    for sent, answer in results:
        status, error = _status_and_error(answer)
        assert status == 431, answer[:200]
        assert error["code"] == "request_header_fields_too_large"
        assert "server.max_head_bytes" in str(error["message"])
        assert sent < 16 * MB  # answered long before the whole head was sent
    assert grown < 50, f"RSS grew {grown:.0f} MB"


def test_a_head_just_over_the_limit_in_one_piece_gets_431(gateway: GatewayFactory) -> None:
    with gateway(server={"max_head_bytes": 4096}) as url, socket.create_connection(_address(url), timeout=60) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nhost: g\r\nx-a: " + b"b" * 5000 + b"\r\n\r\n")
        answer = sock.recv(65536)
    assert _status_and_error(answer)[0] == 431


def test_too_many_headers_get_431(gateway: GatewayFactory) -> None:
    lines = b"".join(b"x-h%d: v\r\n" % i for i in range(101))
    with gateway() as url, socket.create_connection(_address(url), timeout=60) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nhost: g\r\n" + lines + b"\r\n")
        answer = sock.recv(65536)
    status, error = _status_and_error(answer)
    assert status == 431 and "server.max_headers" in str(error["message"])


def test_heads_within_the_limit_and_big_bodies_pass(gateway: GatewayFactory) -> None:
    body = b'{"title": "T", "content": "' + b"x" * 300_000 + b'", "category": "technical"}'
    head = (
        b"POST /api/memories HTTP/1.1\r\nhost: g\r\nauthorization: Bearer k\r\nx-memorelay-user: u\r\n"
        b"content-type: application/json\r\nx-pad: " + b"p" * 40_000 + b"\r\ncontent-length: %d\r\n\r\n" % len(body)
    )
    with gateway() as url, socket.create_connection(_address(url), timeout=60) as sock:
        sock.sendall(head + body)  # one write: the head and a body far over the head limit together
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 400") or answer.startswith(b"HTTP/1.1 201"), answer[:300]
    assert b"server.max_head_bytes" not in answer
