"""``python -m gateway.demo_upstream [--port 8401]``: a local echo upstream for trying memorelay offline.

It answers OpenAI chat completions (plain and streamed) by echoing the last user message,
lists one model, and accepts any API key. ``make demo`` runs it beside a gateway with the
offline learner (``learning.model: heuristic``), so a newcomer sees memories learned and
injected without an internet connection or a real model. It is no model: it cannot score
or extract, which is why the demo uses the offline learner.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

MODEL = "demo-echo"


def _last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _completion(model: str, text: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {
        "id": "chatcmpl-demo",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return b"data: " + orjson.dumps(body) + b"\n\n"


async def _stream(model: str, text: str) -> AsyncIterator[bytes]:
    yield _chunk(model, {"role": "assistant", "content": ""})
    for word in text.split(" "):
        yield _chunk(model, {"content": word + " "})
    yield _chunk(model, {}, "stop")
    yield b"data: [DONE]\n\n"


async def _chat(request: Request) -> Response:
    try:
        body = orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        return Response(b'{"error":{"message":"bad JSON","type":"invalid_request_error","code":null}}', 400)
    model = str(body.get("model") or MODEL)
    text = f"(echo) {_last_user_text(body)}"
    if body.get("stream"):
        return StreamingResponse(_stream(model, text), media_type="text/event-stream")
    return Response(orjson.dumps(_completion(model, text)), media_type="application/json")


async def _models(request: Request) -> Response:
    data = [{"id": MODEL, "object": "model", "created": 0, "owned_by": "memorelay-demo"}]
    return Response(orjson.dumps({"object": "list", "data": data}), media_type="application/json")


async def _root(request: Request) -> Response:
    # the gateway's readiness probe sends HEAD to the api base: any answer means reachable
    return Response(b'{"status":"ok"}', media_type="application/json")


def app() -> Starlette:
    return Starlette(
        routes=[
            Route("/v1/chat/completions", _chat, methods=["POST"]),
            Route("/v1/models", _models, methods=["GET"]),
            Route("/v1", _root, methods=["GET", "HEAD"]),
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway.demo_upstream", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8401)
    args = parser.parse_args(argv)
    import uvicorn

    print(f"demo upstream (echo) on http://{args.host}:{args.port}/v1", flush=True)
    try:
        uvicorn.run(app(), host=args.host, port=args.port, log_level="warning")
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
