"""Waiting on asynchronous work in tests: poll for the event that signals it, never sleep.

Every ceiling is at least ``MIN_CEILING_S`` and is multiplied by the environment variable
``MEMORELAY_TEST_TIMEOUT_SCALE`` (default 1): a ceiling only matters when a test fails, so a
busy machine (learning behind seven other test runs) waits longer instead of failing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

MIN_CEILING_S = 120.0
SCALE = float(os.environ.get("MEMORELAY_TEST_TIMEOUT_SCALE") or 1)


def ceiling(seconds: float = MIN_CEILING_S) -> float:
    """How long a wait asked for ``seconds`` may really take before the test fails."""
    return max(seconds, MIN_CEILING_S) * SCALE


# for test clients of a gateway busy learning on a loaded machine (httpx's default is 5 s)
HTTP_TIMEOUT_S = ceiling(30)


def wait_for(predicate: Callable[[], Any], timeout: float = MIN_CEILING_S, interval: float = 0.05) -> Any:
    """The first truthy value of ``predicate``; AssertionError once the ceiling has passed."""
    limit = ceiling(timeout)
    deadline = time.monotonic() + limit
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met in time ({limit:.0f} s)")
        time.sleep(interval)
