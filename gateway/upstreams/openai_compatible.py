"""The default upstream: any OpenAI-compatible API, relayed directly with pooled httpx.

Bodies, unknown fields, status codes and SSE events pass unchanged; httpx's
transport errors are mapped to 502/504 where they enter.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import httpx
import orjson

from gateway.chain import ChatContext, ChatResponse
from gateway.errors import UpstreamTimeout, UpstreamUnreachable
from gateway.upstreams.headers import request_headers, response_headers

log = logging.getLogger("memorelay.upstream")


@contextmanager
def map_httpx_errors(api_base: str) -> Iterator[None]:
    try:
        yield
    except httpx.TimeoutException as exc:
        raise UpstreamTimeout(f"upstream {api_base} timed out ({type(exc).__name__})") from exc
    except httpx.TransportError as exc:
        raise UpstreamUnreachable(f"upstream {api_base} unreachable ({type(exc).__name__})") from exc


class OpenAICompatibleUpstream:
    """Relays chat completions and any other ``/v1/*`` call to one base URL."""

    def __init__(
        self, api_base: str, *, connect_timeout_s: float, read_timeout_s: float
    ) -> None:
        self.api_base = api_base.rstrip("/")
        self._timeout = httpx.Timeout(read_timeout_s, connect=connect_timeout_s, pool=read_timeout_s)
        self._client: httpx.AsyncClient | None = None

    async def start(self) -> None:
        limits = httpx.Limits(max_connections=1000, max_keepalive_connections=200)
        self._client = httpx.AsyncClient(timeout=self._timeout, limits=limits, headers={})

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            raise RuntimeError("upstream not started")
        return self._client

    async def chat(self, ctx: ChatContext) -> ChatResponse:
        headers = request_headers(
            ctx.headers, ctx.caller.upstream_authorization, identity_encoding=True
        )
        headers.append(("content-type", "application/json"))
        request = self.client.build_request(
            "POST", self.api_base + "/chat/completions", content=orjson.dumps(ctx.body), headers=headers
        )
        ctx.upstream_started_at = time.perf_counter()
        with map_httpx_errors(self.api_base):
            response = await self.client.send(request, stream=True)
        out_headers = response_headers(response.headers.multi_items(), decoded=True)
        is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
        if ctx.stream and response.is_success and is_sse:
            return ChatResponse(response.status_code, out_headers, stream=self._relay(response))
        try:
            with map_httpx_errors(self.api_base):
                body = await response.aread()
        finally:
            await response.aclose()
        return ChatResponse(response.status_code, out_headers, body=body)

    async def _relay(self, response: httpx.Response) -> AsyncIterator[bytes]:
        try:
            async for chunk in response.aiter_bytes():
                yield chunk
        except httpx.TransportError as exc:
            # headers are out already: the stream can only end early
            log.warning("upstream stream from %s broke: %s", self.api_base, type(exc).__name__)
        finally:
            await response.aclose()

    async def open_relay(
        self, method: str, path: str, query: bytes, headers: list[tuple[str, str]], body: bytes
    ) -> httpx.Response:
        """Start a verbatim call (other /v1/* paths); the caller streams and closes it."""
        url = self.api_base + path
        if query:
            url += "?" + query.decode("latin-1")
        request = self.client.build_request(method, url, content=body or None, headers=headers)
        with map_httpx_errors(self.api_base):
            return await self.client.send(request, stream=True)
