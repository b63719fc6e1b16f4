"""The public surface is deliberate: each package's ``__all__`` names exactly what it exports."""

from __future__ import annotations

import importlib

import pytest

EXPECTED = {
    "gateway": {
        "ChatContext",
        "ChatFilter",
        "ChatResponse",
        "Completion",
        "Config",
        "ConfigError",
        "Handler",
        "load_config",
    },
    "gateway.dialects": {
        "ANTHROPIC_MESSAGES",
        "CHAT_COMPLETIONS",
        "RESPONSES",
        "AnthropicMessages",
        "ChatCompletions",
        "Responses",
    },
    "gateway.chat": {
        "ChatContext",
        "ChatFilter",
        "ChatResponse",
        "Completion",
        "CompletionCallback",
        "Dialect",
        "FilterTimer",
        "Handler",
        "Placement",
        "StreamObserver",
        "TranscriptMessage",
        "build_chain",
    },
    "gateway.learning": {"LearningError", "MalformedOutput", "PiiError"},
    "gateway.memory": {
        "CATEGORIES",
        "CONSOLIDATED_REASON",
        "DEFAULT_KIND",
        "KINDS",
        "MERGED_REASON",
        "MEMORY_BLOCK_END",
        "MEMORY_BLOCK_START",
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
    },
}


@pytest.mark.parametrize("module", sorted(EXPECTED))
def test_exports(module: str) -> None:
    mod = importlib.import_module(module)
    assert set(mod.__all__) == EXPECTED[module]
    for name in mod.__all__:
        assert getattr(mod, name) is not None
