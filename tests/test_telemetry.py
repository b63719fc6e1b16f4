"""OpenTelemetry traces end to end: a real gateway exports over OTLP/HTTP to a small collector on
loopback, which decodes what it receives with the OTLP protobuf definitions."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import learning, wait_for
from tests.fake_upstream import FakeUpstream
from tests.servers import serve_in_thread

KEY = "sk-secret-key-7Q2"
USER = "user-9fz3k"
MEMORY_TEXT = "The user's build server is named falcon-ridge."
PROMPT = "Which build server do we deploy from? zebra-quartz"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"


@dataclass
class ExportedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    kind: int
    attributes: dict[str, Any]
    links: list[tuple[str, str]]


@dataclass
class Collector:
    spans: list[ExportedSpan] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/traces", self._traces, methods=["POST"])])

    async def _traces(self, request: Request) -> Response:
        body = await request.body()
        export = ExportTraceServiceRequest()
        export.ParseFromString(body)
        found = [
            ExportedSpan(
                s.name,
                s.trace_id.hex(),
                s.span_id.hex(),
                s.parent_span_id.hex(),
                s.kind,
                {a.key: _value(a.value) for a in s.attributes},
                [(link.trace_id.hex(), link.span_id.hex()) for link in s.links],
            )
            for rs in export.resource_spans
            for ss in rs.scope_spans
            for s in ss.spans
        ]
        with self.lock:
            self.raw.append(body)
            self.spans.extend(found)
        return Response(ExportTraceServiceResponse().SerializeToString(), media_type="application/x-protobuf")

    def named(self, prefix: str) -> list[ExportedSpan]:
        with self.lock:
            return [s for s in self.spans if s.name.startswith(prefix)]


def _value(v: Any) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


@pytest.fixture
def collector() -> Iterator[tuple[Collector, str]]:
    c = Collector()
    with serve_in_thread(c.app()) as url:
        yield c, url


def traced(collector_url: str) -> dict[str, Any]:
    return {"enabled": True, "endpoint": collector_url, "export_interval_ms": 50, "service_name": "memorelay-test"}


def chat(url: str, *, stream: bool) -> None:
    headers = {"authorization": f"Bearer {KEY}", "x-memorelay-user": USER, "traceparent": TRACEPARENT}
    body: dict[str, Any] = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": PROMPT}]}
    if not stream:
        assert httpx.post(url + "/v1/chat/completions", headers=headers, json=body, timeout=60).status_code == 200
        return
    body |= {"stream": True, "stream_options": {"include_usage": True}}
    with httpx.stream("POST", url + "/v1/chat/completions", headers=headers, json=body, timeout=60) as r:
        assert r.status_code == 200
        assert b"[DONE]" in b"".join(r.iter_bytes())


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_a_chat_is_one_request_span_with_injection_and_upstream_children(
    gateway: GatewayFactory, fake: FakeUpstream, collector: tuple[Collector, str], stream: bool
) -> None:
    spans, collector_url = collector
    with gateway(filters=learning(model="heuristic"), telemetry=traced(collector_url)) as url:
        headers = {"authorization": f"Bearer {KEY}", "x-memorelay-user": USER}
        r = httpx.post(
            url + "/api/memories",
            headers=headers,
            json={"title": "Build server", "content": MEMORY_TEXT, "category": "technical", "pinned": True},
        )
        assert r.status_code == 201
        chat(url, stream=stream)
        (request,) = wait_for(lambda: spans.named("chat "), timeout=60)
        (injection,) = wait_for(lambda: spans.named("memory_injection"), timeout=60)
        (upstream,) = wait_for(lambda: spans.named("upstream "), timeout=60)
        (job,) = wait_for(lambda: spans.named("learning_job"), timeout=60)

    # the app's traceparent is continued, and reaches the upstream unchanged
    assert (request.trace_id, request.parent_id) == (TRACE_ID, PARENT_ID)
    assert fake.last_chat().headers["traceparent"] == TRACEPARENT
    assert request.name == "chat gpt-4o-mini" and request.kind == 2  # SERVER
    attrs = request.attributes
    assert attrs["gen_ai.operation.name"] == "chat" and attrs["gen_ai.request.model"] == "gpt-4o-mini"
    assert attrs["gen_ai.provider.name"] == "openai" and attrs["gen_ai.system"] == "openai"
    assert (attrs["gen_ai.usage.input_tokens"], attrs["gen_ai.usage.output_tokens"]) == (11, 7)
    assert attrs["memorelay.stream"] is stream and len(attrs["memorelay.user.hash"]) == 16

    assert injection.parent_id == request.span_id and injection.trace_id == TRACE_ID
    assert injection.attributes["memorelay.memory.injected"] == 1
    assert injection.attributes["memorelay.memory.tokens"] > 0
    assert injection.attributes["memorelay.memory.timed_out"] is False
    assert upstream.parent_id == request.span_id and upstream.kind == 3  # CLIENT
    assert upstream.attributes["http.response.status_code"] == 200

    # the learning job has a trace of its own, linked to the chat that queued it
    assert job.trace_id != TRACE_ID and job.parent_id == ""
    assert job.links == [(TRACE_ID, request.span_id)]
    assert job.attributes["memorelay.learning.learner"] == "heuristic"
    assert isinstance(job.attributes["memorelay.learning.stored"], int)

    # nothing said, remembered or held as a secret leaves in a span
    raw = b"".join(spans.raw)
    for secret in (PROMPT, "zebra-quartz", MEMORY_TEXT, "falcon-ridge", KEY, USER):
        assert secret.encode() not in raw


def test_an_upstream_error_marks_both_spans(
    gateway: GatewayFactory, fake: FakeUpstream, collector: tuple[Collector, str]
) -> None:
    spans, collector_url = collector
    with gateway(telemetry=traced(collector_url)) as url:
        r = httpx.post(
            url + "/v1/chat/completions",
            headers={"authorization": f"Bearer {KEY}"},
            json={"model": "error-500", "messages": [{"role": "user", "content": PROMPT}]},
        )
        assert r.status_code == 500
        (request,) = wait_for(lambda: spans.named("chat "), timeout=60)
        (upstream,) = wait_for(lambda: spans.named("upstream "), timeout=60)
    assert request.attributes["http.response.status_code"] == 500 and request.attributes["error.type"] == "500"
    assert upstream.attributes["http.response.status_code"] == 500
    assert "memorelay.user.hash" not in request.attributes  # no user, no hash


def test_with_telemetry_off_nothing_of_opentelemetry_or_mcp_is_imported(tmp_path: Any) -> None:
    code = (
        "import sys, asyncio\n"
        "from gateway.app import create_app\n"
        "from gateway.config import config_from_dict\n"
        f"app = create_app(config_from_dict({{'memory': {{'database': {str(tmp_path / 'm.db')!r}, "
        "'embedding': {'provider': 'none'}}, 'filters': [{'memory_injection': {}}]}))\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('opentelemetry', 'mcp', 'mcp_types'))\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
