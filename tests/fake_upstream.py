"""A small OpenAI-compatible upstream for tests: records what it received, answers as scripted.

Models with special behaviour:
  ``error-429`` / ``error-500``  answer that status with an OpenAI error body
  ``hang``                       never answers (until the client goes away)
  ``gated-stream``               streams, but holds the last chunk (event) until ``release`` is set
  ``slow-stream``                one chunk every 50 ms, forever (for disconnects)
  ``echo-prompt``                answers every message's text (what a process outside the test
                                 sees of the injected memory block, as benchmarks need)
Anything else echoes the last user message. ``responder`` (if set) picks the reply
text from the request body instead, which is how learning tests script a learner.

It also speaks the OpenAI Responses API (``/v1/responses``, ``GET|DELETE /v1/responses/{id}``)
and Anthropic Messages (``/v1/messages``, ``/v1/messages/count_tokens``), plain and streamed
(``tests/fake_wire.py``): with tools and no tool output yet it calls the first tool; after a
tool output it answers ``tool said: …``; ``error-429`` / ``error-500`` answer in each API's
error shape.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from tests import fake_wire

Responder = Callable[[dict[str, Any]], str | None]


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    raw: bytes
    query: str = ""


@dataclass
class FakeUpstream:
    received: list[Received] = field(default_factory=list)
    responder: Responder | None = None
    release: threading.Event = field(default_factory=threading.Event)
    cancelled: threading.Event = field(default_factory=threading.Event)
    chunks_sent: int = 0
    keep_records: bool = True
    gated_calls: int = 0

    def chats(self) -> list[Received]:
        return [r for r in self.received if r.path.endswith("/chat/completions")]

    def last_chat(self) -> Received:
        return self.chats()[-1]

    def on(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]

    def reset(self) -> None:
        self.received.clear()
        self.responder = None
        self.release.clear()
        self.cancelled.clear()
        self.chunks_sent = 0
        self.gated_calls = 0

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
                Route("/v1/embeddings", self._embeddings, methods=["POST"]),
                Route("/v1/echo/{rest:path}", self._echo, methods=["GET", "POST", "DELETE"]),
                Route("/v1/responses", self._responses, methods=["POST"]),
                Route("/v1/responses/{id}", self._response_by_id, methods=["GET", "DELETE"]),
                Route("/v1/messages", self._messages, methods=["POST"]),
                Route("/v1/messages/count_tokens", self._count_tokens, methods=["POST"]),
            ]
        )

    async def _record(self, request: Request) -> Received:
        raw = await request.body()
        try:
            body = orjson.loads(raw) if raw else None
        except orjson.JSONDecodeError:
            body = None
        item = Received(request.url.path, dict(request.headers), body, raw, request.url.query)
        if self.keep_records:
            self.received.append(item)
        return item

    async def _chat(self, request: Request) -> Response:
        body = (await self._record(request)).body or {}
        model = body.get("model", "")
        if model in ("error-429", "error-500"):
            status = int(model[-3:])
            err = {"error": {"message": f"fake {status}", "type": "fake_error", "code": "fake"}}
            return Response(
                orjson.dumps(err),
                status,
                media_type="application/json",
                headers={"x-fake-upstream": "yes"},
            )
        if model == "hang":
            await asyncio.sleep(3600)
        if model == "gated-learner":  # a learner call held until the test releases it
            self.gated_calls += 1
            while not self.release.is_set():
                await asyncio.sleep(0.02)
        text = self._reply_text(body)
        if body.get("stream"):
            return StreamingResponse(self._stream(body, text), media_type="text/event-stream")
        return Response(
            orjson.dumps(completion(model, text)),
            media_type="application/json",
            headers={"x-fake-upstream": "yes", "openai-processing-ms": "7"},
        )

    def _reply_text(self, body: dict[str, Any]) -> str:
        if self.responder is not None:
            scripted = self.responder(body)
            if scripted is not None:
                return scripted
        messages = body.get("messages", [])
        if body.get("model") == "echo-prompt":
            return "\n".join(str(m.get("content") or "") for m in messages)
        users = [m for m in messages if m.get("role") == "user"]
        content = users[-1].get("content") if users else ""
        return f"echo: {content if isinstance(content, str) else orjson.dumps(content).decode()}"

    async def _stream(self, body: dict[str, Any], text: str) -> AsyncIterator[bytes]:
        model = body["model"]
        words = text.split(" ")
        try:
            if model == "slow-stream":
                i = 0
                while True:
                    yield sse(chunk(model, f"w{i} "))
                    self.chunks_sent += 1
                    i += 1
                    await asyncio.sleep(0.05)
            yield sse(chunk(model, None, role="assistant"))
            for i, word in enumerate(words):
                if model == "gated-stream" and i == len(words) - 1:
                    while not self.release.is_set():
                        await asyncio.sleep(0.01)
                yield sse(chunk(model, word if i == 0 else " " + word))
                self.chunks_sent += 1
            yield sse(chunk(model, None, finish="stop"))
            if (body.get("stream_options") or {}).get("include_usage"):
                yield sse({**chunk(model, None), "choices": [], "usage": usage()})
            yield b"data: [DONE]\n\n"
        except (asyncio.CancelledError, GeneratorExit):
            self.cancelled.set()
            raise

    async def _responses(self, request: Request) -> Response:
        body = (await self._record(request)).body or {}
        model = body.get("model", "")
        if model in ("error-429", "error-500"):
            status = int(model[-3:])
            err = {"error": {"message": f"fake {status}", "type": "fake_error", "param": None, "code": "fake"}}
            return Response(
                orjson.dumps(err), status, media_type="application/json", headers={"x-fake-upstream": "yes"}
            )
        text, call = fake_wire.response_text(body)
        scripted = self.responder(body) if self.responder is not None else None
        if scripted is not None:
            text, call = scripted, None
        if body.get("stream"):
            return StreamingResponse(
                self._events(fake_wire.response_events(body, text, call), gated=model == "gated-stream"),
                media_type="text/event-stream",
            )
        output = [call] if call is not None else [fake_wire.message_item(text)]
        out = fake_wire.response_object(body, output)
        return Response(orjson.dumps(out), media_type="application/json", headers={"x-fake-upstream": "yes"})

    async def _response_by_id(self, request: Request) -> Response:
        await self._record(request)
        rid = request.path_params["id"]
        if request.method == "DELETE":
            out: dict[str, Any] = {"id": rid, "object": "response.deleted", "deleted": True}
        else:
            out = {**fake_wire.response_object({"model": "gpt-4o-mini"}, [fake_wire.message_item("stored")]), "id": rid}
        return Response(orjson.dumps(out), media_type="application/json")

    async def _messages(self, request: Request) -> Response:
        body = (await self._record(request)).body or {}
        model = body.get("model", "")
        if model in ("error-429", "error-500"):
            status = int(model[-3:])
            return Response(
                orjson.dumps(fake_wire.anthropic_error(status)),
                status,
                media_type="application/json",
                headers={"request-id": "req_fake", "x-fake-upstream": "yes"},
            )
        scripted = self.responder(body) if self.responder is not None else None
        blocks = fake_wire.anthropic_content(body, scripted)
        if body.get("stream"):
            return StreamingResponse(
                self._events(fake_wire.anthropic_events(model, blocks), gated=model == "gated-stream"),
                media_type="text/event-stream",
                headers={"request-id": "req_fake"},
            )
        out = fake_wire.anthropic_message(model, blocks)
        return Response(orjson.dumps(out), media_type="application/json", headers={"request-id": "req_fake"})

    async def _count_tokens(self, request: Request) -> Response:
        await self._record(request)
        return Response(orjson.dumps({"input_tokens": 42}), media_type="application/json")

    async def _events(self, events: Iterator[bytes], gated: bool = False) -> AsyncIterator[bytes]:
        """Named events; ``gated`` holds the last one until ``release`` is set."""
        listed = list(events)
        try:
            for i, event in enumerate(listed):
                while gated and i == len(listed) - 1 and not self.release.is_set():
                    await asyncio.sleep(0.01)
                yield event
                self.chunks_sent += 1
        except (asyncio.CancelledError, GeneratorExit):
            self.cancelled.set()
            raise

    async def _models(self, request: Request) -> Response:
        await self._record(request)
        data = [{"id": "gpt-4o-mini", "object": "model", "created": 1, "owned_by": "fake"}]
        return Response(orjson.dumps({"object": "list", "data": data}), media_type="application/json")

    async def _embeddings(self, request: Request) -> Response:
        body = (await self._record(request)).body or {}
        data = [{"object": "embedding", "index": 0, "embedding": [0.1, 0.2]}]
        out = {"object": "list", "data": data, "model": body.get("model"), "x_unknown": 1}
        return Response(orjson.dumps(out), media_type="application/json")

    async def _echo(self, request: Request) -> Response:
        item = await self._record(request)
        out = {
            "method": request.method,
            "path": request.url.path,
            "query": request.url.query,
            "body": item.raw.decode(),
            "auth": request.headers.get("authorization"),
        }
        return Response(orjson.dumps(out), 207, media_type="application/json", headers={"x-echo": "1"})


def usage() -> dict[str, int]:
    return {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


def completion(model: str, text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "system_fingerprint": "fp_fake",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "logprobs": {"content": []},
                "finish_reason": "stop",
            }
        ],
        "usage": usage(),
        "x_vendor_field": {"kept": True},
    }


def chunk(model: str, content: str | None, role: str | None = None, finish: str | None = None) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if role:
        delta["role"] = role
    if content is not None:
        delta["content"] = content
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": model,
        "system_fingerprint": "fp_fake",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def sse(obj: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(obj) + b"\n\n"


def bench_app() -> Starlette:
    """The fake upstream for benchmarks (``uvicorn --factory``): it keeps no records."""
    return FakeUpstream(keep_records=False).app()
