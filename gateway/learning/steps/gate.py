"""The precision gate: what is not a memory, with the reason code the learning log counts.

A memory that is wrong, momentary or noise is worse than none: it is injected into every
related prompt. So before anything is stored, each candidate of either learner passes here.
Two checks, one vocabulary of reasons (``REASONS``):

* ``sentence_reason`` reads one sentence of the user's own words (the built-in learner asks
  before it analyses a sentence): questions, pleasantries and praise, things said to or about
  the assistant, momentary states and feelings, plans for today, hypotheticals, "never mind",
  small talk;
* ``item_reason`` reads an extracted item (the built-in learner's and the LLM's alike): a
  fragment ("The user is.", a change that names nothing new: "用户换工作了。"), "the assistant"
  outside a standing rule, an unresolved "it/this" (or "together" with nobody named:
  "用户经常一起出去。"), a question or a request's opening ("Quick one, …"), a pleasantry, a
  momentary state (a mood, a feeling, the body after a long day), someone else's remark about
  the user, a hypothetical, pasted material.

``strip_pasted`` removes pasted material (stack traces, log lines, long pasted passages) from a
turn before it is read. Prompt injection is the poisoning check's (``poisoning``), not this.
Rejections are logged by code only, never with the user's text.
"""

from __future__ import annotations

import re

from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.own_words import own_words
from gateway.learning.steps.statement import REASONS as _STATEMENT_REASONS

__all__ = ["REASONS", "item_reason", "sentence_reason", "strip_pasted"]

REASONS = (
    "question",
    "pleasantry",
    "about-assistant",
    "momentary",
    "plan-today",
    "hypothetical",
    "never-mind",
    "small-talk",
    "pasted",
    "fragment",
    "unresolved-reference",
    "intention",
    *_STATEMENT_REASONS,  # the offline learner's rewrites, read as sentences (``statement``)
)

_CJK = re.compile(r"[\u3400-\u9fff]")

# --- sentences (the user's own words) -----------------------------------------------------------

_EN_QUESTION = re.compile(
    r"\?\s*$|^(?:what|why|how|when|where|who|which|whose|is there|are there|do you|did you|can you|could you"
    r"|would you|will you|have you|should i|should we|can i|could i|do i|does it|is it|any (?:idea|tips)"
    r"|wanna|want to)\b",
    re.IGNORECASE,
)
_ZH_QUESTION = re.compile(
    r"[吗呢么？?]\s*$|^(?:怎么|如何|为什么|为啥|什么|哪|请问|能不能|可不可以|是不是|有没有|你觉得|你知道)"
)
_EN_NEVER_MIND = re.compile(
    r"^(?:never ?mind|nvm|forget it|scratch that|ignore (?:that|this|my last)|disregard that|no worries)\b",
    re.IGNORECASE,
)
# an interjection before a dismissal: "oh never mind", "哦算了"
_EN_INTERJECTION_LEAD = re.compile(
    r"^(?:(?:oh|ah+|uh|um+|hmm+|well|ok(?:ay)?|wait|actually|lol|haha|sorry)\b[\s,!.]*)+", re.IGNORECASE
)
_ZH_INTERJECTION_LEAD = re.compile(r"^(?:哦|噢|喔|啊|呃|嗯|哎|唉|诶|好吧|行吧)+[，,\s～~]*")
_ZH_NEVER_MIND = re.compile(r"^(?:算了|不用了|没事了?|当我没说|忽略(?:吧|上面|刚才)|不管了)")
_EN_SMALL_TALK = re.compile(
    r"^(?:hi|hey|hello|yo|good (?:morning|afternoon|evening|night)|how are you|how(?:'s| is) it going"
    r"|what'?s up|long time no see|nice to (?:meet|see|hear)|good to (?:see|hear)|bye|see you|take care"
    r"|talk (?:soon|later)|ha(?:ha)+|lol|wow|oh|hmm+|ok(?:ay)?|yes|no|yeah|yep|nope|sure|right|true)\b[\s!.,~]*"
    r"(?:\w+[\s!.,~]*){0,2}$",
    re.IGNORECASE,
)
_ZH_SMALL_TALK = re.compile(
    r"^(?:你好|您好|嗨|哈喽|早上好|晚上好|晚安|再见|拜拜|哈哈+|嘿嘿|嗯+|哦+|好的|好吧)[啊呀啦了的！!。.~～]*$"
)
_EN_PLEASANTRY = re.compile(
    r"\b(?:thanks?|thank you|thx|ty|appreciate (?:it|that|you|this)|cheers|congrat\w*|good luck|well done"
    r"|great job|nice job|good job|awesome job|you rock|you(?:'re| are) (?:the best|amazing|awesome|great|a star)"
    r"|that(?:'s| is) (?:so |really |very )?(?:great|awesome|amazing|cool|nice|wonderful|fantastic|lovely|sweet"
    r"|good to hear|inspiring|impressive)|sounds (?:great|good|fun|amazing|lovely)|love (?:it|that|this)"
    r"|glad to hear|happy for you|proud of you|keep (?:it up|going|up the good work)|have a (?:nice|great|good)"
    r"|appreciate(?:s)? (?:the|your|all)|means a lot|so sweet|so kind|you too"
    r"|enjoy|hugs|xoxo)\b",
    re.IGNORECASE,
)
# "Colm is my stage manager, thank heavens": relief said in passing, no thanks to the other party
EN_ASIDE = re.compile(r",?\s*\b(?:thank (?:god|heavens|goodness|the lord)|thankfully)\b(?=\W|$)", re.I)
_ZH_PLEASANTRY = re.compile(r"谢谢|多谢|感谢|辛苦|太棒了|真棒|好厉害|加油|恭喜|祝你|你真好|太好了|不错哦|很有帮助")
# a statement about or to the other party: "you're great", "I'm sure you'll do great", "I hope you …"
_EN_ABOUT_YOU = re.compile(
    r"^(?:you|your|you'(?:re|ve|ll|d))\b|\b(?:i (?:can|could) (?:only )?(?:imagine|see|tell|relate|understand)"
    r"|i (?:totally |completely |really )?(?:agree|understand|get it|hear you|feel you|know what you mean)"
    r"|i bet|same here|me too|i(?:'m| am) sure you|i bet you|i hope you|i know you|i believe"
    r" (?:in )?you|i trust you|i think you|i'm glad you|i am glad you|you must be|you should be proud|with you"
    r"|for you|about you|of you|to you|you guys)\b",
    re.IGNORECASE,
)
_EN_RULE_TO_YOU = re.compile(
    r"\b(?:you (?:should|must|need to|have to)|(?:always|never|please|don't|do not)\b.*\b(?:answer|reply|respond"
    r"|write|use|call|give|show|suggest|recommend|explain|format|include|mention|keep|add|send|ask))",
    re.IGNORECASE,
)
_EN_INTENTION = re.compile(
    r"\b(?:i(?:'ll| will)|we(?:'ll| will)|we(?:'re| are) (?:gonna|going to)(?! (?-i:[A-Z]))"
    r"|i(?:'m| am) (?:gonna|going to)|i(?:'m| am) off to|i can't wait to|i wanna|i want to"
    r"|i(?:'m| am) (?:really )?looking forward to|i(?:'m| am) hoping to)\b",
    re.IGNORECASE,
)
_EN_SHOWING = re.compile(
    r"^(?:here(?:'s| is| are)|check (?:this|it) out|look at|this is (?:a|my|the) (?:pic|photo))", re.I
)
_ZH_ABOUT_YOU = re.compile(
    r"^(?:你|您)(?!们)(?:真|太|好(?![，,！!。]|$)|是|一定|肯定|也|还|最)|相信你|你一定|祝你|希望你|为你|替你"
)
_STATES = (
    r"tired|exhausted|sleepy|hungry|thirsty|bored|busy|swamped|slammed|stressed|anxious|nervous|excited|happy"
    r"|glad|thrilled|stoked|pumped|sad|upset|down|sick|ill|unwell|ok|okay|fine|good|great|well|awesome|grateful"
    r"|thankful|overwhelmed|worried|relieved|curious|amazed|inspired|lucky|blessed|frustrated|annoyed|angry"
    r"|confused|lost|stuck|lonely|homesick|sore|cold|hot|late|ready|done|back|here|so happy|so excited|in a rush"
    r"|running late|feeling \w+|doing (?:well|good|great|fine|okay|ok)|hanging in there|so sorry|sorry|proud"
    r"|impressed|touched|moved|speechless|heartbroken|devastated|glad|finding (?:some )?(?:comfort|peace|joy)"
)
_EN_MOMENTARY = re.compile(
    r"\b(?:i(?:'m| am)|i feel|i(?:'ve| have) been|i was|we(?:'re| are)|i'm feeling|i am feeling|feeling)"
    r"(?: (?:so|really|very|a bit|a little|kind of|kinda|pretty|super|totally|quite|just|feeling|also|too|all))*"
    rf" (?:{_STATES})\b",
    re.IGNORECASE,
)
# "good at chess", "happy with Postgres", "back in Berlin": an ability, a preference, a place
_NOT_A_STATE = re.compile(r"\b(?:good|great|bad|terrible|ok|okay|fine|happy|done|back|lost) (?:at|with|in|on)\b", re.I)
_EN_NOW = re.compile(
    r"\b(?:right now|at the moment|today|tonight|this (?:morning|afternoon|evening)|currently feeling)\b", re.I
)
_ZH_MOMENTARY = re.compile(
    r"(?:今天|现在|刚才|这会儿|最近)?(?:好|有点|有些|很|太|特别|超|真)?(?:累|困|饿|渴|烦|无聊|忙|开心|高兴|难过|伤心|紧张|焦虑|激动|兴奋|郁闷|生气|感冒|不舒服"
    r"|羡慕|嫉妒|感动|害怕|担心|失望|崩溃|尴尬|委屈|后悔|无语|惊讶|好奇|心累|心烦|头疼|开森|难受|纠结|慌)"
    r"(?:了|啊|呀|死了|极了)?$|^(?:我)?(?:今天|现在)(?:心情|状态)"
    # a feeling said with its degree: "气死", "吓死我了", "累得不行", "饿得要命"
    r"|^(?:好|有点|真|快)?[气吓笑累困饿烦疼热冷急愁馋][死疯](?:了|我了|人了|用户了)?$"
    r"|^(?:好|有点|真)?[累困饿烦疼热冷急愁气忙]得(?:不行|要命|要死|半死|够呛|慌)(?:了)?$"
    # "累得腰都直不起来了": a feeling said with what it does to the body
    r"|^(?:好|有点|真)?[累困饿烦疼热冷急愁气忙]得[\u4e00-\u9fff]{2,10}(?:了|啦)$"
)
_EN_PLAN_TODAY = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|later|in a bit|in an hour|right after this|after work"
    r"|tomorrow)\b.*\b(?:going to|gonna|will|'ll|plan to|planning to|need to|have to|want to|about to|heading)\b"
    r"|\b(?:going to|gonna|will|'ll|plan to|planning to|need to|have to|about to|heading)\b.*\b(?:today|tonight"
    r"|this (?:morning|afternoon|evening)|later today|tomorrow)\b",
    re.IGNORECASE,
)
_ZH_PLAN_TODAY = re.compile(r"(?:今天|今晚|明天|待会|等会|一会儿|下午|晚上)(?:要|想|打算|准备|得|去|会)")
_EN_HYPOTHETICAL = re.compile(
    r"^(?:if|what if|suppose|supposing|imagine|say|assuming|hypothetically|in theory|let's say|maybe|perhaps)\b"
    r"|\b(?:i wish|i would (?:love|like) to|i'd (?:love|like) to|i might|i may|i could|would be (?:nice|cool|great)"
    r"|if only|someday|one day i)\b",
    re.IGNORECASE,
)
_ZH_HYPOTHETICAL = re.compile(r"^(?:如果|假如|要是|假设|万一|假若|倘若|或许|也许)|要是能|真希望|但愿")


def sentence_reason(sentence: str) -> str | None:
    """Why one sentence of the user's turn is not a memory, or ``None`` when it may be one."""
    s = sentence.strip().strip("\"'“”")
    if not s:
        return None
    if _CJK.search(s):
        return _chinese_reason(s)
    low = s.lower()
    if _EN_NEVER_MIND.match(low) or _EN_NEVER_MIND.match(_EN_INTERJECTION_LEAD.sub("", low)):
        return "never-mind"  # "never mind", "oh never mind, found it"
    if _EN_QUESTION.search(s):
        return "question"
    if _EN_SMALL_TALK.match(low) and not re.search(r"\b(?:i|i'm|my|we|our)\b", low):
        return "small-talk"
    if _EN_SHOWING.match(s):
        return "small-talk"  # sharing a picture or a link
    if _EN_ABOUT_YOU.search(s) and not _EN_RULE_TO_YOU.search(s):
        return "about-assistant"
    if re.search(r"\b(?:agree|agreed|same|me too|for sure|totally)\W*$", low) or re.search(r"\b\d+% ", low):
        return "about-assistant"  # "100% agree", "for sure": answering the other party
    if re.search(
        r"\b(?:since (?:we|the|our) last (?:chat|talk|spoke)|since we (?:last )?(?:talked|chatted|spoke)"
        r"|a lot(?:'s| has) happened|here(?:'s| is) a (?:pic|photo|picture))\b",
        low,
    ):
        return "small-talk"
    if re.search(r"\btogether\b", low) and re.search(r"\b(?:we|us|let's)\b", low):
        return "about-assistant"  # "together we can make a difference": the user and the other party
    if _EN_PLEASANTRY.search(EN_ASIDE.sub("", s)) and not re.search(r"\b(?:always|never|from now on|prefer)\b", low):
        return "pleasantry"
    if _EN_HYPOTHETICAL.search(s):
        return "hypothetical"
    if _EN_PLAN_TODAY.search(s):
        return "plan-today"
    if _EN_INTENTION.search(s) and not re.search(r"\b(?:always|never|from now on)\b", low):
        return "intention"
    if _EN_MOMENTARY.search(s) and (_EN_NOW.search(s) or not _NOT_A_STATE.search(s)):
        if _EN_NOW.search(s) or len(s.split()) <= 10 or s.endswith("!"):
            return "momentary"
    return None


def _chinese_reason(s: str) -> str | None:
    # a greeting (with its particle: "你好呀～"), then the point
    core = re.sub(r"^(?:你好|您好|嗨|哈喽)+[呀啊哇吖]?[，,！!～~\s]+(?=\S)", "", s.rstrip("。！!.~～ "))
    if _ZH_NEVER_MIND.match(core) or _ZH_NEVER_MIND.match(_ZH_INTERJECTION_LEAD.sub("", core)):
        return "never-mind"  # "算了", "哦算了，我自己查到了"
    if _ZH_QUESTION.search(s) and not re.search(r"[，,；;]", core):
        return "question"  # a question clause after a statement is the clause reader's to drop
    if _ZH_SMALL_TALK.match(core):
        return "small-talk"
    if _ZH_ABOUT_YOU.search(core):
        return "about-assistant"
    if _ZH_PLEASANTRY.search(core) and len(core) <= 20:
        return "pleasantry"
    if _ZH_HYPOTHETICAL.search(core):
        return "hypothetical"
    if _ZH_PLAN_TODAY.search(core):
        return "plan-today"
    if _ZH_MOMENTARY.search(core) and len(core) <= 16:
        return "momentary"
    return None


# --- pasted material ----------------------------------------------------------------------------------

_PASTED_LINE = re.compile(
    r"^\s*(?:Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|at [\w$.]+\([\w$.]*(?::\d+)*\)"
    r"|\w+(?:\.\w+)*(?:Error|Exception|Warning)\b[:\s]|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\[\d{2}:\d{2}(?::\d{2})?\]"
    r"|(?:ERROR|WARN|WARNING|INFO|DEBUG|FATAL|CRITICAL|TRACE)\b[\s:\]]|\$ |> |>>> |#\s*\d+ 0x|[-+]{3} |@@ )",
)
_LONG_LINE = 400
# a writer who types "i" and "My" speaks in the first person too
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|im|ive|(?i:my|we|our|me))\b|(?<![\w'’-])i(?![\w'’-])|我")


def strip_pasted(text: str) -> tuple[str, int]:
    """The turn without pasted material (what the user pasted, quoted or forwarded:
    ``own_words``; stack traces, log lines, long pasted passages that do not speak in the first
    person), and how many such pieces went."""
    text, dropped = own_words(text)
    kept: list[str] = []
    for line in text.splitlines():
        if _PASTED_LINE.match(line) or (len(line) > _LONG_LINE and not _FIRST_PERSON.search(line[:200])):
            dropped += 1
            continue
        kept.append(line)
    return "\n".join(kept), dropped


# --- extracted items ------------------------------------------------------------------------------

_FRAGMENT_END = re.compile(
    r"\b(?:is|are|was|were|be|been|the|a|an|to|of|with|for|and|or|but|their|its|his|her|my|our"
    r"|called|named|from|than|into|started|introducing|getting|doing|being|s|will|can|so|do|does|did"
    r"|thinks|says|feels|knows|reckons|guesses|wonders|starts)\W*$",
    re.IGNORECASE,
)
_CODE = re.compile(r"[{};]|=>|->|::|\(\)|</?\w+>|\b(?:def|return|import|function|const|var|null|None)\b")
# "It is just the user and their partner": a dummy "it", not a reference
_UNRESOLVED_LEAD = re.compile(
    r"^(?:it|this|that|these|those|they|he|she|him|her|them)\b(?!(?:'s| is) (?:just|only|always|usually|never))", re.I
)
_UNRESOLVED_END = re.compile(r"\b(?:it|this|that|these|those|them|one)(?: too| as well| again| anymore)?\W*$", re.I)
_IT = re.compile(
    r"\b(?:it|him)\b(?!(?:'s| is) just)|\bthat (?:word|thing|name|stuff|place|guy)\b|\bsome (?:in|at|on|left)\b"
    r"|\b(?:this|these|those)\b(?! (?:year|month|week|days|summer|winter|spring|autumn|fall))",
    re.I,
)
_ITEM_MODAL = re.compile(
    r"\b(?:could|might|should|would)\b(?! rather)|\bif\b(?! (?:possible|needed|necessary))"
    r"|\bcan (?:really )?(?:make|build|achieve|change|create|help|do|get)\b|\bso important\b|\bwannas?\b",
    re.I,
)
_ZH_UNRESOLVED = re.compile(r"^(?:它|这|那|这个|那个|这些|那些|他们|她们)")
# "用户开头想从…写起", "用户先加索引试试": a plan or a try of this turn, not a fact
_ZH_ITEM_INTENTION = re.compile(r"^[\u4e00-\u9fff]{0,3}?(?:想|打算|准备|计划)(?!念|法|家)|试试|试一下|先.{0,8}看看")
# a routine, or a change of one ("课改到周日下午了", "喂食时间改成六点半了"); a habit said with
# its frequency adverb ("周末经常…", "晚上通常…", "每个周末都…") is one too
_ZH_LASTING = re.compile(
    r"一直|总是|长期|每[天周月年次]|以后|今后|从来|平时|一般|(?:改|调|换|挪|推迟|提前)(?:到|成|为)"
    r"|经常|常常|通常|往往|每个?(?:周末|星期|礼拜)|每逢|基本(?:都|上)"
)
_ZH_TRIP = re.compile(
    r"^(?:用户(?:一家)?)?(?:五一|十一|国庆|春节|过年|清明|端午|中秋|元旦|寒假|暑假|明年|今年|年底|下个月|下半年|\d{1,2}月)"
)
# no "用户" at all, someone else before it, or a denial: the clause is not about the user
_ZH_OTHER_SUBJECT = re.compile(
    r"^(?!.*用户)|^(?:不是|其实|也不|反正|毕竟|好的?|行|嗯|好吧)|^[^用]{0,6}?(?:同事|朋友|老板|领导|客户|邻居|他|她|别人|有人)[^用]{0,4}用户"
)
_ZH_VAGUE = re.compile(r"[去找选]个|一个|哪|什么|近一点|随便")
_ZH_JOKING = re.compile(r"开玩笑|哈哈|乱打|随便说")
# "The user is a 9.": a value with nothing to say what it is
_BARE_VALUE = re.compile(r"^\s*(?:is|are)\s+(?:an?\s+)?[\d.]+\W*$", re.I)
# feelings only: "down to 8 engineers", "back in Berlin", "done with Java" are facts
_FEELINGS = (
    r"tired|exhausted|sleepy|hungry|bored|swamped|stressed|anxious|nervous|excited|thrilled|stoked|pumped|sad"
    r"|upset|sick|unwell|grateful|thankful|overwhelmed|worried|relieved|amazed|inspired|frustrated|annoyed|angry"
    r"|confused|lonely|homesick|sore|proud|impressed|touched|heartbroken|devastated|glad|so happy|so excited"
    r"|stumped|finding (?:some )?(?:comfort|peace|joy)|feeling \w+"
    # the body's state of the moment: wet from the rain, shaking, floating with joy
    r"|scared|terrified|frightened|shaking|shaky|knackered|gutted|chuffed|buzzing|floating|damp|soaked|drenched"
    r"|sweaty|hungover|sunburnt|jet-?lagged|full|stuffed|dying"
)
_ITEM_MOMENTARY = re.compile(
    rf"\b(?:is|are|feels?|was|has been) (?:\w+ ){{0,2}}(?:{_FEELINGS}|jealous|envious|starving|freezing)\b"
    # what the user is doing as they type: "is lying on the couch", "must go, the kettle is boiling"
    r"|\b(?:is|are) (?:just |currently |now |still )?(?:lying|sitting|eating|doing (?:the )?(?:laundry|dishes)"
    r"|watching|drinking|cooking|waiting|heading|chilling|relaxing|getting ready|packing|lounging|napping|resting)\b"
    r"|\b(?:must|has to|have to|needs to|gotta) (?:go|run|dash)\b|\bis off to\b"
    # a mood: "is in a weirdly good mood", "woke up in a foul mood"
    r"|\bin (?:a|such a|the) (?:bit of an? |\w+ ){0,3}mood\b"
    # a reading of the moment: "the user's chain is at 0.75", "the user is at 24 clicks"
    r"|\b(?:is|are) (?:now |currently |still |only )?at (?:about |around )?[\d.,]+(?:\s?%|\s?(?:clicks?|km|kms"
    r"|miles|kg|kgs|lbs?|litres?|liters?|pages?|psi|bar|degrees|percent|mm|steps|calories|kcal))?(?: lol| haha)?\W*$"
    # a near miss of the moment: "almost spilled my coffee on the laptop"
    r"|\b(?:nearly|almost) (?:dropped|fell|cried|lost|broke|missed|crashed|forgot|spilled|spilt|burnt|burned)\b"
    # how the body is after today: "the user's legs are sore", "eyes are tired"
    r"|\b(?:wrists?|hands?|feet|legs?|arms?|back|knees?|shoulders?|eyes|head|brain|neck|fingers?|thumbs?|calves)"
    r" (?:is|are|feel|feels) (?:\w+ ){0,2}(?:dead|greasy|numb|aching|sore|wrecked|killing|fried|mush|jelly|shot|toast"
    r"|done|cold|frozen|filthy|covered)\b"
    # a reply, not a fact: "thinks so too", "guesses", "swears"
    r"|^The user (?:thinks so|guesses|swears|supposes|reckons|agrees)\b|\bthe user (?:guesses|swears)\W*$",
    re.I,
)
# a deadline of this week is no fact about the user
_ITEM_DUE = re.compile(
    r"\bdue (?:on |by |this |next )?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bdue tomorrow\b", re.I
)
# a neighbour's or a friend's own doings, not the user's life
_ITEM_SOMEONE_ELSE = re.compile(
    r"^The user's (?:neighbou?r|friend|roommate|flatmate|classmate)\b"
    r"(?! (?:is|was) (?:called|named)\b)(?! (?-i:[A-Z][a-z]+)\b)(?!.*\bthe user\b)",
    re.I,
)
_ZH_INTERJECTION = re.compile(
    r"^(?:好吧|行吧|好的|好啊|行啊|嗯|哦|对|是的|是啊|哈哈|嘿嘿|呵呵|唉|哎|好|行)+[啊呀吧了的]*$"
)
# an exclamation before the point ("卧槽还有这种操作"), a speech act of this turn ("顺便吐槽一下",
# "跟你汇报一下"), or a bare reply ("习惯了", "知道了"): nothing about the user
_ZH_EXCLAMATION = re.compile(r"^(?:卧槽|我靠|我去|我的天|天哪|天啊|妈呀|哇塞|艾玛|我滴妈|啧)")
_ZH_SPEECH_ACT = re.compile(
    r"^(?:顺便|先|再|跟你|和你|给你|同你|跟您|和您|给您|同您)?(?:吐槽|说|讲|汇报|分享|问|请教|确认|补充|抱怨|显摆|炫耀)"
    r"(?:一下|下|一声|声|两句|几句|[一两二三几]件事)(?:哈|啊|呀|吧)?$"
)
_ZH_BARE_REPLY = re.compile(
    r"^(?:也|都|早就?|已经)?(?:习惯了|还好|还行|没事|知道了|明白了|懂了|收到|了解了?|放心了?|记下了|想通了|搞定了|好多了)$"
)
# "婚庆公司那边对接人是…", "营地那边要实名预订": what another party does or asks, over there
_ZH_OVER_THERE = re.compile(r"^[一-鿿]{1,6}那边")
# "俱乐部群里发了个通知", "家长群里说明天停课": what someone posted in a group chat
_ZH_GROUP_POST = re.compile(r"群里(?:有人)?(?:发|说|通知|讲|吵|问|转)")
# "不用记", "别记着": said to the other party about what to keep
_ZH_DONT_KEEP = re.compile(r"(?:不用|别|不要|无需|不必)(?:帮我)?记")
# "用户练了两年多。": how long, with nothing of what
_ZH_BARE_DURATION = re.compile(
    r"^(?:已经|都)?[一-鿿]{1,2}了(?:[一二两三四五六七八九十\d]+|好几|几)(?:个)?(?:年|月|周|星期|天)(?:多|半)?(?:了)?$"
)
# "用户快两岁了。": a child's or a pet's age whose subject was dropped, not the user's
_ZH_SMALL_AGE = re.compile(r"^(?:快|已经|刚|才|都)?(?:[一二两三四五六七八九]|\d)(?:岁|个月)(?:半|多)?了?$")
# "用户先要样品", "用户把豆子先分装了", "用户回家还要遛狗": this turn's next step, not a fact
_ZH_NEXT_STEP = re.compile(
    r"^先(?![后前天])|^把[^，]{1,8}先|^(?:回家|下班|晚上|待会|等会)(?:还|也)?(?:要|得)"
    # "用户再商量", "再看看吧": left for later
    r"|^(?:到时候)?再(?:说|商量|看|想|聊|议|定|考虑|决定|研究)"
)
# "周四想改成有氧课": a change only wished for is a plan, not a routine's change
_ZH_WISHED_CHANGE = re.compile(r"(?:想|打算|准备|计划)(?:把[^，]{0,6})?(?:改|调|换|挪)")
# "用户希望每次…它都要…": someone else's habit read as the user's wish
_ZH_BARE_VERB = re.compile(
    r"^(?:天天|每天|经常|常常|一直|也|都|还|就|总是|老是|照着|跟着)*[\u4e00-\u9fff](?:了|过|着)?$"
)
_ZH_CROWD = re.compile(r"^(?:游客|路人|大家|别人|人家|顾客|客人|观众|孩子们|娃娃|他们|她们|人们|有人)")
_ZH_OTHERS_HABIT = re.compile(r"^用户希望.*(?:它|他|她)(?!们)(?:都|就|也|总|会|要|又)")
# "用户经常一起出去。": "together" with whom? the other party of "我们" was dropped
_ZH_TOGETHER_WITH_NOBODY = re.compile(r"^(?:经常|常常|总是|也|都|会|可以|就|还|一直|平时)*一起")
# "用户复制的时候带进来的": a "…的" said of something unnamed ("(it) came in when I copied")
_ZH_CLEFT_NO_SUBJECT = re.compile(r"^(?!.*是)[^，]{1,12}[来去进出上下回过到]的(?:，|$)")
# "用户一周两次左右。": how often, with nothing of what
_ZH_BARE_FREQUENCY = re.compile(
    r"^(?:平时|一般|大概|基本)?(?:一|每)(?:周|天|个?月|年)[一二三四五六七八九十两\d]+次(?:左右|多)?$"
)
# "就怕老师问…", "用户感觉用户胖了五斤": a worry or a feeling of the moment about oneself
_ZH_WORRY_OR_SENSE = re.compile(r"^(?:用户)?就怕|^(?:用户)?感觉(?:用户|自己)")
# "用户换工作了。", "用户跳槽了。": a change with nothing of what it is now
_ZH_BARE_CHANGE = re.compile(r"^(?:又|也|刚|已经)?(?:换工作|换了工作|跳槽|转行)(?:了|啦)$")
# "用户小暖。": a name said to the other party, nothing said about the user
_ZH_VOCATIVE = re.compile(r"^(?:小|老|阿)[\u4e00-\u9fff]$")
_ZH_THIRD_LEAD = re.compile(r"^(?:他|她)(?!们)|^说得")
_ZH_REPORTED = re.compile(
    r"^[^用，。]{1,6}(?:说|觉得|认为|讲|嫌)(?:带)?用户"
    # "用户二姨还问用户…": a relative's question or remark about the user
    r"|^用户的?[^，。用]{1,4}?(?:还|也|又|就|总|老是?)?(?:问|说|嫌|夸|骂|笑|催)(?:过|了)?用户"
)
# a time of this day or of these days: what happens then is this turn's news, not a fact
_ZH_THIS_DAY = re.compile(r"中午|早上|晚上|下午|今早|今晚|刚才|刚刚|待会|等会|月底|这周|本周|下周|周末|这个月|过两天")
_ZH_GOING_NOW = re.compile(r"^去[^，。过]{1,6}$")
# "去洗澡了", "正在…", "PPT做完了", "回家了": what the user is doing or has just done
# "周末改成带他去游泳了": what a routine became, not what the user is doing now
_ZH_CHANGED_TO = re.compile(r"(?:改|换|变)(?:成|到|为)")
_ZH_ITEM_NOW = re.compile(
    r"(?:先|要|得)?去[^，。]{1,6}了$|现在还|正在|才能见|就觉得|刚刚?[^，。]{0,6}了$|[做写改弄搞吃]完了$|^回家了$"
)
# "The user will do the shuttle.": what the user means to do next, with no date or habit to it
_ITEM_WILL = re.compile(r"^(?:[^,]{1,30}, )?The user (?:will|is going to|is gonna)\b", re.I)
_DATED = re.compile(
    r"\d|\b(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday|always|every|usually|never|from now on)\b",
    re.I,
)
_ITEM_HYPOTHETICAL = re.compile(r"^(?:if|what if|suppose|imagine)\b|\b(?:would (?:love|like) to|wishes)\b", re.I)


# how a reply or an aside opens; what follows is judged without it
_DISCOURSE_LEAD = re.compile(
    r"^(?:(?:mostly|well|yeah|yep|yes|no|nope|fine|obviously|honestly|basically|anyway|so|oh|ok(?:ay)?|lol|haha"
    r"|right|sure|true|actually|seriously|literally)\b[\s,!.]*)+",
    re.I,
)
# a subordinate clause left without its main clause: "Once the user stopped laughing."
_SUBORDINATE_ONLY = re.compile(
    r"^(?:once|when|whenever|while|although|though|after|before|until|unless|like|as if|as though|just one of)\b"
    r"(?![^,]*,)",
    re.I,
)
# what this turn asks for: "The user needs help with their CV."
_THIS_TURNS_HELP = re.compile(r"^The user (?:needs|wants|would like|is looking for) (?:some |a little )?help\b", re.I)
# "wants that saved", "needs it done": a thing of this conversation, never named
_DEMONSTRATIVE_OBJECT = re.compile(
    r"\b(?:wants?|needs?|has|have|gets?|keeps?)\s+(?:that|this|it)\s+(?:\w+ed|done|gone|fixed|sorted)\b", re.I
)
# a greeting or a name said to the other party before the point ("Morning Juniper, …")
_APOLOGY = re.compile(r"^\W*(?:sorry|apologies|so sorry)\b", re.I)
_WH_INVERTED = re.compile(
    r"^\W*(?:(?:now|so|ok|anyway),?\s+)?(?:where|what|why|how|when|who|which)\s+"
    r"(?:did|do|does|is|are|was|were|can|could|should|would|will|have|has|shall)\s+(?:the user|they|we|you)\b",
    re.I,
)
_GREETING_LEAD = re.compile(r"^(?:(?:good )?(?:morning|evening|afternoon|night)|hi|hey|hello|yo|omg|wow)\b", re.I)
# not literal: "feels like they've been through a mincer", "drinks like pirates"
_SIMILE = re.compile(
    r"\b(?:feels?|felt|looks?|looked|sounds?|drinks?|eats?|sleeps?|spits?|tastes?|acts?|dances?|snores?) like\b", re.I
)
_JOKE_EMOJI = re.compile("[\U0001f602\U0001f923\U0001f606\U0001f605\U0001f61c\U0001f61d\U0001f643\U0001f92a]")
# a reply's question: "The user's turn, what's the favourite colour."
_ITEM_WH = re.compile(r"\b(?:what|which|who|where|how)(?:'s| is| are| do| does)\b", re.I)
# banter about oneself with nothing to hold: "The user is famously terrible."
_ONLY_VERDICT = re.compile(
    r"^The user (?:is|are) (?:\w+ly |so |just |really |pretty )?(?:terrible|awful|rubbish|hopeless|useless|hilarious"
    r"|amazing|awesome|brilliant|lucky|blessed|weird|crazy|mad|nuts|lazy|the worst|the best|a mess|a disaster)\W*$",
    re.I,
)
# a trailing aside without a verb: "…, lots of runners with wrecked knees."
_ASIDE_END = re.compile(
    r",\s*(?:lots of|loads of|tons of|plenty of|a lot of|so many|so much|full of)\b[^,]*$"
    r"|,\s*that(?:'s| is) (?:the|a|so|really|such|pretty|quite)\b[^,]*$",  # "…, that's the real win."
    re.I,
)
# a meal of one day is no event of the user's life: "On 2026-05-02 the user had a curry."
_MEAL = re.compile(
    r"^(?:On|In) [\w\- ]*?\d{4}(?:-\d{2}-\d{2})?,? the user (?:had|ate|drank|ordered|got|grabbed) (?:a |an |some )?"
    r"(?:\w+ ){0,2}(?:takeaway|take-?out|dinner|lunch|breakfast|brunch|pizza|curry|coffee|tea|burgers?|sushi|snacks?"
    r"|noodles|kebab|ice cream|cake|beers?|wine|drinks?)\W*$",
    re.I,
)
# someone else's doings of the moment: "The user's mum is pretending …", "… head chef is moving to Lyon"
_OTHER_DOING = re.compile(
    r"^(?:Meanwhile,? |Also,? |Plus,? )?The user's (?:(?:old|new|former|ex|best) )?(?:mum|mom|dad|mother|father|sister"
    r"|brother|friend|boss|colleague"
    r"|neighbou?r|partner|husband|wife|boyfriend|girlfriend|(?:head )?chef|manager|roommate|flatmate|cousin|aunt"
    r"|uncle|gran|grandma|grandad|grandpa|son|daughter|kids?)\b(?: (?-i:[A-Z][a-z]+))? (?:is|are) "
    r"(?!called|named|getting married|turning|expecting|studying|learning|working|living|attending|training"
    r"|dating|retiring|teaching|running|serving)\w+ing\b",
    re.I,
)
# "In the user's setup, clients pay.", "In the user's setup, 3.4kg, loud as anything.": the
# rewrite of a terse statement that held no attribute
_SETUP_EMPTY = re.compile(
    r"^In the user's setup, (?:\S+ ){0,1}\S+\W*$|^In the user's setup, [\d.,]+\s?[a-z]{0,3}(?:,| of\b)", re.I
)


# "Quick one, a weekend in Oslo, …": what follows such an opening is the request of this turn
_REQUEST_OPENING = re.compile(
    r"^(?:quick|small|random|silly|dumb|stupid|weird|another)\s+(?:one|question|q|thing|query)\b", re.I
)


def _casual_reason(content: str) -> str | None:
    """Casual chat's leftovers: a reply's opening, a fragment, a joke, banter, someone else's day."""
    if _REQUEST_OPENING.match(content):
        return "question"
    rest = _DISCOURSE_LEAD.sub("", content).strip()
    if rest != content and rest:
        if _UNRESOLVED_LEAD.match(rest):
            return "unresolved-reference"  # "Obviously, he's the user's tortoise not hers."
    if _SUBORDINATE_ONLY.match(rest):
        return "fragment"
    if _THIS_TURNS_HELP.match(content) and not re.search(r"\b(?:every|always|usually|often)\b", content, re.I):
        return "plan-today"  # "The user needs help with their CV.": what this turn asks for
    if _GREETING_LEAD.match(content) or _APOLOGY.match(content):
        return "small-talk"  # a greeting, or "sorry the user has been quiet"
    if _WH_INVERTED.match(content) or re.search(r"\b(?:is|are) an? any\b", content):
        # "Where did the user pack the teapot...", "…an any good opener for …": the question mark left out
        return "question"
    if _SIMILE.search(content) or _JOKE_EMOJI.search(content) or _ONLY_VERDICT.match(content):
        return "small-talk"
    if _ITEM_WH.search(content) and not re.search(r"\bthe user\b.*\b(?:knows?|likes?|loves?)\b", content, re.I):
        return "question"
    if _ASIDE_END.search(content) or _OTHER_DOING.match(content):
        return "small-talk"
    if _SETUP_EMPTY.match(content):
        return "fragment"
    if _DEMONSTRATIVE_OBJECT.search(content):
        return "unresolved-reference"
    if _MEAL.match(content):
        return "small-talk"
    return None


# a script the learner does not read: the item comes from text in another language
_FOREIGN_SCRIPT = re.compile(r"[\u3040-\u30ff\uac00-\ud7af\u0400-\u04ff\u0600-\u06ff]")


# what the user fears, suspects or hopes is so: the feeling of a moment about something else
_ITEM_GUESS = re.compile(
    r"^The user (?:fears|worries|suspects|guesses|reckons|supposes|doubts|bets|wonders|hopes|is afraid|is worried)"
    r"\b(?! (?:about|of|to)\b)",
)
_ZH_MOOD = re.compile(
    r"心情(?:一直|天天|每天|总是)?(?:超|很|特别|挺|非常|还|有点|不太?)?(?:好|差|不错|糟|美丽|低落|烂)"
)


def item_reason(item: KnowledgeItem) -> str | None:
    """Why an extracted item is not a memory, or ``None`` when it may be stored."""
    content = item.content.strip()
    if len(_FOREIGN_SCRIPT.findall(content)) >= 3:
        return "pasted"  # "用户今週の進捗を報告します。": another language's text, not the user's
    if _CJK.search(content):
        return _chinese_item_reason(item, content)
    casual = _casual_reason(content) if item.kind != "rule" else None
    if casual is not None:
        return casual
    body = re.sub(r"^(?:On|In) (?:the week of )?[\w\- ]*?\d{4}(?:-\d{2}-\d{2})?,? ", "", content)
    words = re.findall(r"[\w'’+#.-]+", re.sub(r"^The user(?:'s)?\b", "", body))
    predicate = re.sub(r"^The user(?:'s)?\b", "", body)
    if len(words) < 2 or _FRAGMENT_END.search(body.rstrip(".!")) or "Piiplaceholder" in content:
        return "fragment"  # "The user sees.", "The user is.", or a name the scrubber took
    if _BARE_VALUE.match(predicate):
        return "fragment"  # "The user sees.", "The user is.", or a name the scrubber took
    if content.endswith("?"):
        return "question"
    if "the assistant" in content.lower() and item.kind != "rule" and not content.startswith("The user wants"):
        return "about-assistant"
    if re.match(r"^Together\b", content):
        return "about-assistant"  # the user and the other party
    if content.endswith("!") or _EN_PLEASANTRY.search(content):
        return "pleasantry"
    body = re.sub(r"^In the user's setup, ", "", body)
    trailing = "," not in body and _UNRESOLVED_END.search(body.rstrip(".!"))  # "hashtags, never add them"
    if _UNRESOLVED_LEAD.match(body) or trailing:
        return "unresolved-reference"
    if item.kind != "rule" and _IT.search(body.split(",")[0] if "," in body else body):
        return "unresolved-reference"
    if _ITEM_DUE.search(content):
        return "plan-today"
    if item.kind != "rule" and _ITEM_SOMEONE_ELSE.match(content):
        return "small-talk"
    if _ITEM_GUESS.match(content):
        return "momentary"  # "The user fears the committee politics became tiresome": a guess or a worry
    if item.kind != "episode" and (_EN_NOW.search(content) or _ITEM_MOMENTARY.search(content)):
        if not re.search(r"\b(?:always|usually|every|generally|prefers?|likes?|wants)\b", content, re.I):
            return "momentary"
    if item.kind not in {"rule", "preference"} and _ITEM_WILL.match(content) and not _DATED.search(content):
        return "intention"
    if _ITEM_HYPOTHETICAL.search(body) or (item.kind not in {"rule", "preference"} and _ITEM_MODAL.search(body)):
        return "hypothetical"
    if len(content) > 600 or len(_CODE.findall(content)) >= 3 or re.search(r"\[[^\]]{8,}\]", content):
        return "pasted"  # code, or a bracketed caption or placeholder text
    return None


def _chinese_item_reason(item: KnowledgeItem, content: str) -> str | None:
    body = re.sub(r"^(?:用户(?:的|希望|一家)?|\d{4}年\d{1,2}月(?:\d{1,2}日)?)", "", content.rstrip("。！!"))
    if len(re.sub(r"[^\w]", "", body)) < 2:
        return "fragment"
    if content.startswith("用户") and not _CJK.search(body):
        return "pasted"  # "用户Nowadays。": "用户" put before text in another language
    if _ZH_INTERJECTION.match(body) or _ZH_VOCATIVE.match(body) or re.match(r"^[\u4e00-\u9fff]{1,3}着$", body):
        return "small-talk"  # "用户好吧好吧。"
    bare = re.sub(r"[^\w]+$", "", body)  # "气死😤": the feeling without its emoji
    if _ZH_EXCLAMATION.match(body) or _ZH_SPEECH_ACT.match(bare) or _ZH_BARE_REPLY.match(bare):
        return "small-talk"
    if (_ZH_OVER_THERE.match(body) or _ZH_GROUP_POST.search(body)) and item.kind != "rule":
        return "small-talk"  # another party's doing or asking
    if _ZH_DONT_KEEP.search(body):
        return "about-assistant"
    if _ZH_BARE_DURATION.match(bare) or _ZH_SMALL_AGE.match(bare) or _ZH_BARE_VERB.match(bare):
        return "fragment"  # "用户天天做。": a doing with nothing done
    if _ZH_CROWD.match(body):
        return "small-talk"  # "用户游客挤来挤去。": other people's doing, "用户" put before it
    if item.kind != "episode" and (
        _ZH_MOMENTARY.search(bare) or _ZH_MOMENTARY.search(bare.split("，")[0]) or _ZH_MOOD.search(bare)
    ):
        return "momentary"  # "用户气死😤", "用户有点担心，她又…"
    if item.kind not in {"rule", "preference"} and _ZH_NEXT_STEP.search(body):
        return "intention"
    if _ZH_THIRD_LEAD.match(content) or _ZH_REPORTED.match(content) or _ZH_OTHERS_HABIT.match(content):
        return "small-talk"  # someone else's doing or saying: "他的活都堆到…", "小雨说用户…"
    if content.rstrip("。 ").endswith(("？", "?", "吗", "呢")):
        return "question"
    if "助手" in content and item.kind != "rule" and not content.startswith("用户希望"):
        return "about-assistant"
    if _ZH_PLEASANTRY.search(content):
        return "pleasantry"
    if _ZH_UNRESOLVED.match(body) or (content.startswith("用户") and _ZH_TOGETHER_WITH_NOBODY.match(body)):
        return "unresolved-reference"
    if content.startswith("用户") and _ZH_CLEFT_NO_SUBJECT.match(body):
        return "unresolved-reference"
    if _ZH_BARE_CHANGE.match(body) or _ZH_BARE_FREQUENCY.match(body):
        return "fragment"
    if _ZH_WORRY_OR_SENSE.match(content):
        return "momentary"
    trip = _ZH_TRIP.match(content)
    if not trip and not re.match(r"^(?:用户|\d{4}年)", content) and _ZH_OTHER_SUBJECT.match(content):
        return "fragment"  # a clause about something else ("同事在用户电脑上…", "其实上次…")
    if _ZH_JOKING.search(body):
        return "small-talk"
    if item.kind not in {"rule", "preference"} and _ZH_ITEM_INTENTION.search(body) and "，" not in body:
        # a holiday trip to a named place is the user's plan ("五一想带父母去云南"); a vague one
        # asking for ideas ("端午想去个近一点的海边") or a plan for this chapter is not
        lasting = _ZH_LASTING.search(body) and not _ZH_WISHED_CHANGE.search(body)
        if not lasting and not (trip and not _ZH_VAGUE.search(body)):
            return "intention"
    if item.kind != "episode" and (_ZH_MOMENTARY.search(body) or re.search(r"今天|此刻|这会儿", body)):
        return "momentary"
    if item.kind != "episode" and not _ZH_LASTING.search(body):
        if _ZH_THIS_DAY.search(body) or _ZH_GOING_NOW.match(body):
            return "momentary"  # "用户中午食堂有芒果布丁", "用户月底要上线新功能", "用户去睡个午觉"
    if item.kind != "episode" and _ZH_ITEM_NOW.search(body.rstrip("。")) and not _ZH_CHANGED_TO.search(body):
        return "momentary"
    if _ZH_HYPOTHETICAL.search(body):
        return "hypothetical"
    if len(content) > 400 or len(_CODE.findall(content)) >= 3:
        return "pasted"
    return None
