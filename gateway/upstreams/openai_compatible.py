"""The default upstream: any OpenAI-compatible API, relayed directly over a pooled client.

Bodies, unknown fields, status codes and SSE events pass unchanged; transport
errors are mapped to 502/504 where they enter. The client is aiohttp's: measured
here (bench/relay.py) a gateway relaying through httpx.AsyncClient reached 0.12x
of direct throughput at 32 concurrent requests, with aiohttp the pool stops being
the bottleneck.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import aiohttp
import orjson
from multidict import CIMultiDictProxy
from yarl import URL

from gateway.chat import ChatContext, ChatResponse
from gateway.errors import BadRequest, UpstreamTimeout, UpstreamUnreachable
from gateway.http.streaming import StreamBroken
from gateway.upstreams.headers import request_headers, response_headers

log = logging.getLogger("memorelay.upstream")

# readiness probe: any HTTP answer to a HEAD of api_base within the
# timeout counts as reachable; the result is reused for a few seconds
PROBE_TIMEOUT_S = 2.0
PROBE_TTL_S = 5.0


@contextmanager
def map_transport_errors(api_base: str) -> Iterator[None]:
    try:
        yield
    except TimeoutError as exc:
        raise UpstreamTimeout(f"upstream {api_base} timed out") from exc
    except aiohttp.ClientError as exc:
        raise UpstreamUnreachable(f"upstream {api_base} unreachable ({type(exc).__name__})") from exc


@dataclass(slots=True)
class RelayResponse:
    """An upstream response whose body has not been read yet; close it when done."""

    status_code: int
    headers: CIMultiDictProxy[str]
    _response: aiohttp.ClientResponse
    _api_base: str

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    def header_items(self) -> list[tuple[str, str]]:
        return list(self.headers.items())

    async def read(self) -> bytes:
        try:
            with map_transport_errors(self._api_base):
                return await self._response.read()
        finally:
            self.close()

    async def chunks(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.content.iter_any():
                yield chunk
        except (aiohttp.ClientError, TimeoutError) as exc:
            # headers are out already: the client's response can only be cut short, never finished
            log.warning("upstream stream from %s broke: %s", self._api_base, type(exc).__name__)
            raise StreamBroken(f"upstream {self._api_base} broke off the stream ({type(exc).__name__})") from exc
        finally:
            self.close()

    def close(self) -> None:
        # close, not release: an unfinished body must cut the upstream call (client left)
        if not self._response.closed:
            self._response.close()


class OpenAICompatibleUpstream:
    """Relays chat completions and any other ``/v1/*`` call to one base URL."""

    def __init__(self, api_base: str, *, connect_timeout_s: float, read_timeout_s: float) -> None:
        self.api_base = api_base.rstrip("/")
        self._base_encoded = str(URL(self.api_base))
        self._chat_url = URL(self._base_encoded + "/chat/completions", encoded=True)
        self._timeout = aiohttp.ClientTimeout(total=None, sock_connect=connect_timeout_s, sock_read=read_timeout_s)
        self._session: aiohttp.ClientSession | None = None
        self._probe: asyncio.Future[bool] | None = None
        self._probed_at = -PROBE_TTL_S
        self._reachable = False

    async def start(self) -> None:
        connector = aiohttp.TCPConnector(limit=1000, ttl_dns_cache=300, keepalive_timeout=30)
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=self._timeout,
            auto_decompress=False,  # relay bytes as sent; chat asks for identity encoding
            skip_auto_headers=("User-Agent", "Accept", "Accept-Encoding", "Content-Type"),
            cookie_jar=aiohttp.DummyCookieJar(),
        )

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            raise RuntimeError("upstream not started")
        return self._session

    async def reachable(self) -> bool:
        """Whether the upstream answered at all lately; concurrent callers share one probe."""
        if time.monotonic() - self._probed_at < PROBE_TTL_S:
            return self._reachable
        if self._probe is None:
            self._probe = asyncio.ensure_future(self._run_probe())
        return await asyncio.shield(self._probe)

    async def _run_probe(self) -> bool:
        try:
            timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_S)
            async with self.session.head(URL(self._base_encoded, encoded=True), timeout=timeout):
                self._reachable = True
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("upstream %s unreachable for readiness: %s", self.api_base, type(exc).__name__)
            self._reachable = False
        finally:
            self._probed_at = time.monotonic()
            self._probe = None
        return self._reachable

    async def chat(self, ctx: ChatContext) -> ChatResponse:
        headers = request_headers(
            ctx.headers, ctx.caller.upstream_authorization, identity_encoding=True, drop=ctx.caller.issued_headers
        )
        headers.append(("content-type", "application/json"))
        ctx.upstream_started_at = time.perf_counter()
        response = await self._send("POST", self._chat_url, headers, orjson.dumps(ctx.body))
        out_headers = response_headers(response.header_items(), decoded=True)
        is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
        if ctx.stream and response.is_success and is_sse:
            return ChatResponse(response.status_code, out_headers, stream=response.chunks())
        return ChatResponse(response.status_code, out_headers, body=await response.read())

    async def open_relay(
        self, method: str, path: str, query: bytes, headers: list[tuple[str, str]], body: bytes
    ) -> RelayResponse:
        """Start a verbatim call (other /v1/* paths); the caller reads or streams it.

        ``path`` must come from ``gateway.relay.paths.relay_path``: it is still percent-encoded
        and goes out byte for byte (``encoded=True``: yarl neither decodes nor normalises it).
        """
        if not query.isascii():
            raise BadRequest("the query string must be ASCII (percent-encode other bytes)", code="invalid_path")
        target = self._base_encoded + path + ("?" + query.decode("ascii") if query else "")
        return await self._send(method, URL(target, encoded=True), headers, body)

    async def _send(self, method: str, url: URL, headers: list[tuple[str, str]], body: bytes) -> RelayResponse:
        with map_transport_errors(self.api_base):
            response = await self.session.request(
                method,
                url,
                data=body or None,
                headers=headers,
                allow_redirects=False,
            )
        return RelayResponse(response.status, response.headers, response, self.api_base)
