"""OpenTelemetry traces, opt-in (``telemetry.enabled``), exported over OTLP/HTTP.

Off (the default), every hook here is a no-op and the OpenTelemetry packages are never
imported. On, ``start`` builds a tracer provider of memorelay's own (not the process-global
one, so no other library's spans, with whatever they hold, leave through it) and these spans:

    chat {model}        SERVER, one per chat request (completions, responses, messages); an
                        incoming W3C ``traceparent`` is continued (and still reaches the
                        upstream unchanged: the gateway forwards request headers as sent)
      memory_injection  retrieval and budget: memories injected, tokens, timed out or failed
      upstream {model}  CLIENT, the upstream call; ends with the last chunk of a stream
    learning_job        CONSUMER, a trace of its own per learning job, linked to the chat
                        span that queued it (learner, items stored/replaced/rejected, duration)

Attributes follow the GenAI semantic conventions where they apply (``gen_ai.operation.name``,
``gen_ai.request.model``, ``gen_ai.provider.name`` and the older ``gen_ai.system``,
``gen_ai.usage.input_tokens`` / ``output_tokens``). Never a prompt, an answer, a memory's
text, a key or a clear tenant or user id: those two are keyed hashes (``telemetry.hash_key``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from gateway.config import TelemetryConfig

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

    from gateway.chat import ChatContext, Completion, Handler

log = logging.getLogger("memorelay.telemetry")

Attributes = Mapping[str, str | int | float | bool]


class SpanHandle:
    """One span as the hooks see it; this base class is the no-op used when tracing is off."""

    recording = False

    def set(self, attributes: Attributes) -> None:
        pass

    def chat(self, ctx: ChatContext) -> None:
        """The request is parsed: model, provider, who (hashed)."""

    def usage(self, completion: Completion | None) -> None:
        """The answer is complete: its token usage."""

    def failed(self, status: int, error_type: str) -> None:
        pass

    def learned(self, outcome: _Outcome) -> None:
        """A learning job's outcome: counts only."""


NO_SPAN = SpanHandle()
# usage fields of chat completions, then of Responses and Anthropic Messages
_USAGE_KEYS = (("input", ("prompt_tokens", "input_tokens")), ("output", ("completion_tokens", "output_tokens")))


class _Outcome(Protocol):
    """What a learning job's span reports (``gateway.learning.steps.pipeline_records.Outcome``)."""

    learner: str
    command: str | None
    added: list[str]
    duplicates: list[str]
    superseded: list[dict[str, str]]
    rejected: list[dict[str, str]]
    disabled: list[str]
    tokens: int
    duration_ms: float
    error: str | None


class Telemetry:
    """The hooks the chat path and the learning workers call (``Services.telemetry``)."""

    def __init__(self, config: TelemetryConfig, aliases: Mapping[str, str]) -> None:
        self.config = config
        # model alias -> litellm model ("anthropic/claude-…"): its provider is the prefix
        self._aliases = dict(aliases)
        self._provider: TracerProvider | None = None
        self._tracer: Tracer | None = None
        self._key = (config.hash_key.get_secret_value() or "memorelay").encode()

    @property
    def enabled(self) -> bool:
        return self._tracer is not None

    def start(self) -> None:
        """Build the tracer provider and its batch exporter (a thread of the SDK's own)."""
        if not self.config.enabled or self._tracer is not None:
            return
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor
            from opentelemetry.sdk.trace.sampling import ParentBased, TraceIdRatioBased
        except ImportError as exc:
            from gateway.errors import StartupError

            raise StartupError(
                f"telemetry.enabled needs the OpenTelemetry SDK: pip install 'memorelay[telemetry]' ({exc})"
            ) from exc
        endpoint = self.config.endpoint
        if not endpoint.endswith("/v1/traces"):
            endpoint += "/v1/traces"
        headers = {k: v.get_secret_value() for k, v in self.config.headers.items()}
        provider = TracerProvider(
            resource=Resource.create({"service.name": self.config.service_name}),
            sampler=ParentBased(TraceIdRatioBased(self.config.sample_ratio)),
        )
        exporter = OTLPSpanExporter(endpoint=endpoint, headers=headers)
        provider.add_span_processor(BatchSpanProcessor(exporter, schedule_delay_millis=self.config.export_interval_ms))
        self._provider = provider
        self._tracer = provider.get_tracer("memorelay")
        log.info("telemetry: exporting traces to %s", endpoint)

    def close(self) -> None:
        """Send what is buffered and stop the exporter (blocking: call it off the event loop)."""
        provider, self._provider, self._tracer = self._provider, None, None
        if provider is not None:
            provider.shutdown()

    def hashed(self, value: str) -> str:
        return hmac.new(self._key, value.encode(), hashlib.sha256).hexdigest()[:16]

    def provider_of(self, model: str, dialect: str) -> str:
        target = self._aliases.get(model)
        if target is not None:
            return target.split("/", 1)[0] if "/" in target else "openai"
        return "anthropic" if dialect == "anthropic_messages" else "openai"

    # -- the hooks ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def request(self, headers: Mapping[str, str], route: str) -> Iterator[SpanHandle]:
        """The span of one chat request, current while it is served."""
        tracer = self._tracer
        if tracer is None:
            yield NO_SPAN
            return
        from opentelemetry.trace import SpanKind
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        # continue the app's trace; without its header the span starts one
        parent = TraceContextTextMapPropagator().extract(headers) if "traceparent" in headers else None
        attributes = {"gen_ai.operation.name": "chat", "http.request.method": "POST", "http.route": route}
        with tracer.start_as_current_span("chat", parent, SpanKind.SERVER, attributes, record_exception=False) as span:
            yield _ChatSpan(span, self)

    @contextlib.contextmanager
    def span(self, name: str) -> Iterator[SpanHandle]:
        """A child of the current span (``memory_injection``)."""
        tracer = self._tracer
        if tracer is None:
            yield NO_SPAN
            return
        with tracer.start_as_current_span(name, record_exception=False) as span:
            yield _Span(span)

    def traced_upstream(self, terminal: Handler) -> Handler:
        """``terminal`` with a CLIENT span around the upstream call (``terminal`` itself when off)."""
        if not self.config.enabled:
            return terminal

        async def traced(ctx: ChatContext) -> Any:
            tracer = self._tracer
            if tracer is None:
                return await terminal(ctx)
            from opentelemetry.trace import SpanKind, Status, StatusCode, use_span

            span = tracer.start_span(f"upstream {ctx.model}", kind=SpanKind.CLIENT, attributes=self._genai(ctx))
            try:
                with use_span(span, end_on_exit=False, record_exception=False, set_status_on_exception=False):
                    response = await terminal(ctx)
            except BaseException as exc:
                span.set_attribute("error.type", type(exc).__name__)
                span.set_status(Status(StatusCode.ERROR))
                span.end()
                raise
            span.set_attribute("http.response.status_code", response.status_code)
            if not response.ok:
                span.set_attribute("error.type", str(response.status_code))
                span.set_status(Status(StatusCode.ERROR))
            if response.stream is None:
                span.end()
            else:
                response.stream = _ending(response.stream, span)
            return response

        return traced

    def stamp(self, payload: dict[str, Any]) -> None:
        """Keep the current span's ``traceparent`` in a learning job's payload, for its link."""
        if self._tracer is None:
            return
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        carrier: dict[str, str] = {}
        TraceContextTextMapPropagator().inject(carrier)
        if "traceparent" in carrier:
            payload["traceparent"] = carrier["traceparent"]

    @contextlib.contextmanager
    def learning_job(self, payload: Mapping[str, Any]) -> Iterator[SpanHandle]:
        """A new trace for one learning job, linked to the chat span that queued it."""
        tracer = self._tracer
        if tracer is None:
            yield NO_SPAN
            return
        from opentelemetry.context import Context
        from opentelemetry.trace import Link, SpanKind, get_current_span
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        links = []
        traceparent = payload.get("traceparent")
        if isinstance(traceparent, str):
            queued = get_current_span(TraceContextTextMapPropagator().extract({"traceparent": traceparent}))
            if queued.get_span_context().is_valid:
                links.append(Link(queued.get_span_context()))
        with tracer.start_as_current_span(
            "learning_job", Context(), SpanKind.CONSUMER, links=links, record_exception=False
        ) as span:
            yield _JobSpan(span)

    def _genai(self, ctx: ChatContext) -> dict[str, str | bool]:
        provider = self.provider_of(ctx.model, ctx.dialect.name)
        return {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": ctx.model,
            "gen_ai.provider.name": provider,
            "gen_ai.system": provider,
            "memorelay.stream": ctx.stream,
        }


class _Span(SpanHandle):
    recording = True

    def __init__(self, span: Span) -> None:
        self.span = span

    def set(self, attributes: Attributes) -> None:
        self.span.set_attributes(attributes)

    def failed(self, status: int, error_type: str) -> None:
        from opentelemetry.trace import Status, StatusCode

        self.span.set_attributes({"http.response.status_code": status, "error.type": error_type})
        self.span.set_status(Status(StatusCode.ERROR))


class _ChatSpan(_Span):
    def __init__(self, span: Span, telemetry: Telemetry) -> None:
        super().__init__(span)
        self.telemetry = telemetry

    def chat(self, ctx: ChatContext) -> None:
        t = self.telemetry
        self.span.update_name(f"chat {ctx.model}")
        attributes: dict[str, str | bool] = {
            **t._genai(ctx),
            "memorelay.dialect": ctx.dialect.name,
            "memorelay.tenant.hash": t.hashed(ctx.identity.tenant),
        }
        if ctx.identity.user is not None:
            attributes["memorelay.user.hash"] = t.hashed(f"{ctx.identity.tenant}\x00{ctx.identity.user}")
        self.span.set_attributes(attributes)

    def usage(self, completion: Completion | None) -> None:
        usage = completion.usage if completion is not None else None
        if not usage:
            return
        for name, keys in _USAGE_KEYS:
            value = next((usage[k] for k in keys if isinstance(usage.get(k), int)), None)
            if value is not None:
                self.span.set_attribute(f"gen_ai.usage.{name}_tokens", value)
        if completion is not None and completion.finish_reason:
            self.span.set_attribute("gen_ai.response.finish_reasons", [str(completion.finish_reason)])


class _JobSpan(_Span):
    def learned(self, outcome: _Outcome) -> None:
        attributes: dict[str, str | int | float] = {
            "memorelay.learning.learner": outcome.learner,
            "memorelay.learning.stored": len(outcome.added),
            "memorelay.learning.duplicates": len(outcome.duplicates),
            "memorelay.learning.replaced": len(outcome.superseded),
            "memorelay.learning.rejected": len(outcome.rejected),
            "memorelay.learning.forgotten": len(outcome.disabled),
            "memorelay.learning.tokens": outcome.tokens,
            "memorelay.learning.duration_ms": outcome.duration_ms,
        }
        if outcome.command:
            attributes["memorelay.learning.command"] = outcome.command
        if outcome.error:
            attributes["error.type"] = outcome.error.split(":", 1)[0]
        self.span.set_attributes(attributes)


async def _ending(chunks: AsyncIterator[bytes], span: Span) -> AsyncIterator[bytes]:
    """Relay ``chunks``; the span ends with the stream (finished, broken or cut by the client)."""
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        span.end()
        closer = getattr(chunks, "aclose", None)
        if closer is not None:
            await closer()
