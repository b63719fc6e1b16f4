"""The built-in chat filters, loaded by name from ``filters:`` in the config.

``memory_injection`` (before the call) and ``learning`` (after it) are thin adapters
over ``gateway.memory`` and ``gateway.learning``; see ``gateway.filter_loader``.
"""
