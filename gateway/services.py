"""The bundle of shared resources one gateway owns, built cheaply and opened in the lifespan."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from gateway.auth import Authenticator
from gateway.config import Config
from gateway.errors import StartupError
from gateway.learning.store import LearningStore
from gateway.litellm_loader import load_litellm
from gateway.memory import MemoryService, build_embedder
from gateway.metrics import Metrics
from gateway.model_info import ModelInfo
from gateway.storage import StoreHealth
from gateway.upstreams import UpstreamRouter

log = logging.getLogger("memorelay")


@dataclass(frozen=True, slots=True)
class Services:
    config: Config
    auth: Authenticator
    upstreams: UpstreamRouter
    model_info: ModelInfo
    metrics: Metrics
    memory: MemoryService
    learning: LearningStore

    @classmethod
    def create(cls, config: Config) -> Services:
        """Construct everything; nothing is opened until ``start``."""
        embedding = config.memory.embedding.model_dump()
        if config.memory.embedding.api_key is not None:
            embedding["api_key"] = config.memory.embedding.api_key.get_secret_value()
        m = config.memory
        # the operator's size cap, in pages of SQLite's default 4 KiB (a write past it is SQLITE_FULL)
        pages = None if m.max_database_mb is None else max(1, int(m.max_database_mb * 1024 * 1024 // 4096))
        health = StoreHealth()
        return cls(
            config=config,
            auth=Authenticator(config),
            upstreams=UpstreamRouter(config),
            model_info=ModelInfo(config),
            metrics=Metrics(),
            memory=MemoryService(
                m.database,
                build_embedder(embedding),
                busy_timeout_ms=m.busy_timeout_ms,
                max_page_count=pages,
                health=health,
                working_set_mb=m.working_set_mb,
                working_set_max_rows=m.working_set_max_rows,
            ),
            learning=LearningStore(
                m.database, busy_timeout_ms=max(m.busy_timeout_ms, 10_000), max_page_count=pages, health=health
            ),
        )

    async def start(self) -> None:
        """Open everything; on failure close what was opened (a connection thread left
        running kept a failed start-up from exiting, issue 7 item 6) and raise
        ``StartupError`` with one line naming the database."""
        _warn_shared_upstream_key(self.config)
        database = self.config.memory.database
        try:
            try:
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StartupError(f"cannot create the folder of the memory database {database}: {exc}") from exc
            await self.upstreams.start()
            # litellm's import takes seconds: pay it at start-up, not in the first request
            await asyncio.to_thread(load_litellm)
            try:
                await self.memory.open()
                await self.learning.open()
            except (OSError, sqlite3.Error) as exc:
                raise StartupError(f"cannot open the memory database {database}: {exc}") from exc
        except BaseException as exc:
            if isinstance(exc, StartupError):
                log.error("memorelay cannot start: %s", exc)
            await self.close()
            raise

    async def close(self) -> None:
        try:
            try:
                await self.learning.close()
            finally:
                await self.memory.close()
        finally:
            await self.upstreams.close()


def _warn_shared_upstream_key(config: Config) -> None:
    """Pass-through mode checks no credential of its own: with an upstream key in the config,
    anyone who reaches the port spends the operator's key (security review of issue 7)."""
    upstreams = config.upstreams
    shared = [
        n
        for n, u in (("default", upstreams.default), ("anthropic", upstreams.anthropic))
        if u.api_key.get_secret_value()
    ]
    if shared and not config.auth.keys:
        names = ", ".join(f"upstreams.{n}.api_key" for n in shared)
        log.warning(
            "pass-through mode with %s set: any caller who can reach %s:%d uses that key; "
            "set auth.keys to decide who may",
            names,
            config.server.host,
            config.server.port,
        )
