"""``GET /openapi.json``: a valid OpenAPI 3.1 document covering every memory and admin route."""

from __future__ import annotations

import httpx
from openapi_spec_validator import validate
from starlette.routing import Route

from gateway.api.admin import admin_routes
from gateway.api.memories import memory_routes
from tests.conftest import GatewayFactory


def test_served_document_is_valid_openapi_31_and_covers_every_route(gateway: GatewayFactory) -> None:
    with gateway() as url:
        r = httpx.get(url + "/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    doc = r.json()
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    documented = {(path, method.upper()) for path, item in doc["paths"].items() for method in item}
    served = set()
    for route in [*memory_routes(), *admin_routes()]:
        assert isinstance(route, Route) and route.methods is not None
        served |= {(route.path, m) for m in route.methods if m != "HEAD"}
    served |= {("/api/console-links", "POST"), ("/api/admin/console-links", "POST")}
    assert documented == served
    assert len(served) == 34  # 6 of them: supersede reviews (user and admin); 2: reflection reports
    uses = doc["paths"]["/api/memories/{id}/uses"]["get"]
    assert uses["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MemoryUsePage"
    }
    assert doc["components"]["schemas"]["Memory"]["properties"]["pinned"]["type"] == "boolean"
    hit = doc["components"]["schemas"]["MemoryHit"]  # a listed memory carries its use count
    assert hit["properties"]["uses"]["type"] == "integer" and "uses" in hit["required"]
    assert "409" in doc["paths"]["/api/memories"]["post"]["responses"]
    link = doc["paths"]["/api/admin/console-links"]["post"]
    assert link["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ConsoleLinkFor"
    }
    assert link["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ConsoleLink"
    }
    assert set(doc["components"]["schemas"]["ConsoleLink"]["required"]) == {"url", "expires_at"}


def test_security_and_shared_schemas(gateway: GatewayFactory) -> None:
    with gateway() as url:
        doc = httpx.get(url + "/openapi.json").json()
    schemes = doc["components"]["securitySchemes"]
    assert schemes["user"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Memorelay-User",
        "description": "the end user whose memories are read and changed",
    }
    assert schemes["credential"]["scheme"] == schemes["adminKey"]["scheme"] == "bearer"
    listing = doc["paths"]["/api/memories"]["get"]
    assert listing["security"] == [{"credential": [], "user": []}]
    assert doc["paths"]["/api/admin/stats"]["get"]["security"] == [{"adminKey": []}]
    page = listing["responses"]["200"]["content"]["application/json"]["schema"]
    assert page == {"$ref": "#/components/schemas/MemoryPage"}
    error = listing["responses"]["400"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/Error"}
    create = doc["components"]["schemas"]["MemoryCreate"]
    assert create["required"] == ["title", "content", "category"]
    assert create["additionalProperties"] is False
    assert create["properties"]["title"]["maxLength"] == 200
    params = {p["name"]: p for p in listing["parameters"]}
    assert params["limit"]["schema"]["maximum"] == 200
    assert params["category"]["schema"]["enum"][0] == "user_preference"
    export = doc["paths"]["/api/memories/export"]["get"]
    assert set(export["responses"]["200"]["content"]) == {"application/json", "text/markdown", "text/csv"}
    formats = {p["name"]: p for p in export["parameters"]}["format"]["schema"]
    assert formats["enum"] == ["json", "markdown", "csv"]


def test_a_405_allows_every_method_of_the_path(gateway: GatewayFactory) -> None:
    with gateway() as url:
        r = httpx.put(url + "/api/memories", headers={"authorization": "Bearer k", "x-memorelay-user": "u"})
    assert r.status_code == 405
    assert set(r.headers["allow"].split(", ")) == {"GET", "HEAD", "POST", "DELETE"}
