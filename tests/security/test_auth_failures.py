"""Guessing keys is rate-limited per client address; below the limit a right key is not slowed."""

from __future__ import annotations

import asyncio
import logging
import time

import httpx
import pytest
from starlette.types import Message, Receive, Scope, Send

from gateway.auth_throttle import MAX_CLIENTS, AuthThrottle, ClientAddressMiddleware
from gateway.config import ConfigError, config_from_dict
from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

ADMIN = "admin-secret"
KEYS = {"keys": [{"key": "gw-right", "tenant": "t"}], "admin_key": ADMIN}


def test_wrong_admin_keys_get_429_after_the_limit(gateway: GatewayFactory, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="memorelay.auth"), gateway(auth={"admin_key": ADMIN}) as url:
        tries = [httpx.get(url + "/api/admin/stats", headers={"authorization": f"Bearer guess-{i}"}) for i in range(12)]
        right = httpx.get(url + "/api/admin/stats", headers={"authorization": f"Bearer {ADMIN}"})
    assert [r.status_code for r in tries] == [401] * 10 + [429] * 2
    limited = tries[-1]
    assert limited.json()["error"]["type"] == "rate_limit_error"
    assert 1 <= int(limited.headers["retry-after"]) <= 60
    assert right.status_code == 429  # the address is held for the window, whatever it sends
    messages = [r.getMessage() for r in caplog.records if r.name == "memorelay.auth"]
    assert any("127.0.0.1" in m for m in messages)
    assert not any("guess-" in m for m in messages)


def test_wrong_gateway_keys_and_console_logins_count_too(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    chat = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    with gateway(auth=KEYS) as url:
        for i in range(5):
            wrong = {"authorization": f"Bearer g{i}"}
            assert httpx.post(url + "/v1/chat/completions", json=chat, headers=wrong).status_code == 401
        for i in range(5):
            form = httpx.post(url + "/console/login", data={"key": f"g{i}"}, headers={"origin": url})
            assert form.status_code == 401
        refused = httpx.post(url + "/console/login", data={"key": ADMIN}, headers={"origin": url})
        chat_refused = httpx.post(url + "/v1/chat/completions", json=chat, headers={"authorization": "Bearer gw-right"})
    assert refused.status_code == 429 and "retry-after" in refused.headers
    assert "Too many wrong keys" in refused.text  # the login page, not a JSON body
    assert chat_refused.status_code == 429
    assert fake.received == []


def test_a_right_key_is_not_slowed(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": ADMIN}) as url, httpx.Client(base_url=url) as c:
        started = time.perf_counter()
        answers = [c.get("/api/admin/stats", headers={"authorization": f"Bearer {ADMIN}"}) for _ in range(30)]
        took = time.perf_counter() - started
    assert all(r.status_code == 200 for r in answers)
    assert took < 30  # no per-attempt delay (a generous ceiling for a busy machine)


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(gateway: GatewayFactory) -> None:
    def guesses(url: str, forwarded_for: str) -> list[int]:
        return [
            httpx.get(
                url + "/api/admin/stats",
                headers={"authorization": f"Bearer guess-{i}", "x-forwarded-for": f"{forwarded_for}{i}"},
            ).status_code
            for i in range(12)
        ]

    # no proxy is trusted by default, loopback included: a new X-Forwarded-For per guess is no way out
    with gateway(auth={"admin_key": ADMIN}) as url:
        assert guesses(url, "203.0.113.") == [401] * 10 + [429] * 2
    # behind a listed proxy each forwarded client has its own limit
    with gateway(auth={"admin_key": ADMIN}, server={"trusted_proxies": ["127.0.0.1"]}) as url:
        assert guesses(url, "203.0.113.") == [401] * 12
        same = [
            httpx.get(
                url + "/api/admin/stats", headers={"authorization": "Bearer x", "x-forwarded-for": "198.51.100.7"}
            ).status_code
            for _ in range(11)
        ]
        assert same == [401] * 10 + [429]


def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert config_from_dict({"server": {"trusted_proxies": "10.0.0.5, 172.16.0.0/12"}}).server.trusted_proxies == (
        "10.0.0.5",
        "172.16.0.0/12",
    )
    assert config_from_dict({"server": {"trusted_proxies": ""}}).server.trusted_proxies == ()
    with pytest.raises(ConfigError, match="trusted_proxies"):
        config_from_dict({"server": {"trusted_proxies": ["nginx"]}})


def test_the_limit_can_be_turned_off(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": ADMIN, "max_failures": 0}) as url:
        tries = [httpx.get(url + "/api/admin/stats", headers={"authorization": "Bearer nope"}) for _ in range(15)]
    assert {r.status_code for r in tries} == {401}


def test_the_table_of_addresses_stays_bounded() -> None:
    throttle = AuthThrottle(3, 60)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        throttle.failed("gateway key")

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        pass

    async def many() -> None:
        middleware = ClientAddressMiddleware(app)
        for i in range(MAX_CLIENTS + 500):
            await middleware({"type": "http", "client": (f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}", 1)}, receive, send)

    logging.getLogger("memorelay.auth").disabled = True
    try:
        asyncio.run(many())
    finally:
        logging.getLogger("memorelay.auth").disabled = False
    assert throttle.tracked == MAX_CLIENTS
