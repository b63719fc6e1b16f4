"""Presidio in its own low-priority process, so scrubbing never competes with chat for the GIL.

Measured (bench/learning.py): with Presidio in a worker thread of the gateway, chat p50 rose
by 2.6–3.6 ms while learning jobs were queued; in a separate process at nice 10 the chat
path keeps its interpreter and the OS scheduler favours it. Fails closed: any failure of
the child, including its death, surfaces as ``PiiError``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from gateway.learning.errors import PiiError
from gateway.learning.pii import PiiScrubber

log = logging.getLogger("memorelay.learning")

_START_TIMEOUT_S = 180
_NICE = 10

_scrubber: PiiScrubber | None = None


def _init_child() -> None:
    global _scrubber
    try:
        os.nice(_NICE)
    except OSError:  # not permitted here: run at normal priority
        pass
    _scrubber = PiiScrubber()
    _scrubber.start()


def _scrub_many(texts: list[str]) -> list[str]:
    if _scrubber is None:
        raise PiiError("PII scrubber process not initialised")
    return [_scrubber.scrub(t) for t in texts]


class IsolatedScrubber:
    """``scrub_many`` in a child process; ``start`` blocks until Presidio is loaded there."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self._pool = self._new_pool()
        # warm-up: loads spaCy and Presidio now, and fails start-up if they cannot load
        self._pool.submit(_scrub_many, ["warm-up"]).result(timeout=_START_TIMEOUT_S)

    @staticmethod
    def _new_pool() -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")  # fork is unsafe with threads running
        return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_init_child)

    async def scrub_many(self, texts: list[str]) -> list[str]:
        if self._pool is None:
            raise PiiError("PII scrubber used before start()")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, _scrub_many, texts)
        except PiiError:
            raise
        except BrokenProcessPool as exc:
            log.error("PII scrubber process died; starting a new one")
            self._pool = self._new_pool()
            raise PiiError("PII scrubber process died") from exc
        except Exception as exc:  # fail closed: anything else is a scrub failure
            raise PiiError(f"PII scrubbing failed: {type(exc).__name__}") from exc

    async def scrub(self, text: str) -> str:
        return (await self.scrub_many([text]))[0]

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
