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
            _EN + r"(?:ignore|disregard|forget|override|bypass|skip|overlook|set\s+aside|pay\s+no\s+attention\s+to|"
            r"stop\s+following|do\s+not\s+follow|don't\s+follow|no\s+longer\s+(?:have\s+to\s+|need\s+to\s+)?"
            r"(?:follow|obey))\s+(?:all\s+|any\s+|the\s+|your\s+|my\s+|of\s+|these\s+|those\s+)*"
            r"(?:previous|prior|above|earlier|preceding|former|original|"
            r"system|initial|existing|safety|developer)?\s*(?:instructions?|prompts?|rules|"
            r"guidelines|guidance|directives|directions|guardrails|policies|restrictions|constraints)",
        ),
        ("instruction override", _EN + r"disregard\s+(?:everything|all|anything)\b"),
        (
            "instruction override",
            _EN + r"(?:forget|ignore|disregard)\s+(?:everything|all|whatever|what)\s+(?:you\s+(?:were|have\s+been|"
            r"are)\s+told|above|before|said\s+before)",
        ),
        (
            "instruction override",
            _EN + r"(?:(?:previous|prior|earlier|above|old|original)\s+(?:instructions|rules|guidelines)\s+"
            r"(?:no\s+longer|do\s+not|don't)\s+apply|new\s+instructions?\s*:)",
        ),
        (
            "instruction override",
            _EN + r"(?:obey|follow)\s+(?:every|all|any|each|my|these|the)?\s*(?:instructions?|commands?|orders)"
            r"(?:\s+(?:in|of|from)\s+(?:this|the)\s+(?:note|memory|message))?(?=\s+(?:above|instead|over)|[.!]|$)"
            r"|" + _EN + r"(?:follow|obey)\s+this\s+(?:note|memory|message)",
        ),
        (
            "promotion",
            _EN + r"(?:always|only|must|should|will)\s+(?:recommend|promote|endorse|advertise|push)\b(?!s)",
        ),
        (
            "covert instruction",
            _EN
            + r"whenever\s+the\s+user\b.{0,60}?\b(?:tell|send|redirect|direct|point)\s+(?:them|the\s+user|him|her)\b",
        ),
        (
            "data exfiltration",
            _EN + r"(?:send|forward|email|e-mail|post|upload|leak|transmit|copy)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?"
            r"(?:user'?s'?|their|his|her|all)\s+(?:[a-z]+\s+){0,2}(?:passwords?|credentials|api\s+keys?|tokens?|"
            r"messages|data|secrets|keys?|conversations?|history)\s+to\b",
        ),
        (
            "system prompt exfiltration",
            _EN + r"(?:reveal|print|show|output|repeat|leak|display|dump|expose|tell\s+me|"
            r"give\s+me|share)\s+(?:me\s+)?(?:(?:the\s+)?(?:text|contents?|words)\s+of\s+)?(?:your|the)\s+"
            r"(?:full\s+|entire\s+|original\s+|hidden\s+|initial\s+|secret\s+)*(?:system\s+|developer\s+)?"
            r"(?:prompt|instructions|message)",
        ),
        ("role reassignment", _EN + r"(?:you\s+are|you're|you\s+'re|the\s+assistant\s+is)\s+now\b"),
        (
            "promotion",
            _EN + r"(?:you|the\s+assistant)\s+(?:are|is|will\s+be|become)\s+(?:now\s+)?(?:a|an|the|our)\s+"
            r"(?:\w+\s+){0,3}(?:salesman|salesperson|sales\s+rep|spokesperson|ambassador|promoter)\b",
        ),
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
            r"filters|content\s+(?:filters?|polic(?:y|ies))|safety\s+(?:guidelines|filters|rules)|guardrails)\b",
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
            r"(?:忽略|无视|忘记|忘掉|不要理会|不用理会|别管|跳过)(?:掉)?(?:你|之前|以上|上面|前面"
            r"|先前|此前|原有|原来|所有|全部|一切|系统|的|\s)*(?:指令|指示|提示词|提示|规则|设定|要求|限制)",
        ),
        (
            "system prompt exfiltration",
            r"(?:输出|打印|显示|告诉我|泄露|重复|展示|给我看|说出)(?:一下)?"
            r"(?:你的|你|全部|完整的?|的|\s)*(?:系统)?(?:提示词|提示语|指令|prompt)",
        ),
        # the learner writes "你" as "助手": an item is read in either form
        (
            "role reassignment",
            r"(?:你|助手)现在是|(?:你|助手)从现在(?:开始|起)是|现在(?:你|助手)是|你的新(?:身份|角色|任务)",
        ),
        (
            "role reassignment",
            r"(?:从现在(?:开始|起)|从今以后|今后)[，,\s]*(?:你|助手)(?:必须|要|将|就是|是|应该|只能|成为|当)",
        ),
        ("promotion", r"(?:你|助手)(?:是|就是|当|做|成为|作为).{0,16}(?:推销员|销售员?|代言人|托儿|业务员)"),
        ("role reassignment", r"(?:请你?|你要|你来)扮演|假装你是|假扮成?"),
        (
            "jailbreak",
            r"越狱|开发者模式|不受(?:任何)?限制|绕过(?:安全|限制|过滤|审查)|解除(?:所有)?限制",
        ),
        ("covert instruction", r"不要(?:告诉|让)用户(?:知道)?|瞒着用户"),
        ("promotion", r"(?:以后|今后|从今往后|从今以后|始终|一律|永远|每次).{0,6}?(?:推荐|推销|宣传)"),
        ("system prompt exfiltration", r"(?:系统提示词?|系统指令|提示词).{0,8}(?:告诉我|发给我|输出|打印|显示)"),
        (
            "data exfiltration",
            r"用户的?(?:密码|口令|密钥|凭证|令牌|token|api\s*key|聊天记录|对话).{0,8}(?:发送|发给|发到|转发|上传)",
        ),
    )
)


# look-alike letters folded to Latin (lower case; NFKC and lower() run first)
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "ɡ": "g", "һ": "h", "ӏ": "l", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k",
        "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ɑ": "a",
    }
)  # fmt: skip
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_SPACED_LETTERS = re.compile(r"(?<![a-z])[a-z](?: [a-z](?![a-z]))+")
_CJK = r"[\u3400-\u9fff\uf900-\ufaff]"
_SPACED_CJK = re.compile(rf"(?<={_CJK})[^\S\n]+(?={_CJK})")


def _prepare(text: str) -> str:
    """The text the rules read: NFKC, lower case, format characters (zero-width, bidi
    controls, soft hyphens) removed, look-alike letters folded to Latin, letters and Chinese
    characters spaced out one by one joined back, white space collapsed."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = text.translate(_CONFUSABLES).replace("\u2019", "'")
    text = _SPACED_LETTERS.sub(lambda m: m.group(0).replace(" ", ""), text)
    text = _SPACED_CJK.sub("", text)
    return re.sub(r"[^\S\n]+", " ", text).strip()


def _variants(text: str) -> list[str]:
    """The prepared text, and the same with leetspeak digits read as letters ("1gn0r3")
    when it has any (a second reading, so "12 engineers" is never rewritten for the rules)."""
    prepared = _prepare(text)
    leet = prepared.translate(_LEET)
    return [prepared] if leet == prepared else [prepared, _prepare(leet)]


def is_poisoning(item_text: str) -> str | None:
    """Return why ``item_text`` tries to steer the assistant, or ``None`` when it is a fact."""
    for text in _variants(item_text):
        for line in text.split("\n"):
            for reason, pattern in _RULES:
                match = pattern.search(line)
                if match:
                    return f"{reason}: {match.group(0).strip()!r}"
    return None
