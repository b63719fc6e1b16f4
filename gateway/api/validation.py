"""Requests validated once, at the edge: a query string or a JSON body into its model
(``gateway.api.request_models``), or a 400 in OpenAI's error shape whose message and ``param``
name the field."""

from __future__ import annotations

from typing import Any, TypeVar, get_args

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails
from starlette.requests import Request

from gateway.api.common import json_body
from gateway.errors import BadRequest
from gateway.memory import MemoryValidationError

M = TypeVar("M", bound=BaseModel)

_KINDS = {
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "int_from_float": "must be an integer",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "string_too_short": "must not be empty",
}


def parse_query(request: Request, model: type[M]) -> M:
    """The query string as ``model``. A parameter of the model given twice is refused: which of
    two tenants or limits was meant is a guess (HTTP parameter pollution)."""
    params = request.query_params
    for name in model.model_fields:
        if len(params.getlist(name)) > 1:
            raise BadRequest(f"'{name}' must be given once", param=name)
    try:
        return model.model_validate(dict(params))
    except ValidationError as exc:
        raise bad_request(exc, model) from None


async def parse_body(request: Request, model: type[M]) -> M:
    """The JSON object body as ``model`` (bounded by server.max_body_bytes)."""
    data = await json_body(request)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise bad_request(exc, model) from None


def bad_request(exc: ValidationError, model: type[BaseModel]) -> BadRequest:
    """The first error as a 400: a memory rule's own message, else one that names the field."""
    error = exc.errors(include_url=False)[0]
    cause = (error.get("ctx") or {}).get("error")
    rule = cause if isinstance(cause, MemoryValidationError) else None
    field = str(error["loc"][0]) if error["loc"] else (rule.field if rule is not None else None)
    fixed: dict[str, str] = getattr(model, "field_messages", {})
    if field is not None and field in fixed:
        return BadRequest(fixed[field], param=field)
    if rule is not None:
        return BadRequest(str(rule), param=rule.field or field)
    return BadRequest(_message(error, model, field), param=field)


def _message(error: ErrorDetails, model: type[BaseModel], field: str | None) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "extra_forbidden":
        return f"unknown field {field!r}"
    # the field and any list index; pydantic's union-member labels ("function-after[…]") are left out
    name = "'" + (field or "body") + "".join(f"[{p}]" for p in error["loc"] if isinstance(p, int)) + "'"
    if kind == "missing":
        return f"{name} is required"
    if kind in _KINDS:
        return f"{name} {_KINDS[kind]}"
    if kind == "literal_error":
        return f"{name} must be one of {ctx.get('expected')}"
    if kind == "string_too_long":
        return f"{name} must be at most {ctx.get('max_length')} characters"
    if kind == "too_long":
        return f"{name} must have at most {ctx.get('max_length')} items"
    if kind in ("greater_than_equal", "less_than_equal") and field is not None:
        low, high = _bounds(model, field)
        if low is not None and high is not None:
            return f"{name} must be between {low} and {high}"
    text = str(error["msg"])
    return f"{name}: {text[:1].lower()}{text[1:]}"


def _bounds(model: type[BaseModel], field: str) -> tuple[Any, Any]:
    """The ``ge``/``le`` of a field, also where it sits inside ``X | None``."""
    info = model.model_fields.get(field)
    rules: list[Any] = list(info.metadata) if info is not None else []
    for arg in get_args(info.annotation) if info is not None else ():
        for rule in getattr(arg, "__metadata__", ()):
            rules.extend(rule.metadata if isinstance(rule, FieldInfo) else [rule])
    low = next((r.ge for r in rules if isinstance(r, annotated_types.Ge)), None)
    high = next((r.le for r in rules if isinstance(r, annotated_types.Le)), None)
    return low, high
