"""Context windows of target models, without importing litellm (its import costs seconds).

A lookup tries, in order: an alias's configured ``model_info.max_input_tokens``; a small
table of the usual OpenAI, Anthropic, Gemini and DeepSeek families (longest prefix wins);
litellm's bundled model map (its JSON file, read once in a background thread on the first
miss: until it is read, a miss answers ``memory.default_context_window`` uncached, so no
request waits for it); and last ``memory.default_context_window``.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path
from typing import Any

import orjson

from gateway.config import Config

log = logging.getLogger("memorelay")

# max input tokens, as litellm's model map gives them; the longest matching prefix wins
KNOWN_WINDOWS: dict[str, int] = {
    "gpt-3.5-turbo": 16_385,
    "gpt-4": 8_192,
    "gpt-4-turbo": 128_000,
    "gpt-4o": 128_000,
    "chatgpt-4o": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-5": 272_000,
    "o1": 200_000,
    "o1-mini": 128_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "claude-": 200_000,
    "gemini-1.5-pro": 2_097_152,
    "gemini-1.5-flash": 1_048_576,
    "gemini-2": 1_048_576,
    "gemini-3": 1_048_576,
    "deepseek-chat": 131_072,
    "deepseek-reasoner": 131_072,
}
_BY_LENGTH = sorted(KNOWN_WINDOWS, key=len, reverse=True)


def known_window(model: str) -> int | None:
    """The table's window for ``model`` (a provider prefix such as ``openai/`` is ignored)."""
    name = model.lower().rsplit("/", 1)[-1]
    for prefix in _BY_LENGTH:
        if name.startswith(prefix):
            return KNOWN_WINDOWS[prefix]
    return None


def _model_map_path() -> Path | None:
    spec = importlib.util.find_spec("litellm")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "model_prices_and_context_window_backup.json"
    return path if path.is_file() else None


def _window_of(entry: Any) -> int | None:
    if not isinstance(entry, dict):
        return None
    window = entry.get("max_input_tokens") or entry.get("max_tokens")
    return window if isinstance(window, int) and window > 0 else None


class ModelInfo:
    def __init__(self, config: Config) -> None:
        self._default = config.memory.default_context_window
        self._aliases = {a.model_name: a for a in config.upstreams.models}
        self._cache: dict[str, int] = {}
        self._map: dict[str, Any] | None = None
        self._map_loading = False
        self._lock = threading.Lock()

    def context_window(self, model: str) -> int:
        window = self._cache.get(model)
        if window is None:
            found = self._lookup(model)
            if found is None:
                return self._default  # the model map is still being read: ask again later
            window = self._cache[model] = found
        return window

    def _lookup(self, model: str) -> int | None:
        alias = self._aliases.get(model)
        if alias is not None:
            configured = alias.model_info.get("max_input_tokens")
            if isinstance(configured, int) and configured > 0:
                return configured
            model = str(alias.litellm_params["model"])
        window = known_window(model)
        if window is not None:
            return window
        model_map = self._model_map()
        if model_map is None:
            return None
        for key in (model, model.rsplit("/", 1)[-1]):
            window = _window_of(model_map.get(key))
            if window is not None:
                return window
        return self._default

    def _model_map(self) -> dict[str, Any] | None:
        """litellm's bundled model map once read; None (and the read started) before that."""
        if self._map is not None:
            return self._map
        with self._lock:
            if not self._map_loading:
                self._map_loading = True
                threading.Thread(target=self._read_map, name="model-map", daemon=True).start()
        return None

    def _read_map(self) -> None:
        path = _model_map_path()
        loaded: dict[str, Any] = {}
        if path is not None:
            try:
                data = orjson.loads(path.read_bytes())
                loaded = data if isinstance(data, dict) else {}
            except (OSError, orjson.JSONDecodeError) as exc:
                log.warning("cannot read litellm's model map %s: %s", path, exc)
        self._map = loaded
