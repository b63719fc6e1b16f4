"""``memorelay memories …``: operate on the store directly (filled in with the memory store)."""

from __future__ import annotations

from typing import Any


def add_memory_commands(sub: Any) -> None:
    memories = sub.add_parser("memories", help="list, search, add, delete, export, import memories")
    memories.set_defaults(run=lambda args: (memories.print_help(), 2)[1])
