"""``memorelay backup`` / ``memorelay restore``: one portable file for either backend.

The file is gzip'd JSON lines: a header (format version, memorelay version, embedding model
and dimension, time, source backend), then one line per memory (all SPEC section 4 fields,
the embedding as base64 little-endian float32), per user's settings, per audit entry, per use
of a memory (the citation log), per supersede review, per reflection report and per prompt
override, and an ``end`` line with the counts (a file without it was cut short and is refused).
Formats 1 (before uses and reviews were carried), 2 (before reflection reports) and 3 (before
memory kinds: each memory gets the kind ``kinds.derive_kind`` gives it) still restore. It is
written through the store interface only, so a SQLite backup restores into PostgreSQL and back.
It holds no credentials: no config, no keys, no database URL.

Consistency: memories are read ``BATCH`` at a time (each batch one short read, so a serving
gateway is never blocked for long). Every memory that exists for the whole run is in the file
exactly once; one written, changed or deleted while the backup runs may appear in its old or
its new state or not at all. Settings are one read; the audit log is taken up to the last
entry that existed when the backup started; uses and reviews are those stamped no later than
the second the backup started (read after the memories, so a memory deleted meanwhile takes
its uses and reviews with it: a restored use or review names a memory of the file, except one
created, used and left out in that very second); reflection reports likewise, those created no
later than that second. The learning queue, learning log and token
usage are not backed up (as ``memories migrate``).

Restore refuses a target holding memories, settings, audit entries or reflection reports unless ``force``, which
wipes them first in one transaction; it refuses a target whose embedding model differs from
the backup's. Restored memories keep their ids, times and counts; the keyword index follows
the rows and the vector index is prepared at the end.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import fcntl
import gzip
import logging
import os
import time
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from gateway.store import AuditEntry, Backend, MemoryRow, Reflection, Review, SettingsRow, Use
from gateway.store.kinds import KINDS, derive_kind
from gateway.store.prompts import PROMPT_NAMES

from ._clock import now_iso
from ._validate import stored_id, stored_memory
from .types import Memory, MemoryValidationError

FORMAT = "memorelay-backup"
FORMAT_VERSION = 4  # 2: uses (citation log) and supersede reviews; 3: reflection reports; 4: memory kind
READABLE_VERSIONS = (1, 2, 3, 4)
BATCH = 500
_ALL_REVIEWS = 10_000_000  # reviews are few: read in one go (offsets shift when one is deleted)
ACTOR = "restore"
_LIVE_S = 1.0  # a partial file younger than this may belong to a backup that is starting

log = logging.getLogger("memorelay.backup")


class BackupError(RuntimeError):
    """The file cannot be restored (not a backup, cut short, another model, a non-empty target)."""


# a line's type -> the ``Counts`` field (and ``end`` line key) that counts it
COUNTED = {
    "memory": "memories",
    "settings": "settings",
    "audit": "audit",
    "prompt": "prompts",
    "use": "uses",
    "review": "reviews",
    "reflection": "reflections",
}


@dataclass(slots=True)
class Counts:
    memories: int = 0
    settings: int = 0
    audit: int = 0
    prompts: int = 0
    uses: int = 0
    reviews: int = 0
    reflections: int = 0

    def as_dict(self, version: int = FORMAT_VERSION) -> dict[str, int]:
        """The ``end`` line's counts as format ``version`` writes them."""
        out = {"memories": self.memories, "settings": self.settings, "audit": self.audit, "prompts": self.prompts}
        if version >= 2:
            out.update(uses=self.uses, reviews=self.reviews)
        if version >= 3:
            out.update(reflections=self.reflections)
        return out

    def line(self) -> str:
        return (
            f"{self.memories} memories, {self.settings} user settings, "
            f"{self.audit} audit entries, {self.prompts} prompt overrides, "
            f"{self.uses} memory uses, {self.reviews} reviews, {self.reflections} reflection reports"
        )


def memorelay_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memorelay")
    except PackageNotFoundError:
        return "unknown"


def backup_name(now: float | None = None) -> str:
    """``memorelay-<UTC time to the millisecond>.jsonl.gz``: names sort by time."""
    now = time.time() if now is None else now
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    return f"memorelay-{stamp}-{int(now * 1000) % 1000:03d}.jsonl.gz"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _vector_text(vector: np.ndarray | None) -> str | None:
    if vector is None:
        return None
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def _vector_of(text: str | None) -> np.ndarray | None:
    if text is None:
        return None
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)


def _memory_of(data: dict[str, Any]) -> Memory:
    """A memory line's memory; one of format 1 to 3 has no kind and gets the derived one."""
    memory = Memory(**data)
    if "kind" not in data:
        memory.kind = derive_kind(memory.category, memory.subcategory, memory.title, memory.content, memory.tags)
    elif memory.kind not in KINDS:
        raise ValueError(f"kind {memory.kind!r}")
    return memory


async def _lines(backend: Backend) -> AsyncIterator[tuple[dict[str, Any], Counts]]:
    """The file's lines after the header, then the end line."""
    store = backend.memories
    counts = Counts()
    # the audit log's end as it stands now: entries written during the backup are left out
    last_audit = await _last_audit_id(backend)
    started = now_iso()
    async for batch in store.iter_memories(BATCH):
        for memory, vector in batch:
            counts.memories += 1
            yield {"type": "memory", "memory": memory.to_json(), "embedding": _vector_text(vector)}, counts
    for row in await store.all_settings():
        counts.settings += 1
        yield (
            {
                "type": "settings",
                "tenant": row.tenant,
                "user_id": row.user_id,
                "settings": row.settings,
                "updated_at": row.updated_at,
            },
            counts,
        )
    after = 0
    while after < last_audit:
        entries = [e for e in await store.audit_after(after, BATCH) if (e.id or 0) <= last_audit]
        if not entries:
            break
        for entry in entries:
            counts.audit += 1
            yield {"type": "audit", "entry": dataclasses.replace(entry, id=None).to_json()}, counts
        after = entries[-1].id or after
    async for line in _uses_and_reviews(backend, started):
        if line["type"] == "use":
            counts.uses += 1
        else:
            counts.reviews += 1
        yield line, counts
    async for reflection in _reflections(backend, started):
        counts.reflections += 1
        yield {"type": "reflection", "reflection": dataclasses.asdict(reflection)}, counts
    for name in PROMPT_NAMES:
        text, origin = await backend.learning.get_prompt(name)
        if origin == "override":
            counts.prompts += 1
            yield {"type": "prompt", "name": name, "text": text}, counts
    yield {"type": "end", "counts": counts.as_dict()}, counts


async def _uses_and_reviews(backend: Backend, started: str) -> AsyncIterator[dict[str, Any]]:
    """The citation log and the reviews stamped no later than ``started``."""
    store = backend.memories
    after = 0
    while True:
        rows = await store.uses_after(after, BATCH)
        if not rows:
            break
        for _, use in rows:
            if use.time <= started:
                yield {"type": "use", "use": dataclasses.asdict(use)}
        after = rows[-1][0]
    reviews, _ = await store.reviews(None, None, None, limit=_ALL_REVIEWS, offset=0)
    for review in reviews:
        if review.created_at <= started:
            yield {"type": "review", "review": dataclasses.asdict(review)}


async def _reflections(backend: Backend, started: str) -> AsyncIterator[Reflection]:
    """The reflection reports created no later than ``started``, oldest first (paged by
    (created_at, id): a report written or pruned meanwhile shifts nothing)."""
    created_at, last_id = "", ""
    while True:
        page = await backend.memories.reflections_after(created_at, last_id, BATCH)
        for reflection in page:
            if reflection.created_at > started:
                return
            yield reflection
        if len(page) < BATCH:
            return
        created_at, last_id = page[-1].created_at, page[-1].id


async def _last_audit_id(backend: Backend) -> int:
    entries, total = await backend.memories.audit_entries(None, limit=1, offset=0)
    return (entries[0].id or 0) if total and entries else 0


async def write_backup(backend: Backend, out: Path) -> Counts:
    """Write the backup of ``backend`` (open) to ``out``: to a temporary file beside it,
    renamed into place when complete, so ``out`` is never a partial backup."""
    store = backend.memories
    header = {
        "type": "header",
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "memorelay": memorelay_version(),
        "created_at": _now(),
        "backend": backend.kind,
        "embedding_model": await store.get_meta("embedding_model"),
        "embedding_dim": _int_or_none(await store.get_meta("embedding_dim")),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    remove_leftovers(out)
    counts = Counts()
    try:
        with open(partial, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as f:
            # held while writing: a later backup's clean-up leaves a live partial file alone
            fcntl.flock(raw.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            chunk = [orjson.dumps(header)]
            async for line, so_far in _lines(backend):
                chunk.append(orjson.dumps(line))
                counts = so_far
                if len(chunk) >= BATCH:  # compress and write off the event loop: requests go on
                    await asyncio.to_thread(f.write, b"\n".join(chunk) + b"\n")
                    chunk = []
            await asyncio.to_thread(f.write, b"\n".join(chunk) + b"\n")
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return counts


def remove_leftovers(out: Path) -> list[Path]:
    """Delete the partial files that killed backups left beside ``out`` (named like this
    one's, or like the default names): those no live backup holds locked. Answers them."""
    removed: list[Path] = []
    names = {f".{out.name}.partial"}
    candidates = [*out.parent.glob(".memorelay-*.partial"), *(out.parent / n for n in names)]
    for path in dict.fromkeys(candidates):
        try:
            with open(path, "rb") as f:
                if time.time() - os.fstat(f.fileno()).st_mtime < _LIVE_S:
                    continue  # just created: its writer may not hold the lock yet
                try:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a backup is writing it now
                path.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            log.warning("could not remove the leftover partial backup %s: %s", path, exc)
            continue
        log.warning("removed %s, left by a backup that did not finish", path)
        removed.append(path)
    return removed


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value is not None else None


def _read(f: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    for number, raw in enumerate(f, 1):
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise BackupError(f"line {number} is not JSON: {exc}") from exc
        if not isinstance(line, dict):
            raise BackupError(f"line {number} is not a JSON object")
        yield line


def read_header(path: Path) -> dict[str, Any]:
    """The backup's header; ``BackupError`` when ``path`` is not a memorelay backup."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        with gzip.open(path, "rb") as f:
            first = next(_read(f), None)
    except (OSError, EOFError, zlib.error) as exc:
        raise BackupError(f"{path} is not a memorelay backup: {exc}") from exc
    if first is None or first.get("type") != "header" or first.get("format") != FORMAT:
        raise BackupError(f"{path} is not a memorelay backup")
    if first.get("version") not in READABLE_VERSIONS:
        readable = " and ".join(str(v) for v in READABLE_VERSIONS)
        raise BackupError(f"{path} is backup format {first.get('version')}; this memorelay reads {readable}")
    return first


async def is_empty(backend: Backend) -> bool:
    store = backend.memories
    # the protocol types it as AsyncIterator; both backends answer an async generator
    async with contextlib.aclosing(store.iter_memories(1)) as batches:  # type: ignore[type-var]
        async for batch in batches:
            if batch:
                return False
            break
    if await store.all_settings() or await store.audit_after(0, 1):
        return False
    return not await store.reflections_after("", "", 1)


async def restore(backend: Backend, path: Path, *, force: bool = False, configured_model: str | None = None) -> Counts:
    """Restore the backup at ``path`` into ``backend`` (open). ``configured_model``: the
    embedding model the target's gateway is configured with (None: no embedder), which must
    be the backup's. Raises ``BackupError`` before writing anything when refused."""
    header = read_header(path)
    model, dim = header.get("embedding_model"), header.get("embedding_dim")
    store = backend.memories
    there = await store.get_meta("embedding_model")
    if model is not None:
        for other, where in ((there, "the target's memories are"), (configured_model, "the configured embedder is")):
            if other is not None and other != model:
                raise BackupError(
                    f"{where} embedded with {other}, the backup's with {model}: "
                    "restore with the same embedding model, then reindex"
                )
    if not force and not await is_empty(backend):
        raise BackupError(
            "the target already holds memories, settings, audit entries or reflection reports: "
            "use --force to replace them"
        )
    _check_complete(path, int(header["version"]))
    counts = Counts()
    prompts: list[tuple[str, str]] = []
    async with store.transaction():  # the wipe and the import commit together
        if force:
            await store.wipe()
        if model is not None and dim is not None:
            await store.set_meta("embedding_model", str(model))
            await store.set_meta("embedding_dim", str(int(dim)))
        memories: list[MemoryRow] = []
        settings: list[SettingsRow] = []
        audit: list[AuditEntry] = []
        uses: list[Use] = []
        reflections: list[Reflection] = []
        seen_ids: set[str] = set()
        with gzip.open(path, "rb") as f:
            for number, line in enumerate(_read(f), 1):
                try:
                    kind = line.get("type")
                    if kind == "memory":
                        row = (_memory_of(line["memory"]), _vector_of(line.get("embedding")))
                        stored_memory(row[0])
                        if row[0].id in seen_ids:
                            raise MemoryValidationError("id", "appears on an earlier line too")
                        seen_ids.add(row[0].id)
                        if row[1] is not None and dim is not None and len(row[1]) != int(dim):
                            raise ValueError(f"an embedding of {len(row[1])} dimensions, not {dim}")
                    elif kind == "settings":
                        srow = SettingsRow(line["tenant"], line["user_id"], dict(line["settings"]), line["updated_at"])
                        _check_settings(srow)
                    elif kind == "audit":
                        entry = dict(line["entry"])
                        missing = [k for k in ("time", "actor", "action") if not isinstance(entry.get(k), str)]
                        if missing:
                            raise ValueError(f"no {missing[0]}")
                        _check_ids(entry, ("tenant", "memory_id", "user_id"), optional=True)
                    elif kind == "use":
                        use = Use(**line["use"])
                        if not all(isinstance(v, str) for v in (use.tenant, use.user_id, use.memory_id, use.time)):
                            raise ValueError("tenant, user_id, memory_id and time must be strings")
                        _check_ids(dataclasses.asdict(use), ("tenant", "user_id", "memory_id"))
                    elif kind == "review":
                        review = Review(**line["review"])
                        if review.state not in ("pending", "accepted", "rejected"):
                            raise ValueError(f"state {review.state!r}")
                        _check_ids(dataclasses.asdict(review), ("id", "tenant", "user_id", "old_id", "new_id"))
                    elif kind == "reflection":
                        reflection = Reflection(**line["reflection"])
                        texts = (reflection.id, reflection.tenant, reflection.user_id, reflection.created_at)
                        if not all(isinstance(v, str) for v in texts) or not isinstance(reflection.report, dict):
                            raise ValueError("id, tenant, user_id and created_at must be strings, report an object")
                        _check_ids(dataclasses.asdict(reflection), ("id", "tenant"))
                        stored_id("user_id", reflection.user_id, empty=True)
                except (KeyError, TypeError, ValueError) as exc:  # rolls the whole restore back
                    what = _row_name(kind, line)
                    raise BackupError(f"{path} line {number} is not a {what} this memorelay reads: {exc}") from exc
                if kind == "memory":
                    memories.append(row)
                    if len(memories) >= BATCH:
                        counts.memories += (await store.import_memories(memories))[0]
                        memories = []
                elif kind == "settings":
                    settings.append(srow)
                elif kind == "audit":
                    audit.append(AuditEntry.from_json(entry))
                    if len(audit) >= BATCH:
                        await store.import_audit(audit)
                        counts.audit += len(audit)
                        audit = []
                elif kind == "use":
                    uses.append(use)
                    if len(uses) >= BATCH:
                        await store.add_uses(uses)
                        counts.uses += len(uses)
                        uses = []
                elif kind == "review":
                    await store.add_review(review)
                    counts.reviews += 1
                elif kind == "reflection":
                    reflections.append(reflection)
                    if len(reflections) >= BATCH:
                        await store.import_reflections(reflections)
                        counts.reflections += len(reflections)
                        reflections = []
                elif kind == "prompt" and line.get("name") in PROMPT_NAMES:
                    prompts.append((str(line["name"]), str(line["text"])))
        counts.memories += (await store.import_memories(memories))[0]
        await store.import_settings(settings)
        counts.settings = len(settings)
        await store.import_audit(audit)
        counts.audit += len(audit)
        await store.add_uses(uses)
        counts.uses += len(uses)
        await store.import_reflections(reflections)
        counts.reflections += len(reflections)
    # the learning store may hold its own connection: after the memory transaction
    restored = dict(prompts)
    for name in PROMPT_NAMES:
        if name in restored:
            await backend.learning.put_prompt(name, restored[name], actor=ACTOR)
        elif force:  # the store is replaced: an override the backup lacks goes too
            await backend.learning.reset_prompt(name)
    counts.prompts = len(prompts)
    if model is not None and dim is not None:
        await store.prepare_vectors(str(model), int(dim))
    return counts


def _check_settings(row: SettingsRow) -> None:
    stored_id("tenant", row.tenant)
    stored_id("user_id", row.user_id)
    for key, value in row.settings.items():
        if key == "learning_enabled" and not isinstance(value, bool):
            raise MemoryValidationError("settings.learning_enabled", "must be a boolean")
    if not isinstance(row.updated_at, str):
        raise MemoryValidationError("updated_at", "must be an ISO 8601 time")


def _check_ids(row: dict[str, Any], names: tuple[str, ...], *, optional: bool = False) -> None:
    for name in names:
        if optional and row.get(name) in (None, ""):
            continue
        stored_id(name, row.get(name), empty=name == "user_id")


def _row_name(kind: Any, line: dict[str, Any]) -> str:
    """``memory mem_…`` when the line names its id, else the line's type."""
    body = line.get(kind) if isinstance(kind, str) else None
    row_id = body.get("id") if isinstance(body, dict) else None
    if isinstance(row_id, str) and row_id.isprintable() and 0 < len(row_id) <= 80:
        return f"{kind} ({row_id})"
    return str(kind)


def _check_complete(path: Path, version: int) -> None:
    """Read the file through once: every line JSON, ending with ``end`` and matching counts."""
    seen = Counts()
    end: dict[str, Any] | None = None
    try:
        with gzip.open(path, "rb") as f:
            for line in _read(f):
                kind = line.get("type")
                if end is not None:
                    raise BackupError(f"{path} has data after its end line")
                if kind == "end":
                    end = line
                elif kind in COUNTED:
                    setattr(seen, COUNTED[kind], getattr(seen, COUNTED[kind]) + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise BackupError(f"{path} cannot be read to its end ({exc}): it was cut short or damaged") from exc
    if end is None:
        raise BackupError(f"{path} has no end line: it was cut short")
    if end.get("counts") != seen.as_dict(version):
        raise BackupError(f"{path} counts {end.get('counts')} but holds {seen.as_dict(version)}")
