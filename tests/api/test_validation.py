"""Requests validated once at the edge: every 400 is in OpenAI's shape and names its field."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import GatewayFactory

ADMIN = "admin-secret"
USER = {"authorization": "Bearer sk-app", "x-memorelay-user": "val"}
ADMIN_AUTH = {"authorization": f"Bearer {ADMIN}"}
NEW = {"title": "Tabs", "content": "The user prefers tabs.", "category": "user_preference"}


@pytest.fixture
def url(gateway: GatewayFactory) -> Iterator[str]:
    with gateway(auth={"admin_key": ADMIN}) as base:
        yield base


def error_of(r: httpx.Response) -> dict[str, str | None]:
    assert r.status_code == 400, r.text
    error: dict[str, str | None] = r.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["type"] == "invalid_request_error"
    return error


@pytest.mark.parametrize(
    ("query", "param", "message"),
    [
        ("limit=abc", "limit", "'limit' must be an integer"),
        ("limit=0", "limit", "'limit' must be between 1 and 200"),
        ("offset=-1", "offset", "'offset' must be between 0 and 1000000000"),
        ("category=weird", "category", "category: must be one of user_preference, business"),
        ("scope=everyone", "scope", "scope: must be one of personal, shared, system"),
        ("include_disabled=maybe", "include_disabled", "'include_disabled' must be true or false"),
    ],
)
def test_query_errors_name_the_parameter(url: str, query: str, param: str, message: str) -> None:
    error = error_of(httpx.get(f"{url}/api/memories?{query}", headers=USER))
    assert error["param"] == param and str(error["message"]).startswith(message)


def test_a_parameter_given_twice_is_refused(url: str) -> None:
    error = error_of(httpx.get(f"{url}/api/admin/users?tenant=a&tenant=", headers=ADMIN_AUTH))
    assert error["param"] == "tenant" and error["message"] == "'tenant' must be given once"
    assert error_of(httpx.get(f"{url}/api/memories?limit=5&limit=500", headers=USER))["param"] == "limit"


def test_empty_and_unknown_query_parameters_mean_the_defaults(url: str) -> None:
    r = httpx.get(f"{url}/api/memories?limit=&category=&include_disabled=&whatever=1", headers=USER)
    assert r.status_code == 200 and r.json() == {"data": [], "total": 0}


@pytest.mark.parametrize(
    ("body", "param", "message"),
    [
        ({**NEW, "colour": "red"}, "colour", "unknown field 'colour'"),
        ({"title": "t", "category": "technical"}, "content", "'content' is required"),
        ({**NEW, "title": 5}, "title", "'title' must be a string"),
        ({**NEW, "title": "two\nlines"}, "title", "title: must be one line"),
        ({**NEW, "content": "   "}, "content", "content: must not be empty"),
        ({**NEW, "tags": ["ok", 3]}, "tags", "'tags[1]' must be a string"),
        ({**NEW, "tags": "notalist"}, "tags", "'tags' must be a list"),
        ({**NEW, "title": "x" * 201}, "title", "'title' must be at most 200 characters"),
    ],
)
def test_body_errors_name_the_field(url: str, body: dict[str, object], param: str, message: str) -> None:
    error = error_of(httpx.post(url + "/api/memories", headers=USER, json=body))
    assert error["param"] == param and error["message"] == message


def test_patch_settings_and_delete_all_errors(url: str) -> None:
    created = httpx.post(url + "/api/memories", headers=USER, json=NEW).json()
    path = f"{url}/api/memories/{created['id']}"
    null_title = error_of(httpx.patch(path, headers=USER, json={"title": None}))
    assert null_title == {
        "message": "title: must not be null",
        "type": "invalid_request_error",
        "param": "title",
        "code": "invalid_request",
    }
    assert error_of(httpx.patch(path, headers=USER, json={"enabled": "false"}))["param"] == "enabled"
    for score in (0.5, None):
        assert error_of(httpx.patch(path, headers=USER, json={"score": score}))["message"] == "unknown field 'score'"
    cleared = httpx.patch(path, headers=USER, json={"subcategory": None, "tags": None})
    assert cleared.status_code == 200 and cleared.json()["tags"] == []
    settings = error_of(httpx.put(url + "/api/memories/settings", headers=USER, json={"learning_enabled": "no"}))
    assert settings["param"] == "learning_enabled"
    for query in ("", "?confirm=false", "?confirm=nah"):
        refused = error_of(httpx.delete(f"{url}/api/memories{query}", headers=USER))
        assert refused["param"] == "confirm" and refused["message"] == "deleting all memories needs ?confirm=true"
    assert httpx.get(path, headers=USER).status_code == 200


def test_admin_bodies_and_queries(url: str) -> None:
    tenant_memory = {**NEW, "tenant": "t1", "scope": "personal"}
    error = error_of(httpx.post(url + "/api/admin/memories", headers=ADMIN_AUTH, json=tenant_memory))
    assert error["param"] == "scope" and error["message"] == "'scope' must be one of 'shared' or 'system'"
    system = httpx.post(
        url + "/api/admin/memories", headers=ADMIN_AUTH, json={**NEW, "tenant": "t1", "scope": "system"}
    )
    assert system.status_code == 201 and system.json()["source"] == "system"
    no_tenant = error_of(httpx.get(url + "/api/admin/users/val/memories", headers=ADMIN_AUTH))
    assert no_tenant == {**no_tenant, "param": "tenant", "message": "'tenant' is required"}
    patch = httpx.patch(f"{url}/api/admin/memories/{system.json()['id']}", headers=ADMIN_AUTH, json={"score": 2})
    assert error_of(patch)["message"] == "'score' must be between 0.0 and 1.0"
    prompt = httpx.put(url + "/api/admin/prompts/scoring", headers=ADMIN_AUTH, json={"prompt": "no placeholder"})
    assert error_of(prompt)["param"] == "prompt"
    # the admin key is checked before the body
    assert httpx.post(url + "/api/admin/memories", headers=USER, json={}).status_code == 401


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("GET", "/api/memories/{id}", USER),
        ("PATCH", "/api/memories/{id}", USER),
        ("DELETE", "/api/memories/{id}", USER),
        ("GET", "/api/admin/memories/{id}", ADMIN_AUTH),
        ("POST", "/api/admin/memories/{id}/promote", ADMIN_AUTH),
        ("GET", "/api/admin/prompts/{id}", ADMIN_AUTH),
    ],
)
def test_not_found_messages_do_not_echo_a_huge_id(url: str, method: str, path: str, headers: dict[str, str]) -> None:
    huge = "a" * 10_000
    r = httpx.request(method, url + path.format(id=huge), headers=headers, json={} if method == "PATCH" else None)
    assert r.status_code == 404
    message = r.json()["error"]["message"]
    assert len(message) < 150 and "a" * 64 + "…" in message
