"""Import litellm once, offline, and only when something needs it (it takes seconds)."""

from __future__ import annotations

import asyncio
import os
import threading
from types import ModuleType

_lock = threading.Lock()
_module: ModuleType | None = None


def load_litellm() -> ModuleType:
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is None:
            # litellm otherwise fetches a price map from the network at import
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            import litellm
            import litellm.litellm_core_utils.default_encoding

            litellm.telemetry = False
            litellm.suppress_debug_info = True
            _module = litellm
    return _module


def litellm_loaded() -> bool:
    return _module is not None


async def load_litellm_async() -> ModuleType:
    """``load_litellm`` without blocking the event loop while the import runs."""
    if _module is not None:
        return _module
    return await asyncio.to_thread(load_litellm)
