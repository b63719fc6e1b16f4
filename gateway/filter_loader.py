"""Filters by name: one registry of built-ins, one importer for ``module:Class``.

A filter class is built as ``cls(options, services)`` (``gateway.compose``). When it has an
``Options`` pydantic model, the YAML options are validated against it and errors name the
key path (``filters[0].memory_injection.top_k``).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gateway.config import Config, ConfigError, FilterSpec

M = TypeVar("M", bound=BaseModel)

BUILTIN_FILTERS: dict[str, str] = {
    "memory_injection": "filters.memory_injection:MemoryInjectionFilter",
    "learning": "filters.learning:LearningFilter",
}


class ImportFromStringError(Exception):
    pass


def import_from_string(target: str) -> Any:
    module_name, _, attrs = target.partition(":")
    if not module_name or not attrs:
        raise ImportFromStringError(f"{target!r}: expected 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            raise ImportFromStringError(f"{target!r}: module {module_name!r} not found") from exc
        raise ImportFromStringError(f"{target!r}: importing {module_name!r} failed: {exc}") from exc
    except Exception as exc:  # boundary: any error raised while importing a user's module is a config error
        raise ImportFromStringError(
            f"{target!r}: importing {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc
    obj: Any = module
    for attr in attrs.split("."):
        try:
            obj = getattr(obj, attr)
        except AttributeError as exc:
            raise ImportFromStringError(f"{target!r}: {module_name!r} has no {attrs!r}") from exc
    return obj


def filter_class(spec: FilterSpec, source: str) -> type:
    target = spec.name if ":" in spec.name else BUILTIN_FILTERS.get(spec.name)
    where = f"{source}: filters[{spec.index}]"
    if target is None:
        known = ", ".join(sorted(BUILTIN_FILTERS))
        raise ConfigError(f"{where}: unknown filter {spec.name!r} (built-ins: {known}; or module:Class)")
    try:
        cls = import_from_string(target)
    except ImportFromStringError as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    if not isinstance(cls, type):
        raise ConfigError(f"{where}: {target!r} is not a class")
    if not _is_filter_class(cls):
        raise ConfigError(
            f"{where}: {target!r} is not a filter: it needs an 'async def __call__(self, ctx, call_next)' method"
        )
    return cls


def _is_filter_class(cls: type) -> bool:
    """Whether instances of ``cls`` are async callables taking ``(ctx, call_next)``."""
    found = (k.__dict__["__call__"] for k in cls.__mro__ if k is not object and "__call__" in k.__dict__)
    call = next(found, None)
    if call is None or not inspect.iscoroutinefunction(call):
        return False
    try:
        inspect.signature(call).bind(None, None, None)  # self, ctx, call_next
    except (TypeError, ValueError):
        return False
    return True


def filter_options(cls: type, spec: FilterSpec, source: str) -> Any:
    model = getattr(cls, "Options", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return dict(spec.options)
    return validated_options(model, spec, source)


def validated_options(model: type[M], spec: FilterSpec, source: str) -> M:
    """``spec``'s options as ``model``; errors name the key path."""
    try:
        return model.model_validate(spec.options)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            lines.append(f"{source}: filters[{spec.index}].{spec.name}.{loc}: {err['msg']}")
        raise ConfigError("\n".join(lines)) from exc


def validate_filters(config: Config) -> None:
    """Import every configured filter and check its options (for check-config)."""
    for spec in config.filter_specs:
        filter_options(filter_class(spec, config.source), spec, config.source)
