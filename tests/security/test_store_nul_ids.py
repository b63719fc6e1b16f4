"""An id holding a NUL (or another byte no id can hold) is a 4xx in OpenAI's shape on
PostgreSQL too, never a 500 from the database driver."""

from __future__ import annotations

import httpx

from tests.conftest import GatewayFactory
from tests.e2e.test_memory_api import ADMIN, add, admin_client, user_client

CASES = [
    ("user", "GET", "/api/memories/mem_%00x"),
    ("user", "PATCH", "/api/memories/mem_%00x"),
    ("user", "DELETE", "/api/memories/mem_%00x"),
    ("user", "GET", "/api/memories/mem_%00x/uses"),
    ("user", "POST", "/api/memories/reviews/rev_%00x/accept"),
    ("user", "POST", "/api/memories/reviews/rev_%00x/reject"),
    ("admin", "GET", "/api/admin/users?tenant=t%00x"),
    ("admin", "GET", "/api/admin/users/al%00ice/memories?tenant=sk"),
    ("admin", "GET", "/api/admin/users/alice/memories?tenant=t%00x"),
    ("admin", "GET", "/api/admin/memories/mem_%00x"),
    ("admin", "PATCH", "/api/admin/memories/mem_%00x"),
    ("admin", "DELETE", "/api/admin/memories/mem_%00x"),
    ("admin", "POST", "/api/admin/memories/mem_%00x/promote"),
    ("admin", "POST", "/api/admin/reviews/rev_%00x/accept"),
    ("admin", "GET", "/api/admin/reviews?tenant=t%00x"),
    ("admin", "GET", "/api/admin/audit-log?tenant=t%00x"),
]


def test_nul_in_any_id_is_a_client_error_on_postgresql(gateway: GatewayFactory, pg_url: str) -> None:
    with gateway(auth={"admin_key": ADMIN}, memory={"database": pg_url}) as url:
        add(user_client(url, "alice"), "Tea", "The user drinks green tea.")
        failures = []
        for who, method, path in CASES:
            client = user_client(url, "alice") if who == "user" else admin_client(url)
            body = {"title": "x"} if method == "PATCH" else None
            r = client.request(method, path, json=body)
            is_json = r.headers.get("content-type", "").startswith("application/json")
            error = r.json().get("error", {}) if is_json else {}
            if r.status_code not in (400, 404) or not {"message", "type", "code"} <= set(error):
                failures.append((method, path, r.status_code, r.text[:200]))
        assert not failures, failures
        # and the store is fine afterwards
        assert user_client(url, "alice").get("/api/memories").json()["total"] == 1


def test_nul_in_the_user_header_is_refused(gateway: GatewayFactory, pg_url: str) -> None:
    with gateway(memory={"database": pg_url}) as url:
        r = httpx.get(url + "/api/memories", headers={"authorization": "Bearer sk-app", "x-memorelay-user": "al%00ice"})
        assert r.status_code == 400 and r.json()["error"]["code"]
