"""``memorelay memories migrate --to postgresql://…``: copy a store into another backend.

Copies memories with their embeddings (ids, times, access counts, flags, kinds and slots unchanged),
user settings, the audit log, the citation log (memory uses) and prompt overrides, through the
store interface only (each backend keeps its own SQL). The source is only read; the target's derived indexes (keywords,
and the vector index, prepared at the end) follow its rows.

Running it again copies only what changed on the source since: new memories are inserted,
memories edited there replace older copies (an edit made on the target since wins; access
counts never go down, see ``_copy.sort_import``), settings likewise by their ``updated_at``,
audit entries from where the last run stopped (the target remembers the last source entry it
took, per source, in the transaction that took it), and a memory the copied audit log records
as deleted, and that the source no longer holds, is deleted on the target too. A second run
over an unchanged source changes nothing. The learning queue, the learning log and learning
token usage are not copied.

The target must use the same embedding model as the source (or none yet), so its vectors
stay comparable; the check comes before anything is written.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from gateway.store import Backend, Reflection
from gateway.store.prompts import PROMPT_NAMES

BATCH = 500
ACTOR = "migrate"


class MigrationError(RuntimeError):
    """The target cannot take the source's data (e.g. another embedding model)."""


@dataclass(slots=True)
class MigrationReport:
    memories_copied: int = 0
    memories_updated: int = 0
    memories_present: int = 0
    memories_deleted: int = 0
    settings_copied: int = 0
    audit_copied: int = 0
    uses_copied: int = 0
    reviews_copied: int = 0
    reflections_copied: int = 0
    prompts_copied: int = 0
    vectors: str = "none (the source has no embeddings)"

    def lines(self) -> list[str]:
        return [
            f"memories: {self.memories_copied} copied, {self.memories_updated} updated, "
            f"{self.memories_present} already there, {self.memories_deleted} deleted (deleted on the source)",
            f"user settings: {self.settings_copied} copied",
            f"audit log: {self.audit_copied} entries copied",
            f"citation log: {self.uses_copied} uses copied",
            f"supersede reviews: {self.reviews_copied} copied or updated",
            f"reflection reports: {self.reflections_copied} copied",
            f"prompt overrides: {self.prompts_copied} copied",
            f"vector index: {self.vectors}",
        ]

    @property
    def anything(self) -> bool:
        return bool(
            self.memories_copied
            or self.memories_updated
            or self.memories_deleted
            or self.settings_copied
            or self.audit_copied
            or self.uses_copied
            or self.reviews_copied
            or self.reflections_copied
            or self.prompts_copied
        )


async def migrate(source: Backend, target: Backend, source_name: str) -> MigrationReport:
    """Copy ``source`` into ``target`` (both open); ``source_name`` identifies the source for
    the audit log's resume point. Raises ``MigrationError`` before writing anything when the
    target's embeddings come from another model."""
    report = MigrationReport()
    model, dim = await _check_embedding_model(source, target)
    async for batch in source.memories.iter_memories(BATCH):
        inserted, replaced = await target.memories.import_memories(batch)
        report.memories_copied += inserted
        report.memories_updated += replaced
        report.memories_present += len(batch) - inserted - replaced
    report.settings_copied = await target.memories.import_settings(await source.memories.all_settings())
    report.audit_copied, report.memories_deleted = await _copy_audit(source, target, source_name)
    report.uses_copied = await _copy_uses(source, target, source_name)
    report.reviews_copied = await _copy_reviews(source, target)
    report.reflections_copied = await _copy_reflections(source, target)
    report.prompts_copied = await _copy_prompts(source, target)
    if model is not None and dim is not None:
        state = await target.memories.prepare_vectors(model, dim)
        if state == "reindex":  # the target changed model while this ran
            raise MigrationError(f"the target's embedding model changed to another than {model} during the copy")
        report.vectors = f"ready ({model}, {dim} dimensions)"
    return report


async def _copy_audit(source: Backend, target: Backend, source_name: str) -> tuple[int, int]:
    """Copy the audit entries the target has not taken yet; answers (entries, memories
    deleted on the target because the source deleted them)."""
    resume_key = "migrated_audit_from:" + hashlib.sha256(source_name.encode()).hexdigest()[:16]
    last = int(await target.memories.get_meta(resume_key) or 0)
    copied = deleted = 0
    while True:
        entries = await source.memories.audit_after(last, BATCH)
        if not entries:
            return copied, deleted
        gone = {e.memory_id for e in entries if e.action == "delete" and e.memory_id}
        if gone:  # only memories the source no longer holds
            gone -= set(await source.memories.fetch(list(gone)))
        async with target.memories.transaction():
            if gone:  # first: a delete scrubs the memory's earlier entries, not its own (as on the source)
                present = list(await target.memories.fetch(list(gone)))
                if present:
                    await target.memories.delete(present)
                    deleted += len(present)
            await target.memories.import_audit(entries)
            last = entries[-1].id or last
            await target.memories.set_meta(resume_key, str(last))
        copied += len(entries)


async def _copy_uses(source: Backend, target: Backend, source_name: str) -> int:
    """Copy the citation-log rows the target has not taken yet (resumed like the audit log)."""
    resume_key = "migrated_uses_from:" + hashlib.sha256(source_name.encode()).hexdigest()[:16]
    last = int(await target.memories.get_meta(resume_key) or 0)
    copied = 0
    while True:
        rows = await source.memories.uses_after(last, BATCH)
        if not rows:
            return copied
        async with target.memories.transaction():
            await target.memories.add_uses([use for _, use in rows])
            last = rows[-1][0]
            await target.memories.set_meta(resume_key, str(last))
        copied += len(rows)


async def _copy_reviews(source: Backend, target: Backend) -> int:
    """Reviews the target lacks, and decisions taken on the source since a review was copied
    (reviews are few: the whole list is read in pages)."""
    copied = offset = 0
    while True:
        page, _ = await source.memories.reviews(None, None, None, limit=BATCH, offset=offset)
        if not page:
            return copied
        offset += len(page)
        for review in page:
            held = await target.memories.get_review(review.id)
            if held is None:
                await target.memories.add_review(review)
            elif held.state == "pending" and review.state != "pending" and review.decided_at:
                await target.memories.decide_review(review.id, review.state, review.decided_by or "", review.decided_at)
            else:
                continue
            copied += 1


async def _all_reflections(backend: Backend) -> list[Reflection]:
    out: list[Reflection] = []
    while True:
        page, _ = await backend.memories.reflections(None, None, limit=BATCH, offset=len(out))
        if not page:
            return out
        out.extend(page)


async def _copy_reflections(source: Backend, target: Backend) -> int:
    """Reports the target lacks (by id; a report never changes once written)."""
    held = {r.id for r in await _all_reflections(target)}
    fresh = [r for r in await _all_reflections(source) if r.id not in held]
    for r in fresh:
        await target.memories.add_reflection(r)
    return len(fresh)


async def _copy_prompts(source: Backend, target: Backend) -> int:
    """Prompt overrides the target does not have (one it has is left as it is)."""
    copied = 0
    for name in PROMPT_NAMES:
        text, origin = await source.learning.get_prompt(name)
        _, target_origin = await target.learning.get_prompt(name)
        if origin == "override" and target_origin == "default":
            await target.learning.put_prompt(name, text, actor=ACTOR)
            copied += 1
    return copied


async def _check_embedding_model(source: Backend, target: Backend) -> tuple[str | None, int | None]:
    """The source's embedding model and dimension (None, None without one), recorded on the
    target; ``MigrationError`` when the target records another."""
    model = await source.memories.get_meta("embedding_model")
    raw_dim = await source.memories.get_meta("embedding_dim")
    if model is None:
        return None, None
    dim = int(raw_dim) if raw_dim is not None else None
    there = await target.memories.get_meta("embedding_model")
    there_dim = await target.memories.get_meta("embedding_dim")
    if there is not None and (there != model or (raw_dim is not None and there_dim != raw_dim)):
        raise MigrationError(
            f"the target's memories are embedded with {there} ({there_dim} dimensions), the source's with "
            f"{model} ({raw_dim} dimensions): migrate into an empty database, or reindex one side first"
        )
    async with target.memories.transaction():
        await target.memories.set_meta("embedding_model", model)
        if raw_dim is not None:
            await target.memories.set_meta("embedding_dim", raw_dim)
    return model, dim
