"""The bundle of shared resources one gateway owns, built cheaply and opened in the lifespan."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

from gateway.auth import Authenticator
from gateway.config import Config
from gateway.learning.store import LearningStore
from gateway.litellm_loader import load_litellm
from gateway.memory import MemoryService, build_embedder
from gateway.metrics import Metrics
from gateway.model_info import ModelInfo
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
        return cls(
            config=config,
            auth=Authenticator(config),
            upstreams=UpstreamRouter(config),
            model_info=ModelInfo(config),
            metrics=Metrics(),
            memory=MemoryService(config.memory.database, build_embedder(embedding)),
            learning=LearningStore(config.memory.database),
        )

    async def start(self) -> None:
        Path(self.config.memory.database).parent.mkdir(parents=True, exist_ok=True)
        await self.upstreams.start()
        # litellm's import takes seconds: pay it at start-up, not in the first request
        await asyncio.to_thread(load_litellm)
        await self.memory.open()
        await self.learning.open()

    async def close(self) -> None:
        try:
            await self.learning.close()
            await self.memory.close()
        finally:
            await self.upstreams.close()
