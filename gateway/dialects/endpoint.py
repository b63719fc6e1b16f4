"""The one endpoint behind every dialect: parse → filter chain → upstream → relay (SPEC §2–3).

``POST /v1/chat/completions``, ``/v1/responses`` and ``/v1/messages`` all run here with
the same chain; only the dialect (validation, placement, accumulation, error shape)
differs. Streams are forwarded chunk by chunk as they arrive; a client that disconnects
cancels the upstream call. Completion callbacks (a durable learning job, SPEC §4 step 1)
run before the client has the whole answer: before a whole body is sent, and for a
stream when the dialect's accumulator sees the end of the answer, just before the chunk
that carries it is forwarded. A gateway killed right after the client got its answer has
therefore already written the job.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping

from gateway.asgi import (
    JSON_HEADER,
    ClientDisconnected,
    Receive,
    Scope,
    Send,
    encode_headers,
    header_dict,
    parse_json_object,
    read_body,
    send_bytes,
)
from gateway.auth import Caller
from gateway.chain import ChatContext, ChatResponse, Completion, Handler
from gateway.dialects.base import Dialect
from gateway.errors import GatewayError
from gateway.identity import (
    OPT_OUT_HEADER,
    Identity,
    parse_opt_out,
    resolve_conversation,
    resolve_time,
    resolve_user,
)
from gateway.services import Services
from gateway.streaming import ChunkObserver, EndHook, relay_stream

log = logging.getLogger("memorelay.chat")

# what the client sees when no filter says otherwise (SPEC §3 response headers)
_DEFAULT_HEADERS = {"x-memorelay-memories": "0", "x-memorelay-learning": "skipped; reason=disabled"}

CallerOf = Callable[[Mapping[str, str]], Caller]


class DialectEndpoint:
    """Pure ASGI endpoint for one dialect; the chain is built once and passed in.

    ``caller_of`` authenticates a request (default: the gateway's ``Authorization`` rules;
    Anthropic Messages also accepts ``x-api-key``).
    """

    def __init__(self, services: Services, chain: Handler, dialect: Dialect, caller_of: CallerOf | None = None) -> None:
        self.services = services
        self.chain = chain
        self.dialect = dialect
        self.caller_of: CallerOf = caller_of or services.auth.caller
        self.max_body = services.config.server.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        metrics = self.services.metrics
        route = self.dialect.route
        try:
            ctx = await self._context(scope, receive, started)
            response = await self.chain(ctx)
        except ClientDisconnected:
            return
        except GatewayError as exc:
            metrics.requests.labels(route, exc.status_code).inc()
            await self._error(send, exc)
            return
        except Exception:  # boundary: a bug must still answer in the surface's error shape
            log.exception("%s request failed", route)
            metrics.requests.labels(route, 500).inc()
            await self._error(send, GatewayError("internal gateway error", code="internal_error"))
            return
        metrics.requests.labels(route, response.status_code).inc()
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
            if response.on_complete and response.ok:
                await _complete(ctx, response, self.dialect.completion_from_body(response.body or b""))
            await send_bytes(send, response.status_code, response.body or b"", headers)
            return
        await self._stream(ctx, response, response.stream, headers, send, receive)

    async def _error(self, send: Send, exc: GatewayError) -> None:
        await send_bytes(send, exc.status_code, self.dialect.error_bytes(exc), [JSON_HEADER])

    async def _context(self, scope: Scope, receive: Receive, started: float) -> ChatContext:
        headers = header_dict(scope)
        body = parse_json_object(await read_body(receive, self.max_body, headers))
        model = self.dialect.validate(body)
        caller = self.caller_of(headers)
        user = resolve_user(headers, {"user": self.dialect.body_user(body)})
        identity = Identity(caller.tenant, user, resolve_conversation(headers), resolve_time(headers))
        opt_out = parse_opt_out(headers.get(OPT_OUT_HEADER))
        return ChatContext(
            body,
            identity,
            opt_out,
            caller,
            model,
            headers,
            dialect=self.dialect,
            query_string=scope.get("query_string", b""),
            started_at=started,
        )

    async def _stream(
        self,
        ctx: ChatContext,
        response: ChatResponse,
        chunks: AsyncIterator[bytes],
        headers: list[tuple[bytes, bytes]],
        send: Send,
        receive: Receive,
    ) -> None:
        observe: ChunkObserver | None = None
        before_end: EndHook | None = None
        if response.on_complete:
            observer = self.dialect.observer()

            def observe(chunk: bytes) -> bool:
                observer.feed(chunk)
                return observer.ended

            async def before_end() -> None:
                await _complete(ctx, response, observer.completion())

        gauge = self.services.metrics.inflight_streams
        gauge.inc()
        try:
            await relay_stream(response.status_code, headers, chunks, send, receive, observe, before_end)
        finally:
            gauge.dec()


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
