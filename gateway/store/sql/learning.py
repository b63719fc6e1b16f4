"""The learning log, token usage, prompt overrides and job counts (``roles.learning``): the
statements that are the same on both backends. Each method runs one statement, so a backend
may give it a write session in which every statement commits alone (SQLite's serial
connection, which retries a locked database per statement)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ..prompts import PromptName, default_prompt
from .base import equal_to, iso
from .queue import LOG_INSERT, SqlQueue

_DEAD_KEYS = ("id", "tenant", "user_id", "model", "attempts", "created_at", "updated_at", "last_error")


def log_entry(r: Sequence[Any]) -> dict[str, Any]:
    return {"id": r[0], "job_id": r[1], "tenant": r[2], "user_id": r[3], "time": r[4], **orjson.loads(r[5])}


class SqlLearningShared(SqlQueue):
    # -- queue counts -----------------------------------------------------------------------
    async def pending_count(self) -> int:
        """Queued and running jobs (of every replica)."""
        return await self._count("SELECT COUNT(*) FROM learning_jobs WHERE status IN ('pending', 'running')")

    async def job_counts(self) -> dict[str, int]:
        rows = await self._query("SELECT status, COUNT(*) FROM learning_jobs GROUP BY status ORDER BY status")
        return {str(r[0]): int(r[1]) for r in rows}

    async def dead_jobs(self, *, limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """Jobs that gave up, newest first (no payload), and their total."""
        total = await self._count("SELECT COUNT(*) FROM learning_jobs WHERE status = 'dead'")
        rows = await self._query(
            "SELECT id, tenant, user_id, model, attempts, created_at, updated_at, last_error, payload IS NOT NULL"
            " FROM learning_jobs WHERE status = 'dead' ORDER BY id DESC LIMIT ? OFFSET ?",
            (limit, offset),
        )
        data = []
        for r in rows:
            job: dict[str, Any] = dict(zip(_DEAD_KEYS, r[:8], strict=True))
            job["id"] = int(r[0])
            job["created_at"], job["updated_at"] = iso(r[5]), iso(r[6])
            job["retryable"] = bool(r[8])
            data.append(job)
        return data, total

    # -- log and usage ----------------------------------------------------------------------
    async def log(self, job_id: int | None, tenant: str, user_id: str, entry: dict[str, Any]) -> None:
        async with self._writer() as w:
            await w.execute(LOG_INSERT, (job_id, tenant, user_id, iso(), orjson.dumps(entry).decode()))

    async def log_entries(
        self, *, tenant: str | None = None, user_id: str | None = None, limit: int = 50, offset: int = 0
    ) -> tuple[list[dict[str, Any]], int]:
        clause, args = equal_to((("tenant", tenant), ("user_id", user_id)))
        total = await self._count(f"SELECT COUNT(*) FROM learning_log WHERE {clause}", args)
        rows = await self._query(
            f"SELECT id, job_id, tenant, user_id, time, entry FROM learning_log WHERE {clause}"
            " ORDER BY id DESC LIMIT ? OFFSET ?",
            [*args, limit, offset],
        )
        return [log_entry(r) for r in rows], total

    async def log_since(self, since: str, tenant: str | None, limit: int) -> list[dict[str, Any]]:
        """Entries written at or after ``since`` (ISO time or day), newest first."""
        extra, args = ("AND tenant = ?", [tenant]) if tenant else ("", [])
        rows = await self._query(
            f"SELECT id, job_id, tenant, user_id, time, entry FROM learning_log WHERE time >= ? {extra}"
            " ORDER BY id DESC LIMIT ?",
            [since, *args, limit],
        )
        return [log_entry(r) for r in rows]

    async def add_usage(self, tenant: str, user_id: str, prompt_tokens: int, completion_tokens: int) -> None:
        async with self._writer() as w:
            await w.execute(
                "INSERT INTO learning_usage (tenant, user_id, day, prompt_tokens, completion_tokens, jobs)"
                " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (tenant, user_id, day) DO UPDATE SET"
                " prompt_tokens = learning_usage.prompt_tokens + excluded.prompt_tokens,"
                " completion_tokens = learning_usage.completion_tokens + excluded.completion_tokens,"
                " jobs = learning_usage.jobs + 1",
                (tenant, user_id, iso()[:10], prompt_tokens, completion_tokens),
            )

    async def stats(self, tenant: str | None) -> dict[str, Any]:
        where, args = ("WHERE tenant = ?", [tenant]) if tenant else ("", [])
        rows = await self._query(
            "SELECT day, SUM(prompt_tokens), SUM(completion_tokens), SUM(jobs) FROM learning_usage"
            f" {where} GROUP BY day ORDER BY day",
            args,
        )
        usage = {r[0]: {"prompt_tokens": int(r[1]), "completion_tokens": int(r[2]), "jobs": int(r[3])} for r in rows}
        return {"jobs": await self.job_counts(), "tokens_per_day": usage}

    # -- prompts ----------------------------------------------------------------------------
    async def get_prompt(self, name: PromptName) -> tuple[str, str]:
        """(text, "override" | "default"): a stored override wins over the prompt file."""
        rows = await self._query("SELECT text FROM learning_prompts WHERE name = ?", (name,))
        if rows:
            return str(rows[0][0]), "override"
        return default_prompt(name), "default"

    async def put_prompt(self, name: PromptName, text: str, *, actor: str) -> None:
        async with self._writer() as w:
            await w.execute(
                "INSERT INTO learning_prompts (name, text, updated_at, actor) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at,"
                " actor = excluded.actor",
                (name, text, iso(), actor),
            )

    async def reset_prompt(self, name: PromptName) -> None:
        async with self._writer() as w:
            await w.execute("DELETE FROM learning_prompts WHERE name = ?", (name,))
