"""``memorelay memories list|search|add|delete|export|import|reindex|consolidate|users|move-tenant|migrate``:
the store, directly.

Writes go to SQLite (the source of truth); a running gateway's in-memory vector
index does not see them until it restarts, so run write commands against a
stopped gateway, or use the HTTP API instead.

Without ``--tenant`` a user's commands use the config's only gateway-key tenant; otherwise
(pass-through mode, where a tenant is a hash of the caller's API key) the tenant that holds
the user's memories. Whenever the tenant used holds nothing of the user, stderr names the
tenants that do, with counts, and how to pick one.
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
TENANT_OF_HINT = "in pass-through mode a tenant is a hash of the API key: `memorelay tenant-of` prints a key's"


MIGRATE_HELP = (
    "Copy the store of memory.database (SQLite) into the PostgreSQL database of --to: memories with "
    "their embeddings, user settings, the audit log and prompt overrides (not the learning queue, "
    "learning log or token usage). The SQLite file is only read, so the gateway may keep running on "
    "it: writes made during the copy (new, edited, disabled or deleted memories, settings) are picked "
    "up by running the command again, which copies only what changed. Refused when the target's "
    "memories come from another embedding model."
)


class TenantUnknown(Exception):
    """No tenant given and none can be told from the config or the data; the message says why."""


def add_memory_commands(sub: Any) -> None:
    memories = sub.add_parser("memories", help="operate on the memory store directly")
    commands = memories.add_subparsers(dest="memories_command", required=True)

    def command(
        name: str, fn: Command, help_text: str, *, user: bool = True, embed: bool = False, writes: bool = False
    ) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = commands.add_parser(name, help=help_text)
        p.add_argument("--config", help="config file (default: $MEMORELAY_CONFIG, else ./config/memorelay.yaml …)")
        if user:
            p.add_argument(
                "--tenant", help="tenant (default: the only gateway-key tenant, else the one holding the user)"
            )
            p.add_argument("--user", required=True)
        p.set_defaults(run=lambda args: asyncio.run(_run(fn, args, user=user, embed=embed, writes=writes)))
        return p

    p = command("list", _list, "list a user's memories, newest first")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--include-disabled", action="store_true")
    p.add_argument("--kind", help="only this kind: fact, preference, relation, episode or rule")
    p = command("search", _search, "rank a user's memories by relevance to a query", embed=True)
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=10)
    p = command("add", _add, "add a personal memory", embed=True, writes=True)
    p.add_argument("--title", required=True)
    p.add_argument("--content", required=True)
    p.add_argument("--category", default="domain")
    p.add_argument("--subcategory", default="")
    p.add_argument("--tags", default="", help="comma-separated")
    p.add_argument(
        "--kind",
        help="fact, preference, relation, episode or rule (default: a tag naming a kind, else rule for a "
        "standing instruction on the answers' language or style, preference for user_preference, else fact)",
    )
    p = command("delete", _delete, "delete a memory by id", writes=True)
    p.add_argument("id")
    p = command("export", _export, "print a user's memories (JSON, Markdown or CSV)")
    p.add_argument("--format", choices=("json", "markdown", "csv"), default="json")
    p = command(
        "import", _import, "add the memories of a JSON export file the user does not have yet", embed=True, writes=True
    )
    p.add_argument("file")
    command("reindex", _reindex, "re-embed every memory and rebuild the indexes", user=False, embed=True, writes=True)
    p = command(
        "consolidate",
        _consolidate,
        "merge near-duplicate memories, compress clusters of small related facts into summaries "
        "and write reflection reports (what the gateway does every learning.consolidate_interval_h)",
        user=False,
        embed=True,
        writes=True,
    )
    p.add_argument("--tenant", help="only this tenant")
    p.add_argument("--user", help="only this user (reports: this user's only, no tenant report)")
    p.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    p = command("users", _users, "list users with memories and the tenant holding them", user=False)
    p.add_argument("--tenant", help="only this tenant")
    p = command(
        "move-tenant",
        _move_tenant,
        "move a tenant's memories, settings and audit trail to another tenant (e.g. after rotating an API key)",
        user=False,
        writes=True,
    )
    p.add_argument("--from", dest="source", required=True, metavar="OLD", help="tenant to move from")
    p.add_argument("--to", dest="target", required=True, metavar="NEW", help="tenant to move to")
    p.add_argument("--user", help="move only this user's personal memories and data")
    p = commands.add_parser(
        "migrate",
        help="copy the configured SQLite store into PostgreSQL (run it again to pick up later writes)",
        description=MIGRATE_HELP,
    )
    p.add_argument("--config", help="config file (default: $MEMORELAY_CONFIG, else ./config/memorelay.yaml …)")
    p.add_argument("--to", dest="target", required=True, metavar="postgresql://…", help="the PostgreSQL database")
    p.set_defaults(run=lambda args: asyncio.run(_migrate(args)))


def _configured_tenant(config: Config) -> str | None:
    if config.auth.tenant is not None:  # one fixed pass-through tenant
        return config.auth.tenant
    tenants = {k.tenant for k in config.auth.keys}
    return tenants.pop() if len(tenants) == 1 else None


def _holders(user_id: str, held: list[tuple[str, int]]) -> str:
    lines = [f"tenants holding user {user_id!r}:"]
    width = max(len(t) for t, _ in held)
    lines += [f"  {t:<{width}}  {n} memor{'y' if n == 1 else 'ies'}" for t, n in held]
    lines.append(f"pick one with --tenant TENANT ({TENANT_OF_HINT})")
    return "\n".join(lines)


async def _tenant(service: Any, config: Config, args: argparse.Namespace, *, writes: bool) -> str:
    if args.tenant:
        return str(args.tenant)
    configured = _configured_tenant(config)
    if configured is not None:
        return configured
    held: list[tuple[str, int]] = await service.tenants_of(args.user)
    if len(held) == 1:
        print(f"memorelay: tenant {held[0][0]} (the only one holding user {args.user!r})", file=sys.stderr)
        return held[0][0]
    if held:
        raise TenantUnknown(f"several tenants hold user {args.user!r}; " + _holders(args.user, held))
    what = "write to" if writes else "read"
    raise TenantUnknown(
        f"no tenant holds memories of user {args.user!r}, so which tenant to {what} is unknown: "
        f"pass --tenant TENANT ({TENANT_OF_HINT}; `memorelay memories users` lists who has memories)"
    )


async def _hint_if_absent(service: Any, user_id: str, tenant: str) -> None:
    """On stderr: the tenants holding ``user_id`` when ``tenant`` holds none of their memories."""
    held = await service.tenants_of(user_id)
    if any(t == tenant for t, _ in held):
        return
    others = f"; {_holders(user_id, held)}" if held else "; no tenant holds memories of that user"
    print(f"memorelay: user {user_id!r} has no memories in tenant {tenant!r}{others}", file=sys.stderr)


async def _run(fn: Command, args: argparse.Namespace, *, user: bool, embed: bool, writes: bool) -> int:
    from gateway.memory import MemoryService, build_embedder
    from gateway.store.backend import open_backend

    config = load_config(args.config)
    embedder = None
    if embed:
        embedding = config.memory.embedding.model_dump()
        if config.memory.embedding.api_key is not None:
            embedding["api_key"] = config.memory.embedding.api_key.get_secret_value()
        embedder = build_embedder(embedding)
    # commands that need no vectors open the store without the embedder (fast); their writes
    # bump the index generation, so the gateway rebuilds its vector index at the next start
    backend = open_backend(config)
    await backend.open()
    service = MemoryService(backend.memories, embedder)
    try:
        await service.open(warm="now" if writes else "no")
        tenant = ""
        if user:
            try:
                tenant = await _tenant(service, config, args, writes=writes)
            except TenantUnknown as exc:
                print(f"memorelay: {exc}", file=sys.stderr)
                return 2
        return await fn(service, args, tenant)
    finally:
        try:
            await service.close(save=writes)
        finally:
            await backend.close()


def _print(data: Any) -> None:
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")


async def _list(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory import MemoryValidationError, validate

    try:
        kind = None if args.kind is None else validate.kind(args.kind)
    except MemoryValidationError as exc:
        print(f"memorelay: {exc}", file=sys.stderr)
        return 1
    items, total = await service.list(
        tenant,
        args.user,
        include_disabled=args.include_disabled,
        limit=args.limit,
        personal_only=True,
        kind=kind,
    )
    _print({"data": [m.to_json() for m in items], "total": total})
    if not total:
        await _hint_if_absent(service, args.user, tenant)
    return 0


async def _search(service: Any, args: argparse.Namespace, tenant: str) -> int:
    found = await service.search(tenant, args.user, args.query, limit=args.limit)
    _print(
        {
            "data": [dict(s.memory.to_json(), relevance=s.relevance) for s in found],
            "total": len(found),
        }
    )
    if not found:
        await _hint_if_absent(service, args.user, tenant)
    return 0


async def _add(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory import MemoryValidationError, NewMemory, derive_kind

    tags = [t.strip() for t in args.tags.split(",") if t.strip()]
    item = NewMemory(
        title=args.title,
        content=args.content,
        category=args.category,
        subcategory=args.subcategory,
        tags=tags,
        kind=args.kind or derive_kind(args.category, args.subcategory, args.title, args.content, tags),
    )
    try:
        created = await service.add(tenant, args.user, item, actor=ACTOR)
    except MemoryValidationError as exc:
        print(f"memorelay: {exc}", file=sys.stderr)
        return 1
    _print(created.to_json())
    return 0


async def _delete(service: Any, args: argparse.Namespace, tenant: str) -> int:
    memory = await service.get(tenant, args.user, args.id)  # for the line saying what went
    if memory is None or not await service.delete(tenant, args.user, args.id, actor=ACTOR):
        print(
            f"memorelay: no memory {args.id!r} of user {args.user!r} in tenant {tenant!r}",
            file=sys.stderr,
        )
        await _hint_if_absent(service, args.user, tenant)
        return 1
    print(f"deleted memory {memory.id} ({memory.title!r}) of user {args.user!r} in tenant {tenant!r}")
    return 0


async def _export(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory_export import export_csv, export_json, export_markdown

    items, _ = await service.list(tenant, args.user, include_disabled=True, personal_only=True, limit=10**7)
    if args.format == "markdown":
        sys.stdout.write(export_markdown(args.user, items))
    elif args.format == "csv":
        sys.stdout.write(export_csv(items))
    else:
        _print(export_json(tenant, args.user, items))
    if not items:
        await _hint_if_absent(service, args.user, tenant)
    return 0


async def _import(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory import MemoryValidationError
    from gateway.memory_export import not_yet_present, read_export_with_ids

    try:
        with open(args.file, "rb") as f:
            items = read_export_with_ids(orjson.loads(f.read()))
        fresh, skipped = not_yet_present(items, await _all_personal(service, tenant, args.user))
        added = await service.add_many(tenant, args.user, fresh, actor=ACTOR) if fresh else []
    except (OSError, orjson.JSONDecodeError, MemoryValidationError) as exc:
        print(f"memorelay: cannot import {args.file}: {exc}", file=sys.stderr)
        return 1
    print(
        f"imported {len(added)} memories for {args.user} in tenant {tenant}; "
        f"skipped {skipped} already present (same id, or same title and content)"
    )
    return 0


async def _all_personal(service: Any, tenant: str, user: str) -> list[Any]:
    """Every personal memory of ``user``, disabled ones included."""
    out: list[Any] = []
    while True:
        page, total = await service.list(
            tenant, user, personal_only=True, include_disabled=True, limit=1000, offset=len(out)
        )
        out.extend(page)
        if not page or len(out) >= total:
            return out


async def _reindex(service: Any, args: argparse.Namespace, tenant: str) -> int:
    print(f"re-embedded {await service.reindex()} memories")
    return 0


async def _consolidate(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.auth import Authenticator
    from gateway.learning.options import learning_options
    from gateway.learning.upkeep.consolidate_job import RoundSettings, consolidate_round, round_settings, summariser_for
    from gateway.upstreams import UpstreamRouter

    for flag, value in (("--tenant", args.tenant), ("--user", args.user)):
        if value is not None and not value.strip():
            print(f"memorelay: {flag} must not be empty", file=sys.stderr)
            return 2
    config = load_config(args.config)
    options = learning_options(config)
    settings = round_settings(options) if options is not None else RoundSettings()
    if options is not None:
        service.policy.learning_default = options.consent == "opt_out"
        service.policy.decay_half_life_days = options.decay_half_life_days
        service.policy.episode_half_life_days = options.episode_half_life_days
        service.policy.decay_floor = options.decay_floor
    upstreams = UpstreamRouter(config)
    await upstreams.start()
    try:
        summariser = summariser_for(config, upstreams, Authenticator(config).gateway_key_mode, options)
        done = await consolidate_round(
            service, settings, summariser, tenant=args.tenant, user_id=args.user, dry_run=args.dry_run
        )
    finally:
        await upstreams.close()
    prefix = "would change (dry run): " if args.dry_run else ""
    for user in done.users:
        print(prefix + user.line())
        for merge in user.merges:
            print(f"  merged {', '.join(merge['ids'])} into {merge['into']}")
        for summary in user.summaries:
            print(f"  consolidated {', '.join(summary['from'])} into {summary['id']} ({summary['title']!r})")
    where = f" in tenant {args.tenant!r}" if args.tenant else ""
    if not done.users and not done.failed:
        print(f"no memories for user {args.user!r}{where}" if args.user else f"no users with memories{where}")
    for failed in done.failed:
        print(f"{failed}: failed (see the log); left as is")
    print(
        f"{len(done.users)} users in {done.seconds:.2f} s, summaries by {done.summariser}; "
        f"{len(done.reports)} reflection reports written"
        + (f"; {len(done.failed)} users failed" if done.failed else "")
    )
    return 1 if done.failed else 0


async def _users(service: Any, args: argparse.Namespace, tenant: str) -> int:
    _print({"data": await service.list_users(args.tenant)})
    return 0


async def _move_tenant(service: Any, args: argparse.Namespace, tenant: str) -> int:
    from gateway.memory import MemoryValidationError, TenantConflict

    try:
        moved = await service.move_tenant(args.source, args.target, user_id=args.user, actor=ACTOR)
    except MemoryValidationError as exc:
        print(f"memorelay: {exc}", file=sys.stderr)
        return 2
    except TenantConflict as exc:
        print(f"memorelay: nothing moved: {exc}", file=sys.stderr)
        return 1
    whose = f" of user {args.user!r}" if args.user else ""
    if not moved.anything:
        print(f"nothing to move: tenant {args.source!r} holds no data{whose}")
        return 0
    print(
        f"moved {moved.memories} memories, {moved.settings} user settings, {moved.audit_entries} audit entries "
        f"and {moved.learning_rows} learning rows{whose} from tenant {args.source!r} to {args.target!r}"
    )
    if moved.memories:
        print("the gateway rebuilds its vector index at its next start")
    return 0


async def _migrate(args: argparse.Namespace) -> int:
    """``memories migrate --to URL``: the configured SQLite store into PostgreSQL."""
    import time
    from pathlib import Path
    from urllib.parse import urlsplit

    from gateway.config import display_database
    from gateway.memory.migrate import MigrationError, migrate
    from gateway.store.backend import is_postgres_url, open_backend, sqlite_backend

    config = load_config(args.config)
    source, target_url = config.memory.database, str(args.target)

    def refuse(message: str) -> int:
        one_line = " ".join(message.split())  # driver errors span lines
        print(f"memorelay: nothing copied: {one_line}", file=sys.stderr)
        return 1

    if not is_postgres_url(target_url):
        return refuse(f"--to must be a postgresql:// URL, not {display_database(target_url)!r}")
    if source == target_url:
        return refuse("--to is the configured memory.database itself")
    if is_postgres_url(source):
        return refuse(
            f"memory.database is already PostgreSQL ({display_database(source)}); "
            "migrate copies a SQLite store (point --config at the SQLite configuration)"
        )
    if source in ("", ":memory:") or source.startswith("file:") or not Path(source).is_file():
        return refuse(f"memory.database {source!r} is not a SQLite file")
    shown = display_database(target_url)
    print(f"migrating {source} -> {shown}")
    started = time.monotonic()
    target_config = config.model_copy(update={"memory": config.memory.model_copy(update={"database": target_url})})
    from_store = sqlite_backend(source, busy_timeout_ms=config.memory.busy_timeout_ms)
    to_store = open_backend(target_config)
    try:
        await from_store.open()
        try:
            await to_store.open()
        except (ConnectionError, OSError) as exc:
            password = urlsplit(target_url).password
            text = str(exc).replace(password, "***") if password else str(exc)
            return refuse(f"cannot open {shown}: {text}")
        report = await migrate(from_store, to_store, source)
    except MigrationError as exc:
        return refuse(str(exc))
    finally:
        try:
            await to_store.close()
        finally:
            await from_store.close()
    for line in report.lines():
        print(line)
    done = "done" if report.anything else "nothing new to copy"
    print(f"{done} in {time.monotonic() - started:.1f} s; run it again to pick up writes made on the source meanwhile")
    return 0
