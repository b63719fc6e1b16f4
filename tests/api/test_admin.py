"""The admin API's answers that the OpenAPI fuzzing (stateful phase) found wrong."""

from __future__ import annotations

import httpx

from tests.conftest import GatewayFactory

ADMIN = {"authorization": "Bearer admin-secret"}
USER = {"authorization": "Bearer sk-app", "x-memorelay-user": "ann"}


def test_promoting_a_shared_memory_again_is_a_conflict_not_a_bad_request(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": "admin-secret"}) as url:
        body = {"title": "Runbook", "content": "Restart with make restart.", "category": "technical"}
        memory_id = httpx.post(url + "/api/memories", headers=USER, json=body).json()["id"]
        first = httpx.post(f"{url}/api/admin/memories/{memory_id}/promote", headers=ADMIN)
        assert first.status_code == 200 and first.json()["scope"] == "shared"
        again = httpx.post(f"{url}/api/admin/memories/{memory_id}/promote", headers=ADMIN)
        assert again.status_code == 409
        assert again.json()["error"] == {
            "message": f"memory {memory_id!r} is already shared",
            "type": "invalid_request_error",
            "param": None,
            "code": "conflict",
        }
