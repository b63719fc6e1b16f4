"""Pass-through mode without a credential, and the fixed pass-through tenant."""

from __future__ import annotations

import httpx
import pytest

from gateway.config import ConfigError, config_from_dict
from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

CHAT = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
MEMORY = {"title": "Tea", "content": "Likes green tea.", "category": "user_preference"}


def test_no_credential_is_refused_in_pass_through_mode(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        chat = httpx.post(url + "/v1/chat/completions", json=CHAT)
        api = httpx.post(url + "/api/memories", json=MEMORY, headers={"x-memorelay-user": "alice"})
        relayed = httpx.get(url + "/v1/models")
    for r in (chat, api, relayed):
        assert r.status_code == 401, r.text
        assert r.json()["error"]["type"] == "authentication_error"
        assert "auth.allow_anonymous" in r.json()["error"]["message"]
    assert fake.received == []


def test_allow_anonymous_serves_callers_without_credential(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(auth={"allow_anonymous": True}) as url:
        assert httpx.post(url + "/v1/chat/completions", json=CHAT).status_code == 200
        created = httpx.post(url + "/api/memories", json=MEMORY, headers={"x-memorelay-user": "alice"})
    assert created.status_code == 201 and created.json()["tenant"] == "anonymous"


def test_fixed_tenant_survives_a_rotated_upstream_key(gateway: GatewayFactory) -> None:
    with gateway(auth={"tenant": "app1"}) as url:
        old = {"authorization": "Bearer sk-old", "x-memorelay-user": "alice"}
        new = {"authorization": "Bearer sk-new", "x-memorelay-user": "alice"}
        created = httpx.post(url + "/api/memories", json=MEMORY, headers=old)
        listed = httpx.get(url + "/api/memories", headers=new)
    assert created.json()["tenant"] == "app1"
    assert [m["id"] for m in listed.json()["data"]] == [created.json()["id"]]


def test_fixed_tenant_is_only_for_pass_through_mode() -> None:
    with pytest.raises(ConfigError, match="pass-through mode"):
        config_from_dict({"auth": {"keys": [{"key": "k", "tenant": "a"}], "tenant": "b"}})


def test_every_spelling_of_bearer_is_the_same_tenant(gateway: GatewayFactory) -> None:
    with gateway() as url:
        created = httpx.post(
            url + "/api/memories", json=MEMORY, headers={"authorization": "Bearer sk-alice", "x-memorelay-user": "al"}
        )
        assert created.status_code == 201
        for spelling in ("bearer sk-alice", "BEARER sk-alice", "Bearer  sk-alice", "Bearer\tsk-alice"):
            listed = httpx.get(url + "/api/memories", headers={"authorization": spelling, "x-memorelay-user": "al"})
            assert [m["id"] for m in listed.json()["data"]] == [created.json()["id"]], spelling
        listed = httpx.get(
            url + "/api/memories", headers={"authorization": "Bearer sk-other", "x-memorelay-user": "al"}
        )
        assert listed.json()["data"] == []


def test_an_upstream_key_in_pass_through_mode_is_warned_about_at_start(
    gateway: GatewayFactory, upstream_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("WARNING", logger="memorelay"), gateway(upstreams={"default": {"api_key": "sk-operator"}}):
        pass
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("upstreams.default.api_key" in w and "auth.keys" in w for w in warnings), warnings
    assert not any("sk-operator" in w for w in warnings)
