"""How much text one piece of memory work may take: every text is cut before it costs CPU.

The local USE embedder costs about 28 µs per character on this machine (1,000 characters
17 ms, 8,000 characters 220 ms, 1 MB about 30 s), all on the one CPU thread every tenant
shares (``_offload``). So, by characters, which is O(1) to apply:

* a retrieval query keeps its first ``QUERY_HEAD_CHARS`` and its last ``QUERY_TAIL_CHARS``
  characters: a question usually opens or closes a long paste ("summarise this: …",
  "… which of these suits me?"). The keyword lists are built from the same cut text.
* a stored memory is embedded from its title and the head of its content, at most
  ``EMBED_MAX_CHARS`` characters in all; the embedder cuts any other text to that too.
* a batch is embedded in slices of at most ``SLICE_CHARS`` characters, one slice per turn of
  the CPU thread, so other callers' work runs between them.
"""

from __future__ import annotations

from collections.abc import Iterator

QUERY_HEAD_CHARS = 250
QUERY_TAIL_CHARS = 750
QUERY_MAX_CHARS = QUERY_HEAD_CHARS + QUERY_TAIL_CHARS
EMBED_MAX_CHARS = 2000
SLICE_CHARS = 4000
_GAP = "\n…\n"


def bound_query(text: str) -> str:
    """``text`` if short enough, else its head and tail around an ellipsis."""
    if len(text) <= QUERY_MAX_CHARS:
        return text
    return text[:QUERY_HEAD_CHARS] + _GAP + text[-QUERY_TAIL_CHARS:]


def bound_text(text: str) -> str:
    """The first ``EMBED_MAX_CHARS`` characters of ``text``."""
    return text[:EMBED_MAX_CHARS]


def slices(texts: list[str], max_items: int) -> Iterator[list[str]]:
    """Consecutive runs of ``texts`` of at most ``SLICE_CHARS`` characters (a longer text
    makes a run of its own) and at most ``max_items`` texts."""
    run: list[str] = []
    size = 0
    for text in texts:
        if run and (size + len(text) > SLICE_CHARS or len(run) >= max_items):
            yield run
            run, size = [], 0
        run.append(text)
        size += len(text)
    if run:
        yield run
