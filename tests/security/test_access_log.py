"""A client cannot write a line of its own into the access log."""

from __future__ import annotations

import socket

import pytest

from tests.conftest import GatewayFactory


def test_line_breaks_and_control_characters_in_the_path_are_escaped(
    gateway: GatewayFactory, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "/healthz%0D%0A127.0.0.1%20GET%20/api/admin/export%20200%201.0ms%1B[31m"
    with caplog.at_level("INFO", logger="memorelay.access"), gateway() as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            sock.sendall(f"GET {forged} HTTP/1.1\r\nhost: g\r\nconnection: close\r\n\r\n".encode())
            while sock.recv(65536):
                pass
    lines = [r.getMessage() for r in caplog.records if r.name == "memorelay.access"]
    assert len(lines) == 1
    line = lines[0]
    assert "\n" not in line and "\r" not in line and "\x1b" not in line
    assert "\\r\\n127.0.0.1 GET /api/admin/export" in line and "\\x1b" in line
