"""The one endpoint behind every dialect: parse → filter chain → upstream → relay.

``POST /v1/chat/completions``, ``/v1/responses`` and ``/v1/messages`` all run here with
the same chain; only the dialect (validation, placement, accumulation, error shape)
differs. Streams are forwarded chunk by chunk as they arrive; a client that disconnects
cancels the upstream call. Completion callbacks (the learning filter's durable job)
run before the client has the whole answer: before a whole body is sent, and for a
stream when the dialect's accumulator sees the end of the answer, just before the chunk
that carries it is forwarded. A gateway killed right after the client got its answer has
therefore already written the job.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping

from gateway.auth import Caller
from gateway.chat.chain import Handler
from gateway.chat.context import ChatContext, ChatResponse, Completion, Dialect, StreamObserver
from gateway.chat.identity import (
    OPT_OUT_HEADER,
    Identity,
    parse_opt_out,
    resolve_conversation,
    resolve_time,
    resolve_user,
)
from gateway.errors import GatewayError
from gateway.http.asgi import (
    JSON_HEADER,
    ClientDisconnected,
    Receive,
    Scope,
    Send,
    encode_headers,
    header_dict,
    parse_json_object,
    read_body,
    require_json,
    send_bytes,
)
from gateway.http.streaming import ChunkObserver, EndHook, relay_stream
from gateway.metrics import Metrics
from gateway.telemetry import NO_SPAN, SpanHandle, Telemetry

log = logging.getLogger("memorelay.chat")

# the memorelay headers a client sees when no filter sets them (the documented response headers)
_DEFAULT_HEADERS = {"x-memorelay-memories": "0", "x-memorelay-learning": "skipped; reason=disabled"}

CallerOf = Callable[[Mapping[str, str]], Caller]


class DialectEndpoint:
    """Pure ASGI endpoint for one dialect; the chain is built once and passed in.

    ``caller_of`` authenticates a request (the gateway's ``Authorization`` rules; on
    Anthropic Messages also ``x-api-key``).
    """

    def __init__(
        self,
        chain: Handler,
        dialect: Dialect,
        caller_of: CallerOf,
        *,
        metrics: Metrics,
        telemetry: Telemetry,
        max_body_bytes: int,
    ) -> None:
        self.chain = chain
        self.dialect = dialect
        self.caller_of = caller_of
        self.metrics = metrics
        self.telemetry = telemetry
        self.max_body = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        telemetry = self.telemetry
        if not telemetry.enabled:
            await self._serve(scope, receive, send, NO_SPAN)
            return
        with telemetry.request(header_dict(scope), self.dialect.route) as span:
            await self._serve(scope, receive, send, span)

    async def _serve(self, scope: Scope, receive: Receive, send: Send, span: SpanHandle) -> None:
        started = time.perf_counter()
        metrics = self.metrics
        route = self.dialect.route
        try:
            ctx = await self._context(scope, receive, started)
            span.chat(ctx)
            response = await self.chain(ctx)
        except ClientDisconnected:
            return
        except GatewayError as exc:
            metrics.requests.labels(route, exc.status_code).inc()
            span.failed(exc.status_code, exc.code or type(exc).__name__)
            await self._error(send, exc)
            return
        except Exception:  # boundary: a bug must still answer in the surface's error shape
            log.exception("%s request failed", route)
            metrics.requests.labels(route, 500).inc()
            span.failed(500, "internal_error")
            await self._error(send, GatewayError("internal gateway error", code="internal_error"))
            return
        metrics.requests.labels(route, response.status_code).inc()
        if not response.ok:
            span.failed(response.status_code, str(response.status_code))
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
            if (response.on_complete or span.recording) and response.ok:
                completion = self.dialect.completion_from_body(response.body or b"")
                span.usage(completion)
                await _complete(ctx, response, completion)
            await send_bytes(send, response.status_code, response.body or b"", headers)
            return
        await self._stream(ctx, response, response.stream, headers, send, receive, span)

    async def _error(self, send: Send, exc: GatewayError) -> None:
        await send_bytes(send, exc.status_code, self.dialect.error_bytes(exc), [JSON_HEADER])

    async def _context(self, scope: Scope, receive: Receive, started: float) -> ChatContext:
        headers = header_dict(scope)
        raw = await read_body(receive, self.max_body, headers)
        require_json(headers, raw)
        body = parse_json_object(raw)
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
        span: SpanHandle,
    ) -> None:
        observe: ChunkObserver | None = None
        before_end: EndHook | None = None
        observer: StreamObserver | None = None
        if response.on_complete or span.recording:
            observer = self.dialect.observer()
            if span.recording:  # a trace wants the usage, which may follow the end of the answer
                chunks = _fed(chunks, observer)

            def observe(chunk: bytes) -> bool:
                assert observer is not None
                if not span.recording:
                    observer.feed(chunk)
                return observer.ended

            async def before_end() -> None:
                assert observer is not None
                await _complete(ctx, response, observer.completion())

        gauge = self.metrics.inflight_streams
        gauge.inc()
        try:
            broken = self.dialect.broken_stream_event
            await relay_stream(response.status_code, headers, chunks, send, receive, observe, before_end, broken)
        finally:
            gauge.dec()
            if observer is not None and span.recording:
                span.usage(observer.completion())


async def _complete(ctx: ChatContext, response: ChatResponse, completion: Completion | None) -> None:
    if completion is None:
        return
    for callback in response.on_complete:
        try:
            await callback(ctx, completion)
        except Exception:  # boundary: after-response work must never break the gateway
            log.exception("completion callback failed")


async def _fed(chunks: AsyncIterator[bytes], observer: StreamObserver) -> AsyncIterator[bytes]:
    """``chunks``, each fed to ``observer`` on its way (the whole stream, not just up to its end)."""
    try:
        async for chunk in chunks:
            observer.feed(chunk)
            yield chunk
    finally:
        closer = getattr(chunks, "aclose", None)
        if closer is not None:
            await closer()


def _overhead(ctx: ChatContext, started: float) -> dict[str, str]:
    if ctx.upstream_started_at is None:
        return {}
    return {"x-memorelay-overhead-ms": f"{(ctx.upstream_started_at - started) * 1000:.2f}"}
