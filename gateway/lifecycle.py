"""The lifespan's seam: every part the gateway opens at start-up is a ``Part``.

``run_parts`` starts the parts in order and stops those that started in the reverse
order, every stop running even if one before it failed; the lifespan in ``gateway.app``
is that and nothing more. Adapters make filters (whose ``start``/``stop`` are optional)
and background loops (checkpoints, scheduled backups) into parts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Protocol

log = logging.getLogger("memorelay")


class Part(Protocol):
    """Something opened in the lifespan: ``start`` opens it (and cleans up if it fails),
    ``stop`` closes it; neither is called twice."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@contextlib.asynccontextmanager
async def run_parts(parts: Sequence[Part]) -> AsyncIterator[None]:
    async with contextlib.AsyncExitStack() as running:
        for part in parts:
            await part.start()
            running.push_async_callback(part.stop)
        yield


class FilterPart:
    """A chain filter's optional ``start``/``stop``; a failing stop is logged so that one
    filter never keeps the others (or the stores) from closing."""

    def __init__(self, f: Any) -> None:
        self.f = f

    async def start(self) -> None:
        start = getattr(self.f, "start", None)
        if start is not None:
            await start()

    async def stop(self) -> None:
        stop = getattr(self.f, "stop", None)
        if stop is None:
            return
        try:
            await stop()
        except Exception:  # boundary: one filter must not block the others' stop
            log.exception("filter %s failed to stop", getattr(self.f, "name", self.f))


class Loop:
    """A background loop (``run`` never returns) started with the gateway and cancelled
    at its stop; a round cut short by the cancel is waited for, so it cleans up first."""

    def __init__(self, run: Callable[[], Awaitable[None]]) -> None:
        self.run = run
        self._task: asyncio.Future[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.ensure_future(self.run())

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class StopOnly:
    """A part with nothing to open, only something to close (the MCP sessions)."""

    def __init__(self, stop: Callable[[], Awaitable[None]]) -> None:
        self._stop = stop

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        await self._stop()
