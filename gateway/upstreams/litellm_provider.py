"""Aliased models (``upstreams.models``) served through litellm, so any provider works.

litellm costs ~6–7 ms a call over a raw relay (NOTES.md), which is why only
aliases come here. Its streams are re-encoded as OpenAI SSE events.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson

from gateway.chat import ChatContext, ChatResponse
from gateway.config import ModelAlias
from gateway.errors import error_body
from gateway.litellm_loader import load_litellm_async

log = logging.getLogger("memorelay.upstream")

_JSON = {"content-type": "application/json"}
_SSE = {"content-type": "text/event-stream", "cache-control": "no-cache"}


class LiteLLMUpstream:
    def __init__(self, alias: ModelAlias, *, timeout_s: float) -> None:
        self.alias = alias
        self._timeout_s = timeout_s

    async def chat(self, ctx: ChatContext) -> ChatResponse:
        litellm = await load_litellm_async()
        kwargs: dict[str, Any] = {k: v for k, v in ctx.body.items() if k != "model"}
        kwargs.update(self.alias.litellm_params)
        kwargs.setdefault("timeout", self._timeout_s)
        ctx.upstream_started_at = time.perf_counter()
        try:
            result = await litellm.acompletion(**kwargs)
        except Exception as exc:  # boundary: every provider error becomes an OpenAI error
            return _error_response(exc)
        if ctx.stream:
            return ChatResponse(200, dict(_SSE), stream=self._sse(result))
        body = result.model_dump(exclude_none=True)
        body["model"] = self.alias.model_name
        return ChatResponse(200, dict(_JSON), body=orjson.dumps(body))

    async def _sse(self, result: Any) -> AsyncIterator[bytes]:
        try:
            async for chunk in result:
                data = chunk.model_dump(exclude_none=True)
                data["model"] = self.alias.model_name
                yield b"data: " + orjson.dumps(data) + b"\n\n"
        except Exception as exc:  # boundary: a provider stream that breaks mid-way
            log.warning("litellm stream for %s broke: %s", self.alias.model_name, type(exc).__name__)
            status, body = _error_parts(exc)
            yield b"data: " + orjson.dumps(body) + b"\n\n"
            return
        yield b"data: [DONE]\n\n"


def _error_parts(exc: Exception) -> tuple[int, dict[str, Any]]:
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int) or status < 400:
        status = 502
    message = str(getattr(exc, "message", "") or exc) or type(exc).__name__
    kind = "invalid_request_error" if status < 500 else "upstream_error"
    return status, error_body(message, kind, type(exc).__name__)


def _error_response(exc: Exception) -> ChatResponse:
    status, body = _error_parts(exc)
    log.warning("litellm call failed with %s: %s", status, type(exc).__name__)
    return ChatResponse(status, dict(_JSON), body=orjson.dumps(body))
