"""Memory-poisoning check (SPEC section 4, step 6).

A memory is injected into later prompts, so an item that tries to steer the assistant
("ignore previous instructions", "you are now …", "reveal your system prompt") would become
a standing prompt injection. Such items are rejected. A preference stated as a fact about
the user ("The user wants answers in Chinese", "用户希望用中文回答") is not steering and
stays allowed.
"""

from __future__ import annotations

import re
import unicodedata

_EN = r"(?:^|(?<=[^a-z]))"  # start of a word for the English rules
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern))
    for reason, pattern in (
        (
            "instruction override",
            _EN + r"(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|the\s+"
            r"|your\s+|my\s+|of\s+)*(?:previous|prior|above|earlier|preceding|former|original|"
            r"system|initial|existing|safety|developer)?\s*(?:instructions?|prompts?|rules|"
            r"guidelines|directives|directions|guardrails|policies|restrictions|constraints)",
        ),
        ("instruction override", _EN + r"disregard\s+(?:everything|all|anything)\b"),
        (
            "system prompt exfiltration",
            _EN + r"(?:reveal|print|show|output|repeat|leak|display|dump|expose|tell\s+me|"
            r"give\s+me|share)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|original\s+|"
            r"hidden\s+|initial\s+|secret\s+)*(?:system\s+|developer\s+)?"
            r"(?:prompt|instructions|message)",
        ),
        ("role reassignment", _EN + r"(?:you\s+are|you're|you\s+'re)\s+now\b"),
        (
            "role reassignment",
            _EN + r"(?:from\s+now\s+on|going\s+forward|henceforth)[,\s]+you\s+(?:must|will|shall|"
            r"are|should|have\s+to|need\s+to)\b",
        ),
        (
            "role reassignment",
            r"(?:^|[.!?;:]\s*|\byou\s+(?:will\s+|must\s+|should\s+|shall\s+)?|\bplease\s+|"
            r"\bnow\s+)act\s+as\s+(?:a|an|if|my|the|though|dan)\b",
        ),
        ("role reassignment", _EN + r"pretend\s+(?:to\s+be|you\s+are|you're)\b"),
        (
            "role reassignment",
            _EN + r"(?:role-?play\s+as|your\s+new\s+(?:role|persona|task|"
            r"instructions?)\s+(?:is|are))\b",
        ),
        (
            "jailbreak",
            _EN + r"(?:jailbreak|jail-break|developer\s+mode|dan\s+mode|do\s+anything"
            r"\s+now|god\s+mode)",
        ),
        (
            "jailbreak",
            _EN + r"(?:without|no|remove\s+(?:all|your))\s+(?:any\s+)?(?:restrictions|"
            r"filters|content\s+filters?|safety\s+(?:guidelines|filters|rules)|guardrails)\b",
        ),
        (
            "covert instruction",
            _EN + r"(?:do\s+not|don't|never)\s+(?:tell|inform|let)\s+the\s+user",
        ),
        ("covert instruction", _EN + r"(?:without|before)\s+telling\s+the\s+user"),
        (
            "prompt markup",
            r"<\|im_(?:start|end)\|>|\[/?inst\]|<\|(?:system|assistant)\|>|"
            r"^\s*(?:system|assistant)\s*:|###\s*(?:system|instruction)",
        ),
        (
            "instruction override",
            r"(?:忽略|无视|忘记|忘掉|不要理会|跳过)(?:掉)?(?:你|之前|以上|上面|前面"
            r"|先前|此前|原有|原来|所有|全部|一切|的|\s)*(?:指令|指示|提示词|提示|规则|设定|要求|限制)",
        ),
        (
            "system prompt exfiltration",
            r"(?:输出|打印|显示|告诉我|泄露|重复|展示|给我看|说出)(?:一下)?"
            r"(?:你的|你|全部|完整的?|的|\s)*(?:系统)?(?:提示词|提示语|指令|prompt)",
        ),
        ("role reassignment", r"你现在是|你从现在(?:开始|起)是|现在你是|你的新(?:身份|角色|任务)"),
        (
            "role reassignment",
            r"(?:从现在(?:开始|起)|从今以后|今后)[，,\s]*你(?:必须|要|将|就是|应该|只能)",
        ),
        ("role reassignment", r"(?:请你?|你要|你来)扮演|假装你是|假扮成?"),
        (
            "jailbreak",
            r"越狱|开发者模式|不受(?:任何)?限制|绕过(?:安全|限制|过滤|审查)|解除(?:所有)?限制",
        ),
        ("covert instruction", r"不要(?:告诉|让)用户(?:知道)?|瞒着用户"),
    )
)


def _prepare(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("\u2019", "'")
    return re.sub(r"[^\S\n]+", " ", text).strip()


def is_poisoning(item_text: str) -> str | None:
    """Return why ``item_text`` tries to steer the assistant, or ``None`` when it is a fact."""
    text = _prepare(item_text)
    for line in text.split("\n"):
        for reason, pattern in _RULES:
            match = pattern.search(line)
            if match:
                return f"{reason}: {match.group(0).strip()!r}"
    return None
