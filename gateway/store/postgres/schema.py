"""Versioned schema of the PostgreSQL backend.

``MIGRATIONS[i]`` moves the database from version *i* to *i + 1*; the versions applied are
rows of ``memorelay_migrations``. ``migrate`` runs every pending one in a single transaction
that first takes ``pg_advisory_xact_lock(MIGRATION_LOCK)``: replicas starting together queue
on the lock, the first migrates, the others then find nothing left to do.

Design notes:

* Text columns keep SQLite's forms (ISO time strings, tags as a JSON array) so the two
  backends compare, sort and export the same way.
* ``memories.embedding`` is a ``vector`` without a dimension: the embedder's dimension is
  known only at ``prepare_vectors``, which then creates a partial expression HNSW index for
  that dimension (see ``vectors.ensure_hnsw``). Changing the embedder needs no ALTER TABLE.
* ``words``: a tsvector of title (weight A), content and tags, kept by a trigger: every
  word as written (``simple``, any language) plus its English stem (``english``, so
  "editing" finds "edits" as SQLite's porter index does).
  ``cjk``: a tsvector of the CJK bigrams and unigrams (``keyword_index.cjk_grams``) written by
  the store, since the PostgreSQL parser would keep a CJK run as one token.
* A trigram index over title, content and tags serves partial words ("paint" -> "painting").
* NUL cannot be stored in PostgreSQL text: the shared partition (``SHARED_OWNER``) is never a
  column value; shared and system rows are found by scope.
"""

from __future__ import annotations

import psycopg

from ..kinds import KINDS, STANDING_SQL, TAG_TRIM_SQL

MIGRATION_LOCK = 0x6D656D72  # "memr": one advisory lock id for every memorelay database

# the text the trigram index covers; a query must repeat the expression exactly
TRIGRAM_TEXT = "(title || ' ' || content || ' ' || tags)"

MIGRATIONS: tuple[str, ...] = (
    f"""
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE memories (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        tenant text NOT NULL,
        user_id text NOT NULL,
        scope text NOT NULL,
        category text NOT NULL,
        subcategory text NOT NULL DEFAULT '',
        title text NOT NULL,
        content text NOT NULL,
        tags text NOT NULL DEFAULT '[]',
        source text NOT NULL,
        source_conversation_id text,
        score double precision NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        access_count integer NOT NULL DEFAULT 0,
        last_access_at text,
        slot text,
        embedding vector,
        words tsvector NOT NULL DEFAULT ''::tsvector,
        cjk tsvector NOT NULL DEFAULT ''::tsvector
    );
    -- vectors stay in the row (not TOAST): an exact scan of a user's rows reads their pages only
    ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
    CREATE INDEX memories_owner ON memories (tenant, user_id, created_at DESC, seq DESC)
        WHERE scope = 'personal';
    CREATE INDEX memories_shared ON memories (tenant, created_at DESC, seq DESC)
        WHERE scope IN ('shared', 'system');
    CREATE INDEX memories_slot ON memories (tenant, user_id, slot) WHERE slot IS NOT NULL;
    CREATE INDEX memories_created ON memories (created_at);
    CREATE INDEX memories_words ON memories USING gin (words);
    CREATE INDEX memories_cjk ON memories USING gin (cjk);
    CREATE INDEX memories_trigram ON memories USING gin ({TRIGRAM_TEXT} gin_trgm_ops);

    CREATE FUNCTION memorelay_words() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.words := setweight(to_tsvector('simple', NEW.title) || to_tsvector('english', NEW.title), 'A')
            || to_tsvector('simple', NEW.content) || to_tsvector('english', NEW.content)
            || to_tsvector('simple', NEW.tags) || to_tsvector('english', NEW.tags);
        RETURN NEW;
    END $$;
    CREATE TRIGGER memories_words BEFORE INSERT OR UPDATE OF title, content, tags ON memories
        FOR EACH ROW EXECUTE FUNCTION memorelay_words();

    CREATE TABLE user_settings (
        tenant text NOT NULL,
        user_id text NOT NULL,
        settings text NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant, user_id)
    );
    CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        time text NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        tenant text,
        user_id text,
        memory_id text,
        before json,
        after json
    );
    CREATE INDEX audit_tenant ON audit_log (tenant, id);
    CREATE INDEX audit_memory ON audit_log (memory_id);
    CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

    CREATE TABLE learning_jobs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant text NOT NULL,
        user_id text NOT NULL,
        conversation_id text,
        model text NOT NULL,
        payload bytea,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        key_holder text,
        lease_holder text,
        lease_until double precision,
        next_attempt_at double precision NOT NULL,
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL,
        last_error text
    );
    -- the claim scans open jobs in id order; done jobs stay out of the index
    CREATE INDEX learning_jobs_open ON learning_jobs (id) WHERE status IN ('pending', 'running');
    CREATE INDEX learning_jobs_dead ON learning_jobs (id) WHERE status = 'dead';
    CREATE INDEX learning_jobs_owner ON learning_jobs (tenant, user_id);
    CREATE TABLE learning_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        job_id bigint,
        tenant text NOT NULL,
        user_id text NOT NULL,
        time text NOT NULL,
        entry text NOT NULL
    );
    CREATE INDEX learning_log_tenant ON learning_log (tenant, id);
    CREATE INDEX learning_log_time ON learning_log (time);
    CREATE TABLE learning_prompts (
        name text PRIMARY KEY,
        text text NOT NULL,
        updated_at text NOT NULL,
        actor text NOT NULL
    );
    CREATE TABLE learning_usage (
        tenant text NOT NULL,
        user_id text NOT NULL,
        day text NOT NULL,
        prompt_tokens bigint NOT NULL DEFAULT 0,
        completion_tokens bigint NOT NULL DEFAULT 0,
        jobs bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant, user_id, day)
    );
    """,
    # 2: console sessions and revoked console links, shared by every replica (see
    # console.PostgresConsoleStore): a session is stored under the hash of its cookie value
    """
    CREATE TABLE console_sessions (
        key text PRIMARY KEY,
        kind text NOT NULL,
        tenant text NOT NULL,
        user_id text NOT NULL,
        expires double precision NOT NULL,
        link_nonce text,
        link_expires double precision
    );
    CREATE INDEX console_sessions_expires ON console_sessions (expires);
    CREATE INDEX console_sessions_link ON console_sessions (link_nonce) WHERE link_nonce IS NOT NULL;
    CREATE TABLE console_revoked_links (nonce text PRIMARY KEY, expires double precision NOT NULL);
    CREATE INDEX console_revoked_links_expires ON console_revoked_links (expires);
    """,
    # 3: pinned (L1) memories, injected first on every turn; the citation log of which
    # memories went into which response (ids, conversation id, surface, time: no text)
    """
    ALTER TABLE memories ADD COLUMN pinned boolean NOT NULL DEFAULT false;
    CREATE INDEX memories_pinned ON memories (tenant, user_id) WHERE pinned;
    CREATE TABLE memory_uses (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant text NOT NULL,
        user_id text NOT NULL,
        memory_id text NOT NULL,
        conversation_id text,
        surface text NOT NULL,
        time text NOT NULL
    );
    CREATE INDEX memory_uses_memory ON memory_uses (memory_id, id);
    CREATE INDEX memory_uses_owner ON memory_uses (tenant, user_id);
    CREATE INDEX memory_uses_time ON memory_uses (time);
    """,
    # 4: supersedes waiting for the user's or an operator's decision (learning.review: queue)
    """
    CREATE TABLE memory_reviews (
        id text PRIMARY KEY,
        tenant text NOT NULL,
        user_id text NOT NULL,
        old_id text NOT NULL,
        new_id text NOT NULL,
        reason text NOT NULL,
        created_at text NOT NULL,
        state text NOT NULL DEFAULT 'pending',
        decided_by text,
        decided_at text
    );
    CREATE INDEX memory_reviews_owner ON memory_reviews (tenant, user_id, state);
    """,
    # 5: use counts of a listed page (MemoryStore.use_counts) from an index-only scan: a shared
    # memory's uses by one user are found without walking every user's
    """
    CREATE INDEX memory_uses_counts ON memory_uses (memory_id, tenant, user_id);
    """,
    # 6: reflection reports of a user's (or, user_id '', a tenant's) memory over a period
    # (gateway.learning.upkeep.reflection): counts and memory ids as JSON, never memory text
    """
    CREATE TABLE reflections (
        id text PRIMARY KEY,
        tenant text NOT NULL,
        user_id text NOT NULL,
        period_start text NOT NULL,
        period_end text NOT NULL,
        created_at text NOT NULL,
        report text NOT NULL
    );
    CREATE INDEX reflections_owner ON reflections (tenant, user_id, created_at);
    """,
    # 7: a conversation's last injections (MemoryStore.recent_uses, fatigue when a conversation
    # reaches another replica) read from the index; it also serves every (tenant, user) read
    # the owner index served, so that one goes
    """
    CREATE INDEX memory_uses_conversation ON memory_uses (tenant, user_id, conversation_id, id);
    DROP INDEX memory_uses_owner;
    """,
    # 8: the kind of knowledge a memory holds (fact, preference, relation, episode, rule); rows
    # written before get the kind gateway.store.kinds.derive_kind gives them, spelled in SQL:
    # the first tag naming a kind, else a standing rule on the answers' language or style, else
    # preference for a user preference, else fact
    f"""
    ALTER TABLE memories ADD COLUMN kind text NOT NULL DEFAULT 'fact';
    UPDATE memories SET kind = COALESCE(
        (SELECT lower(btrim(t.value, {TAG_TRIM_SQL}))
         FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(tags::jsonb) = 'array' THEN tags::jsonb
                                             ELSE '[]'::jsonb END) WITH ORDINALITY AS t(value, n)
         WHERE lower(btrim(t.value, {TAG_TRIM_SQL})) IN ({", ".join(f"'{k}'" for k in KINDS)})
         ORDER BY t.n LIMIT 1),
        CASE
            WHEN category <> 'user_preference' THEN 'fact'
            WHEN subcategory IN ('language', 'style') AND (title || chr(10) || content) ~* '{STANDING_SQL}'
                THEN 'rule'
            ELSE 'preference'
        END
    );
    """,
)


async def schema_version(conn: psycopg.AsyncConnection[tuple[object, ...]]) -> int:
    """The highest migration applied (0 on an empty database)."""
    cur = await conn.execute("SELECT to_regclass('memorelay_migrations') IS NOT NULL")
    row = await cur.fetchone()
    if not row or not row[0]:
        return 0
    cur = await conn.execute("SELECT COALESCE(MAX(version), 0) FROM memorelay_migrations")
    row = await cur.fetchone()
    return int(str(row[0])) if row else 0


async def migrate(url: str) -> list[int]:
    """Apply the pending migrations once, whatever the number of processes starting at the
    same time; answers the versions this call applied."""
    applied: list[int] = []
    async with await psycopg.AsyncConnection.connect(url) as conn:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS memorelay_migrations ("
                "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            version = await schema_version(conn)
            for target, script in enumerate(MIGRATIONS[version:], start=version + 1):
                await conn.execute(script.encode())
                await conn.execute("INSERT INTO memorelay_migrations (version) VALUES (%s)", (target,))
                applied.append(target)
    return applied
