from __future__ import annotations

from gateway.memory.keyword_index import parse_query
from tests.memory.helpers import note, opened, run


def test_parse_query() -> None:
    q = parse_query("What does the user drink? 咖啡")
    assert q.match == '"user" OR "drink"'
    assert q.bigrams == ["咖啡"]
    zh = parse_query("我喜欢咖啡")
    assert zh.bigrams == ["我喜", "喜欢", "欢咖", "咖啡"]
    assert zh.match == '"我喜欢" OR "喜欢咖" OR "欢咖啡"' and zh.words_match is None
    assert parse_query('say "hi" OR NEAR(x)').match == '"say" OR "near"'
    assert parse_query("hi").match is None


def test_fts_english_and_chinese_without_embedder(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        await s.add("t", "u", note("Drinks", "我喜欢喝咖啡"), actor="u")
        await s.add(
            "t", "u", note("Editor", "The user edits code in Neovim", "technical"), actor="u"
        )
        await s.add(
            "t", "u", note("Team", "用户在北京的数据平台团队工作", "organizational"), actor="u"
        )
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
