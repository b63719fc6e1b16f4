"""Upstreams: which one answers a chat request, chosen by its dialect and model.

Chat completions go to a litellm alias when the model names one, else to the default
OpenAI-compatible upstream; the Responses API goes to the default upstream; Anthropic
Messages go to ``upstreams.anthropic``. The dialects themselves only read and write
their wire format.
"""

from __future__ import annotations

from typing import Protocol

from gateway.chat import ChatContext, ChatResponse
from gateway.config import Config
from gateway.upstreams.headers import anthropic_headers, request_headers
from gateway.upstreams.json_relay import post_json
from gateway.upstreams.litellm_provider import LiteLLMUpstream
from gateway.upstreams.openai_compatible import OpenAICompatibleUpstream

__all__ = ["LiteLLMUpstream", "OpenAICompatibleUpstream", "Upstream", "UpstreamRouter"]

# paths on the upstreams' base URLs (the default one ends in /v1; the Anthropic one does not)
RESPONSES_PATH = "/responses"
MESSAGES_PATH = "/v1/messages"


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

    async def send(self, ctx: ChatContext) -> ChatResponse:
        """Answer ``ctx`` from the upstream that serves its dialect (and model)."""
        caller = ctx.caller
        if ctx.dialect.name == "responses":
            headers = request_headers(
                ctx.headers, caller.upstream_authorization, identity_encoding=True, drop=caller.issued_headers
            )
            return await post_json(self.default, RESPONSES_PATH, ctx, headers)
        if ctx.dialect.name == "anthropic_messages":
            headers = anthropic_headers(ctx.headers, caller.upstream_authorization, caller.issued_headers)
            return await post_json(self.anthropic, MESSAGES_PATH, ctx, headers)
        return await self.for_model(ctx.model).chat(ctx)

    async def start(self) -> None:
        await self.default.start()
        await self.anthropic.start()

    async def close(self) -> None:
        try:
            await self.anthropic.close()
        finally:
            await self.default.close()
