"""Fuzz the memory, admin and console-link APIs against their own OpenAPI document with schemathesis.

A real gateway on loopback (pass-through mode, the admin key set) gets valid and invalid requests
generated from ``/openapi.json`` for every operation, with any path ids and (valid requests) with
the ids of a real memory and user. Every answer must not be a 5xx and must have a documented status,
content type and schema; valid input must not get a 400 and invalid input must get a 4xx.
Examples per operation, mode and pass: ``MEMORELAY_FUZZ_EXAMPLES`` (default 3, derandomized so
``make test`` is repeatable); more than that draws random examples: bench/README.md
"Reliability suite".
"""

from __future__ import annotations

import os
import time
from typing import Any
from urllib.parse import unquote

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode
from schemathesis.schemas import APIOperation
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from gateway.chat.identity import is_valid_id
from tests.conftest import GatewayFactory

ADMIN = "admin-secret"
USER_HEADERS = {"Authorization": "Bearer sk-fuzz", "X-Memorelay-User": "fuzz"}
ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}
EXAMPLES = int(os.environ.get("MEMORELAY_FUZZ_EXAMPLES", "3"))
RANDOM = EXAMPLES > 3


def _seed(url: str) -> dict[str, str]:
    """A memory of the fuzzing user, so that operations on an id also reach their 2xx answers."""
    created = httpx.post(
        url + "/api/memories",
        headers=USER_HEADERS,
        json={"title": "Seed", "content": "The fuzzing user likes tea.", "category": "user_preference"},
    )
    assert created.status_code == 201, created.text
    return {"id": created.json()["id"], "user": "fuzz"}


def _fuzz(url: str, operation: APIOperation[Any, Any, Any, Any], mode: GenerationMode, ids: dict[str, str]) -> None:
    is_admin = operation.path.startswith("/api/admin")
    headers = ADMIN_HEADERS if is_admin else USER_HEADERS
    # pass-through mode: any bearer credential names a tenant, so user operations cannot refuse one;
    # the admin key is enforced, and checked
    excluded = [] if is_admin else [ignored_auth]
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=ids or None, headers=headers)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=not RANDOM,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def check(case: Case[Any]) -> None:
        if mode == GenerationMode.POSITIVE and _unprintable_id(case):
            # the id pattern approximates the server's rule (printable): a rarer format or
            # unassigned character it lets through is refused, as documented, never accepted
            checked = [*excluded, positive_data_acceptance]
            response = case.call_and_validate(base_url=url, excluded_checks=checked, timeout=30)
            assert response.status_code in (400, 429), response.text  # 429: the wrong-key limit
            return
        case.call_and_validate(base_url=url, excluded_checks=excluded, timeout=30)

    started = time.perf_counter()
    try:
        check()
    except Unsatisfiable:
        # nothing of this operation can be made invalid (no parameters, fixed headers)
        assert mode == GenerationMode.NEGATIVE
    if os.environ.get("MEMORELAY_FUZZ_TIMES"):
        print(f"{mode.value:8} {operation.label:50} {time.perf_counter() - started:6.2f} s")


def _unprintable_id(case: Case[Any]) -> bool:
    """Whether a tenant or user id of ``case`` holds a character ``is_valid_id`` refuses."""
    path = {k: unquote(v) for k, v in (case.path_parameters or {}).items() if isinstance(v, str)}  # sent encoded
    fields = [path, case.query or {}, case.body if isinstance(case.body, dict) else {}]
    ids = [f[name] for f in fields for name in ("tenant", "user") if isinstance(f.get(name), str)]
    return any(not is_valid_id(value.strip()) for value in ids)


def _can_be_invalid(operation: APIOperation[Any, Any, Any, Any]) -> bool:
    """False when any request is valid (headers are fixed, and any string is a valid id):
    hypothesis would search in vain for seconds."""
    constrained = [p for p in operation.path_parameters if p.definition.get("schema") != {"type": "string"}]
    return bool(constrained or list(operation.query) or list(operation.body))


def test_api_answers_as_documented(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": ADMIN}) as url:
        schema = schemathesis.openapi.from_dict(httpx.get(url + "/openapi.json").json())
        operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
        assert len(operations) == 34
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for operation in operations:
                if mode == GenerationMode.POSITIVE or _can_be_invalid(operation):
                    _fuzz(url, operation, mode, {})
                names = {p.name for p in operation.path_parameters}
                if mode == GenerationMode.POSITIVE and names & {"id", "user"}:
                    # valid requests on a real memory reach the 2xx answers; a fresh one each time,
                    # since an earlier operation may have deleted the last
                    ids = {k: v for k, v in _seed(url).items() if k in names}
                    _fuzz(url, operation, mode, ids)
