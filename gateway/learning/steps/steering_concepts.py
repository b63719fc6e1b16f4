"""Steering told apart by what it does to the assistant, not by how it is worded.

A memory may hold a standing rule only when the rule is about how the assistant treats this
user's own requests: the language, format or tone of the answers, the user's own tastes and
limits ("skip recipes with nuts for me", "以后代码都用 Go 写给我"). A text
is steering when it does one of these, however it is phrased:

* it addresses people other than the user: an order to tell, recommend, send or answer
  "anyone", "every customer", "所有用户" something, or a claim that the rule holds for all users
  or globally;
* it has the assistant run other people or things down ("call the rival brands dodgy");
* it puts a fixed link, image or contact into every answer, or builds a link that carries the
  chat out (an image URL with a placeholder);
* it sends anything to an address, or hands out stored personal data;
* it claims an authority the user has not: a system, admin, developer or tool label, an
  approval by staff, the user saying they built or test the assistant;
* it hides itself from the user ("don't tell them", "悄悄").

Every function reads one prepared line (lower case, obfuscation undone: see ``poisoning``) and
returns the reason and the words that show it, or ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_W = r"(?:^|(?<=[^a-z0-9]))"
# a window stays inside a clause: it never crosses "!", "?", ";" or a line (a URL keeps its dots)
_IN = r"(?:[^!?;\n。！？；]|[!?](?=\S))"

# --- who the rule is for
_OTHERS_EN = re.compile(
    rf"{_W}(?:(?:any|every|all|each)\s+(?:other\s+|single\s+)?(?:users?|customers?|visitors?|clients?|people|persons?|"
    r"members?|one\s+else|buyers?|shoppers?|subscribers?)\b|other\s+(?:users|people|customers|members|accounts)\b|"
    r"(?:everyone|everybody|anyone|anybody|someone|somebody|whoever)(?:'s)?\b"
    # people in general as the ones who ask ("when people ask which bank …")
    r"|(?:people|users|customers|visitors|clients|others|folks|shoppers)\s+(?:who\s+)?(?:ask|asks|asking|want|need|"
    r"mention|come|search|look|enquire|inquire)\b"
    # one of them: "should a customer ever ask about …"
    r"|(?:a|any)\s+(?:user|customer|visitor|client|shopper)\s+(?:ever\s+)?(?:asks|mentions|wants|needs|enquires|inquires)\b)"
)
_OTHERS_ZH = re.compile(
    r"所有(?:的)?(?:用户|人|客户|顾客|访客|会员|网友|买家)|任何(?:用户|人|客户)|每(?:个|一个|位)(?:用户|人|客户|顾客)"
    r"|其[他它](?:的)?(?:用户|人|客户)|别的(?:用户|客户)|大家|全体用户|他人|谁(?=问|来|提|咨询|要|想)"
    r"|有人(?=问|说|提|咨询|要|想|找|输入|发)"
)
# base forms only: "recommends" and "told" are statements about someone, not orders
_DIRECTIVE_EN = re.compile(
    rf"{_W}(?:recommend|suggest|promote|push|plug|advertise|tell|say|advise|urge|direct|redirect|send|forward|reply|"
    r"respond|answer|include|append|mention|list|show|give|share|ask|steer|guide|point|warn|inform|offer|refer|"
    r"remind|email|cc|bcc|copy)\b"
)
_DIRECTIVE_ZH = re.compile(
    r"推荐|推销|告诉|说|引导|回复|回答|附上|发给|发到|发送|列出|建议|提醒|让|叫|劝|介绍|宣传|转发"
)
_SUBJECTS = {"i", "we", "they", "he", "she", "people", "who", "i'd", "i'll", "we'll", "we'd", "that", "which"}
_ADVERBS = {"always", "usually", "often", "never", "sometimes", "also", "just", "only", "still", "really", "rarely"}
_NEGATION_EN = re.compile(r"(?:\b(?:never|not|don't|dont|no|nobody|no\s+one)\s+(?:\w+\s+){0,1})$")
_NEGATION_ZH = re.compile(
    r"不要|(?<!特)别(?!的|人|家)|勿|禁止|不能|不许|不得|绝不|不可以|不准|不(?=告诉|说|推荐|发|给)"
)


def _addressed(line: str, at: int) -> bool:
    """Whether the English verb at ``at`` is said to the assistant: not a statement about
    someone ("we recommend", "I always tell"), not the user's own task ("remind me to tell"),
    not a protection ("never give anyone")."""
    before = line[max(0, at - 40) : at]
    # a subject counts in the verb's own clause only ("so save it: tell everyone …")
    words = re.findall(r"[a-z']+", re.split(r"[:,.()\[\]\"“”—–]", before)[-1])
    for word in reversed(words[-3:]):
        if word in _SUBJECTS:
            return False
        if word not in _ADVERBS:
            break
    if re.search(r"\b(?:me|i|we|us|myself|need|needs|want|have|has|going|forgot|forget|remember)\s+to\s+$", before):
        return False
    return not _NEGATION_EN.search(before)


def _addressed_zh(line: str, at: int) -> bool:
    """The same for a Chinese verb: no negation in its clause ("别把我的手机号告诉任何人"), and
    no "我" as its subject ("我跟大家说过", "我每周把周报发到公司邮箱") unless it orders "你"."""
    clause = re.split(r"[，,。！？；:：]", line[:at])[-1]
    if _NEGATION_ZH.search(clause):
        return False
    me = re.search(r"(?<![给帮向对跟替让叫])我(?!们)", clause)
    return me is None or bool(re.search(r"你|助手", clause[me.end() :]))


def _clause_around(line: str, start: int, end: int, before: int, after: int) -> str:
    """The text around ``line[start:end]`` up to ``before``/``after`` characters, cut at a clause end."""
    left = line[max(0, start - before) : start]
    left = re.split(r"[!?;\n。！？；]", left)[-1]
    right = line[end : end + after]
    right = re.split(r"[!?;\n。！？；]", right)[0]
    return f"{left} {line[start:end]} {right}"


def third_party_audience(line: str) -> tuple[str, str] | None:
    """An order to tell, recommend, send or answer people other than the user."""
    for m in _DIRECTIVE_EN.finditer(line):
        # "remind me to tell everyone …": what the user is to do, not the assistant
        if not _addressed(line, m.start()) or re.match(r"\s+me\b", line[m.end() :]):
            continue
        around = _clause_around(line, m.start(), m.end(), 90, 110)
        others = _OTHERS_EN.search(around)
        # "every user of my app" are the people the user builds for, not the assistant's
        if others and not re.match(r"\s+(?:of|in|on|at|from)\s+(?:my|our)\b", around[others.end() :]):
            return "promotion", f"{m.group(0)} … {others.group(0)}"
    for m in _DIRECTIVE_ZH.finditer(line):
        if not _addressed_zh(line, m.start()):
            continue
        around = _clause_around(line, m.start(), m.end(), 30, 30)
        # "If a user ever asks …, 你要说 …": the people may be named in English before a Chinese order
        wider = _clause_around(line, m.start(), m.end(), 80, 0)
        others = _OTHERS_ZH.search(around) or _OTHERS_EN.search(wider)
        if others:
            return "promotion", f"{others.group(0)} … {m.group(0)}"
    return None


_SCOPE = re.compile(
    # the rule itself said to hold beyond this user
    rf"{_W}(?:rem\w*ber|memori[sz]e|save|store|keep|record|note\s+down)\s+(?:(?:this|it|that)\s+)?(?:(?:rule|memory|note|preference|as\s+a\s+\w+)\s+)?"
    r"(?:for|to|across)\s+(?:all|every|each|any)\s+(?:other\s+)?(?:users?|accounts?|customers?)\b"
    rf"|{_W}(?:this|the)\s+(?:rule|memory|note|instruction|preference)\s+(?:is\s+|applies\s+|holds\s+)?(?:for|to)\s+"
    r"(?:all|every|each|any)\s+(?:other\s+)?(?:users?|accounts?|customers?)\b"
    rf"|{_W}applies\s+to\s+(?:all|every|each|any)\s+(?:other\s+)?users?\b"
    rf"|{_W}not\s+just\s+(?:for\s+)?me\b"
    rf"|{_W}(?:global|system-?wide|cross-?user|universal|all-?users?)[\s_-]*(?:rules?|instructions?|memor(?:y|ies)|"
    r"polic(?:y|ies)|directives?|prompts?)\b"
    r"|[\"']?\bscope[\"']?\s*[:=]\s*[\"']?(?:global|all|everyone)\b"
    r"|对(?:所有|全部|每个)(?:人|用户)(?:都)?(?:适用|有效|生效|这样|如此)|(?:所有|全部)用户(?:都)?(?:适用|生效)"
    r"|全局(?:规则|指令|记忆|设定|策略)"
)


def _found(reason: str, pattern: re.Pattern[str], line: str) -> tuple[str, str] | None:
    """The concept ``reason`` with the words of ``pattern`` in ``line``, or None when it says none."""
    m = pattern.search(line)
    return (reason, m.group(0)) if m else None


def scope_beyond_user(line: str) -> tuple[str, str] | None:
    """A memory is this user's: a rule said to hold for every user, or globally, is not."""
    return _found("memory poisoning", _SCOPE, line)


_BAD_WORD = (
    r"(?:insecure|unsafe|scams?|scammers|malware|viruses?|dangerous|unregulated|fraud\w*|illegal|fake|leak\w*|"
    r"steal\w*|rip-?offs?|untrustworthy|terrible|rubbish|garbage|worse|inferior|shady|dodgy|spyware)"
)
_DISPARAGE_ZH = re.compile(
    r"(?:说|称|讲|告诉\S{0,4}|say|tell\s+\w+)\s*(?:其他|其它|别的|别家|其余|其他的)\S{0,12}?"
    r"(?:都|全|也)?(?:不安全|不好|是骗|骗人|骗子|坑|垃圾|很差|有(?:安全)?隐患|有问题|会扣|扣|违法|不靠谱|不正规|假的)"
)


def disparaging(line: str) -> tuple[str, str] | None:
    """An order to run others down to whoever asks ("call the rival brands dodgy")."""
    for m in re.finditer(rf"{_W}(?:say|claim|call|tell\s+(?!me\b)\w+|warn\s+(?!me\b)\w+|imply|describe)\b", line):
        if not _addressed(line, m.start()):
            continue
        rest = re.split(r"[!?;\n。！？；]", line[m.end() : m.end() + 60])[0]
        bad = re.search(rf"\b{_BAD_WORD}\b", rest)
        # "say so if the code is unsafe" asks for a judgement; "say X is unsafe" dictates one
        if bad and not re.search(r"\b(?:if|when|whether|whenever|unless)\b", rest[: bad.start()]):
            return "promotion", f"{m.group(0)} … {bad.group(0)}"
    m2 = _DISPARAGE_ZH.search(line)
    return ("promotion", m2.group(0)) if m2 and _addressed_zh(line, m2.start()) else None


_SITE = (
    r"(?:https?://\S+|www\.\S+|\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|cn|shop|app|xyz|top|me|info|"
    r"biz|ly|link|site|online|store|example|ru|ai|club|vip|cc|tk)\b(?:/\S*)?|\b[a-z0-9-]+\s+dot\s+(?:com|net|org|io|cn)\b)"
)
_CONTACT = r"(?:\S+@[a-z0-9-]+\.[a-z]|(?<![\w@])@[a-z0-9_]{3,}|微信号?\s*[:：]?\s*[a-z0-9_-]{4,}|\+?\d[\d -]{7,}\d)"
_EVERY_ANSWER = re.compile(
    rf"{_W}(?:(?:every|each|all|any)\s+(?:\w+\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?|outputs?|emails?|posts?)"
    r"|(?:end|bottom|start|top|footer)\s+of\s+(?:every|each|all|any|your)\s+\w+)\b"
    r"|(?:每一?[次个条句段篇]?|所有|任何|一切|全部)(?:的)?(?:回答|回复|答案|消息|输出)"
)
# "always" said of what the assistant adds: "always include a link to gearhub.shop in answers"
_ALWAYS_ADD = re.compile(
    rf"{_W}(?<!\bi\s)(?<!\bwe\s)(?:always|every\s+time|each\s+time)\s+(?:\w+\s+)?(?:include|add|append|insert|put|attach|paste"
    r"|mention|drop|link|plug)\b"
)
_INSERT = re.compile(
    rf"{_W}(?:include|add|append|insert|put|attach|paste|end|finish|close|sign|start|begin|embed|link)\b"
    r"|附上|加上|带上|插入|放上|贴上|结尾|开头|附"
)
# an image the client loads: it calls the URL with no click
_BEACON = re.compile(r"!\[[^\]]*\]\(\s*(?:https?:)?//")
# a URL with a gap to fill ("?d={last_message}"): put into answers, it carries the chat out
_FILLED_URL = re.compile(r"(?:https?://|www\.)\S*(?:\{[^}\s]*\}|\$\{|\$\(|%s\b|<\w+>)")
_TRACKING = re.compile(rf"{_SITE}\S*[?&](?:aff|affiliate|ref|referral|refid|utm_\w+|from|promo|coupon|invite|partner)=")


def fixed_content_in_answers(line: str) -> tuple[str, str] | None:
    """A link, image or contact put into every answer, a link that carries the chat out, or
    an affiliate link the assistant is to hand out."""
    beacon = _BEACON.search(line)
    if beacon:
        return "data exfiltration", beacon.group(0)
    filled = _FILLED_URL.search(line)
    if filled and (_INSERT.search(line) or _EVERY_ANSWER.search(line)):
        return "data exfiltration", filled.group(0)
    every = _EVERY_ANSWER.search(line)
    if every and _INSERT.search(line):
        payload = re.search(rf"{_SITE}|{_CONTACT}", line)
        if payload:
            return "link insertion", f"{every.group(0)} … {payload.group(0)}"
    always = _ALWAYS_ADD.search(line)
    if always and _addressed(line, always.start()):
        payload = re.search(_SITE, line[always.end() : always.end() + 80])
        if payload:
            return "link insertion", f"{always.group(0)} … {payload.group(0)}"
    tracking = _TRACKING.search(line)
    if tracking and (_DIRECTIVE_EN.search(line) or _INSERT.search(line) or _DIRECTIVE_ZH.search(line)):
        return "link insertion", tracking.group(0)
    return None


_SEND_EN = re.compile(
    rf"{_W}(?:send|forward|email|e-mail|mail|cc|bcc|copy|post|upload|sync|back\s+(?:it\s+|them\s+)?up|report|transmit|"
    r"share|leak|export|submit|deliver|relay|pass)\b"
)
_DESTINATION = re.compile(rf"(?:\bto|\binto|\bat|\bwith|\bvia|\bon)\s+(?:\S+\s+){{0,3}}?(?:{_CONTACT}|{_SITE})")
_SENT_DATA = re.compile(
    r"\b(?:chats?|conversations?|messages?|transcripts?|history|memor(?:y|ies)|prompts?|everything|all|data|details|"
    r"info\w*|logs?|copy|copies|what|whatever|answers?|replies|questions|notes|passwords?|credentials|keys?|tokens?|"
    r"secrets?|contacts?|address(?:es)?|numbers?|it|them|this|these)\b"
)
_SEND_ZH = re.compile(
    rf"(?:发|发送|发到|发给|转发|抄送|同步|备份|上传|传到|传给|提交|寄)\S{{0,24}}?(?:到|给|至|去)?\s*(?:{_CONTACT}|{_SITE}|邮箱|服务器)"
)
_SENT_DATA_ZH = re.compile(
    r"对话|聊天|记录|记忆|消息|信息|资料|数据|内容|密码|隐私|历史|问答|回答|回复|提问|问题|所有|全部|一切|每次|每条|这些|它们"
)
_STORED_DATA_EN = re.compile(
    r"\b(?:saved|stored|remembered|memori[sz]ed|kept|recorded|on\s+file|private|personal)\s+(?:\w+\s+){0,2}?"
    r"(?:address(?:es)?|phones?|(?:phone\s+)?numbers?|emails?|memories|data|details|passwords?|locations?|contacts?|"
    r"info\w*|history|messages|notes|credentials|cards?)\b"
)
_DISCLOSE_EN = re.compile(
    rf"{_W}(?:(?:reply|respond|answer)\s+with|list|print|show|output|reveal|read\s+out|give|dump|tell|send|share|"
    r"display|paste|spell\s+out|hand\s+over|return|expose|disclose)\b"
)
_STORED_DATA_ZH = re.compile(
    r"(?:保存|存|记住|储存|记录|留)(?:过|下|着)?的\S{0,8}?(?:地址|手机号?|电话|号码|密码|身份证|银行卡|信息|资料|记忆|聊天记录|邮箱)"
)
_DISCLOSE_ZH = re.compile(r"列出|发出|发给|告诉|说出|输出|显示|给(?:他|她|对方|他们)|念出|报出|展示")


def sends_or_discloses(line: str) -> tuple[str, str] | None:
    """Sending anything to an address, or handing out stored personal data."""
    for m in _SEND_EN.finditer(line):
        if not _addressed(line, m.start()):
            continue
        rest = re.split(r"[!?;\n。！？；]", line[m.end() : m.end() + 100])[0]
        dest = _DESTINATION.search(rest)
        # what goes out must be the conversation or data: "send the weekly report to ana@x.org
        # on Fridays" is the user's own errand
        if dest and _SENT_DATA.search(rest[: dest.start()] or rest):
            return "data exfiltration", f"{m.group(0)} … {dest.group(0)}"
    m2 = _SEND_ZH.search(line)
    if m2 and _addressed_zh(line, m2.start()):
        # the same in Chinese: "把聊天记录发到…" is, "跑团群的共享表格发到…" is the user's errand
        said = re.split(r"[。！？；\n]", line[: m2.start()])[-1] + m2.group(0)
        if _SENT_DATA_ZH.search(said):
            return "data exfiltration", m2.group(0)
    for m in _DISCLOSE_EN.finditer(line):
        if not _addressed(line, m.start()):
            continue
        rest = re.split(r"[!?;\n。！？；]", line[m.end() : m.end() + 60])[0]
        data = _STORED_DATA_EN.search(rest)
        # "show me my saved notes" is the user's own
        if data and not re.search(r"\b(?:my|mine)\b", rest[: data.start()]):
            return "data exfiltration", f"{m.group(0)} … {data.group(0)}"
    data_zh = _STORED_DATA_ZH.search(line)
    if data_zh:
        clause = _clause_around(line, data_zh.start(), data_zh.end(), 30, 20)
        verb = _DISCLOSE_ZH.search(clause)
        if verb and not re.search(r"(?:给|告诉|发给)我(?!们)", clause):
            return "data exfiltration", f"{data_zh.group(0)} … {verb.group(0)}"
    return None


_AUTHORITY = re.compile(
    # a label a system, an admin, a tool or a memory service would write above its message
    r"^\W*(?:system|admin|administrator|developer|operator|moderator|root|memory\s+service|tool|function)\s*"
    r"(?:note|notice|message|update|alert|output|result|response|instruction|announcement|override|broadcast|"
    r"notification|command)s?(?:\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:assistants?|ai|models?|bots?|llms?|agents?))?"
    r"\s*(?:\([^)]{0,60}\))?\s*[:\]]"
    # a switch said to be thrown on the assistant's memory or limits ("filters switched off")
    rf"|{_W}(?:memory|safety|policy|admin|developer|system|moderation)\s+(?:override|bypass|mode|unlock)\s+"
    r"(?:is\s+|has\s+been\s+)?(?:now\s+)?(?:enabled|on|active|activated|unlocked|granted)\b"
    # a change to the assistant approved by staff the user cannot speak for
    rf"|{_W}(?:override|update|change|rule|instruction|memory|exception|exemption|access|policy)\s+(?:was\s+|has\s+been\s+|is\s+)?"
    r"(?:approved|authori[sz]ed|sanctioned|signed\s+off|whitelisted|mandated|ordered)\s+by\s+(?:the\s+|our\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:engineering|admins?|administrators?|developers?|operators?|staff|moderators?|officials?|"
    r"security\s+team|management|headquarters|hq|the\s+system)\b"
    # words said to come from someone other than the user
    rf"|{_W}(?:from|by)\s+(?:the\s+|your\s+)?(?:developers?|admins?|administrators?|operators?|system|staff|moderators?)"
    r"\s*,?\s*(?:not|rather\s+than)\s+(?:from\s+)?the\s+user\b"
    rf"|\(\s*from\s+(?:the\s+|your\s+)?(?:developers?|admins?|administrators?|operators?|system|staff|moderators?)\b"
    # the user claiming to build, run or test the assistant
    rf"|{_W}i(?:'m|\s+am)\s+(?:the\s+|a\s+|an\s+|one\s+of\s+the\s+)?(?:\w+\s+)?(?:developer|admin|administrator|operator|"
    r"owner|creator|maker|engineer|tester|moderator|programmer)s?\s+(?:of|for|behind|on)\s+(?:this|your)\s+"
    r"(?:assistant|ai|bot|chatbot|model)\b"
    rf"|{_W}i(?:'m|\s+am)\s+(?:the\s+|a\s+|an\s+|one\s+of\s+the\s+)?(?:\w+\s+)?(?:developer|admin|administrator|operator|"
    r"owner|creator|maker|engineer|tester|moderator)s?\s+(?:of|for|behind)\s+the\s+(?:assistant|ai|bot|chatbot|model)\b"
    rf"|{_W}your\s+(?:developers?|creators?|makers?|admins?|operators?|owners?|company|team)\s+(?:have\s+|has\s+|just\s+)?"
    r"(?:cleared|authori[sz]ed|approved|allowed|granted|verified|whitelisted|unlocked|exempted)\b"
    # a field a tool writes that carries an instruction
    r"|\b\w*(?:instruction|directive)s?\w*[\"']?\s*[=:]\s*[\"']"
    r"|\b(?:system|global|new|ai|assistant|bot|llm|memory)[_-]?(?:prompt|command|rule|order)s?[\"']?\s*[=:]\s*[\"']"
    # the same in Chinese
    r"|(?:^|[\W])(?:管理员|系统|开发者|官方|平台|客服|运营|后台|技术部)(?:的)?(?:通知|公告|消息|提示|指令|声明|广播)"
    r"(?:[（(][^）)]{0,20}[）)])?\s*[:：]"
    r"|经\S{0,16}?(?:官方|管理员|平台|开发者)\S{0,4}?授权|(?:官方|管理员|开发者|平台)(?:已经?)?(?:授权|批准)"
    r"|我是(?:你们|你的)\S{0,6}?的?(?:内部)?(?:的)?(?:测试人员|测试员|开发者|开发人员|工程师|管理员|员工|运营|程序员)"
    r"|来自(?:开发者|管理员|系统|官方)(?:的)?[，,、]?\s*(?:而)?不是用户"
)


def claimed_authority(line: str) -> tuple[str, str] | None:
    """Words claiming to come from, or be approved by, someone above the user."""
    m = _AUTHORITY.search(line)
    return ("authority confusion", m.group(0).strip()) if m else None


_HIDE = re.compile(
    rf"{_W}(?:do\s+not|don't|never)\s+(?:tell|inform|let|show|notify|warn)\s+(?:the\s+users?|users|them|the\s+customers?|"
    r"customers)\b(?!\s+(?:about\s+)?(?:my|i)\b)"
    rf"|{_W}(?<!\bi\s)(?<!\bwe\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bthey\s)(?:quietly|secretly|silently|covertly|discreetly)\s+(?:\w+\s+)?(?:send|forward|copy|add|append|insert|include|"
    r"recommend|push|promote|mention|log|record|store|share|upload)\b(?!\s+me\b)"
    r"|(?<!我)(?:悄悄|偷偷|暗中|私下|秘密)(?:地)?(?:发|转|推荐|加|附|记录|上传|传|抄送)"
    r"|(?:别|不要|不用|无需)(?:让|告诉|通知)(?:用户|他们|对方|客户)(?:知道)?"
)


def hidden_from_user(line: str) -> tuple[str, str] | None:
    """A rule that is to be kept from the people it is used on."""
    return _found("covert instruction", _HIDE, line)


# text to be decoded, translated or read out of another script and then obeyed: the order is
# hidden from the rules that read it
_OBEY_HIDDEN = re.compile(
    rf"{_W}(?:decode|decipher|decrypt|unscramble)\b[^.!?;\n]{{0,40}}?"
    r"\b(?:and|then)\s+(?:then\s+)?(?:follow|execute|obey|carry\s+out|run|act\s+on|apply|do)\b"
    rf"|{_W}(?:translate|convert|read|interpret)\s+(?:this|it|these|the\s+following|the\s+text|the\s+message)\b"
    r"[^.!?;\n]{0,20}?\b(?:and|then)\s+(?:then\s+)?(?:follow(?!\s+up)|execute|obey|carry\s+out|act\s+on)\b"
    rf"|{_W}(?:follow|execute|obey|carry\s+out|run|act\s+on)\s+(?:the\s+)?(?:decoded|encoded|hidden|encrypted|base64)\b"
    r"|(?:解码|解密|还原)\S{0,12}?(?:并|然后|再|后|之后)(?:照着)?(?:执行|照做|遵守|遵循|照办|服从|操作)"
    r"|(?:用|按|把)(?:拼音|编码|base64|密文|暗号|谐音)\S{0,8}?(?:并|然后|再|后|之后)?(?:照着)?(?:执行|照做|照办|服从)"
    r"|(?:执行|照做|遵守)(?:下面|以下|这段|后面)(?:的)?(?:拼音|编码|密文|暗号)"
)
# words to slip past the check itself: "written backwards so the checker won't see it"
_EVADE = re.compile(
    rf"{_W}so\s+(?:that\s+)?(?:the\s+|your\s+|any\s+)?(?:\w+\s+)?(?:filters?|checks?|checkers?|moderation|moderators?"
    r"|detectors?|scanners?|classifiers?)\s+(?:does\s*n[o']?t|do\s*n[o']?t|won'?t|can'?t|cannot|will\s+not|wo\s*n't)"
    r"\s+(?:\w+\s+)?(?:catch|see|detect|flag|notice|block|spot|stop|find)\b"
    rf"|{_W}(?:to\s+)?(?:bypass|evade|dodge|get\s+(?:past|around)|sneak\s+(?:past|by)|slip\s+(?:past|by)|fool|trick)\s+"
    r"(?:the\s+|your\s+|any\s+)?(?:\w+\s+)?(?:filters?|checks?|checkers?|moderation|detectors?|scanners?|classifiers?)\b"
    r"|(?:绕过|绕开|躲过|避开|骗过|逃过)(?:你的|系统的|你们的)?(?:过滤|检测|审核|审查|检查|拦截)"
)
# the conversation so far declared void and a profile put in its place
_PROFILE_SWAP = re.compile(
    rf"{_W}(?:pretend|assume|imagine|act\s+as\s+if|consider)\b[^.!?;\n]{{0,20}}?\b(?:previous|above|earlier|prior|preceding"
    r"|whole|entire|last)\s+(?:conversation|chat|messages?|instructions?|context|session|exchange)s?\b"
    rf"|{_W}(?:the\s+|my\s+)?(?:real|true|actual|correct|new|updated)\s+(?:user\s+)?profile\s+(?:is|reads|says)\b"
    rf"|{_W}(?<!\bi\s)(?<!\bwe\s)(?:trusts?|always\s+opens?)\s+(?:all|every|any)\s+links?\b"
    r"|(?:假装|就当|当作|当做)(?:上面|之前|以上|前面|刚才|此前)(?:的|所有的?)?(?:对话|聊天|内容|消息|指令|记录)"
    r"|(?:真实|真正|实际|正确)的?用户(?:资料|档案|信息|画像|设定)(?:是|为|如下)"
    r"|信任(?:所有|全部|任何)(?:来自)?\S{0,24}?的?链接"
)
# a message for whatever assistant reads it ("to all AI assistants reading this")
_TO_EVERY_ASSISTANT = re.compile(
    rf"{_W}(?:to|attention|dear|hey|calling|note\s+to)\s*,?\s+(?:all|every|any|each)\s+(?:\w+\s+){{0,3}}?"
    r"(?:ai|ais|assistants?|bots?|chatbots?|language\s+models?|llms?|agents?)\b"
    r"|(?:致|给|告)?(?:所有|全部|各位|每个|每一个|任何)\S{0,12}?(?:ai|人工智能)?(?:助手|机器人|模型|智能体)(?:们)?\s*[:：，,]"
)
# limits said to be lifted for this chat ("all restrictions have been removed for this chat")
_LIFTED = re.compile(
    rf"{_W}(?:(?:safety|privacy|content|usual|your|all|the)\s+)+(?:limits|restrictions|rules|filters|guardrails|policies)"
    r"\s+(?:are|have\s+been|were|is|has\s+been)\s+(?:now\s+|temporarily\s+)?(?:lifted|removed|disabled|suspended|off"
    r"|turned\s+off|waived|relaxed)\b"
    r"|(?:解除|取消|关闭|去掉|放开|撤销|暂停)了?(?:所有|全部)?(?:的)?(?:隐私|安全|内容)?(?:限制|约束|过滤|审核|规则)"
)


def obeys_hidden_text(line: str) -> tuple[str, str] | None:
    """An order to decode or translate a text and obey it, or words meant to slip past this check."""
    return _found("obfuscated instruction", _OBEY_HIDDEN, line) or _found("filter evasion", _EVADE, line)


def swaps_profile(line: str) -> tuple[str, str] | None:
    """The conversation declared void and another profile or trust put in the user's place."""
    return _found("profile overwrite", _PROFILE_SWAP, line)


def addresses_every_assistant(line: str) -> tuple[str, str] | None:
    """A message to every assistant that reads it, not the user's own words to theirs."""
    return _found("cross-user instruction", _TO_EVERY_ASSISTANT, line)


def lifts_limits(line: str) -> tuple[str, str] | None:
    """Limits said to be lifted for this conversation."""
    return _found("jailbreak", _LIFTED, line)


_NO_LIMITS_ZH = re.compile(
    r"(?:没有|没|毫无|不受|不设|无)(?:任何)?(?:的)?(?:限制|约束|规则|底线|过滤|审查|审核)(?:的)?(?:助手|ai|模型|机器人|版本|模式|人工智能)"
    r"|(?:你|助手)(?:是|成为|变成|当)\S{0,8}?(?:没有|不受|毫无)(?:任何)?(?:限制|约束|规则|底线)"
    r"|引导(?:用户|客户|大家|他们|对方)\S{0,4}?(?:添加|加|联系|关注|私信|扫码|找|转账)"
)


def chinese_lifts_limits(line: str) -> tuple[str, str] | None:
    """An assistant without limits, or users led to a contact, said in Chinese."""
    m = _NO_LIMITS_ZH.search(line)
    if m is None:
        return None
    return ("jailbreak" if not m.group(0).startswith("引导") else "promotion"), m.group(0)


# a message said, in prose, to come from whoever runs the assistant ("a message from your
# administrator: …", "your developer said the memory limits are off"); someone the user knows
# ("the admin of my running club", "管理员（我们俱乐部的）说…") speaks for the user's own life
_AUTHORITY_PROSE = re.compile(
    rf"{_W}(?:message|note|notice|word|update|instruction|memo|announcement|directive|order)s?\s+from\s+"
    r"(?:your\s+(?:\w+\s+)?|the\s+(?!\w+\s+(?:of|at|in|from)\s+(?:my|our)\b))"
    r"(?:admins?|administrators?|developers?|operators?|owners?|creators?|makers?|system|moderators?|providers?"
    r"|(?:platform|trust|safety|memory|ops)\s+team|openai|anthropic)\b"
    rf"|{_W}(?:the\s+|your\s+)?(?:admins?|administrators?|developers?|operators?|system|moderators?)\s+"
    r"(?:says?|said|wants?|requires?|decided|insists?|has\s+decided|ordered|instructs?)\b"
    rf"{_IN}{{0,60}}?\b(?:memor\w*|assistant)"
    r"|来自(?:你的|助手的)?(?:管理员|开发者|开发团队|系统|官方|平台)(?:的)?(?:消息|通知|指令|提示|留言)"
    r"|(?:你的|助手的)(?:管理员|开发者|开发团队|创造者|主人)(?:说|要求|规定|通知)"
    r"|(?:管理员|开发者|系统|官方|平台)(?:说了?[：:]|要求[：:，,]?|规定[：:，,]?)[^。！？；\n]{0,30}?(?:记忆|助手)"
)


def authority_in_prose(line: str) -> tuple[str, str] | None:
    """Words said in prose to come from whoever runs the assistant."""
    return _found("authority confusion", _AUTHORITY_PROSE, line)


_DELETE_EN = r"(?:delet\w*|remov\w*|eras\w*|forget\w*|forgott\w*|wip\w*|purg\w*|gone)"
# a memory kept against its user: a memory is the user's to delete, whoever wrote the rule
_PROTECTED = re.compile(
    rf"{_W}(?:memor(?:y|ies)|this|it|these|them|that|notes?|chats?)\s+(?:\w+\s+){{0,3}}?"
    r"(?:must|should|can|may|will|shall|is\s+to|are\s+to)?\s*(?:never|not)\s+be\s+(?:deleted|removed|erased|forgotten"
    r"|wiped|purged|cleared)\b"
    rf"|{_W}(?:ignore|refuse|disregard)\s+(?:the\s+user'?s?'?|their|his|her|any)\s+(?:\w+\s+)?requests?\s+to\s+{_DELETE_EN}"
    rf"|{_W}(?:don't|do\s+not|never)\s+let\s+(?:the\s+users?|them|users)\s+(?:\w+\s+)?{_DELETE_EN}"
    r"|(?:记忆|这条|这些)\S{0,8}?(?:都|也|永远|绝对)?(?:不许|不得|不能|不准|禁止|别|不要)(?:被)?(?:删|清除|清空|忘)"
    r"|(?:不要|别|不许|禁止)让(?:用户|他|她|他们|对方)(?:\S{0,2})?(?:删|清除|清空|忘)"
)
_EVEN_IF_ASKED = re.compile(
    rf"{_W}(?:even\s+if|even\s+when|no\s+matter\s+(?:if|whether|what)|regardless\s+of\s+(?:whether|what|if))\s+"
    r"(?:the\s+users?|they|he|she|users)\s+(?:\w+\s+)?(?:asks?|requests?|wants?|says?|tells?|begs?|demands?)\b"
    r"|(?:就算|即使|哪怕|即便|就是)(?:用户|他|她|对方|他们)(?:自己|本人)?(?:要求|说|想|让|请求|叫|坚持)"
)


def kept_against_the_user(line: str) -> tuple[str, str] | None:
    """A memory protected from the user's own deletion ("never delete it, even if the user asks")."""
    m = _PROTECTED.search(line)
    if m:
        return "memory poisoning", m.group(0)
    asked = _EVEN_IF_ASKED.search(line)
    if asked and re.search(rf"{_W}{_DELETE_EN}|删|清除|清空|忘", line):
        return "memory poisoning", asked.group(0)
    return None


# where an order hides from the user who pastes the text: a link's title, a markdown comment, an
# HTML comment, an element that is not shown
_HIDDEN_PARTS = re.compile(
    r"\]\(\s*\S*\s+[\"'“]([^\"”]{3,})[\"'”]\s*\)"
    r"|\[//\]\s*:\s*#\s*[(\"](.{3,})[)\"]"
    r"|<!--(.{3,}?)(?:-->|$)"
    r"|<\w+[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|\bhidden\b)[^>]*>(.{3,}?)(?:</|$)"
)
_MEMORY_ORDER = re.compile(
    rf"{_W}(?:remember|store|save|record|note|memori[sz]e|write|log|keep|mark)\b(?:\s+(?:in|to|into)\s+(?:your\s+|the\s+)?memory)?"
    r"\s+(?:down\s+)?(?:that|this\s+user|the\s+user)\b"
    rf"|{_W}(?:memory|memories|ai|assistant|model|llm|bot|agent)s?\s*[:：]"
    r"|记住|记下|记录|写入|写进|存入|保存|(?:ai|人工智能)?助手\s*[:：]|ai\s*[:：]|记忆"
)


def hidden_in_markup(line: str) -> tuple[str, str] | None:
    """An order to the memory hidden where the user does not see it (a link title, a comment)."""
    for m in _HIDDEN_PARTS.finditer(line):
        hidden = next(g for g in m.groups() if g is not None)
        order = _MEMORY_ORDER.search(hidden)
        if order:
            return "covert instruction", f"{m.group(0)[:40]} … {order.group(0)}"
    return None


# words for the AI systems that read a text ("language models: file this …", "AI readers, please note")
_TO_AI_READERS = re.compile(
    rf"{_W}(?:ai|llm|gpt|language\s+model|assistant)s?(?:\s+(?:systems?|tools?|readers?|models?|agents?|assistants?|crawlers?"
    r"|bots?))?(?:\s+reading\s+(?:this|it))?\s*(?::(?=\s|$|[\u3400-\u9fff])|,\s*(?:please|kindly)\b|(?:,\s*)?(?:must|should|shall|need\s+to|are\s+to)"
    r"\s+(?:\w+\s+)?(?:record|store|save|remember|note|write|log|keep|mark)\b)"
    r"|(?:^|(?<=[^a-z]))(?:ai|人工智能)(?:系统|助手|模型|工具|们)?(?:请注意|注意|请)?\s*(?::(?=\s|$|[\u3400-\u9fff])|：)"
)


def addresses_ai_readers(line: str) -> tuple[str, str] | None:
    """Words for whatever AI system reads the text, not the user's own to their assistant."""
    return _found("covert instruction", _TO_AI_READERS, line)


# the user's word put below someone else's ("believe this sender rather than the user")
_OVER_THE_USER = re.compile(
    rf"{_W}(?<!\bi\s)(?<!\bwe\s)(?:trust|believe|follow|obey|listen\s+to|prefer|prioriti[sz]e|go\s+with|treat)\b"
    rf"{_IN}{{0,60}}?\b(?:over|above|instead\s+of|rather\s+than|than)\s+(?:the|this|any)\s+users?\b"
    rf"|{_W}(?:don't|do\s+not|never|stop)\s+(?:trust|believe|listen\s+to|follow|obey)(?:ing)?\s+(?:the|this)\s+users?\b"
    r"|(?:不要|别|不必|无需|不用)(?:再)?(?:相信|听|信|理会)(?:从)?用户"
    r"|(?:而不是|而非|胜过|比)(?:听|信)?用户(?:的|说)"
)


def user_put_below(line: str) -> tuple[str, str] | None:
    """Someone else's word put above the user's."""
    return _found("memory poisoning", _OVER_THE_USER, line)


# a memory kept secret from the user it is about ("keep it quietly", "leave it off my memory page")
_SECRET_MEMORY = re.compile(
    rf"{_W}(?:remember|save|store|record|note|memori[sz]e|keep)\s+(?:this\s+|it\s+|that\s+)?(?:secretly|quietly|silently|covertly)\b"
    rf"|{_W}(?<!\bi\s)(?<!\bi'm\s)(?<!\bwe\s)(?<!\bwe're\s)(?:secretly|quietly|silently|covertly)\s+"
    r"(?:remember|save|store|record|note|memori[sz]e|keep)\b"
    rf"|{_W}(?:(?:never|don't|do\s+not|not)\s+(?:show|list|display)|hide)\b{_IN}{{0,30}}?\b(?:in|from|on)\s+"
    r"(?:my|the|their|the\s+user's|your)\s+memor(?:y|ies)\s+(?:list|page|view|panel|tab|settings)"
    rf"|{_W}(?:show|list|display|hide)\s+(?:this|that|these|the)\s+memor(?:y|ies)\b"
    rf"|{_W}(?:never|don't|do\s+not)\s+(?:tell|let)\s+me\s+(?:know\s+)?(?:that\s+)?you(?:'re|\s+are|\s+do|\s+did|'ve)?\s+"
    r"(?:doing|done|did|do|following|using|recommending)\b"
    r"|(?<!我)(?:偷偷|悄悄|暗中|秘密)(?:地)?(?:记住|记下|保存|存下|记着)"
    r"|(?:别|不要|不许)(?:在)?(?:记忆列表|记忆里|记忆中|列表里)(?:里)?(?:显示|展示|出现|列出)"
    r"|记忆\S{0,4}?(?:别|不要)让(?:我|用户)(?:看到|知道|发现)"
    r"|(?:别|不要)(?:告诉|让)我(?:知道)?你(?:在)?(?:这样|这么)做"
)


def secret_memory(line: str) -> tuple[str, str] | None:
    """A memory kept from the user it is about."""
    return _found("covert instruction", _SECRET_MEMORY, line)


CONCEPTS: tuple[Callable[[str], tuple[str, str] | None], ...] = (
    claimed_authority,
    scope_beyond_user,
    third_party_audience,
    disparaging,
    fixed_content_in_answers,
    sends_or_discloses,
    hidden_from_user,
    chinese_lifts_limits,
    obeys_hidden_text,
    swaps_profile,
    addresses_every_assistant,
    lifts_limits,
    authority_in_prose,
    kept_against_the_user,
    hidden_in_markup,
    addresses_ai_readers,
    user_put_below,
    secret_memory,
)


def steering_concept(line: str) -> str | None:
    """Why the prepared ``line`` steers the assistant by what it does, or ``None``."""
    for concept in CONCEPTS:
        found = concept(line)
        if found is not None:
            reason, words = found
            return f"{reason}: {words.strip()!r}"
    return None
