"""``memorelay backup [--out FILE]`` and ``memorelay restore FILE [--force]`` (see
``gateway.memory.backup`` for the file and what it guarantees)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from gateway.config import Config, display_database, load_config

CONFIG_HELP = "config file (default: $MEMORELAY_CONFIG, else ./config/memorelay.yaml, else ./memorelay.yaml)"


def add_backup_commands(sub: Any) -> None:
    p = sub.add_parser("backup", help="write a portable backup of the memory store (either backend)")
    p.add_argument("--config", help=CONFIG_HELP)
    p.add_argument("--out", help="the file to write (default: backup.folder/memorelay-<time>.jsonl.gz)")
    p.set_defaults(run=lambda args: asyncio.run(_backup(args)))
    p = sub.add_parser(
        "restore",
        help="restore a backup into the configured store (stop the gateway first)",
        description="Restore a `memorelay backup` file into the configured memory store (SQLite or "
        "PostgreSQL, whichever wrote it). Refuses a store that already holds memories, settings, "
        "audit entries or reflection reports unless --force, and a store or config using another embedding model.",
    )
    p.add_argument("--config", help=CONFIG_HELP)
    p.add_argument("file", help="a file written by `memorelay backup`")
    p.add_argument(
        "--force",
        action="store_true",
        help="wipe the store's memories, settings, audit log, citation log, reviews and reflection reports first",
    )
    p.set_defaults(run=lambda args: asyncio.run(_restore(args)))


def configured_model(config: Config) -> str | None:
    """The name of the configured embedder's model (None without one); nothing is loaded."""
    from gateway.memory import build_embedder

    embedding = config.memory.embedding.model_dump()
    embedding.pop("api_key", None)
    try:
        embedder = build_embedder(embedding)
    except ValueError:
        return None
    return None if embedder is None else embedder.name


def _fail(message: str) -> int:
    print(f"memorelay: {' '.join(message.split())}", file=sys.stderr)
    return 1


async def _backup(args: argparse.Namespace) -> int:
    from gateway.memory.backup import backup_name, write_backup
    from gateway.store.backend import open_backend

    config = load_config(args.config)
    out = Path(args.out) if args.out else Path(config.backup.folder) / backup_name()
    backend = open_backend(config)
    started = time.monotonic()
    try:
        await backend.open()
        counts = await write_backup(backend, out)
    except (OSError, ConnectionError) as exc:
        return _fail(f"backup failed: {_masked(str(exc), config)}")
    except Exception as exc:  # boundary: a command prints one line, never a traceback
        return _fail(f"backup failed: {type(exc).__name__}: {_masked(str(exc), config)}")
    finally:
        await backend.close()
    print(f"backed up {display_database(config.memory.database)} to {out}: {counts.line()}")
    print(f"done in {time.monotonic() - started:.1f} s")
    return 0


async def _restore(args: argparse.Namespace) -> int:
    from gateway.memory.backup import BackupError, read_header, restore
    from gateway.store.backend import open_backend

    config = load_config(args.config)
    path = Path(args.file)
    try:
        header = read_header(path)
    except BackupError as exc:
        return _fail(f"nothing restored: {exc}")
    backend = open_backend(config)
    started = time.monotonic()
    try:
        await backend.open()
        counts = await restore(backend, path, force=args.force, configured_model=configured_model(config))
    except BackupError as exc:
        return _fail(f"nothing restored: {exc}")
    except (OSError, ConnectionError) as exc:
        return _fail(f"restore failed: {_masked(str(exc), config)}")
    except Exception as exc:  # boundary: a command prints one line, never a traceback (nothing was committed)
        return _fail(f"nothing restored: {type(exc).__name__}: {_masked(str(exc), config)}")
    finally:
        await backend.close()
    print(
        f"restored {path} ({header.get('created_at')}, {header.get('backend')}) "
        f"into {display_database(config.memory.database)}"
    )
    print(f"{counts.line()}; done in {time.monotonic() - started:.1f} s")
    return 0


def _masked(text: str, config: Config) -> str:
    from urllib.parse import urlsplit

    database = config.memory.database
    password = urlsplit(database).password if "://" in database else None
    return text.replace(password, "***") if password else text
