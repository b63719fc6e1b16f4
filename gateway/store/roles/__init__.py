"""The store's roles: one small Protocol per concern (``store.MemoryStore`` is their union).
A caller that needs one concern names its role, so what it may touch is visible."""
