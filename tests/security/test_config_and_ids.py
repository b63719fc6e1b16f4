"""Config: credentials in an upstream URL are refused at load and never shown. Admin API: ids
follow the same rules as the user API's. Identity headers: one of each. /metrics: an optional token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from gateway.config import ConfigError, config_from_dict
from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

ADMIN = "admin-secret"
PASSWORD = "hunter2-pw"
IN_URL = f"bob:{PASSWORD}@api.example"


@pytest.mark.parametrize(
    ("raw", "key_path"),
    [
        ({"upstreams": {"default": {"api_base": f"https://{IN_URL}/v1"}}}, "upstreams.default.api_base"),
        ({"upstreams": {"anthropic": {"api_base": f"https://{IN_URL}"}}}, "upstreams.anthropic.api_base"),
        (
            {
                "upstreams": {
                    "models": [{"model_name": "a", "litellm_params": {"model": "x", "api_base": f"http://{IN_URL}"}}]
                }
            },
            "upstreams.models[0].litellm_params",
        ),
        ({"memory": {"embedding": {"api_base": f"http://{IN_URL}"}}}, "memory.embedding.api_base"),
    ],
)
def test_credentials_in_an_api_base_are_refused_without_showing_them(raw: dict[str, object], key_path: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_dict(raw)
    message = str(caught.value)
    assert key_path in message and "credentials" in message
    assert PASSWORD not in message


def test_check_config_refuses_them_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "memorelay.yaml"
    config.write_text(f"upstreams:\n  default:\n    api_base: https://bob:{PASSWORD}@api.example/v1\n")
    command = [sys.executable, "-m", "gateway", "check-config", "--config", str(config)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "upstreams.default.api_base" in done.stderr + done.stdout
    assert PASSWORD not in done.stderr + done.stdout


# zero-width space, right-to-left override, soft hyphen, an unassigned code point: not printable,
# so refused as X-Memorelay-User is (two ids that look alike are not two users)
BAD_TENANTS = ["x" * 10_000, "a\x00b", "a\nb", " ", "a\u200bb", "a\u202eb", "a\xadb", "a\u0378b"]
BAD_USERS = ["x" * 300, "a%00b", "%20", "a%0Ab", "a%E2%80%8Bb", "a%E2%80%AEb", "a%C2%ADb", "a%CD%B8b"]


def test_admin_ids_follow_the_user_apis_rules(gateway: GatewayFactory) -> None:
    admin = {"authorization": f"Bearer {ADMIN}"}
    memory = {"title": "T", "content": "C", "category": "business"}
    with gateway(auth={"admin_key": ADMIN, "max_failures": 0}) as url, httpx.Client(base_url=url, headers=admin) as c:
        answers = []
        for tenant in BAD_TENANTS:
            answers.append(c.get("/api/admin/users", params={"tenant": tenant}))
            answers.append(c.get("/api/admin/users/u/memories", params={"tenant": tenant}))
            answers.append(c.post("/api/admin/memories", json={**memory, "tenant": tenant}))
            answers.append(c.post("/api/admin/users/u/memories", params={"tenant": tenant}, json=memory))
        for user in BAD_USERS:
            answers.append(c.get(f"/api/admin/users/{user}/memories", params={"tenant": "t"}))
            answers.append(c.post(f"/api/admin/users/{user}/memories", params={"tenant": "t"}, json=memory))
        good = c.post("/api/admin/users/u/memories", params={"tenant": "t"}, json=memory)
    assert [r.status_code for r in answers] == [400] * len(answers), [(r.request.url, r.text[:100]) for r in answers]
    assert all(r.json()["error"]["type"] == "invalid_request_error" for r in answers)
    assert good.status_code == 201


def test_a_repeated_identity_header_is_refused(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    chat = b'{"model": "m", "messages": [{"role": "user", "content": "hi"}]}'
    with gateway() as url:
        headers = [
            ("authorization", "Bearer k"),
            ("content-type", "application/json"),
            ("x-memorelay-user", "alice"),
            ("x-memorelay-user", "bob"),
        ]
        r = httpx.post(url + "/v1/chat/completions", content=chat, headers=headers)
        api = httpx.get(url + "/api/memories", headers=headers)
    assert r.status_code == 400 and "x-memorelay-user" in r.json()["error"]["message"]
    assert api.status_code == 400
    assert fake.received == []


def test_metrics_can_require_a_token(gateway: GatewayFactory) -> None:
    with gateway(server={"metrics_token": "scrape-me"}) as url:
        none = httpx.get(url + "/metrics")
        wrong = httpx.get(url + "/metrics", headers={"authorization": "Bearer nope"})
        right = httpx.get(url + "/metrics", headers={"authorization": "Bearer scrape-me"})
        spelled = httpx.get(url + "/metrics", headers={"authorization": "bearer  scrape-me"})  # as for keys
    assert none.status_code == wrong.status_code == 401
    assert none.json()["error"]["type"] == wrong.json()["error"]["type"] == "authentication_error"
    assert none.headers["www-authenticate"].startswith("Bearer") and "www-authenticate" in wrong.headers
    assert spelled.status_code == 200
    assert right.status_code == 200 and "memorelay" in right.text


def test_metrics_stay_open_by_default(gateway: GatewayFactory) -> None:
    with gateway() as url:
        assert httpx.get(url + "/metrics").status_code == 200
