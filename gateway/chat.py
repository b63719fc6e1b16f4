"""``POST /v1/chat/completions``: parse → filter chain → upstream → relay (SPEC §2–3).

Streams are forwarded chunk by chunk as they arrive; a client that disconnects
cancels the upstream call; completion callbacks run after the last byte, from
the stream's ``finally`` (never a Starlette ``BackgroundTask``, which is skipped
when a send fails).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from gateway.accumulator import StreamAccumulator, completion_from_body
from gateway.asgi import (
    ClientDisconnected,
    Receive,
    Scope,
    Send,
    encode_headers,
    header_dict,
    parse_json_object,
    read_body,
    send_bytes,
    send_error,
)
from gateway.chain import ChatContext, ChatResponse, Completion, Handler
from gateway.errors import BadRequest, GatewayError
from gateway.identity import (
    OPT_OUT_HEADER,
    Identity,
    parse_opt_out,
    resolve_conversation,
    resolve_user,
)
from gateway.services import Services
from gateway.streaming import relay_stream

log = logging.getLogger("memorelay.chat")

ROUTE = "/v1/chat/completions"
# what the client sees when no filter says otherwise (SPEC §3 response headers)
_DEFAULT_HEADERS = {"x-memorelay-memories": "0", "x-memorelay-learning": "skipped; reason=disabled"}


def validate_chat_body(body: dict[str, Any]) -> str:
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise BadRequest("'model' is required and must be a string", param="model")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("'messages' must be a non-empty array", param="messages")
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise BadRequest(f"messages[{i}] must be an object with a 'role'", param="messages")
    if "stream" in body and not isinstance(body["stream"], bool | None):
        raise BadRequest("'stream' must be a boolean", param="stream")
    return model


class ChatEndpoint:
    """Pure ASGI endpoint; the chain is built once and passed in."""

    def __init__(self, services: Services, chain: Handler) -> None:
        self.services = services
        self.chain = chain
        self.max_body = services.config.server.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        metrics = self.services.metrics
        try:
            ctx = await self._context(scope, receive, started)
            response = await self.chain(ctx)
        except ClientDisconnected:
            return
        except GatewayError as exc:
            metrics.requests.labels(ROUTE, exc.status_code).inc()
            await send_error(send, exc)
            return
        except Exception:  # boundary: a bug must still answer in OpenAI's shape
            log.exception("chat request failed")
            metrics.requests.labels(ROUTE, 500).inc()
            await send_error(send, GatewayError("internal gateway error", code="internal_error"))
            return
        metrics.requests.labels(ROUTE, response.status_code).inc()
        if ctx.upstream_started_at is not None:
            metrics.overhead_seconds.observe(ctx.upstream_started_at - started)
            metrics.upstream_seconds.observe(time.perf_counter() - ctx.upstream_started_at)
        headers = encode_headers(
            {
                **response.headers,
                **_DEFAULT_HEADERS,
                **ctx.response_headers,
                **_overhead(ctx, started),
            }
        )
        if response.stream is None:
            await send_bytes(send, response.status_code, response.body or b"", headers)
            if response.on_complete and response.ok:
                await _complete(ctx, response, completion_from_body(response.body or b""))
            return
        await self._stream(ctx, response, response.stream, headers, send, receive)

    async def _context(self, scope: Scope, receive: Receive, started: float) -> ChatContext:
        headers = header_dict(scope)
        body = parse_json_object(await read_body(receive, self.max_body, headers))
        model = validate_chat_body(body)
        caller = self.services.auth.caller(headers)
        identity = Identity(caller.tenant, resolve_user(headers, body), resolve_conversation(headers))
        opt_out = parse_opt_out(headers.get(OPT_OUT_HEADER))
        return ChatContext(body, identity, opt_out, caller, model, headers, started_at=started)

    async def _stream(
        self,
        ctx: ChatContext,
        response: ChatResponse,
        chunks: AsyncIterator[bytes],
        headers: list[tuple[bytes, bytes]],
        send: Send,
        receive: Receive,
    ) -> None:
        accumulator = StreamAccumulator() if response.on_complete else None
        observe = accumulator.feed if accumulator is not None else None
        gauge = self.services.metrics.inflight_streams
        gauge.inc()
        try:
            finished = await relay_stream(response.status_code, headers, chunks, send, receive, observe)
        finally:
            gauge.dec()
        if accumulator is not None and finished:
            completion = accumulator.completion()
            if accumulator.done or completion.finish_reason:
                await _complete(ctx, response, completion)


async def _complete(ctx: ChatContext, response: ChatResponse, completion: Completion | None) -> None:
    if completion is None:
        return
    for callback in response.on_complete:
        try:
            await callback(ctx, completion)
        except Exception:  # boundary: after-response work must never break the gateway
            log.exception("completion callback failed")


def _overhead(ctx: ChatContext, started: float) -> dict[str, str]:
    if ctx.upstream_started_at is None:
        return {}
    return {"x-memorelay-overhead-ms": f"{(ctx.upstream_started_at - started) * 1000:.2f}"}
