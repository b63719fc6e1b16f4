"""``memorelay memories list|search|add|delete|export|import|reindex|users``: the store, directly.

Writes go to SQLite (the source of truth); a running gateway's in-memory vector
index does not see them until it restarts, so run write commands against a
stopped gateway, or use the HTTP API instead.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from gateway.config import Config, load_config

Command = Callable[[Any, argparse.Namespace, str], Awaitable[int]]
ACTOR = "cli"


def add_memory_commands(sub: Any) -> None:
    memories = sub.add_parser("memories", help="operate on the memory store directly")
    commands = memories.add_subparsers(dest="memories_command", required=True)

    def command(name: str, fn: Command, help_text: str, user: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = commands.add_parser(name, help=help_text)
        p.add_argument("--config", help="config file (default: $MEMORELAY_CONFIG, else ./config/memorelay.yaml …)")
        p.add_argument("--tenant", help="tenant (default: the only gateway-key tenant, else 'anonymous')")
        if user:
            p.add_argument("--user", required=True)
        p.set_defaults(run=lambda args: asyncio.run(_run(fn, args)))
        return p

    p = command("list", _list, "list a user's memories, newest first")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--include-disabled", action="store_true")
    p = command("search", _search, "rank a user's memories by relevance to a query")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=10)
    p = command("add", _add, "add a personal memory")
    p.add_argument("--title", required=True)
    p.add_argument("--content", required=True)
    p.add_argument("--category", default="domain")
    p.add_argument("--subcategory", default="")
    p.add_argument("--tags", default="", help="comma-separated")
    p = command("delete", _delete, "delete a memory by id")
    p.add_argument("id")
    p = command("export", _export, "print a user's memories (JSON or Markdown)")
    p.add_argument("--format", choices=("json", "markdown"), default="json")
    p = command("import", _import, "add the memories of a JSON export file")
    p.add_argument("file")
    command("reindex", _reindex, "re-embed every memory and rebuild the indexes", user=False)
    command("users", _users, "list users with memories", user=False)


def _tenant(config: Config, args: argparse.Namespace) -> str:
    if args.tenant:
        return str(args.tenant)
    tenants = {k.tenant for k in config.auth.keys}
    return tenants.pop() if len(tenants) == 1 else "anonymous"


async def _run(fn: Command, args: argparse.Namespace) -> int:
    from gateway.memory import MemoryService, build_embedder

    config = load_config(args.config)
    embedding = config.memory.embedding.model_dump()
    if config.memory.embedding.api_key is not None:
        embedding["api_key"] = config.memory.embedding.api_key.get_secret_value()
    service = MemoryService(config.memory.database, build_embedder(embedding))
    await service.open()
    try:
        return await fn(service, args, _tenant(config, args))
    finally:
        await service.close()


def _print(data: Any) -> None:
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")


async def _list(service: Any, args: argparse.Namespace, tenant: str) -> int:
    items, total = await service.list(
        tenant,
        args.user,
        include_disabled=args.include_disabled,
        limit=args.limit,
        personal_only=True,
    )
    _print({"data": [m.to_json() for m in items], "total": total})
    return 0


async def _search(service: Any, args: argparse.Namespace, tenant: str) -> int:
    found = await service.search(tenant, args.user, args.query, limit=args.limit)
    _print(
        {
            "data": [dict(s.memory.to_json(), relevance=s.relevance) for s in found],
            "total": len(found),
        }
    )
    return 0


async def _add(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory import MemoryValidationError, NewMemory

    tags = [t.strip() for t in args.tags.split(",") if t.strip()]
    item = NewMemory(
        title=args.title,
        content=args.content,
        category=args.category,
        subcategory=args.subcategory,
        tags=tags,
    )
    try:
        created = await service.add(tenant, args.user, item, actor=ACTOR)
    except MemoryValidationError as exc:
        print(f"memorelay: {exc}", file=sys.stderr)
        return 1
    _print(created.to_json())
    return 0


async def _delete(service: Any, args: argparse.Namespace, tenant: str) -> int:
    if not await service.delete(tenant, args.user, args.id, actor=ACTOR):
        print(
            f"memorelay: no memory {args.id!r} of user {args.user!r} in tenant {tenant!r}",
            file=sys.stderr,
        )
        return 1
    return 0


async def _export(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory_export import export_json, export_markdown

    items, _ = await service.list(tenant, args.user, include_disabled=True, personal_only=True, limit=10**7)
    if args.format == "markdown":
        sys.stdout.write(export_markdown(args.user, items))
    else:
        _print(export_json(tenant, args.user, items))
    return 0


async def _import(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory import MemoryValidationError
    from gateway.memory_export import read_export

    try:
        with open(args.file, "rb") as f:
            items = read_export(orjson.loads(f.read()))
        added = await service.add_many(tenant, args.user, items, actor=ACTOR)
    except (OSError, orjson.JSONDecodeError, MemoryValidationError) as exc:
        print(f"memorelay: cannot import {args.file}: {exc}", file=sys.stderr)
        return 1
    print(f"imported {len(added)} memories for {args.user} in tenant {tenant}")
    return 0


async def _reindex(service: Any, args: argparse.Namespace, tenant: str) -> int:
    print(f"re-embedded {await service.reindex()} memories")
    return 0


async def _users(service: Any, args: argparse.Namespace, tenant: str) -> int:
    _print({"data": await service.list_users(args.tenant)})
    return 0
