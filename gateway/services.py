"""``Services``: the parts one gateway owns, as the HTTP side (APIs, console, MCP, health) reads them.

``gateway.compose`` builds it (nothing is opened until ``start``); the filters, the
learning side and the endpoints get only the parts they use from there. It is the
lifespan's first ``Part``: ``start`` opens the stores, upstreams and telemetry, ``stop``
closes them in the reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway.auth import Authenticator
from gateway.config import Config, display_database
from gateway.errors import StartupError
from gateway.litellm_loader import load_litellm_async
from gateway.memory import MemoryService
from gateway.metrics import Metrics
from gateway.model_info import ModelInfo
from gateway.store import Backend, LearningStore
from gateway.telemetry import Telemetry
from gateway.upstreams import UpstreamRouter

if TYPE_CHECKING:
    from gateway.learning.runtime.service import LearningService

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
    backend: Backend
    # OpenTelemetry traces (no-op hooks unless telemetry.enabled)
    telemetry: Telemetry
    # this process among the replicas on one database (learning jobs' caller-key affinity)
    replica: str
    # the learning workers, scrubber process and retention, when the config has a learning filter
    learning_service: LearningService | None = None
    # work begun by ``start`` that nothing waits for (litellm's import); cancelled by ``close``
    warmups: list[asyncio.Future[Any]] = field(default_factory=list)

    async def start(self) -> None:
        """Open everything; on failure close what was opened (a connection thread left
        running would keep a failed start-up from exiting) and raise ``StartupError`` with
        one line naming the database."""
        _warn_shared_upstream_key(self.config)
        _warn_console_secret(self.config, self.backend.kind)
        database = display_database(self.config.memory.database)
        try:
            self.telemetry.start()
            if self.backend.kind == "sqlite":
                try:
                    Path(database).parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise StartupError(f"cannot create the folder of the memory database {database}: {exc}") from exc
            # the embedder's model loads in the CPU thread while the store opens and Presidio's
            # process starts; the memory service waits for it before the gateway is ready
            self.memory.start_warming()
            if self.learning_service is not None:
                self.learning_service.start_loading()
            await self.upstreams.start()
            if needs_litellm(self.config):
                # its import takes seconds: begin it now, in a thread, so that neither start-up
                # nor the first aliased request waits for all of it
                self.warmups.append(asyncio.ensure_future(load_litellm_async()))
            try:
                await self.backend.open()
                await self.memory.open()
            except (OSError, sqlite3.Error) as exc:
                raise StartupError(f"cannot open the memory database {database}: {exc}") from exc
            if self.learning_service is not None:
                await self.learning_service.start()
        except BaseException as exc:
            if isinstance(exc, StartupError):
                log.error("memorelay cannot start: %s", exc)
            await self.stop()
            raise

    async def stop(self) -> None:
        """Close in the reverse order of ``start``; every step runs even if one before it failed."""
        for warmup in self.warmups:
            warmup.cancel()
        async with contextlib.AsyncExitStack() as steps:
            # run last (callbacks run in reverse): a stopping worker's spans are sent too
            steps.push_async_callback(asyncio.to_thread, self.telemetry.close)
            steps.push_async_callback(self.upstreams.close)
            steps.push_async_callback(self.backend.close)
            steps.push_async_callback(self.memory.close)
            if self.learning_service is not None:
                steps.push_async_callback(self.learning_service.stop)


def needs_litellm(config: Config) -> bool:
    """Whether this config routes anything through litellm: an alias (chat or the learner)
    or a litellm embedder. Context windows come without it (``gateway.model_info``)."""
    return bool(config.upstreams.models) or config.memory.embedding.provider == "litellm"


def _warn_shared_upstream_key(config: Config) -> None:
    """Pass-through mode checks no credential of its own: with an upstream key in the config,
    anyone who reaches the port spends the operator's key."""
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


def _warn_console_secret(config: Config, kind: str) -> None:
    """Replicas on PostgreSQL without ``console.secret`` sign console links with a key derived
    from a seed in the database and the admin key (``gateway.console.links``): links work on
    every replica, but the operator should know where the key comes from and how to pin it."""
    if kind != "postgres" or config.console.secret.get_secret_value():
        return
    if config.auth.admin_key.get_secret_value():
        log.warning(
            "console.secret is empty: console links are signed with a key derived from a random seed "
            "stored in the memory database and from auth.admin_key (replicas must share the admin key); "
            "set console.secret (MEMORELAY_CONSOLE_SECRET) to one value on every replica to choose the key"
        )
    else:
        log.warning(
            "console.secret is empty and auth.admin_key is not set: console links are signed with a key "
            "derived from a random seed stored in the memory database, so whoever can read the database "
            "can mint links to any user's /me/ page; set console.secret (MEMORELAY_CONSOLE_SECRET) to one "
            "value on every replica"
        )
