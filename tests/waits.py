"""Waiting on asynchronous work in tests: poll for the event that signals it, never sleep.

Every ceiling is at least ``MIN_CEILING_S`` and is multiplied by the environment variable
``MEMORELAY_TEST_TIMEOUT_SCALE`` (default 1) and by how oversubscribed the machine is while it
waits (``load_factor``): a ceiling only matters when a test fails, so a busy machine (learning
behind other test runs or CPU hogs) waits longer instead of failing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

MIN_CEILING_S = 120.0
SCALE = float(os.environ.get("MEMORELAY_TEST_TIMEOUT_SCALE") or 1)


MAX_LOAD_FACTOR = 8.0


def load_factor() -> float:
    """How many times over the cores the machine is asked for right now (the 1-minute load
    average per core), between 1 (idle or unknown) and ``MAX_LOAD_FACTOR``: the learner's PII
    process runs at a lower priority, so beside busy processes it gets a fraction of a core."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # not available on this platform
        return 1.0
    return min(MAX_LOAD_FACTOR, max(1.0, load / (os.cpu_count() or 1)))


def scaled(seconds: float) -> float:
    """``seconds`` stretched for this run (``MEMORELAY_TEST_TIMEOUT_SCALE``) and the load now."""
    return seconds * SCALE * load_factor()


def ceiling(seconds: float = MIN_CEILING_S) -> float:
    """How long a wait asked for ``seconds`` may really take before the test fails."""
    return scaled(max(seconds, MIN_CEILING_S))


# for test clients of a gateway busy learning on a loaded machine (httpx's default is 5 s)
HTTP_TIMEOUT_S = ceiling(30)


def wait_for(predicate: Callable[[], Any], timeout: float = MIN_CEILING_S, interval: float = 0.05) -> Any:
    """The first truthy value of ``predicate``; AssertionError once the ceiling has passed."""
    started = time.monotonic()
    while True:
        value = predicate()
        if value:
            return value
        # the limit follows the load during the wait, not only the load when it began
        limit = ceiling(timeout)
        if time.monotonic() - started > limit:
            raise AssertionError(f"condition not met in time ({limit:.0f} s)")
        time.sleep(interval)
