"""Filter entries for test gateways.

Memory injection fails open past ``timeout_ms`` (200 ms by default): on a loaded machine a
retrieval can take longer, and a test that expects memories in the call would then see none.
Tests that are not about that deadline give it the load-scaled ceiling instead.
"""

from __future__ import annotations

from typing import Any

from tests.waits import scaled


def memory_injection(**options: Any) -> dict[str, Any]:
    """A ``memory_injection`` entry whose deadline follows the machine's load, unless given."""
    return {"memory_injection": {"timeout_ms": scaled(10) * 1000, **options}}
