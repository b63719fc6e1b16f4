"""One JSON call through a pooled relay for the dialects that bypass ``Upstream.chat``.

The body is the (possibly filtered) request; the answer comes back as a whole body
or, for a successful event stream, as the upstream's bytes, untouched.
"""

from __future__ import annotations

import time

import orjson

from gateway.chat import ChatContext, ChatResponse
from gateway.upstreams.headers import response_headers
from gateway.upstreams.openai_compatible import OpenAICompatibleUpstream


async def post_json(
    upstream: OpenAICompatibleUpstream, path: str, ctx: ChatContext, headers: list[tuple[str, str]]
) -> ChatResponse:
    headers = [*headers, ("content-type", "application/json")]
    ctx.upstream_started_at = time.perf_counter()
    response = await upstream.open_relay("POST", path, ctx.query_string, headers, orjson.dumps(ctx.body))
    out_headers = response_headers(response.header_items(), decoded=True)
    is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
    if ctx.stream and response.is_success and is_sse:
        return ChatResponse(response.status_code, out_headers, stream=response.chunks())
    return ChatResponse(response.status_code, out_headers, body=await response.read())
