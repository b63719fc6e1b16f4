"""Browser apps on the origins in ``server.cors_origins`` can call the gateway; others cannot."""

from __future__ import annotations

import httpx

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

APP = "https://app.example"
PREFLIGHT = {
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization, content-type, x-memorelay-user, x-stainless-os",
}
CHAT = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def test_a_preflight_from_a_listed_origin_is_answered_before_auth(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(server={"cors_origins": [APP]}, auth={"keys": [{"key": "gw", "tenant": "t"}]}) as url:
        r = httpx.options(url + "/v1/chat/completions", headers={"origin": APP, **PREFLIGHT})
    assert r.status_code == 204
    assert r.headers["access-control-allow-origin"] == APP
    assert r.headers["access-control-allow-credentials"] == "true"
    assert "POST" in r.headers["access-control-allow-methods"]
    assert "x-memorelay-user" in r.headers["access-control-allow-headers"]
    assert fake.received == []


def test_a_preflight_from_another_origin_gets_no_allowance(gateway: GatewayFactory) -> None:
    with gateway(server={"cors_origins": [APP]}) as url:
        r = httpx.options(url + "/v1/chat/completions", headers={"origin": "https://evil.example", **PREFLIGHT})
    assert r.status_code == 204
    assert not any(name.startswith("access-control-") for name in r.headers)


def test_responses_to_a_listed_origin_expose_the_memorelay_headers(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(server={"cors_origins": [APP, "http://localhost:3000"]}) as url:
        key = {"authorization": "Bearer k"}
        listed = httpx.post(url + "/v1/chat/completions", json=CHAT, headers={"origin": APP, **key})
        other = httpx.post(url + "/v1/chat/completions", json=CHAT, headers={"origin": "https://evil.example", **key})
        refused = httpx.post(url + "/v1/chat/completions", json=CHAT, headers={"origin": APP})
    assert listed.status_code == 200
    assert listed.headers["access-control-allow-origin"] == APP
    assert listed.headers["access-control-allow-credentials"] == "true"
    exposed = listed.headers["access-control-expose-headers"]
    assert "x-memorelay-memories" in exposed and "x-memorelay-learning" in exposed
    assert other.status_code == 200 and "access-control-allow-origin" not in other.headers
    # an error still carries the allowance, so the browser app can read why
    assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == APP


def test_no_origins_configured_means_no_cors_headers(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        r = httpx.post(url + "/v1/chat/completions", json=CHAT, headers={"origin": APP, "authorization": "Bearer k"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
