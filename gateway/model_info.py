"""Context windows of target models, from litellm's bundled model map (cached)."""

from __future__ import annotations

from gateway.config import Config
from gateway.litellm_loader import load_litellm


class ModelInfo:
    def __init__(self, config: Config) -> None:
        self._default = config.memory.default_context_window
        self._aliases = {a.model_name: a for a in config.upstreams.models}
        self._cache: dict[str, int] = {}

    def context_window(self, model: str) -> int:
        window = self._cache.get(model)
        if window is None:
            window = self._lookup(model)
            self._cache[model] = window
        return window

    def _lookup(self, model: str) -> int:
        alias = self._aliases.get(model)
        if alias is not None:
            configured = alias.model_info.get("max_input_tokens")
            if isinstance(configured, int) and configured > 0:
                return configured
            model = str(alias.litellm_params["model"])
        try:
            info = load_litellm().get_model_info(model)
        except Exception:  # litellm raises a bare Exception for unknown models
            return self._default
        window = info.get("max_input_tokens") or info.get("max_tokens")
        return int(window) if isinstance(window, int) and window > 0 else self._default
