"""uvicorn's httptools protocol with deadlines for the request head and body.

uvicorn bounds only the idle time between keep-alive requests: a client that
sends half a request head, or a Content-Length and then too few bytes, holds its
connection (and, for a body, a running request) for as long as it likes. Here:

* the head must be complete within ``server.header_timeout_s`` of the connection
  opening or of the request's first byte; else a 408 (if a request had begun) and close;
* the body must be complete within ``server.body_timeout_s`` of the head; else a 408
  in OpenAI's error shape, and the application sees the client disconnect. Time
  spent while the gateway itself holds reading back (flow control) does not count;
* the head (request line and headers) must fit in ``server.max_head_bytes`` and
  ``server.max_headers``; else a 431. Neither uvicorn nor httptools bounds it: the
  parser buffers a header value until it ends, so a 256 MB header cost 256 MB per
  connection. The bytes received while a head is incomplete are counted before the
  parser buffers more than one read past the limit.

Pass it to uvicorn with ``uvicorn.Config(http=http_protocol(config.server))``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gateway.config import ServerConfig
from gateway.errors import error_body


def _timeout_body(part: str, seconds: float, key: str) -> bytes:
    message = f"request {part} not received within {seconds:g} s (server.{key})"
    return orjson.dumps(error_body(message, "invalid_request_error", "request_timeout"))


def _head_too_large_body(why: str) -> bytes:
    return orjson.dumps(error_body(why, "invalid_request_error", "request_header_fields_too_large"))


def http_protocol(server: ServerConfig) -> type[HttpToolsProtocol]:
    """The protocol class for ``uvicorn.Config(http=...)`` with this config's deadlines and limits."""
    attributes = {
        "header_timeout_s": server.header_timeout_s,
        "body_timeout_s": server.body_timeout_s,
        "max_head_bytes": server.max_head_bytes,
        "max_headers": server.max_headers,
    }
    return type("GatewayHttpProtocol", (GatewayHttpProtocol,), attributes)


class _HeadTooLarge(Exception):
    """Raised from a parser callback: the head passed a limit (the parser then stops)."""


# after a 431 the rest of the client's head is read and dropped this long, so that closing with
# unread bytes does not reset the connection before the client has read the answer
_LINGER_S = 2.0


class GatewayHttpProtocol(HttpToolsProtocol):
    header_timeout_s = 10.0
    body_timeout_s = 30.0
    max_head_bytes = 65536
    max_headers = 100

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # one timer per request (a call_later and a cancel: ~2 us); it re-arms itself
        # for the body's due time when it fires before that
        self._deadline: asyncio.TimerHandle | None = None
        self._in_request = False
        self._body_due: float | None = None
        self._head_open = True  # no complete head yet for the next request on this connection
        self._head_received = 0  # bytes received while the head was open
        self._head_parsed = 0  # bytes of request line and headers the parser handed over
        self._header_count = 0
        self._refused: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:
            return  # lingering after a 431: dropped
        if self._head_open:
            self._head_received += len(data)
        super().data_received(data)
        if self._refused is None and self._head_open and self._head_received > self.max_head_bytes:
            self._refuse_head(f"request head over {self.max_head_bytes} bytes (server.max_head_bytes)")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_request = True
        self._head_parsed = self._header_count = 0
        if self._deadline is None:  # a new connection's clock started when it opened
            self._arm(self.header_timeout_s)

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.max_headers:
            self._refused = f"more than {self.max_headers} request headers (server.max_headers)"
            raise _HeadTooLarge()
        self._count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        self._head_parsed += size
        if self._head_parsed > self.max_head_bytes:
            self._refused = f"request head over {self.max_head_bytes} bytes (server.max_head_bytes)"
            raise _HeadTooLarge()

    def send_400_response(self, msg: str) -> None:
        # uvicorn answers any parser error, ours from a callback too, with a 400
        if self._refused is not None:
            self._refuse_head(self._refused)
        else:
            super().send_400_response(msg)

    def _refuse_head(self, why: str) -> None:
        self._refused = why
        self._disarm()
        cycle = self.cycle
        if cycle is None or cycle.response_complete:  # no other answer is being written
            body = _head_too_large_body(why)
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
                b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)
            )
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(_LINGER_S, self.transport.close)
        else:
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._head_open = False
        super().on_headers_complete()
        self._body_due = due = self.loop.time() + self.body_timeout_s
        if self._deadline is None or due < self._deadline.when():
            self._arm(self.body_timeout_s)

    def on_message_complete(self) -> None:
        self._disarm()
        self._in_request = False
        self._body_due = None
        self._head_open, self._head_received = True, 0
        super().on_message_complete()

    def _arm(self, delay: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(delay, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self._body_due is None:
            self._head_timed_out()
            return
        left = self._body_due - self.loop.time()
        if left > 0:
            self._arm(left)
        elif self.flow.read_paused:  # the gateway is not reading yet: not the client's delay
            self._body_due = self.loop.time() + self.body_timeout_s
            self._arm(self.body_timeout_s)
        else:
            self._body_timed_out()

    def _head_timed_out(self) -> None:
        idle = self.cycle is None or self.cycle.response_complete
        if self._in_request and idle:
            self._reply_408(_timeout_body("head", self.header_timeout_s, "header_timeout_s"))
        self.transport.close()

    def _body_timed_out(self) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            self._reply_408(_timeout_body("body", self.body_timeout_s, "body_timeout_s"))
        if cycle is not None:
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()

    def _reply_408(self, body: bytes) -> None:
        self.transport.write(
            b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
