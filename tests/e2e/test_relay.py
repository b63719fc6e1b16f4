"""The gateway is invisible: the openai SDK gets what it would get from the upstream."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import openai
import pytest

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection


def client(base: str, key: str = "sk-caller", **kw: object) -> openai.OpenAI:
    return openai.OpenAI(base_url=base + "/v1", api_key=key, max_retries=0, **kw)  # type: ignore[arg-type]


def test_non_stream_answer_matches_direct_call(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    with gateway() as url:
        via = client(url).chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}], temperature=0.2
        )
    direct = openai.OpenAI(base_url=upstream_url, api_key="sk-caller").chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}], temperature=0.2
    )
    assert via.choices[0].message.content == direct.choices[0].message.content == "echo: hi"
    assert via.system_fingerprint == "fp_fake"
    assert via.usage is not None and via.usage.total_tokens == 18
    assert via.model_extra == direct.model_extra  # unknown response fields survive
    assert via.model_extra and via.model_extra["x_vendor_field"] == {"kept": True}
    assert fake.chats()[0].body == fake.chats()[1].body


def test_unknown_request_fields_and_headers_are_forwarded(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        client(
            url,
            default_headers={
                "OpenAI-Organization": "org-1",
                "X-Memorelay-User": "u1",
                "OpenAI-Beta": "assistants=v2",
            },
        ).chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": "hi"}],
            extra_body={"vendor_knob": {"a": [1, 2]}, "top_k": 3},
        )
    got = fake.last_chat()
    assert got.body is not None
    assert got.body["vendor_knob"] == {"a": [1, 2]} and got.body["top_k"] == 3
    assert got.headers["openai-organization"] == "org-1"
    assert got.headers["openai-beta"] == "assistants=v2"
    assert got.headers["authorization"] == "Bearer sk-caller"
    assert not any(h.startswith("x-memorelay-") for h in got.headers)


def test_response_headers_and_raw_body(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        r = httpx.post(
            url + "/v1/chat/completions",
            headers={"authorization": "Bearer k"},
            json={"model": "m", "messages": [{"role": "user", "content": "x"}]},
        )
    assert r.status_code == 200
    assert r.headers["x-fake-upstream"] == "yes"
    assert float(r.headers["x-memorelay-overhead-ms"]) >= 0
    assert r.headers["x-memorelay-learning"].startswith("skipped")  # no learning filter
    assert r.json()["choices"][0]["logprobs"] == {"content": []}


def test_stream_matches_direct_stream(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    req = {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": "one two three"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    with gateway() as url:
        via = list(client(url).chat.completions.create(**req))  # type: ignore[call-overload]
    direct = list(openai.OpenAI(base_url=upstream_url, api_key="k").chat.completions.create(**req))  # type: ignore[call-overload]
    assert [c.model_dump() for c in via] == [c.model_dump() for c in direct]
    text = "".join(c.choices[0].delta.content or "" for c in via if c.choices)
    assert text == "echo: one two three"
    assert via[-1].usage is not None and via[-1].usage.total_tokens == 18


def test_async_client_stream_and_plain(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    async def run(url: str) -> tuple[str, str]:
        c = openai.AsyncOpenAI(base_url=url + "/v1", api_key="k", max_retries=0)
        plain = await c.chat.completions.create(model="m", messages=[{"role": "user", "content": "a b"}])
        stream = await c.chat.completions.create(model="m", messages=[{"role": "user", "content": "c d"}], stream=True)
        parts = [ch.choices[0].delta.content or "" async for ch in stream if ch.choices]
        await c.close()
        return plain.choices[0].message.content or "", "".join(parts)

    with gateway() as url:
        plain, streamed = asyncio.run(run(url))
    assert plain == "echo: a b" and streamed == "echo: c d"


def test_first_chunk_arrives_before_upstream_finishes(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    body = {
        "model": "gated-stream",
        "messages": [{"role": "user", "content": "w1 w2 w3"}],
        "stream": True,
    }
    with (
        gateway() as url,
        httpx.stream(
            "POST",
            url + "/v1/chat/completions",
            json=body,
            headers={"authorization": "Bearer k"},
            timeout=10,
        ) as r,
    ):
        lines = r.iter_lines()
        first = next(line for line in lines if line.startswith("data:"))
        assert '"role":"assistant"' in first
        assert not fake.release.is_set()  # the upstream is still holding its last chunk
        fake.release.set()
        rest = [line for line in lines if line.startswith("data:")]
    assert rest[-1] == "data: [DONE]"


@pytest.mark.parametrize(
    ("path", "body", "last"),
    [
        ("/v1/responses", {"input": "w1 w2 w3"}, "event: response.completed"),
        ("/v1/messages", {"max_tokens": 9, "messages": [{"role": "user", "content": "w1 w2"}]}, "event: message_stop"),
    ],
)
def test_named_events_arrive_before_upstream_finishes(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str, path: str, body: dict[str, Any], last: str
) -> None:
    request = {"model": "gated-stream", "stream": True, **body}
    headers = {"authorization": "Bearer k", "x-memorelay-user": "alice"}
    filters = [memory_injection(), {"learning": {"model": "heuristic", "workers": 1}}]
    anthropic = {"anthropic": {"api_base": upstream_url.removesuffix("/v1")}}
    with (
        gateway(filters=filters, upstreams=anthropic) as url,
        httpx.stream("POST", url + path, json=request, headers=headers, timeout=10) as r,
    ):
        lines = r.iter_lines()
        first = next(line for line in lines if line.startswith("event:"))
        assert first in ("event: response.created", "event: message_start")
        assert not fake.release.is_set()  # the upstream is still holding its last event
        fake.release.set()
        rest = [line for line in lines if line.startswith("event:")]
    assert rest[-1] == last


def test_client_disconnect_cancels_upstream(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    body = {"model": "slow-stream", "messages": [{"role": "user", "content": "x"}], "stream": True}
    with gateway() as url:
        with httpx.stream(
            "POST",
            url + "/v1/chat/completions",
            json=body,
            headers={"authorization": "Bearer k"},
            timeout=10,
        ) as r:
            for _ in zip(range(3), r.iter_lines(), strict=False):
                pass
        assert fake.cancelled.wait(5), "upstream stream was not cancelled"
        sent = fake.chunks_sent
        time.sleep(0.3)
        assert fake.chunks_sent <= sent + 1
        assert httpx.get(url + "/metrics").text.count("memorelay_inflight_streams 0.0") == 1


def test_upstream_error_keeps_status_and_body(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        with pytest.raises(openai.RateLimitError) as info:
            client(url).chat.completions.create(model="error-429", messages=[{"role": "user", "content": "x"}])
        r = httpx.post(
            url + "/v1/chat/completions",
            headers={"authorization": "Bearer k"},
            json={"model": "error-500", "messages": [{"role": "user", "content": "x"}]},
        )
    assert info.value.status_code == 429
    assert info.value.body == {"message": "fake 429", "type": "fake_error", "code": "fake"}
    assert r.status_code == 500 and r.json()["error"]["message"] == "fake 500"


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [
        (b"{not json", 400, "invalid_request"),
        (b"[1, 2]", 400, "invalid_request"),
        (b'{"messages": [{"role": "user", "content": "x"}]}', 400, "invalid_request"),
        (b'{"model": "m", "messages": []}', 400, "invalid_request"),
        (b'{"model": "m", "messages": ["x"]}', 400, "invalid_request"),
    ],
)
def test_bad_requests_get_openai_errors(gateway: GatewayFactory, content: bytes, status: int, code: str) -> None:
    with gateway() as url:
        headers = {"authorization": "Bearer k", "content-type": "application/json"}
        r = httpx.post(url + "/v1/chat/completions", content=content, headers=headers)
    assert r.status_code == status
    err = r.json()["error"]
    assert err["code"] == code and err["type"] == "invalid_request_error" and err["message"]


def test_body_limit_unknown_route_and_method(gateway: GatewayFactory) -> None:
    with gateway(server={"max_body_bytes": 1000}) as url:
        big = httpx.post(
            url + "/v1/chat/completions",
            headers={"authorization": "Bearer k"},
            json={"model": "m", "messages": [{"role": "user", "content": "x" * 2000}]},
        )
        missing = httpx.get(url + "/nope")
        wrong = httpx.delete(url + "/healthz")
    assert big.status_code == 413 and big.json()["error"]["code"] == "payload_too_large"
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert wrong.status_code == 405 and "error" in wrong.json()


def test_unreachable_upstream_answers_502_quickly(gateway: GatewayFactory) -> None:
    from tests.servers import free_port

    dead = f"http://127.0.0.1:{free_port()}/v1"
    with gateway(upstreams={"default": {"api_base": dead}}) as url:
        started = time.monotonic()
        with pytest.raises(openai.APIStatusError) as info:
            client(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert info.value.status_code == 502
    assert time.monotonic() - started < 5
    assert info.value.body["code"] == "upstream_unreachable"  # type: ignore[index]


def test_upstream_timeout_answers_504(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(server={"upstream_timeout_s": 0.5}) as url:
        r = httpx.post(
            url + "/v1/chat/completions",
            headers={"authorization": "Bearer k"},
            json={"model": "hang", "messages": [{"role": "user", "content": "x"}]},
            timeout=10,
        )
    assert r.status_code == 504 and r.json()["error"]["code"] == "upstream_timeout"


def test_other_v1_paths_are_relayed_verbatim(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        emb = client(url).embeddings.create(model="text-embedding-3-small", input="hello")
        r = httpx.post(
            url + "/v1/echo/a/b?x=1&y=2",
            content=b"raw-bytes",
            headers={"authorization": "Bearer kk", "x-memorelay-user": "u"},
        )
        models = client(url).models.list()
    assert emb.data[0].embedding == [0.1, 0.2]
    assert r.status_code == 207 and r.headers["x-echo"] == "1"
    assert r.json() == {
        "method": "POST",
        "path": "/v1/echo/a/b",
        "query": "x=1&y=2",
        "body": "raw-bytes",
        "auth": "Bearer kk",
    }
    assert "x-memorelay-user" not in fake.received[1].headers
    assert [m.id for m in models.data] == ["gpt-4o-mini"]


def test_health_ready_and_metrics(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        client(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert httpx.get(url + "/healthz").json() == {"status": "ok"}
        ready = httpx.get(url + "/readyz")
        text = httpx.get(url + "/metrics").text
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    assert 'memorelay_requests_total{route="/v1/chat/completions",status="200"} 1.0' in text
    assert "memorelay_overhead_seconds_count 1.0" in text
