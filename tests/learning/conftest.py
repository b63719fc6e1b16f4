from __future__ import annotations

import pytest

from gateway.learning.privacy.pii import PiiScrubber


@pytest.fixture(scope="session")
def scrubber() -> PiiScrubber:
    """The real offline Presidio scrubber, built once per session (~1-2 s)."""
    s = PiiScrubber()
    s.start()
    return s
