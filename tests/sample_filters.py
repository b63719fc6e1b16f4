"""Filters defined outside the product, loaded by ``module:Class`` from the config."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway.chat import ChatContext, ChatResponse, Completion, Handler

EVENTS: list[str] = []


class TagFilter:
    """Appends its tag to a system note and a response header, and records completions."""

    class Options(BaseModel):
        tag: str
        fail: bool = False

    name = "tag"

    def __init__(self, options: Options, services: Any) -> None:
        self.options = options

    async def start(self) -> None:
        EVENTS.append(f"start:{self.options.tag}")

    async def stop(self) -> None:
        EVENTS.append(f"stop:{self.options.tag}")

    async def __call__(self, ctx: ChatContext, call_next: Handler) -> ChatResponse:
        messages = ctx.body["messages"]
        if messages and messages[0].get("role") == "system":
            messages[0]["content"] += f" [{self.options.tag}]"
        else:
            messages.insert(0, {"role": "system", "content": f"[{self.options.tag}]"})
        ctx.response_headers["x-tags"] = ctx.response_headers.get("x-tags", "") + self.options.tag
        response = await call_next(ctx)

        async def done(c: ChatContext, completion: Completion) -> None:
            EVENTS.append(f"complete:{self.options.tag}:{completion.content}")

        response.on_complete.append(done)
        return response
