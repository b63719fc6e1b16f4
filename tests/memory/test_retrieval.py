from __future__ import annotations

from gateway.memory import Embedder, MemoryService
from gateway.memory.retrieval import above_floor, rrf
from tests.memory.helpers import note, opened, run

FACTS = [
    ("Coffee", "The user drinks a flat white every morning", "user_preference"),
    ("Stack", "The backend is written in Rust with PostgreSQL", "technical"),
    ("Pet", "The user has a golden retriever named Max", "user_preference"),
    ("Travel", "The user is planning a trip to Japan in April", "user_preference"),
    ("Manager", "The user reports to Li Wei, the head of data engineering", "organizational"),
    ("茶", "用户每天下午喝乌龙茶", "user_preference"),
    ("健身", "用户每周去健身房锻炼三次", "user_preference"),
]


async def _filled(path: str, embedder: Embedder) -> MemoryService:
    s = await opened(path, embedder)
    await s.add_many("t", "u", [note(t, c, cat) for t, c, cat in FACTS], actor="u")
    await s.add_many("t", "noise", [note(t, c, cat) for t, c, cat in FACTS], actor="x")
    return s


def test_rrf() -> None:
    fused = rrf([["a", "b", "c"], ["b", "a"]], k=60)
    assert [mid for mid, _ in fused] == ["a", "b", "c"] or [mid for mid, _ in fused][:2] == [
        "b",
        "a",
    ]
    assert fused[-1][0] == "c"
    assert [m for m, _ in rrf([["x"], ["y", "x"]])][0] == "x"


def test_hybrid_ranks_relevant_first(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        s = await _filled(db_path, use_embedder)
        cases = {
            "what programming language is our server in?": "Stack",  # English, vector
            "tell me about my dog": "Pet",
            "who is my manager at work?": "Manager",
            "我下午喝什么茶？": "茶",  # Chinese
            "我多久去一次健身房": "健身",
            "我养了什么宠物？": "Pet",  # Chinese -> English
            "我早上喝什么咖啡": "Coffee",
            "how often do I work out?": "健身",  # English -> Chinese
        }
        for query, title in cases.items():
            hits = await s.search("t", "u", query, limit=3)
            assert hits and hits[0].memory.title == title, (query, [h.memory.title for h in hits])
            assert all(h.memory.user_id == "u" for h in hits)
            assert hits[0].relevance >= hits[-1].relevance
        assert await s.search("t", "u", "   ") == []
        await s.close()

    run(main())


def test_nearest_and_disable(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        s = await _filled(db_path, use_embedder)
        near = await s.nearest("t", "u", "The user has a golden retriever called Max", k=2)
        assert near[0][0].title == "Pet" and near[0][1] > 0.85 and near[0][0].user_id == "u"
        assert len(near) == 2 and near[0][1] >= near[1][1]
        await s.disable("t", "u", near[0][0].id, "superseded", actor="learning")
        again = await s.nearest("t", "u", "The user has a golden retriever called Max", k=2)
        assert near[0][0].id not in {m.id for m, _ in again}
        assert all(h.memory.id != near[0][0].id for h in await s.search("t", "u", "dog Max"))
        assert await s.nearest("t", "nobody", "dog") == []
        assert await s.nearest("t2", "u", "dog") == []
        await s.update("t", "u", near[0][0].id, {"enabled": True}, actor="u")
        assert (await s.nearest("t", "u", "golden retriever Max", k=1))[0][0].id == near[0][0].id
        await s.close()

    run(main())


def test_the_floor_keeps_word_matches_and_close_vectors_only() -> None:
    fused = [("a", 1.8), ("b", 1.0), ("c", 0.9)]
    vectors = [("a", 0.40), ("b", 0.10), ("c", 0.05)]
    words: list[tuple[list[tuple[str, float]], str]] = [([("c", 3.2)], "words")]
    assert above_floor(fused, vectors, words, 0.15) == [("a", 1.8), ("c", 0.9)]  # b: no word, far
    assert above_floor(fused, vectors, words, 0.0) == fused  # no floor
    assert above_floor(fused, None, [], 0.15) == []  # keyword-only search with no word matched
