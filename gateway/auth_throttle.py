"""Wrong credentials are limited per client address: guessing keys costs a window per few tries.

``auth.max_failures`` wrong gateway or admin keys (chat, APIs, console login) from one address
within ``auth.failure_window_s`` make that address's next credential checks answer 429 with
``Retry-After`` until the oldest failure leaves the window. Once refused, an address is refused
whatever key it sends, the right one included, until then; below the limit a right key costs no
delay (the check is a dictionary lookup). The address is uvicorn's client: the TCP peer, or what
a proxy listed in ``server.trusted_proxies`` forwarded (``gateway.http.forwarded``). Each failure is
logged at WARNING with the client address, never with the key that was tried. Memory stays
bounded: the addresses seen last (``MAX_CLIENTS``) are kept, least recently failed dropped first.

The client address reaches the check through a context variable that ``ClientAddressMiddleware``
sets for each request, so the credential checks keep their plain ``headers`` signature.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict, deque
from contextvars import ContextVar
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.errors import TooManyAuthFailures

log = logging.getLogger("memorelay.auth")

MAX_CLIENTS = 10_000


@dataclass(slots=True)
class _Request:
    """The client of the current request, and the wait a refusal told it (a mutable holder, so a
    refusal deep in the app reaches the middleware whatever context the app ran in)."""

    address: str
    retry_after_s: int | None = None


_current: ContextVar[_Request | None] = ContextVar("memorelay_auth_request", default=None)


class AuthThrottle:
    def __init__(self, max_failures: int, window_s: float) -> None:
        self.max_failures = max_failures
        self.window_s = window_s
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    @property
    def tracked(self) -> int:
        """How many client addresses have failures on record (at most ``MAX_CLIENTS``)."""
        return len(self._failures)

    def check(self) -> None:
        """Raise ``TooManyAuthFailures`` when this request's address used up its tries."""
        request = _current.get()
        if request is None or not self.max_failures:
            return
        times = self._failures.get(request.address)
        if times is None or len(times) < self.max_failures:
            return
        wait = times[0] + self.window_s - time.monotonic()
        if wait > 0:
            request.retry_after_s = seconds = max(1, math.ceil(wait))
            raise TooManyAuthFailures(
                f"too many wrong credentials from this address: retry in {seconds} s", retry_after_s=seconds
            )

    def failed(self, what: str) -> None:
        """Count one wrong credential of this request's address."""
        request = _current.get()
        if request is None:
            return
        client = request.address
        log.warning("wrong %s from %s", what, client)
        if not self.max_failures:
            return
        now = time.monotonic()
        times = self._failures.pop(client, None) or deque(maxlen=self.max_failures)
        while times and times[0] <= now - self.window_s:
            times.popleft()
        times.append(now)
        self._failures[client] = times
        if len(self._failures) > MAX_CLIENTS:
            self._failures.popitem(last=False)
        if len(times) == self.max_failures:
            log.warning(
                "%s sent %d wrong credentials within %g s: refused for a while", client, len(times), self.window_s
            )


class ClientAddressMiddleware:
    """Makes the client address known to ``AuthThrottle`` and adds ``Retry-After`` to its 429s."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        request = _Request(str(client[0]) if client else "unknown")
        token = _current.set(request)

        async def send_with_retry_after(message: Message) -> None:
            if message["type"] == "http.response.start" and request.retry_after_s is not None:
                retry = (b"retry-after", str(request.retry_after_s).encode())
                message["headers"] = [*message.get("headers", []), retry]
            await send(message)

        try:
            await self.app(scope, receive, send_with_retry_after)
        finally:
            _current.reset(token)
