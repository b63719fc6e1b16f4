"""A scriptable raw-socket upstream: answers well, or breaks the way real upstreams break.

It speaks just enough HTTP/1.1 over asyncio streams, records every request head
and body it read (``requests``), and answers the next request with ``fault``:

  ``ok``            a complete JSON completion, or an SSE stream when the body asks for one
  ``reset``         reads the request, then resets the connection (RST, no reply)
  ``stall``         reads the request and never answers
  ``stall_body``    sends the status line and headers, then nothing more
  ``truncate``      starts the body (chunked SSE for streams, a short Content-Length body
                    otherwise) and closes the socket halfway
  ``truncate_mid_event``  like ``truncate`` for a stream, but the socket closes halfway
                    through an Anthropic-style event (``event:`` line and half its data)
  ``garbage_sse``   a well-framed 200 event stream whose events are not JSON

Because it never parses more than it must, it also shows exactly which target a
client put on the request line (``requests[i].target``).
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

import orjson

from tests.fake_upstream import chunk, completion, sse

Fault = Literal["ok", "reset", "stall", "stall_body", "truncate", "truncate_mid_event", "garbage_sse"]


@dataclass
class RawRequest:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def wants_stream(self) -> bool:
        try:
            return bool(orjson.loads(self.body).get("stream"))
        except (orjson.JSONDecodeError, AttributeError):
            return False


@dataclass
class FaultUpstream:
    fault: Fault = "ok"
    requests: list[RawRequest] = field(default_factory=list)
    # set when a connection that was stalled or streaming is closed by the client
    client_closed: threading.Event = field(default_factory=threading.Event)
    _stop: asyncio.Event | None = None

    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader)
                if request is None:
                    return
                self.requests.append(request)
                if not await self._answer(request, reader, writer):
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            self.client_closed.set()
        finally:
            writer.close()

    async def _answer(self, request: RawRequest, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; False when the connection must end."""
        fault = self.fault
        if fault == "reset":
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            return False
        if fault == "stall":
            await self._until_client_leaves(reader)
            return False
        stream = request.wants_stream
        if fault == "stall_body":
            kind = b"text/event-stream" if stream else b"application/json"
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: " + kind + b"\r\ntransfer-encoding: chunked\r\n\r\n")
            await writer.drain()
            await self._until_client_leaves(reader)
            return False
        if stream or fault == "garbage_sse":
            return await self._sse(writer, fault)
        body = orjson.dumps(completion("m", "echo: fault"))
        if fault == "truncate":
            writer.write(_head(b"application/json", len(body)) + body[: len(body) // 2])
            await writer.drain()
            return False
        writer.write(_head(b"application/json", len(body)) + body)
        await writer.drain()
        return True

    async def _sse(self, writer: asyncio.StreamWriter, fault: Fault) -> bool:
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
        if fault == "garbage_sse":
            events = [b"data: {not json\n\n", b"data: \x00\x01garbage\n\n", b"data: [DONE]\n\n"]
        else:
            events = [sse(chunk("m", None, role="assistant")), sse(chunk("m", "partial")), sse(chunk("m", " answer"))]
            if fault == "truncate_mid_event":
                delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "cut"}}
                whole = b"event: content_block_delta\ndata: " + orjson.dumps(delta) + b"\n\n"
                events.append(whole[: len(whole) // 2])
            elif fault != "truncate":
                events += [sse(chunk("m", None, finish="stop")), b"data: [DONE]\n\n"]
        for event in events:
            writer.write(b"%x\r\n%s\r\n" % (len(event), event))
            await writer.drain()
        if fault in ("truncate", "truncate_mid_event"):
            return False  # no terminating chunk: the socket just closes
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return True

    async def _until_client_leaves(self, reader: asyncio.StreamReader) -> None:
        assert self._stop is not None
        stop = asyncio.ensure_future(self._stop.wait())
        eof = asyncio.ensure_future(reader.read())
        await asyncio.wait({stop, eof}, return_when=asyncio.FIRST_COMPLETED)
        if eof.done():
            self.client_closed.set()
        stop.cancel()
        eof.cancel()

    @contextmanager
    def serve(self) -> Iterator[str]:
        """Run on a free loopback port in a thread; yields the ``/v1`` base URL."""
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        port: list[int] = []

        async def main() -> None:
            self._stop = asyncio.Event()
            server = await asyncio.start_server(self._serve_connection, "127.0.0.1", 0)
            port.append(server.sockets[0].getsockname()[1])
            ready.set()
            async with server:
                await self._stop.wait()

        thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
        thread.start()
        ready.wait(10)
        try:
            yield f"http://127.0.0.1:{port[0]}/v1"
        finally:
            assert self._stop is not None
            loop.call_soon_threadsafe(self._stop.set)
            thread.join(10)
            loop.close()


def _head(content_type: bytes, length: int) -> bytes:
    return b"HTTP/1.1 200 OK\r\ncontent-type: %s\r\ncontent-length: %d\r\n\r\n" % (content_type, length)


async def _read_request(reader: asyncio.StreamReader) -> RawRequest | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return RawRequest(method, target, headers, body)


def raw_http(url: str, request: bytes, timeout: float = 10) -> bytes:
    """Send bytes exactly as given on a fresh socket; return all the server sent until it closed."""
    host, port = url.removeprefix("http://").split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(request)
        out = b""
        while True:
            data = sock.recv(65536)
            if not data:
                return out
            out += data
