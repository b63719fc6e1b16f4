"""Tenants that share the operator's upstream key cannot reach each other's account-level data
through the verbatim relays, and no credential the gateway issued ever goes upstream."""

from __future__ import annotations

import httpx
import openai
import pytest

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

KEY_A, KEY_B = "gw-tenant-a", "gw-tenant-b"
OPERATOR = "sk-operator"

# one request per kind of account-level resource; every path is answered by the fake's echo route
ACCOUNT_CALLS = [
    ("GET", "/v1/files"),
    ("GET", "/v1/files/file-abc/content"),
    ("DELETE", "/v1/files/file-abc"),
    ("POST", "/v1/uploads"),
    ("GET", "/v1/batches"),
    ("GET", "/v1/chat/completions"),
    ("GET", "/v1/chat/completions/chatcmpl-1/messages"),
    ("DELETE", "/v1/chat/completions/chatcmpl-1"),
    ("GET", "/v1/responses/resp_1"),
    ("DELETE", "/v1/responses/resp_1"),
    ("GET", "/v1/responses/resp_1/input_items"),
    ("GET", "/v1/assistants"),
    ("GET", "/v1/threads/thread_1/messages"),
    ("GET", "/v1/vector_stores"),
    ("GET", "/v1/fine_tuning/jobs"),
    ("GET", "/v1/organization/usage/completions"),
    ("GET", "/v1/organization/admin_api_keys"),
    ("GET", "/v1/evals"),
    ("GET", "/v1/containers"),
    ("GET", "/v1//files"),  # a doubled slash is the same path to many servers
    ("GET", "/v1/Files"),
    ("GET", "/v1/fil%65s"),  # decoded before it is judged
    ("GET", "/v1/files;x=1"),
    ("GET", "/v1/files/"),
    ("DELETE", "/v1/models/ft:gpt-4o-mini:acme"),
]
STATELESS_CALLS = [
    ("POST", "/v1/embeddings"),
    ("POST", "/v1/completions"),
    ("POST", "/v1/moderations"),
    ("POST", "/v1/audio/speech"),
    ("POST", "/v1/images/generations"),
    ("GET", "/v1/models/gpt-4o-mini"),
    ("POST", "/v1/responses/input_tokens"),
]


def _keys(**extra_a: object) -> dict[str, object]:
    return {"keys": [{"key": KEY_A, "tenant": "a", **extra_a}, {"key": KEY_B, "tenant": "b"}]}


def _echo_upstream(upstream_url: str, **extra: object) -> dict[str, object]:
    # the fake answers every path below /v1/echo/, so any relayed path is seen and echoed
    return {"default": {"api_base": upstream_url + "/echo", "api_key": OPERATOR, **extra}}


def _call(url: str, method: str, path: str, key: str) -> httpx.Response:
    body = b"{}" if method == "POST" else None
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
    return httpx.request(method, url + path, content=body, headers=headers)


def test_account_level_paths_are_refused_in_gateway_key_mode(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    with gateway(auth=_keys(), upstreams=_echo_upstream(upstream_url)) as url:
        answers = [(method, path, _call(url, method, path, KEY_B)) for method, path in ACCOUNT_CALLS]
    assert fake.received == []
    for method, path, r in answers:
        assert r.status_code == 403, (method, path, r.text)
        error = r.json()["error"]
        assert error["type"] == "permission_error" and error["code"] == "relay_refused"
        assert "upstreams.default.relay" in error["message"]


def test_stateless_paths_still_relay(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    with gateway(auth=_keys(), upstreams=_echo_upstream(upstream_url)) as url:
        answers = [_call(url, method, path, KEY_B) for method, path in STATELESS_CALLS]
    assert [r.status_code for r in answers] == [207] * len(STATELESS_CALLS)
    assert [r.json()["auth"] for r in answers] == [f"Bearer {OPERATOR}"] * len(STATELESS_CALLS)


def test_the_openai_sdk_sees_a_permission_error(gateway: GatewayFactory, upstream_url: str) -> None:
    with gateway(auth=_keys(), upstreams=_echo_upstream(upstream_url)) as url:
        c = openai.OpenAI(base_url=url + "/v1", api_key=KEY_B, max_retries=0)
        with pytest.raises(openai.PermissionDeniedError):
            c.files.list()
        with pytest.raises(openai.PermissionDeniedError):
            c.responses.retrieve("resp_1")


def test_a_global_relay_pattern_opts_a_path_in(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    upstreams = _echo_upstream(upstream_url, relay=["/v1/files*"])
    with gateway(auth=_keys(), upstreams=upstreams) as url:
        files = _call(url, "GET", "/v1/files/file-abc/content", KEY_B)
        batches = _call(url, "GET", "/v1/batches", KEY_B)
    assert files.status_code == 207 and files.json()["path"] == "/v1/echo/files/file-abc/content"
    assert batches.status_code == 403


def test_a_tenant_relay_pattern_opts_in_that_tenant_only(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    with gateway(auth=_keys(relay=["/v1/batches*"]), upstreams=_echo_upstream(upstream_url)) as url:
        mine = _call(url, "GET", "/v1/batches", KEY_A)
        theirs = _call(url, "GET", "/v1/batches", KEY_B)
    assert mine.status_code == 207 and theirs.status_code == 403
    assert [r.path for r in fake.received] == ["/v1/echo/batches"]


def test_pass_through_callers_keep_their_own_account(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    with gateway(upstreams={"default": {"api_base": upstream_url + "/echo"}}) as url:
        r = _call(url, "GET", "/v1/files", "sk-callers-own")
    assert r.status_code == 207 and r.json()["auth"] == "Bearer sk-callers-own"


def test_pass_through_with_the_operators_key_is_one_shared_account(gateway: GatewayFactory, upstream_url: str) -> None:
    # every caller's credential names a tenant, but the operator's key goes upstream
    with gateway(upstreams=_echo_upstream(upstream_url)) as url:
        r = _call(url, "GET", "/v1/files", "sk-anyone")
    assert r.status_code == 403


def test_anthropic_batches_are_refused_in_anthropic_shape(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    anthropic = {"api_base": upstream_url + "/echo/anthropic", "api_key": "sk-ant-operator"}
    headers = {"x-api-key": KEY_B, "anthropic-version": "2023-06-01", "content-type": "application/json"}
    with gateway(auth=_keys(), upstreams={"anthropic": anthropic}) as url:
        listed = httpx.get(url + "/v1/messages/batches", headers=headers)
        results = httpx.get(url + "/v1/messages/batches/msgbatch_1/results", headers=headers)
        counted = httpx.post(url + "/v1/messages/count_tokens", json={"model": "m", "messages": []}, headers=headers)
    assert fake.on("/v1/echo/anthropic/v1/messages/batches") == []
    for r in (listed, results):
        assert r.status_code == 403
        assert r.json()["type"] == "error" and r.json()["error"]["type"] == "permission_error"
        assert "upstreams.anthropic.relay" in r.json()["error"]["message"]
    assert counted.status_code == 207  # not account-level


def test_anthropic_relay_pattern_opts_batches_in(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    base = upstream_url + "/echo/anthropic"
    anthropic = {"api_base": base, "api_key": "sk-ant-op", "relay": ["/v1/messages/batches*"]}
    with gateway(auth=_keys(), upstreams={"anthropic": anthropic}) as url:
        r = httpx.get(url + "/v1/messages/batches", headers={"x-api-key": KEY_B})
    assert r.status_code == 207 and fake.received[0].headers["x-api-key"] == "sk-ant-op"


def test_a_gateway_key_in_x_api_key_never_goes_upstream(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    upstreams = _echo_upstream(upstream_url, relay=["/v1/files*"])
    upstreams["default"] = {**upstreams["default"], "api_base": upstream_url}  # type: ignore[dict-item]
    headers = {"authorization": f"Bearer {KEY_A}", "x-api-key": KEY_A, "api-key": f"Bearer {KEY_B}"}
    with gateway(auth=_keys(), upstreams=upstreams) as url:
        chat = httpx.post(
            url + "/v1/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": "hi"}]},
            headers=headers,
        )
        relayed = httpx.get(url + "/v1/echo/anything", headers=headers)
        models = httpx.get(url + "/v1/models", headers=headers)
        responses = httpx.post(url + "/v1/responses", json={"model": "m", "input": "hi"}, headers=headers)
    assert [r.status_code for r in (chat, relayed, models, responses)] == [200, 207, 200, 200]
    assert len(fake.received) == 4
    for got in fake.received:
        assert got.headers["authorization"] == f"Bearer {OPERATOR}"
        assert "x-api-key" not in got.headers and "api-key" not in got.headers
        assert not any(KEY_A in v or KEY_B in v for v in got.headers.values())


def test_the_admin_key_never_goes_upstream_in_pass_through_mode(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    with gateway(auth={"admin_key": "admin-secret"}) as url:
        headers = {"authorization": "Bearer sk-own", "x-api-key": "admin-secret"}
        r = httpx.get(url + "/v1/echo/x", headers=headers)
    assert r.status_code == 207
    assert "x-api-key" not in fake.received[0].headers
