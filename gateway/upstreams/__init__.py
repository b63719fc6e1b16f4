"""Upstreams: where a chat completion goes, chosen by its model name; where Anthropic Messages go."""

from __future__ import annotations

from typing import Protocol

from gateway.chain import ChatContext, ChatResponse
from gateway.config import Config
from gateway.upstreams.litellm_provider import LiteLLMUpstream
from gateway.upstreams.openai_compatible import OpenAICompatibleUpstream

__all__ = ["LiteLLMUpstream", "OpenAICompatibleUpstream", "Upstream", "UpstreamRouter"]


class Upstream(Protocol):
    """Answers one chat completion; raises a ``GatewayError`` only when it cannot reach anyone."""

    async def chat(self, ctx: ChatContext) -> ChatResponse: ...


class UpstreamRouter:
    """Aliases from ``upstreams.models`` go through litellm; every other model is relayed."""

    def __init__(self, config: Config) -> None:
        server = config.server
        self.default = OpenAICompatibleUpstream(
            config.upstreams.default.api_base,
            connect_timeout_s=server.connect_timeout_s,
            read_timeout_s=server.upstream_timeout_s,
        )
        # /v1/messages goes here; the same relay, another base URL (paths keep their /v1)
        self.anthropic = OpenAICompatibleUpstream(
            config.upstreams.anthropic.api_base,
            connect_timeout_s=server.connect_timeout_s,
            read_timeout_s=server.upstream_timeout_s,
        )
        self.aliases: dict[str, LiteLLMUpstream] = {
            a.model_name: LiteLLMUpstream(a, timeout_s=server.upstream_timeout_s) for a in config.upstreams.models
        }

    def for_model(self, model: str) -> Upstream:
        return self.aliases.get(model) or self.default

    async def start(self) -> None:
        await self.default.start()
        await self.anthropic.start()

    async def close(self) -> None:
        try:
            await self.anthropic.close()
        finally:
            await self.default.close()
