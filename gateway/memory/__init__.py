"""memorelay's memory: store, vector and keyword indexes, embedders, hybrid retrieval,
token budget and the injected block. Other packages use only what is re-exported here
(``validate``: the field rules and limits of a memory, which the API request models reuse)."""

from __future__ import annotations

from gateway.store.kinds import DEFAULT_KIND, KINDS, derive_kind

from . import _validate as validate
from ._consolidate import CONSOLIDATED_REASON, MERGED_REASON
from ._policy import MemoryPolicy
from ._tenants import TenantConflict
from .budget import count_tokens, fit_to_budget, load_all_tokenizers, load_tokenizer
from .embedders import Embedder, build_embedder
from .render import MEMORY_BLOCK_END, MEMORY_BLOCK_START, render_block, strip_block
from .selection import Selection, select
from .service import MemoryService
from .types import (
    CATEGORIES,
    SCOPES,
    SOURCES,
    Memory,
    MemoryValidationError,
    NewMemory,
    ScoredMemory,
)

__all__ = [
    "CATEGORIES",
    "CONSOLIDATED_REASON",
    "DEFAULT_KIND",
    "KINDS",
    "MEMORY_BLOCK_END",
    "MEMORY_BLOCK_START",
    "MERGED_REASON",
    "SCOPES",
    "SOURCES",
    "Embedder",
    "Memory",
    "MemoryPolicy",
    "MemoryService",
    "MemoryValidationError",
    "NewMemory",
    "ScoredMemory",
    "Selection",
    "TenantConflict",
    "build_embedder",
    "count_tokens",
    "derive_kind",
    "fit_to_budget",
    "load_all_tokenizers",
    "load_tokenizer",
    "render_block",
    "select",
    "strip_block",
    "validate",
]
