"""Relay a byte stream to an ASGI client, chunk by chunk, cancelling it if the client leaves."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from gateway.asgi import Receive, Send

ChunkObserver = Callable[[bytes], None]


async def relay_stream(
    status: int,
    headers: list[tuple[bytes, bytes]],
    chunks: AsyncIterator[bytes],
    send: Send,
    receive: Receive,
    observe: ChunkObserver | None = None,
) -> bool:
    """Send every chunk as it arrives; True when the stream ended normally.

    A disconnect seen on ``receive`` cancels the pump, whose ``finally`` closes
    ``chunks`` and so the upstream response.
    """
    pump = asyncio.ensure_future(_pump(status, headers, chunks, send, observe))
    watcher = asyncio.ensure_future(_wait_disconnect(receive))
    try:
        await asyncio.wait({pump, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
        if not pump.done():
            pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError):
            await pump
    return not pump.cancelled() and pump.exception() is None


async def _pump(
    status: int,
    headers: list[tuple[bytes, bytes]],
    chunks: AsyncIterator[bytes],
    send: Send,
    observe: ChunkObserver | None,
) -> None:
    try:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        async for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
            if observe is not None:
                observe(chunk)
        await send({"type": "http.response.body", "body": b""})
    finally:
        closer = getattr(chunks, "aclose", None)
        if closer is not None:
            await closer()


async def _wait_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
