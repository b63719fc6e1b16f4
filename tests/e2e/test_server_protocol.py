"""A stalled request head or body is cut off after its deadline."""

from __future__ import annotations

import logging
import socket
import time

import orjson
import pytest

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

TIMEOUTS = {"server": {"header_timeout_s": 0.5, "body_timeout_s": 0.5}}


def _stall(url: str, sent: bytes) -> tuple[bytes, float]:
    """Send ``sent`` and nothing more; return what the server answered before closing, and when."""
    host, port = url.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(sent)
        reply = b""
        while data := sock.recv(65536):
            reply += data
    return reply, time.monotonic() - started


def _error(reply: bytes) -> dict[str, object]:
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), reply
    error: dict[str, object] = orjson.loads(body)["error"]
    return error


def test_a_stalled_head_is_cut_off(gateway: GatewayFactory) -> None:
    with gateway(**TIMEOUTS) as url:
        reply, took = _stall(url, b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bea")
        silent, silent_took = _stall(url, b"")
    assert _error(reply)["code"] == "request_timeout" and took < 5
    assert silent == b"" and silent_took < 5


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/api/memories", "/v1/embeddings"])
def test_a_stalled_body_gets_a_408(
    gateway: GatewayFactory, fake: FakeUpstream, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    caplog.set_level(logging.WARNING)
    head = f"POST {path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\nx-memorelay-user: u\r\n"
    with gateway(**TIMEOUTS) as url:
        reply, took = _stall(url, head.encode() + b"content-length: 100\r\n\r\n" + b'{"model": "m"')
    error = _error(reply)
    assert error["code"] == "request_timeout" and "body_timeout_s" in str(error["message"])
    assert took < 5
    assert fake.received == []
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


def test_a_slow_but_timely_request_is_served(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    body = b'{"model":"m","messages":[{"role":"user","content":"hi"}]}'
    head = (
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\nconnection: close\r\n"
        b"content-type: application/json\r\n"
    )
    with gateway(server={"header_timeout_s": 2, "body_timeout_s": 2}) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(head)
            time.sleep(0.3)
            sock.sendall(b"content-length: %d\r\n\r\n" % len(body) + body[:10])
            time.sleep(0.3)
            sock.sendall(body[10:])
            reply = b""
            while data := sock.recv(65536):
                reply += data
    assert reply.startswith(b"HTTP/1.1 200 ")
    assert fake.last_chat().raw == body


def test_a_body_deadline_shorter_than_the_head_deadline_still_holds(gateway: GatewayFactory) -> None:
    head = b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\ncontent-length: 100\r\n\r\n"
    with gateway(server={"header_timeout_s": 8, "body_timeout_s": 0.5}) as url:
        reply, took = _stall(url, head + b"{")
    assert _error(reply)["code"] == "request_timeout" and took < 4
