"""Hostile or unusual request input gets a 400 in OpenAI's shape, never a 500."""

from __future__ import annotations

import socket

import httpx
import orjson
import pytest

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection

AUTH = {"authorization": "Bearer sk-app", "content-type": "application/json"}


def nested(depth: int) -> bytes:
    return b"[" * (depth - 1) + b"{}" + b"]" * (depth - 1)


def chat_body(extra: bytes) -> bytes:
    return b'{"model":"m","messages":[{"role":"user","content":"hi"}],"x_vendor":' + extra + b"}"


@pytest.mark.parametrize("depth", [130, 255, 300, 1000])
def test_over_deep_json_is_a_400_for_chat_and_the_memory_api(
    gateway: GatewayFactory, fake: FakeUpstream, depth: int
) -> None:
    with gateway() as url:
        chat = httpx.post(url + "/v1/chat/completions", content=chat_body(nested(depth)), headers=AUTH)
        api = httpx.post(
            url + "/api/memories",
            content=b'{"title":"t","content":"c","category":"user_preference","x":' + nested(depth) + b"}",
            headers={**AUTH, "x-memorelay-user": "alice"},
        )
    for r in (chat, api):
        assert r.status_code == 400, r.text
        assert "nests deeper than 128" in r.json()["error"]["message"]
    assert fake.chats() == []


def test_json_at_the_depth_limit_is_relayed(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        r = httpx.post(url + "/v1/chat/completions", content=chat_body(nested(126)), headers=AUTH)
    assert r.status_code == 200, r.text
    assert fake.last_chat().body == orjson.loads(chat_body(nested(126)))


def _memory_api(url: str, user: bytes | str) -> httpx.Client:
    value = user if isinstance(user, bytes) else user.encode()
    return httpx.Client(base_url=url, headers=[(b"authorization", b"Bearer sk-app"), (b"x-memorelay-user", value)])


@pytest.mark.parametrize(
    ("written_as", "read_as"),
    [
        ("Jos%C3%A9", "José".encode()),
        ("UTF-8''Jos%C3%A9", "Jos%C3%A9"),
        ("José".encode(), "utf-8'es'Jos%c3%a9"),
        ("%E5%BC%A0%E4%B8%89", "张三".encode()),
    ],
)
def test_non_ascii_header_user_is_one_user_however_encoded(
    gateway: GatewayFactory, written_as: bytes | str, read_as: bytes | str
) -> None:
    with gateway() as url:
        created = _memory_api(url, written_as).post(
            "/api/memories", json={"title": "Tea", "content": "Likes green tea.", "category": "user_preference"}
        )
        listed = _memory_api(url, read_as).get("/api/memories")
    assert created.status_code == 201, created.text
    assert created.json()["user_id"] in ("José", "张三")
    assert [m["id"] for m in listed.json()["data"]] == [created.json()["id"]]


def test_header_user_matches_the_body_user_in_chat(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=[memory_injection(top_k=5)]) as url:
        _memory_api(url, "%E5%BC%A0%E4%B8%89").post(
            "/api/memories",
            json={"title": "Tea", "content": "The user likes green tea.", "category": "user_preference"},
        )
        body = {"model": "m", "user": "张三", "messages": [{"role": "user", "content": "which tea do I like?"}]}
        r = httpx.post(url + "/v1/chat/completions", json=body, headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.headers["x-memorelay-memories"] == "1"


@pytest.mark.parametrize("value", ["50%off", "a%2", "%E9t%E9", b"\xe9t\xe9", "a%0Ab"])
def test_undecodable_header_user_is_a_400(gateway: GatewayFactory, value: bytes | str) -> None:
    with gateway() as url:
        r = _memory_api(url, value).get("/api/memories")
    assert r.status_code == 400, r.text
    assert r.json()["error"]["param"] == "X-Memorelay-User"


def test_unknown_route_echoes_a_capped_path(gateway: GatewayFactory) -> None:
    with gateway() as url:
        missing = httpx.get(url + "/nope/" + "a" * 10_000, headers=AUTH)
        wrong_method = httpx.put(url + "/api/memories/" + "b" * 10_000, headers=AUTH)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert len(missing.content) < 400 and missing.json()["error"]["message"].endswith("…")
    assert wrong_method.status_code == 405 and len(wrong_method.content) < 400


def test_readyz_reports_an_unreachable_upstream(gateway: GatewayFactory) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        dead = f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
        with gateway(upstreams={"default": {"api_base": dead}}) as url:
            ready = httpx.get(url + "/readyz")
    assert ready.status_code == 503
    assert ready.json()["checks"] == {"store": True, "upstream": False, "started": True}
