"""Casual multi-session chat as learning input: replay LoCoMo conversations through the gateway.

Used by ``bench/learning_quality.py --locomo PATH``. For each conversation the first speaker is
the user and the second the assistant; every turn of the first speaker is one chat request
(the session's earlier turns as history) sent with ``X-Memorelay-User`` and the session's
``date_time`` as ``X-Memorelay-Time``. Afterwards it reports memories per user turn, 40 random
memories to read by hand, and how many of the user's ``observation`` facts (the annotators'
per-session facts) have a memory that says the same (content-word overlap).
"""

from __future__ import annotations

import random
import re
from datetime import datetime
from typing import Any

import aiohttp

_HISTORY = 8
_STOP = frozenset(
    "the a an and or but of to in on at for with from by about as is are was were be been being has have had"
    " do does did this that these those it its their they them he she his her him i me my we our you your"
    " not no so very also just really more most some any all can could would should will shall may might"
    " into over after before during while when where which who what how than then there here out up down"
    " off again once because such only own same other each few both through recently user user's".split()
)


def session_time(text: str) -> str | None:
    """``"1:56 pm on 8 May, 2023"`` → ``"2023-05-08T13:56:00+00:00"``; ``None`` when unreadable."""
    try:
        when = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    except ValueError:
        return None
    return when.strftime("%Y-%m-%dT%H:%M:00+00:00")


def sessions(conversation: dict[str, Any]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """The sessions in order, each with its time (ISO) and turns."""
    numbers = sorted(
        int(m.group(1)) for k in conversation if (m := re.fullmatch(r"session_(\d+)", k)) and conversation[k]
    )
    return [
        (session_time(str(conversation.get(f"session_{n}_date_time", ""))), conversation[f"session_{n}"])
        for n in numbers
    ]


def observations(sample: dict[str, Any], speaker: str) -> list[str]:
    facts: list[str] = []
    for per_session in (sample.get("observation") or {}).values():
        for fact in (per_session or {}).get(speaker) or []:
            if fact and isinstance(fact[0], str):
                facts.append(fact[0])
    return facts


def content_words(text: str, drop: set[str]) -> set[str]:
    words = {w.lower().strip("'") for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text)}
    return {w.removesuffix("'s") for w in words if len(w) > 2 and w not in _STOP and w not in drop}


def covered(fact: str, memories: list[dict[str, Any]], drop: set[str]) -> bool:
    """A memory says the same: it holds at least half of the fact's content words (two or more)."""
    want = content_words(fact, drop)
    if not want:
        return False
    need = max(2, (len(want) + 1) // 2)
    return any(len(want & content_words(f"{m['title']} {m['content']}", drop)) >= need for m in memories)


async def replay_locomo(
    client: aiohttp.ClientSession,
    via: str,
    data: list[dict[str, Any]],
    *,
    key: str,
    model: str,
    drain: Any,
    memories: Any,
    sample: int = 40,
) -> dict[str, Any]:
    root = via.removesuffix("/v1")
    user_turns = created = 0
    all_memories: list[dict[str, Any]] = []
    facts_total = facts_covered = 0
    for item in data:
        conv = item["conversation"]
        speaker, other = conv["speaker_a"], conv["speaker_b"]
        user = f"locomo-{item.get('sample_id', speaker)}"
        for when, turns in sessions(conv):
            history: list[dict[str, str]] = [{"role": "system", "content": "You are a friendly companion."}]
            for turn in turns:
                role = "user" if turn["speaker"] == speaker else "assistant"
                text = str(turn.get("text") or "")
                if turn.get("blip_caption"):
                    text += f" [shares {turn['blip_caption']}]"
                history.append({"role": role, "content": text})
                if role != "user":
                    continue
                headers = {"authorization": key, "x-memorelay-user": user}
                if when:
                    headers["x-memorelay-time"] = when
                body = {"model": model, "messages": [history[0], *history[1:][-_HISTORY:]]}
                async with client.post(via + "/chat/completions", json=body, headers=headers) as r:
                    r.raise_for_status()
                    await r.read()
                user_turns += 1
                await drain(client, root)
        stored = await memories(client, root, user)
        created += len(stored)
        mems = [m for m in stored if m["enabled"]]
        all_memories.extend(mems)
        names = {w.lower() for w in f"{speaker} {other}".split()}
        facts = observations(item, speaker)
        facts_total += len(facts)
        facts_covered += sum(1 for f in facts if covered(f, mems, names))
    rng = random.Random(17)
    picked = rng.sample(all_memories, min(sample, len(all_memories)))
    return {
        "user_turns": user_turns,
        "memories": created,
        "active": len(all_memories),
        "per_user_turn": round(created / max(1, user_turns), 3),
        "observations": facts_total,
        "observations_covered": facts_covered,
        "sample": [f"[{m.get('kind') or _kind_tag(m)}] {m['content']}" for m in picked],
    }


def _kind_tag(m: dict[str, Any]) -> str:
    tags = m.get("tags") or []
    return str(tags[0]) if tags else "?"
