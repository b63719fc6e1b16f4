"""Filters load from config in order; auth modes; identity and opt-out headers."""

from __future__ import annotations

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

from gateway.auth import pass_through_tenant
from gateway.config import ConfigError, config_from_dict
from gateway.filter_loader import validate_filters
from tests import sample_filters
from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream
from tests.waits import wait_for

MSG: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hello there"}]


def test_filters_run_in_config_order_on_plain_and_stream(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    sample_filters.EVENTS.clear()
    filters = [
        {"tests.sample_filters:TagFilter": {"tag": "A"}},
        {"tests.sample_filters:TagFilter": {"tag": "B"}},
    ]
    with gateway(filters=filters) as url:
        assert sample_filters.EVENTS == ["start:A", "start:B"]
        r = httpx.post(
            url + "/v1/chat/completions",
            json={"model": "m", "messages": list(MSG)},
            headers={"authorization": "Bearer k"},
        )
        assert fake.last_chat().body["messages"][0] == {"role": "system", "content": "[A] [B]"}  # type: ignore[index]
        assert r.headers["x-tags"] == "AB"
        c = openai.OpenAI(base_url=url + "/v1", api_key="k", max_retries=0)
        list(c.chat.completions.create(model="m", messages=MSG, stream=True))
        wait_for(lambda: sum(e.startswith("complete") for e in sample_filters.EVENTS) == 4)
    completes = [e for e in sample_filters.EVENTS if e.startswith("complete")]
    # inner filter (B) registers its callback first; both see the assembled answer, streamed too
    assert completes == [
        "complete:B:echo: hello there",
        "complete:A:echo: hello there",
        "complete:B:echo: hello there",
        "complete:A:echo: hello there",
    ]
    assert sample_filters.EVENTS[-2:] == ["stop:B", "stop:A"]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"nope": {}}, "unknown filter 'nope'"),
        ({"tests.missing_module:X": {}}, "module 'tests.missing_module' not found"),
        ({"tests.sample_filters:Missing": {}}, "has no 'Missing'"),
        (
            {"tests.sample_filters:TagFilter": {"tag": 3}},
            "filters[0].tests.sample_filters:TagFilter.tag",
        ),
    ],
)
def test_bad_filter_entries_name_the_problem(entry: dict[str, object], message: str) -> None:
    config = config_from_dict({"filters": [entry]}, source="x.yaml")
    with pytest.raises(ConfigError) as info:
        validate_filters(config)
    assert message in str(info.value) and "x.yaml" in str(info.value)


def test_gateway_key_mode(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    auth = {"keys": [{"key": "gw-app1", "tenant": "app1"}, {"key": "gw-app2", "tenant": "app2"}]}
    upstreams = {"default": {"api_key": "sk-upstream"}}
    with gateway(auth=auth, upstreams=upstreams) as url:
        ok = openai.OpenAI(base_url=url + "/v1", api_key="gw-app1", max_retries=0)
        assert ok.chat.completions.create(model="m", messages=MSG).choices[0].message.content == "echo: hello there"
        assert fake.last_chat().headers["authorization"] == "Bearer sk-upstream"
        for key in ("wrong", ""):
            with pytest.raises(openai.AuthenticationError) as info:
                openai.OpenAI(
                    base_url=url + "/v1",
                    api_key=key or "x",
                    max_retries=0,
                    default_headers={"Authorization": key},
                ).chat.completions.create(model="m", messages=MSG)
            assert info.value.body["code"] == "invalid_api_key"  # type: ignore[index]
        r = httpx.post(url + "/v1/embeddings", json={"model": "e", "input": "x"})
        assert r.status_code == 401
    assert len(fake.chats()) == 1


def test_pass_through_tenant_is_a_hash_of_the_key() -> None:
    a, b = pass_through_tenant("Bearer sk-a"), pass_through_tenant("Bearer sk-b")
    assert a != b and a == pass_through_tenant("Bearer sk-a")
    assert "sk-a" not in a


@pytest.mark.parametrize("value", ["learning", "INJECTION", "learning, injection", "All", "none", ""])
def test_opt_out_values_are_accepted(gateway: GatewayFactory, fake: FakeUpstream, value: str) -> None:
    with gateway() as url:
        r = httpx.post(
            url + "/v1/chat/completions",
            json={"model": "m", "messages": MSG},
            headers={"authorization": "Bearer k", "x-memorelay-opt-out": value},
        )
    assert r.status_code == 200


def test_bad_opt_out_and_user_headers_are_400(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        bad = httpx.post(
            url + "/v1/chat/completions",
            json={"model": "m", "messages": MSG},
            headers={"authorization": "Bearer k", "x-memorelay-opt-out": "everything"},
        )
        long_user = httpx.post(
            url + "/v1/chat/completions",
            json={"model": "m", "messages": MSG},
            headers={"authorization": "Bearer k", "x-memorelay-user": "u" * 300},
        )
    assert bad.status_code == 400 and "X-Memorelay-Opt-Out" in bad.json()["error"]["message"]
    assert long_user.status_code == 400
    assert fake.chats() == []


def test_litellm_alias_goes_through_litellm(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    models = [
        {
            "model_name": "friendly",
            "litellm_params": {
                "model": "openai/backend-model",
                "api_base": upstream_url,
                "api_key": "sk-alias",
            },
        }
    ]
    with gateway(upstreams={"models": models}) as url:
        c = openai.OpenAI(base_url=url + "/v1", api_key="caller", max_retries=0)
        plain = c.chat.completions.create(model="friendly", messages=MSG)
        assert fake.last_chat().body["model"] == "backend-model"  # type: ignore[index]
        assert fake.last_chat().headers["authorization"] == "Bearer sk-alias"
        streamed = "".join(
            ch.choices[0].delta.content or ""
            for ch in c.chat.completions.create(model="friendly", messages=MSG, stream=True)
            if ch.choices
        )
        listed = [m.id for m in c.models.list().data]
    assert plain.choices[0].message.content == "echo: hello there"
    assert plain.model == "friendly"
    assert streamed == "echo: hello there"
    assert listed == ["gpt-4o-mini", "friendly"]


def test_the_same_gateway_key_for_two_tenants_is_a_config_error() -> None:
    keys = [{"key": "gw-shared-secret", "tenant": "a"}, {"key": "gw-shared-secret", "tenant": "b"}]
    with pytest.raises(ConfigError) as raised:
        config_from_dict({"auth": {"keys": keys}}, source="gw.yaml")
    message = str(raised.value)
    assert message.startswith("gw.yaml: auth.keys") and "auth.keys[1].key" in message and "auth.keys[0]" in message
    assert "gw-shared-secret" not in message
