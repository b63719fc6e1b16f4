"""The ``complete()`` seam: how a learner asks a model one question, without a fake request.

``ChatCompleter`` asks through the same routing as chat (an alias of ``upstreams.models``
via litellm, any other model on the default upstream's ``/chat/completions``);
``AnthropicCompleter`` asks ``upstreams.anthropic``'s ``/v1/messages``, for conversations
that arrived as Anthropic Messages with ``learning.model`` empty (their own model).
Both raise ``RetryableError`` for 429, 5xx and transport failures, ``LearningError`` for
other refusals and ``MalformedOutput`` for an answer without text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from gateway.config import ModelAlias
from gateway.errors import GatewayError
from gateway.learning.errors import LearningError, MalformedOutput, RetryableError
from gateway.litellm_loader import load_litellm_async
from gateway.upstreams import UpstreamRouter
from gateway.upstreams.headers import anthropic_headers, request_headers
from gateway.upstreams.openai_compatible import OpenAICompatibleUpstream

ANTHROPIC_VERSION = "2023-06-01"
_MAX_TOKENS = 2048


@dataclass(frozen=True, slots=True)
class ModelAnswer:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Completer(Protocol):
    """Answers one user prompt with ``model`` at temperature 0."""

    async def complete(self, model: str, prompt: str) -> ModelAnswer: ...


class ChatCompleter:
    def __init__(self, upstreams: UpstreamRouter, authorization: str | None, timeout_s: float) -> None:
        self.upstreams = upstreams
        self.authorization = authorization
        self.timeout_s = timeout_s

    async def complete(self, model: str, prompt: str) -> ModelAnswer:
        alias = self.upstreams.aliases.get(model)
        if alias is not None:
            return await self._litellm(alias.alias, prompt)
        body = {"model": model, "messages": [{"role": "user", "content": prompt}], "temperature": 0}
        headers = request_headers({}, self.authorization, identity_encoding=True)
        data = await _post(self.upstreams.default, "/chat/completions", headers, body)
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise MalformedOutput("learner answer is not a chat completion") from exc
        return _answer(content, data.get("usage"), "prompt_tokens", "completion_tokens")

    async def _litellm(self, alias: ModelAlias, prompt: str) -> ModelAnswer:
        kwargs: dict[str, Any] = {"messages": [{"role": "user", "content": prompt}], "temperature": 0}
        kwargs.update(alias.litellm_params)
        kwargs.setdefault("timeout", self.timeout_s)
        try:
            result = await (await load_litellm_async()).acompletion(**kwargs)
        except Exception as exc:  # boundary: every provider error becomes a learning error
            status = getattr(exc, "status_code", None)
            _raise_for_status(status if isinstance(status, int) and status >= 400 else 502)
            raise  # unreachable: _raise_for_status always raises for >= 400
        data = result.model_dump()
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise MalformedOutput("learner answer is not a chat completion") from exc
        return _answer(content, data.get("usage"), "prompt_tokens", "completion_tokens")


class AnthropicCompleter:
    def __init__(self, upstream: OpenAICompatibleUpstream, credential: str | None) -> None:
        self.upstream = upstream
        self.credential = credential

    async def complete(self, model: str, prompt: str) -> ModelAnswer:
        body = {
            "model": model,
            "max_tokens": _MAX_TOKENS,
            "temperature": 0,
            "messages": [{"role": "user", "content": prompt}],
        }
        headers = anthropic_headers({"anthropic-version": ANTHROPIC_VERSION}, self.credential)
        data = await _post(self.upstream, "/v1/messages", headers, body)
        content = data.get("content")
        if not isinstance(content, list):
            raise MalformedOutput("learner answer is not an Anthropic message")
        text = "".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
        return _answer(text, data.get("usage"), "input_tokens", "output_tokens")


async def _post(
    upstream: OpenAICompatibleUpstream, path: str, headers: list[tuple[str, str]], body: dict[str, Any]
) -> dict[str, Any]:
    headers = [*headers, ("content-type", "application/json")]
    try:
        response = await upstream.open_relay("POST", path, b"", headers, orjson.dumps(body))
        raw = await response.read()
    except GatewayError as exc:
        raise RetryableError(f"learner upstream: {exc.message}") from exc
    _raise_for_status(response.status_code)
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise MalformedOutput("learner answer is not JSON") from exc
    if not isinstance(data, dict):
        raise MalformedOutput("learner answer is not a JSON object")
    return data


def _raise_for_status(status: int) -> None:
    if status == 429 or status >= 500:
        raise RetryableError(f"learner upstream answered {status}")
    if status >= 400:
        raise LearningError(f"learner upstream answered {status}")


def _answer(content: Any, usage: Any, prompt_key: str, completion_key: str) -> ModelAnswer:
    if not isinstance(content, str):
        raise MalformedOutput("learner answer has no text content")
    usage = usage if isinstance(usage, dict) else {}
    return ModelAnswer(content, int(usage.get(prompt_key) or 0), int(usage.get(completion_key) or 0))
