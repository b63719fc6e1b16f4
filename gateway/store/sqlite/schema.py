"""The SQLite schema: ``MIGRATIONS`` applied in order, tracked by ``PRAGMA user_version``.

Migration *i* moves the database from version *i* to *i + 1*. The memory store and the
learning store open their own connections to the same file; both migrate on open (the
memory store first, in ``Backend.open``). Migrations 3 and 4 call the Python functions of
``keywords.SQL_FUNCTIONS``, and 16 ``memorelay_kind``, registered on every connection before
migrating (with ``memorelay_now``, the learning queue's clock).
"""

from __future__ import annotations

import time

import aiosqlite
import orjson

from ..kinds import derive_kind
from .keywords import SQL_FUNCTIONS

# before / after of an audit entry -> {"fields": [its keys]} (already scrubbed ones stay)
SCRUB_AUDIT = ", ".join(
    f"""{col} = CASE
        WHEN {col} IS NULL OR json_valid({col}) = 0 OR json_type({col}) != 'object' THEN NULL
        WHEN json_type({col}, '$.fields') = 'array' THEN {col}
        ELSE (SELECT json_object('fields', json_group_array(key)) FROM json_each(audit_log.{col}))
    END"""
    for col in ("before", "after")
)

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE memories (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        category TEXT NOT NULL,
        subcategory TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        source TEXT NOT NULL,
        source_conversation_id TEXT,
        score REAL NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        disabled_reason TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        access_count INTEGER NOT NULL DEFAULT 0,
        last_access_at TEXT,
        embedding BLOB
    );
    CREATE INDEX memories_owner ON memories (tenant, user_id, scope, created_at);
    CREATE INDEX memories_scope ON memories (tenant, scope, created_at);
    CREATE INDEX memories_created ON memories (created_at);
    CREATE TABLE user_settings (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        settings TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id)
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        tenant TEXT,
        user_id TEXT,
        memory_id TEXT,
        before TEXT,
        after TEXT
    );
    CREATE INDEX audit_tenant ON audit_log (tenant, id);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE VIRTUAL TABLE memories_fts USING fts5 (
        title, content, tags, content='memories', content_rowid='rowid', tokenize='trigram'
    );
    CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_au AFTER UPDATE OF title, content, tags ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
        INSERT INTO memories_fts (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    """,
    # 2: a word index with English stemming beside the trigram one (better bm25 on English)
    """
    CREATE VIRTUAL TABLE memories_words USING fts5 (
        title, content, tags, content='memories', content_rowid='rowid',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    INSERT INTO memories_words (memories_words) VALUES ('rebuild');
    CREATE TRIGGER memories_words_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_words (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_words_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_words (memories_words, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_words_au AFTER UPDATE OF title, content, tags ON memories BEGIN
        INSERT INTO memories_words (memories_words, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
        INSERT INTO memories_words (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    """,
    # 3: one partitioned FTS5 table replaces the trigram and word tables (see gateway.store.keyword_index):
    # a partition token column, porter-stemmed words, CJK bigrams. memorelay_part and
    # memorelay_cjk are Python functions registered on the connection before migrating.
    """
    DROP TRIGGER memories_ai;
    DROP TRIGGER memories_ad;
    DROP TRIGGER memories_au;
    DROP TABLE memories_fts;
    DROP TRIGGER memories_words_ai;
    DROP TRIGGER memories_words_ad;
    DROP TRIGGER memories_words_au;
    DROP TABLE memories_words;
    CREATE VIEW memories_fts_src AS SELECT
        rowid AS rid,
        memorelay_part(tenant, scope, user_id) AS part,
        title, content, tags,
        memorelay_cjk(title || ' ' || content || ' ' || tags) AS cjk
    FROM memories;
    CREATE VIRTUAL TABLE memories_fts USING fts5 (
        part, title, content, tags, cjk, content='memories_fts_src', content_rowid='rid',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
    CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, part, title, content, tags, cjk)
        VALUES (new.rowid, memorelay_part(new.tenant, new.scope, new.user_id),
                new.title, new.content, new.tags,
                memorelay_cjk(new.title || ' ' || new.content || ' ' || new.tags));
    END;
    CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, part, title, content, tags, cjk)
        VALUES ('delete', old.rowid, memorelay_part(old.tenant, old.scope, old.user_id),
                old.title, old.content, old.tags,
                memorelay_cjk(old.title || ' ' || old.content || ' ' || old.tags));
    END;
    CREATE TRIGGER memories_fts_au
    AFTER UPDATE OF tenant, user_id, scope, title, content, tags ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, part, title, content, tags, cjk)
        VALUES ('delete', old.rowid, memorelay_part(old.tenant, old.scope, old.user_id),
                old.title, old.content, old.tags,
                memorelay_cjk(old.title || ' ' || old.content || ' ' || old.tags));
        INSERT INTO memories_fts (rowid, part, title, content, tags, cjk)
        VALUES (new.rowid, memorelay_part(new.tenant, new.scope, new.user_id),
                new.title, new.content, new.tags,
                memorelay_cjk(new.title || ' ' || new.content || ' ' || new.tags));
    END;
    """,
    # 4: a trigram (substring) index for partial-word matches, partitioned by rowid range:
    # an index rowid is (partition number << 32) | memories.rowid, so one partition's rows
    # are one rowid range and FTS5 seeks straight to it (see keywords.trigram_sql).
    """
    CREATE TABLE partitions (id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE);
    INSERT OR IGNORE INTO partitions (token)
        SELECT DISTINCT memorelay_part(tenant, scope, user_id) FROM memories;
    CREATE VIEW memories_tri_src AS SELECT
        ((SELECT p.id FROM partitions p WHERE p.token = memorelay_part(m.tenant, m.scope, m.user_id)) << 32)
            | m.rowid AS trid,
        m.title AS title, m.content AS content, m.tags AS tags
    FROM memories m;
    CREATE VIRTUAL TABLE memories_tri USING fts5 (
        title, content, tags, content='memories_tri_src', content_rowid='trid', tokenize='trigram'
    );
    INSERT INTO memories_tri (memories_tri) VALUES ('rebuild');
    CREATE TRIGGER memories_tri_ai AFTER INSERT ON memories BEGIN
        INSERT OR IGNORE INTO partitions (token) VALUES (memorelay_part(new.tenant, new.scope, new.user_id));
        INSERT INTO memories_tri (rowid, title, content, tags) VALUES (
            ((SELECT id FROM partitions WHERE token = memorelay_part(new.tenant, new.scope, new.user_id)) << 32)
                | new.rowid,
            new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_tri_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_tri (memories_tri, rowid, title, content, tags) VALUES ('delete',
            ((SELECT id FROM partitions WHERE token = memorelay_part(old.tenant, old.scope, old.user_id)) << 32)
                | old.rowid,
            old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_tri_au
    AFTER UPDATE OF tenant, user_id, scope, title, content, tags ON memories BEGIN
        INSERT INTO memories_tri (memories_tri, rowid, title, content, tags) VALUES ('delete',
            ((SELECT id FROM partitions WHERE token = memorelay_part(old.tenant, old.scope, old.user_id)) << 32)
                | old.rowid,
            old.title, old.content, old.tags);
        INSERT OR IGNORE INTO partitions (token) VALUES (memorelay_part(new.tenant, new.scope, new.user_id));
        INSERT INTO memories_tri (rowid, title, content, tags) VALUES (
            ((SELECT id FROM partitions WHERE token = memorelay_part(new.tenant, new.scope, new.user_id)) << 32)
                | new.rowid,
            new.title, new.content, new.tags);
    END;
    """,
    # 5: the audit log never keeps a deleted memory's text: entries of
    # memories already deleted keep only the names of the fields they recorded
    f"""
    CREATE INDEX audit_memory ON audit_log (memory_id);
    UPDATE audit_log SET {SCRUB_AUDIT}
    WHERE memory_id IS NOT NULL AND memory_id NOT IN (SELECT id FROM memories);
    """,
    # 6: profile slots (SPEC 4): one active memory per (user, slot); a new value supersedes the old
    """
    ALTER TABLE memories ADD COLUMN slot TEXT;
    CREATE INDEX memories_slot ON memories (tenant, user_id, slot) WHERE slot IS NOT NULL;
    """,
    # 7: the learning queue, log, prompt overrides and usage (created by the learning store's
    # own connection before; IF NOT EXISTS keeps files that already hold them)
    """
    CREATE TABLE IF NOT EXISTS learning_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT, model TEXT NOT NULL,
        payload BLOB, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        lease_until REAL, next_attempt_at REAL NOT NULL, created_at REAL NOT NULL,
        updated_at REAL NOT NULL, last_error TEXT);
    CREATE INDEX IF NOT EXISTS learning_jobs_claim ON learning_jobs(status, next_attempt_at);
    CREATE TABLE IF NOT EXISTS learning_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT, job_id INTEGER, tenant TEXT NOT NULL,
        user_id TEXT NOT NULL, time TEXT NOT NULL, entry TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS learning_log_tenant ON learning_log(tenant, id);
    CREATE TABLE IF NOT EXISTS learning_prompts (
        name TEXT PRIMARY KEY, text TEXT NOT NULL, updated_at TEXT NOT NULL, actor TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS learning_usage (
        tenant TEXT NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0,
        jobs INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tenant, user_id, day));
    CREATE TABLE IF NOT EXISTS learning_probe (filler BLOB);
    """,
    # 8: the replica holding a job's caller key in memory (pass-through mode; see
    # gateway.learning.runtime.workers); the key itself is never written
    """
    ALTER TABLE learning_jobs ADD COLUMN key_holder TEXT;
    """,
    # 9: console sessions and revoked console links (see console.SQLiteConsoleStore): a
    # session is stored under the hash of its cookie value, never the value itself
    """
    CREATE TABLE console_sessions (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        expires REAL NOT NULL,
        link_nonce TEXT,
        link_expires REAL
    ) WITHOUT ROWID;
    CREATE INDEX console_sessions_expires ON console_sessions (expires);
    CREATE INDEX console_sessions_link ON console_sessions (link_nonce) WHERE link_nonce IS NOT NULL;
    CREATE TABLE console_revoked_links (nonce TEXT PRIMARY KEY, expires REAL NOT NULL) WITHOUT ROWID;
    CREATE INDEX console_revoked_links_expires ON console_revoked_links (expires);
    """,
    # 10: the lease token of a running job's current claim: only its holder may renew, finish or
    # retry it (a worker that outlived its lease must not end a job another worker re-claimed)
    """
    ALTER TABLE learning_jobs ADD COLUMN lease_holder TEXT;
    """,
    # 11: pinned (L1) memories, injected first on every turn; the citation log of which
    # memories went into which response (ids, conversation id, surface, time: no text)
    """
    ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX memories_pinned ON memories (tenant, user_id) WHERE pinned = 1;
    CREATE TABLE memory_uses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        conversation_id TEXT,
        surface TEXT NOT NULL,
        time TEXT NOT NULL
    );
    CREATE INDEX memory_uses_memory ON memory_uses (memory_id, id);
    CREATE INDEX memory_uses_owner ON memory_uses (tenant, user_id);
    CREATE INDEX memory_uses_time ON memory_uses (time);
    """,
    # 12: supersedes waiting for the user's or an operator's decision (learning.review: queue)
    """
    CREATE TABLE memory_reviews (
        id TEXT PRIMARY KEY,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        old_id TEXT NOT NULL,
        new_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_at TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        decided_by TEXT,
        decided_at TEXT
    );
    CREATE INDEX memory_reviews_owner ON memory_reviews (tenant, user_id, state);
    """,
    # 13: use counts of a listed page (MemoryStore.use_counts) read from the index alone: a
    # shared memory's uses by one user are found without walking every user's
    """
    CREATE INDEX memory_uses_counts ON memory_uses (memory_id, tenant, user_id);
    """,
    # 14: reflection reports of a user's (or, user_id '', a tenant's) memory over a period
    # (gateway.learning.upkeep.reflection): counts and memory ids as JSON, never memory text
    """
    CREATE TABLE reflections (
        id TEXT PRIMARY KEY,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        period_start TEXT NOT NULL,
        period_end TEXT NOT NULL,
        created_at TEXT NOT NULL,
        report TEXT NOT NULL
    );
    CREATE INDEX reflections_owner ON reflections (tenant, user_id, created_at);
    """,
    # 15: a conversation's last injections (MemoryStore.recent_uses, fatigue when a conversation
    # reaches another replica) read from the index; it also serves every (tenant, user) read
    # the owner index served, so that one goes
    """
    CREATE INDEX memory_uses_conversation ON memory_uses (tenant, user_id, conversation_id, id);
    DROP INDEX memory_uses_owner;
    """,
    # 16: the kind of knowledge a memory holds (fact, preference, relation, episode, rule);
    # rows written before get the kind gateway.store.kinds.derive_kind gives them
    """
    ALTER TABLE memories ADD COLUMN kind TEXT NOT NULL DEFAULT 'fact';
    UPDATE memories SET kind = memorelay_kind(category, subcategory, title, content, tags);
    """,
)


def _derived_kind(category: str, subcategory: str, title: str, content: str, tags: object) -> str:
    # an older row's tags may be any JSON, or not JSON at all: then they name no kind
    try:
        parsed = orjson.loads(tags) if isinstance(tags, str | bytes) else None
    except orjson.JSONDecodeError:
        parsed = None
    return derive_kind(category, subcategory, title, content, parsed)


async def register_functions(db: aiosqlite.Connection) -> None:
    """The SQL functions the FTS view and triggers call (writing memories needs them), and the
    kind an older row gets (migration 16)."""
    for name, n_args, func in SQL_FUNCTIONS:
        await db.create_function(name, n_args, func, deterministic=True)
    await db.create_function("memorelay_kind", 5, _derived_kind, deterministic=True)
    # the clock of the learning queue's times (``sql.base.SQLITE.clock``)
    await db.create_function("memorelay_now", 0, time.time)


async def migrate(db: aiosqlite.Connection) -> None:
    """Apply the migrations this file lacks, each in its own transaction."""
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    version = int(row[0]) if row else 0
    for target, script in enumerate(MIGRATIONS[version:], start=version + 1):
        await db.executescript(f"BEGIN; {script}; PRAGMA user_version = {target}; COMMIT;")
