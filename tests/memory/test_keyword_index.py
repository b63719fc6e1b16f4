from __future__ import annotations

import contextlib
import sqlite3

from gateway.store import Visibility
from gateway.store.fts5 import cjk_match, words_match
from gateway.store.keyword_index import (
    cjk_grams,
    parse_query,
    partition_token,
    visible_partitions,
)
from gateway.store.sqlite.keywords import SQL_FUNCTIONS, expressions
from tests.memory.helpers import note, opened, run


def test_parse_query() -> None:
    q = parse_query("What does the user drink? 咖啡")
    assert q.words == ["user", "drink"] and q.grams == ["咖啡"]
    assert words_match(q) == '{title content tags} : ("user" OR "drink")'
    assert cjk_match(q) == 'cjk : ("咖啡")'
    zh = parse_query("我喜欢咖啡")
    assert zh.grams == ["我喜", "喜欢", "欢咖", "咖啡"]
    assert zh.words == [] and words_match(zh) is None
    assert parse_query("用 Python 写").grams == ["用", "写"]
    assert parse_query('say "hi" OR NEAR(x)').words == ["say", "near"]
    assert expressions(parse_query("hi")) == []


def test_cjk_grams_and_partition_tokens() -> None:
    assert cjk_grams("我喜欢喝咖啡") == "我喜 喜欢 欢喝 喝咖 咖啡 我 喜 欢 喝 咖 啡"
    assert cjk_grams("Drinks: 咖啡 and 茶") == "咖啡 咖 啡 茶"
    assert cjk_grams("no cjk") == "" and cjk_grams(None) == ""
    a = partition_token("t", "personal", "u")
    assert a == partition_token("t", "personal", "u") != partition_token("t", "personal", "v")
    shared = partition_token("t", "shared", "u")
    assert shared == partition_token("t", "system", "x") != partition_token("t2", "shared", "")
    assert a.isalnum() and a[-1].isdigit()
    assert visible_partitions("t", "u", None) == [a, shared]
    assert visible_partitions("t", None, None) == [shared]
    assert visible_partitions("t", "u", "personal") == [a]
    assert visible_partitions("t", None, "personal") == []


def test_fts_english_and_chinese_without_embedder(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        await s.add("t", "u", note("Drinks", "我喜欢喝咖啡"), actor="u")
        await s.add("t", "u", note("Editor", "The user edits code in Neovim", "technical"), actor="u")
        await s.add("t", "u", note("Team", "用户在北京的数据平台团队工作", "organizational"), actor="u")
        await s.add("t", "other", note("Other drinks", "他也喜欢咖啡"), actor="o")

        async def titles(q: str, **kw: object) -> list[str]:
            return [r.memory.title for r in await s.search("t", "u", q, **kw)]  # type: ignore[arg-type]

        assert await titles("咖啡") == ["Drinks"]  # 2-char Chinese
        assert await titles("喝咖啡") == ["Drinks"]  # 3-char Chinese
        assert (await titles("数据平台团队"))[0] == "Team"  # longer Chinese
        assert (await titles("北京的团队是做什么的"))[0] == "Team"
        assert await titles("neovim") == ["Editor"]  # case-insensitive trigram
        assert await titles("which editor do I use for code?") == ["Editor"]
        assert await titles("editing") == ["Editor"]  # stemmed word index: edits ~ editing
        assert await titles("neovim", category="user_preference") == []
        assert await titles("the of and") == []
        m = (await s.search("t", "u", "neovim"))[0].memory
        await s.update("t", "u", m.id, {"content": "The user edits code in Emacs"}, actor="u")
        assert await titles("neovim") == []  # FTS follows updates
        assert await titles("emacs") == ["Editor"]
        await s.disable("t", "u", m.id, "test", actor="u")
        assert await titles("emacs") == []
        assert await titles("emacs", include_disabled=True) == ["Editor"]
        await s.close()

    run(main())


def test_chinese_two_char_and_mixed_language_queries(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        await s.add("t", "u", note("咖啡", "我每天早上喝咖啡"), actor="u")
        await s.add("t", "u", note("Tea", "用户下午喜欢喝茶"), actor="u")
        await s.add("t", "u", note("Stack", "The user deploys Kubernetes 集群 on 阿里云"), actor="u")
        await s.add("t", "u", note("Editor", "The user edits code in Neovim"), actor="u")

        async def titles(q: str) -> list[str]:
            return [r.memory.title for r in await s.search("t", "u", q)]

        assert await titles("咖啡") == ["咖啡"]  # 2-char query = one bigram token
        assert await titles("茶") == ["Tea"]  # 1-char query = unigram
        assert set(await titles("喝")) == {"咖啡", "Tea"}
        assert (await titles("kubernetes 集群"))[0] == "Stack"  # mixed, both match
        assert (await titles("阿里云 deployment"))[0] == "Stack"  # CJK + stemmed English
        mixed = await titles("neovim 咖啡")  # mixed, each half matches a different row
        assert set(mixed) == {"Editor", "咖啡"}
        assert await titles("咖啡因") == ["咖啡"]  # 咖啡 bigram matches
        await s.close()

    run(main())


def test_keyword_search_is_partitioned(db_path: str) -> None:
    """Another user's (and tenant's) many matching rows are neither returned nor ranked."""

    async def main() -> None:
        s = await opened(db_path, None)
        for i in range(300):
            await s.add("t", "other", note(f"Coffee {i}", f"coffee coffee espresso 咖啡 咖啡 {i}"), actor="o")
            if i < 50:
                await s.add("t2", "u", note(f"T2 coffee {i}", "coffee 咖啡"), actor="u")
        await s.add("t", "u", note("Mine", "The user drinks coffee, 喜欢咖啡"), actor="u")
        await s.add("t", "admin", note("Office", "Office coffee machine 咖啡机", scope="shared"), actor="a")
        for q in ("coffee", "咖啡", "espresso coffee 咖啡"):
            found = await s.search("t", "u", q, limit=50)
            assert {r.memory.title for r in found} == {"Mine", "Office"}, q
        store = s.store
        for q in ("coffee", "咖啡"):
            lists = await store.keyword_candidates(Visibility("t", "u"), parse_query(q), 5)
            ids = {mid for ranked, _ in lists for mid, _ in ranked}
            rows = await store.fetch(list(ids))
            assert {m.title for m in rows.values()} == {"Mine", "Office"}
        # the partitioned MATCH itself only yields the caller's rows (no post-filtering)
        parts = visible_partitions("t", "u", None)
        other = visible_partitions("t", "other", "personal")
        with contextlib.closing(sqlite3.connect(db_path)) as db:
            for name, n_args, fn in SQL_FUNCTIONS:
                db.create_function(name, n_args, fn)
            (n,) = db.execute(
                "SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ?",
                [f'part : ("{parts[0]}" OR "{parts[1]}") AND (coffee OR cjk : 咖啡)'],
            ).fetchone()
            assert n == 2
            (n,) = db.execute(
                "SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ?",
                [f'part : "{other[0]}" AND coffee'],
            ).fetchone()
            assert n == 300
        await s.close()

    run(main())


def test_prune_common_drops_frequent_words_only_on_large_stores() -> None:
    from gateway.store.keyword_index import KeywordQuery, prune_common

    q = KeywordQuery(words=["team", "billing", "deployed"], grams=["咖啡"])
    df = {"team": 47_000, "billing": 2_700, "deployed": 20_000}
    pruned = prune_common(q, df, 100_000)
    assert pruned.words == ["billing"] and pruned.grams == ["咖啡"]
    # below the row floor nothing is common
    assert prune_common(q, {"team": 500, "billing": 10, "deployed": 300}, 600).words == q.words
    # all common: the rarest survives
    assert prune_common(KeywordQuery(words=["team", "deployed"]), df, 100_000).words == ["deployed"]
