"""``GET /openapi.json``: the OpenAPI 3.1 document of the memory and admin APIs.

Made from the operations that build the routes and from the pydantic models that validate their
requests (``request_models``) and describe their answers (``response_models``); schemas live in
``#/components/schemas``. The console-link endpoints (``console_links``) are declared the same way
and are part of it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gateway.api.admin import admin_operations
from gateway.api.console_links import console_link_operations
from gateway.api.memories import memory_operations
from gateway.api.operation import Operation
from gateway.api.response_models import Error

OPENAPI_PATH = "/openapi.json"
Refs = Mapping[tuple[Any, JsonSchemaMode], dict[str, Any]]
_REF = "#/components/schemas/{model}"
_ERRORS = {
    400: "invalid request: a field, parameter or the X-Memorelay-User header",
    401: "missing or wrong credential",
    403: "not the caller's own personal memory",
    404: "no such memory, user or prompt",
    409: "the memory's state forbids it: it is already shared or system",
    413: "body over server.max_body_bytes",
    415: "a body not sent as Content-Type: application/json",
    429: "a limit of the gateway was hit (a cap on a user's memories, too many wrong credentials)",
}
_SECURITY_SCHEMES = {
    "credential": {
        "type": "http",
        "scheme": "bearer",
        "description": "the same credential as chat: a gateway key from auth.keys or, in pass-through mode, "
        "the caller's upstream API key (the tenant is derived from it)",
    },
    "user": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Memorelay-User",
        "description": "the end user whose memories are read and changed",
    },
    "adminKey": {"type": "http", "scheme": "bearer", "description": "auth.admin_key"},
}
_SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "user": [{"credential": [], "user": []}],
    "admin": [{"adminKey": []}],
}


def openapi_routes() -> list[BaseRoute]:
    return [Route(OPENAPI_PATH, _serve, methods=["GET"])]


async def _serve(request: Request) -> Response:
    return Response(_document_bytes(), media_type="application/json")


@functools.cache
def _document_bytes() -> bytes:
    return orjson.dumps(openapi_document())


def openapi_document() -> dict[str, Any]:
    # the operations' declaration does not depend on a minter's key or settings
    return build_document([*memory_operations(), *admin_operations(), *console_link_operations()])


def build_document(operations: Sequence[Operation]) -> dict[str, Any]:
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(Error, "serialization")]
    for op in operations:
        if op.body is not None and (op.body, "validation") not in models:
            models.append((op.body, "validation"))
        if op.response is not None and (op.response, "serialization") not in models:
            models.append((op.response, "serialization"))
    refs, defs = models_json_schema(models, ref_template=_REF)
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, refs)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "memorelay memory, admin and console-link API",
            "version": "1",
            "description": "Per-user long-term memory of the memorelay gateway: the user API and the admin API.",
        },
        "paths": paths,
        "components": {"schemas": defs.get("$defs", {}), "securitySchemes": _SECURITY_SCHEMES},
    }


def _operation(op: Operation, refs: Refs) -> dict[str, Any]:
    out: dict[str, Any] = {
        "operationId": f"{op.security}_{op.endpoint.__name__}",
        "summary": op.summary,
        "security": _SECURITY[op.security],
        "parameters": _parameters(op),
        "responses": _responses(op, refs),
    }
    if op.body is not None:
        schema = refs[(op.body, "validation")]
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
    return out


def _parameters(op: Operation) -> list[dict[str, Any]]:
    params = [
        {"name": name, "in": "path", "required": True, "schema": op.path_schemas.get(name, {"type": "string"})}
        for name in re.findall(r"{(\w+)}", op.path)
    ]
    if op.query is not None:
        schema = op.query.model_json_schema(ref_template=_REF)
        assert "$defs" not in schema, f"{op.query.__name__}: query parameters must be plain values"
        required = set(schema.get("required", ()))
        for name, prop in schema["properties"].items():
            param = {"name": name, "in": "query", "required": name in required, "schema": _no_null(prop)}
            if name not in required:
                # `?limit=` means the default (request_models._empty_is_absent)
                param["allowEmptyValue"] = True
            params.append(param)
    return params


def _no_null(prop: dict[str, Any]) -> dict[str, Any]:
    """A query parameter is absent or a value: ``X | None`` is documented as just X."""
    options = [o for o in prop.get("anyOf", ()) if o != {"type": "null"}]
    if len(options) != 1:
        return prop
    out = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    return {**out, **options[0]}


def _responses(op: Operation, refs: Refs) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if op.response is None:
        out[str(op.status)] = {"description": "done"}
    else:
        content = {"application/json": {"schema": refs[(op.response, "serialization")]}}
        content.update({media: {"schema": schema} for media, schema in op.alternatives.items()})
        description = (op.response.__doc__ or op.response.__name__).replace("``", "`")
        out[str(op.status)] = {"description": description, "content": content}
    codes = {401, 429, *op.errors}  # 429: too many wrong credentials from the client's address
    if op.security == "user" or op.query is not None or op.body is not None:
        codes.add(400)
    if "{" in op.path:
        codes.add(404)
    if op.body is not None:
        codes.update((413, 415))
    error = {"application/json": {"schema": refs[(Error, "serialization")]}}
    for code in sorted(codes):
        out[str(code)] = {"description": _ERRORS[code], "content": error}
    return out
