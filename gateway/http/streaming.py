"""Relay a byte stream to an ASGI client, chunk by chunk, cancelling it if the client leaves.

A stream the upstream cuts short is never ended cleanly: the
client's response stops without its terminating chunk, so the connection is
aborted and HTTP clients and SDKs raise instead of taking a truncated answer for
a finished one. An SSE stream first gets one error event in its surface's form
(OpenAI's by default, ``BROKEN_SSE``), which SDKs raise as an API error.

The error event always stands alone: when the upstream broke off inside an event, that half
event is first ended as a ``ping`` (``_end_half_event``), which Anthropic's SDKs skip, so the
error event that follows is parsed on its own instead of being glued onto half a JSON object.
Only the last few forwarded bytes are kept for this; the stream itself is never buffered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import orjson

from gateway.errors import error_body
from gateway.http.asgi import Receive, Send

# called with each chunk before it is forwarded; True once the chunk carries the end of the answer
ChunkObserver = Callable[[bytes], bool]
EndHook = Callable[[], Awaitable[None]]


class StreamBroken(Exception):
    """The upstream stream ended before its end; raised by a chunk iterator."""


BROKEN_MESSAGE = "the upstream stream broke off before its end"
BROKEN_SSE = b"data: " + orjson.dumps(error_body(BROKEN_MESSAGE, "upstream_error", "stream_broken")) + b"\n\n"

# what ends a half-sent event: a ping (its data is the half event's; Anthropic's SDKs skip pings)
_HALF_EVENT_END = b"event: ping\n\n"


def _line_ends(tail: bytes) -> int:
    """How many SSE line terminators (CRLF, LF or CR) end ``tail``, at most two: two mean the
    stream stands on an event boundary, one at the end of a line inside an event."""
    ends = 0
    while ends < 2:
        if tail.endswith(b"\r\n"):
            tail = tail[:-2]
        elif tail.endswith((b"\n", b"\r")):
            tail = tail[:-1]
        else:
            break
        ends += 1
    return ends


def _end_half_event(tail: bytes) -> bytes:
    """What to send before the error event, given the last bytes forwarded."""
    ends = _line_ends(tail)
    if ends >= 2:
        return b""
    return (b"" if ends == 1 else b"\n") + _HALF_EVENT_END


async def relay_stream(
    status: int,
    headers: list[tuple[bytes, bytes]],
    chunks: AsyncIterator[bytes],
    send: Send,
    receive: Receive,
    observe: ChunkObserver | None = None,
    before_end: EndHook | None = None,
    broken_event: bytes = BROKEN_SSE,
) -> bool:
    """Send every chunk as it arrives; True when the stream ended normally.

    ``observe`` sees each chunk just before it is forwarded; the first time it says the
    chunk carries the end of the answer, ``before_end`` is awaited (shielded from a
    disconnect) and only then is that chunk sent: work that must be durable before the
    client has the whole answer (a learning job) runs there. Every other chunk is
    forwarded as it arrives.

    A disconnect seen on ``receive`` cancels the pump, whose ``finally`` closes
    ``chunks`` and so the upstream response. When ``chunks`` raises ``StreamBroken``,
    an event stream gets ``broken_event``, and the response is left unfinished:
    returning without the last body message makes the server close the connection.
    """
    is_sse = any(n == b"content-type" and v.startswith(b"text/event-stream") for n, v in headers)
    broken_tail = broken_event if is_sse else None
    pump = asyncio.ensure_future(_pump(status, headers, chunks, send, observe, before_end, broken_tail))
    watcher = asyncio.ensure_future(_wait_disconnect(receive))
    try:
        await asyncio.wait({pump, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
        if not pump.done():
            pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError, StreamBroken):
            await pump
    return not pump.cancelled() and pump.exception() is None


async def _pump(
    status: int,
    headers: list[tuple[bytes, bytes]],
    chunks: AsyncIterator[bytes],
    send: Send,
    observe: ChunkObserver | None,
    before_end: EndHook | None,
    broken_tail: bytes | None,
) -> None:
    # the last bytes forwarded (as if after an event boundary at first): see _end_half_event
    tail = b"\n\n"
    try:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        try:
            async for chunk in chunks:
                if observe is not None and observe(chunk):
                    observe = None
                    if before_end is not None:
                        await asyncio.shield(before_end())
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
                if chunk:
                    tail = (tail + chunk[-4:])[-4:]
        except StreamBroken:
            if broken_tail is not None:
                body = _end_half_event(tail) + broken_tail
                await send({"type": "http.response.body", "body": body, "more_body": True})
            raise
        await send({"type": "http.response.body", "body": b""})
    finally:
        closer = getattr(chunks, "aclose", None)
        if closer is not None:
            await closer()


async def _wait_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
