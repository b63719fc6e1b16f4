"""Presidio in its own low-priority process, so scrubbing never competes with chat for the GIL.

Measured (bench/learning.py): with Presidio in a worker thread of the gateway, chat p50 rose
by 2.6–3.6 ms while learning jobs were queued; in a separate process at nice 10 the chat
path keeps its interpreter and the OS scheduler favours it. Fails closed: any failure of
the child, including its death, surfaces as ``PiiError``.

The child dies with the gateway (a kill -9 must not leave a ~170 MB orphan): on
Linux it asks the kernel for SIGKILL when its parent goes (``PR_SET_PDEATHSIG``), and on
every platform a daemon thread exits it once its parent pid changes. ``stop`` ends the
child, then shuts the pool down and waits for it to exit, so no multiprocessing semaphore
is left for the resource tracker to warn about.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from gateway.learning.errors import PiiError
from gateway.learning.privacy.pii import PiiScrubber

log = logging.getLogger("memorelay.learning")

_START_TIMEOUT_S = 180
_NICE = 10

_PR_SET_PDEATHSIG = 1
_WATCHDOG_INTERVAL_S = 0.5

_scrubber: PiiScrubber | None = None
T = TypeVar("T")


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except OSError:  # no libc to call: the watchdog below still ends the child
            pass
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCHDOG_INTERVAL_S)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _init_child(parent: int) -> None:
    global _scrubber
    _die_with_parent(parent)
    try:
        os.nice(_NICE)
    except OSError:  # not permitted here: run at normal priority
        pass
    _scrubber = PiiScrubber()
    _scrubber.start()


def _scrub_many(texts: list[str], keep_names: bool = False) -> list[str]:
    if _scrubber is None:
        raise PiiError("PII scrubber process not initialised")
    return [_scrubber.scrub(t, keep_names=keep_names) for t in texts]


def _without_sigint(spawn: Callable[[ProcessPoolExecutor], T], pool: ProcessPoolExecutor) -> T:
    """Spawn with SIGINT ignored, a disposition the child keeps: a terminal's Ctrl-C reaches
    the whole process group, and the gateway shuts the child down itself (a child still
    importing would print a traceback). Only the main thread may change it."""
    if threading.current_thread() is not threading.main_thread():
        return spawn(pool)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return spawn(pool)
    finally:
        signal.signal(signal.SIGINT, previous)


class IsolatedScrubber:
    """``scrub_many`` in a child process; ``start`` blocks until Presidio is loaded there."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self.launch().result(timeout=_START_TIMEOUT_S)

    async def start_async(self) -> None:
        """``start`` without blocking the event loop while Presidio loads."""
        await asyncio.wait_for(asyncio.wrap_future(self.launch()), _START_TIMEOUT_S)

    def start_in_background(self) -> asyncio.Future[None]:
        """Spawn the child and let Presidio load there while the gateway serves: scrubs sent
        meanwhile queue behind the warm-up in the child. The future ends when it is loaded;
        if loading fails it logs the error, and every scrub fails closed (``PiiError``)."""
        warm_up = asyncio.wrap_future(self.launch())

        async def loaded() -> None:
            try:
                await asyncio.wait_for(warm_up, _START_TIMEOUT_S)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # boundary: fail closed, learning stores nothing until it loads
                log.error("the PII scrubber could not load (%s): nothing is learned until it does", exc)

        return asyncio.ensure_future(loaded())

    def launch(self) -> Future[list[str]]:
        """Spawn the child from the calling thread and send it a warm-up (which loads spaCy
        and Presidio, and fails start-up if they cannot load). The calling thread matters:
        the kernel's parent-death signal fires when the *thread* that spawned the child
        ends, so spawn it from the event loop's thread, which lives as long as the gateway."""
        self._pool = self._new_pool()
        return _without_sigint(lambda pool: pool.submit(_scrub_many, ["warm-up"]), self._pool)

    @staticmethod
    def _new_pool() -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")  # fork is unsafe with threads running
        return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_init_child, initargs=(os.getpid(),))

    async def scrub_many(self, texts: list[str], *, keep_names: bool = False) -> list[str]:
        """``texts`` scrubbed; ``keep_names``: person names stay (``PiiScrubber.scrub``)."""
        if self._pool is None:
            raise PiiError("PII scrubber used before start()")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, _scrub_many, texts, keep_names)
        except PiiError:
            raise
        except BrokenProcessPool as exc:
            log.error("PII scrubber process died; starting a new one")
            self._pool = self._new_pool()
            raise PiiError("PII scrubber process died") from exc
        except Exception as exc:  # fail closed: anything else is a scrub failure
            raise PiiError(f"PII scrubbing failed: {type(exc).__name__}") from exc

    async def scrub(self, text: str, *, keep_names: bool = False) -> str:
        return (await self.scrub_many([text], keep_names=keep_names))[0]

    def stop(self) -> None:
        """End the child and wait for it to exit (blocking: call it off the loop).

        The child is ended, not waited on: it may still be loading Presidio (seconds) or on a
        scrub whose job the workers have already let go, and a shutdown must not wait for either.
        """
        if self._pool is not None:
            pool, self._pool = self._pool, None
            # ProcessPoolExecutor has no public way to end a busy worker before Python 3.14
            processes: dict[int, multiprocessing.process.BaseProcess] = getattr(pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
