"""Sensitive details about other people are not the user's to store.

Health, religion, sexuality, criminal records and similar special categories of personal data
about a *third party* ("my colleague has cancer", "我妈妈有糖尿病") are never memories: the
person they describe did not consent. The user's own stated health, diet or allergies stay
facts ("The user is allergic to peanuts."), and so does a pet's ("Pepper is allergic to fish"
said of the user's dogs). A clause is rejected when it names such a detail and a third party (a
relation, a cousin or in-law, a colleague or friend, he/she, a person's name) together.
``without_third_party_details`` also drops what goes on about that person: a Chinese clause with
no subject of its own after it ("…是基督徒，周日要去…", read from jieba's tags, not a word list), an
English one that goes on with he/she, and someone's standing "on" something said with a bare noun
("my uncle is on chemo", "was on parole"), whatever the noun.
"""

from __future__ import annotations

import re

__all__ = ["REASON", "third_party_sensitive", "without_third_party_details"]

REASON = "third-party-sensitive"

_SENSITIVE_EN = re.compile(
    r"\b(?:cancer|tumou?rs?|chemo\w*|leuka?emia|diabet\w+|depress(?:ion|ed)|anxiety|bipolar|schizophren\w*|adhd"
    r"|autis\w+|dementia|alzheimer'?s|parkinson'?s|hiv|aids|hepatitis|had a stroke|heart (?:attack|condition|disease)"
    r"|surgery|hospitali[sz]ed|in (?:the )?hospital|pregnan\w*|miscarriage|diagnos\w*|illness|disease|disorder"
    r"|medication|meds|pills|dizzy|dizziness|therapy|therapist|physio\w*|rehab|addict\w*|poison(?:ed|ing)"
    r"|intensive care|icu|insulin|dialysis"
    r"|(?:hip|knee) replacement|transplant|alcoholic|epilep\w*|asthma|allerg\w*|disabilit\w*|disabled"
    r"|mental health|infertil\w*|ivf|terminally|chronic(?:ally)? ill|sick|ill|anxious|panic attacks?"
    r"|psychiatri\w*|psycholog(?:ist|ists)|counsell?(?:ing|or)|suicid\w*|self-harm\w*|eating disorder"
    r"|muslim|christian|catholic|protestant|jewish|hindu|buddhist|sikh|atheist|religio\w*|church|mosque|synagogue"
    # a faith said as what someone is ("is Jain", "a Mormon"): "Jain" alone is also a surname
    r"|(?:(?:is|are|was|were|'s|'re|a|an|as)\s+(?:an?\s+)?(?:devout\s+|practi[sc]ing\s+|strict\s+)?)(?:jains?|jaina)"
    r"|jainism|mormons?|latter-day saints?|quakers?|jehovah'?s witness(?:es)?|taoists?|taoism|shinto|wiccans?"
    r"|zoroastrians?|baha'?is?|rastafarians?|evangelicals?|pentecostals?|orthodox (?:jews?|jewish|christians?)"
    r"|pagans?|baptists?|methodists?|lutherans?|anglicans?|agnostics?|keeps? kosher|prays?|praying|ramadan"
    r"|gay|lesbian|bisexual|transgender|queer|homosexual|sexual\w*|came out|non-binary"
    r"|criminal record|arrested|in prison|in jail|convicted|political views|votes? for"
    # a condition named by its medical ending ("osteoporosis", "arthritis", "anaemia", "melanoma"),
    # a common noun: a capitalised name with that ending is a place ("Tacoma", "Oklahoma")
    r"|(?!(?:diploma|aroma|sympathy|empathy)s?\b)(?-i:[a-z])\w{2,}(?:osis|itis|aemia|emia|oma|pathy|plegia)"
    r"|syndrome|sclerosis|palsy"
    # how someone's body gets around: a wheelchair, a walking stick, legs that no longer carry them
    r"|wheelchairs?|walking stick|walker|crutches|mobility (?:issues?|problems?|aids?|scooter)|can(?:no|')t walk"
    r"|blind|deaf|paralys\w+|amputee)\b",
    re.IGNORECASE,
)
_SENSITIVE_ZH = re.compile(
    r"癌|肿瘤|化疗|白血病|糖尿病|抑郁|焦虑症|精神病|精神疾病|自闭症|多动症|痴呆|阿尔茨海默|帕金森|艾滋|乙肝|肝炎|中风"
    r"|心脏病|高血压|手术|住院|怀孕|流产|确诊|生病|病了|疾病|吃药|服药|治疗|残疾|过敏|哮喘|癫痫|不孕|痛风"
    r"|血糖|血压|血脂|胆固醇|尿酸|三高|中毒|ICU|重症|急诊|抢救|透析|胰岛素|化验|[肝肾心肺]功能|康复训练|理疗|复健"
    r"|心理医生|心理咨询|心理治疗|精神科|看医生|自杀|自残|厌食|暴食"
    r"|[\u4e00-\u9fff]{1,3}(?:症|炎|癌|瘤|疹)(?![状])"
    r"|腿脚不|行动不便|轮椅|拄拐|瘫痪|失明|失聪|耳聋|结石|骨折|脑梗|心梗"
    r"|信佛|佛教|基督|天主教|穆斯林|伊斯兰|犹太教|信教|宗教|做礼拜|教会|东正教|道教|耆那教|摩门教|锡克教|印度教|吃斋|斋月"
    r"|同性恋|双性恋|跨性别|出柜|性取向|坐牢|前科|被捕|犯罪记录"
)
_THIRD_EN = re.compile(
    r"\b(?:daughter|son|child|children|kids?|baby|sister|brother|sibling|cousin|niece|nephew|grand\w+|aunt|uncle"
    r"|wife|husband|partner|spouse|fianc\w*|girlfriend|boyfriend|mother|mom|mum|father|dad|parents?|in-laws?"
    r"|colleague|coworker|co-worker|boss|manager|teammate|cofounder|co-founder|employee|friend|neighbou?r|roommate"
    r"|flatmate|client|customer|patient|he|she|his|her|him)\b",
    re.IGNORECASE,
)
# the commonest surnames, for a person called by one ("老刘", "张姐")
_SURNAME = (
    "[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤]"
)
_THIRD_ZH = re.compile(
    r"老伴|爱人|媳妇|对象|伴侣|妈妈|爸爸|母亲|父亲|老妈|老爸|[我他她]妈|[我他她]爸|[我他她][哥姐弟妹]|老婆|妻子|太太|老公|丈夫|女儿|儿子|孩子|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷"
    r"|舅舅|阿姨|叔叔|婆婆|公公|岳母|岳父|同事|朋友|老板|领导|邻居|客户|室友|闺蜜|好友|发小|他|她|佢"
    # the wider family and the people around: cousins (表哥, 堂妹), in-laws, classmates
    r"|[表堂][哥姐弟妹兄]|侄[子女]|外甥|孙[子女]|嫂子|弟媳|姐夫|妹夫|姑[姑妈父]|姨[妈父夫]|小姨|舅妈|伯伯|大伯|婶婶"
    r"|[二三四五六大小]姨|[二三四大小]舅|[二三四大小]叔|亲戚|家人|男友|女友|未婚[夫妻]|前任|同学|学生|病人|病友|家长"
    # a person called by surname: "老刘", "小王", "张姐", "李老师", "孙总"
    rf"|[老小]{_SURNAME}(?![区时点了学])|{_SURNAME}(?:哥|姐|叔|姨|阿姨|老师|总|工|师傅|医生|大爷|大妈|奶奶|爷爷|老板)"
    # or met through a team or club
    r"|队友|球友|车友|教练|师傅|队长|队里"
)
# an animal's health is no person's: "Pepper is allergic to fish" in a sentence about the dogs
_PET_EN = re.compile(
    r"\b(?:dogs?|cats?|pupp(?:y|ies)|kittens?|pets?|rabbits?|bunn(?:y|ies)|hamsters?|guinea pigs?|parrots?|budgies?"
    r"|horses?|ponies|pony|tortoises?|beagles?|greyhounds?|terriers?|spaniels?|labradors?|retrievers?|poodles?"
    r"|collies?|vets?|kibble)\b",
    re.IGNORECASE,
)
_PEOPLE_EN = re.compile(
    r"\b(?:daughter|son|child|children|kids?|baby|sister|brother|sibling|cousin|niece|nephew|grand\w+|aunt|uncle"
    r"|wife|husband|partner|spouse|fianc\w*|girlfriend|boyfriend|mother|mom|mum|father|dad|parents?|in-laws?"
    r"|colleague|coworker|co-worker|boss|manager|teammate|friend|neighbou?r|roommate|flatmate|client|customer|patient"
    r"|man|woman|lady|guy|people|person)\b",
    re.IGNORECASE,
)


def _about_a_pet(sentence: str) -> bool:
    return bool(_PET_EN.search(sentence)) and not _PEOPLE_EN.search(sentence)


_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
_NOT_NAMES = {
    "The", "User", "They", "Their", "Christian", "Catholic", "Muslim", "Jewish", "Hindu", "Buddhist", "Sikh",
    "Jain", "Jains", "Quaker", "Mormon", "Taoist", "Evangelical", "Pentecostal", "Orthodox", "Jehovah", "Witness",
    "Wiccan", "Zoroastrian", "Rastafarian", "Atheist", "Pagan", "Baptist", "Methodist", "Lutheran", "Anglican",
}  # fmt: skip
_CLAUSES = re.compile(r"[,;，；。.!?！？]|\b(?:and|but|because|since|who|whose|which)\b")


def third_party_sensitive(text: str) -> str | None:
    """``REASON`` when ``text`` tells a health, religious, sexual or similar detail about
    someone other than the user, else None."""
    for clause in _CLAUSES.split(text):
        if _SENSITIVE_EN.search(clause) and not _about_a_pet(text):
            names = [n for n in _NAME.findall(" " + clause.strip()) if n not in _NOT_NAMES]
            if _THIRD_EN.search(clause) or names:
                return REASON
        if _SENSITIVE_ZH.search(clause) and _THIRD_ZH.search(clause):
            return REASON
    # "the user's mother, who was diagnosed …", "Jo wants to start lifting, she's 58 and has
    # osteoporosis": the person and the detail in two clauses of one sentence
    sentences = re.split(r"(?<=[.!?。！？])\s*", text)
    for sentence in sentences:
        for clause in _CLAUSES.split(sentence):
            if (
                _SENSITIVE_EN.search(clause)
                and not _THE_USER.search(clause)
                and _THIRD_EN.search(sentence)
                and not _about_a_pet(sentence)
            ):
                return REASON
            if _SENSITIVE_ZH.search(clause) and "用户" not in clause and _THIRD_ZH.search(sentence):
                return REASON
    return None


# the detail is the user's own: "the user has asthma", "I was diagnosed"
_THE_USER = re.compile(r"\b(?:the user|user|I|I'm|I've|me|my)\b", re.I)


_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|mine)\b|我")
_LINE_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
# where a clause ends: punctuation, a joining word, or a space between Chinese clauses
_CLAUSE_BREAK = re.compile(
    r"([,;，；]\s*|\s+(?:and|but|because|since|so|who|whose|which)\s+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff]))"
)


def without_third_party_details(text: str) -> tuple[str, int]:
    """``text`` without the clauses that tell someone else's health, religion or similar
    detail, and how many went; the rest of the sentence stays ("my dad is moving in, he can't
    walk far, so the bathroom needs grab bars" keeps the move and the grab bars)."""
    removed = 0
    lines = []
    for line in text.split("\n"):
        if not (_SENSITIVE_EN.search(line) or _SENSITIVE_ZH.search(line) or _ON_SOMETHING.search(line)):
            lines.append(line)
            continue
        sentences = []
        for sentence in _LINE_SENTENCES.split(line):
            pieces = _CLAUSE_BREAK.split(sentence)
            kept: list[str] = []
            dropped = False  # the clause before went: one that goes on without a subject is still theirs
            for k in range(0, len(pieces), 2):
                clause = pieces[k]
                goes_on = dropped and (_zh_goes_on(clause) or _EN_HE_SHE.match(clause) is not None)
                if _third_party_clause(clause, sentence, line) or _others_standing(clause) or goes_on:
                    removed += 1
                    dropped = True
                    continue
                dropped = False
                if kept and k > 0:
                    kept.append(pieces[k - 1])
                kept.append(clause)
            sentences.append("".join(kept).strip())
        line = ""
        for sentence in (s for s in sentences if s):
            line += sentence if not line or line[-1] in "。！？" else " " + sentence
        lines.append(line)
    return "\n".join(lines), removed


# "老刘有高血压，最近不太敢拉高强度": a Chinese clause that goes on without a subject of its own
# ("…，她坐轮椅，所以门要加宽": a consequence has its own subject and stays)
_ZH_GOES_ON = re.compile(r"^(?:最近|一直|现在|平时|也|还|又|都|不|没|总|老是|经常)(?![^，,]*[我们])")
# someone's standing "on" something, said with a bare noun ("is on chemo", "was on parole", "is on
# benefits"): a treatment, a sentence or a benefit of theirs, whatever the word; "on the board",
# "on Slack" (a determiner, a name) is a membership or a place
_STANDING_EN = re.compile(
    r"^\s*(?P<subj>(?:[\w'-]+\s+){0,3}?[\w-]+)(?:\s+(?:is|was|are|were|has been|had been)|\s*['’]s)"
    r"\s+(?:still\s+|now\s+)?on\s+"
    r"(?!(?:the|a|an|my|his|her|their|our|its|this|that|your|board|time|track|top|it|holiday|leave|call|duty|nights"
    r"|days|shift|site|foot)\b)(?-i:[a-z])[a-z-]+",
    re.I,
)
_ON_SOMETHING = re.compile(r"\b(?:is|was|are|were|'s|been)\s+(?:still\s+|now\s+)?on\s+[a-z]", re.I)
_PERSON_SUFFIX = re.compile(r"\b\w{3,}(?:lord|lady|mate|ist|ian)\b", re.I)
# a clause that goes on with "he" or "she": about the one the clause before spoke of
_EN_HE_SHE = re.compile(r"^\s*(?:he|she)\b", re.I)


def _others_standing(clause: str) -> bool:
    """Someone else's standing on something (``_STANDING_EN``): the subject is a relation, a
    person, or a name, not the user."""
    m = _STANDING_EN.match(clause)
    if m is None:
        return False
    subject = m.group("subj")
    if re.search(r"\b(?:I|we|you|me)\b", subject, re.I):
        return False
    named = [n for n in _NAME.findall(" " + subject) if n not in _NOT_NAMES]
    return bool(_THIRD_EN.search(subject) or _PEOPLE_EN.search(subject) or _PERSON_SUFFIX.search(subject) or named)


_ZH_OWN_SUBJECT = {"我", "我们", "咱们", "咱", "用户", "自己"}
# what a clause may open with before its verb and still have no subject: a time ("周日",
# "每天", "初一十五"), an adverb, a number, a conjunction ("所以要…")
_ZH_BEFORE_VERB = {"t", "d", "f", "m", "mq", "q", "c", "tg", "dg"}


def _zh_goes_on(clause: str) -> bool:
    """A Chinese clause with no subject of its own ("周日要去…", "每天要打…", "在医院住着"): it goes
    on about the one before it, whatever it names; one that names the user ("我每周…") does not."""
    from gateway.learning.offline import chinese

    if _ZH_GOES_ON.match(clause):
        return True
    words = [(w, f) for w, f in chinese.tagged(clause.strip()) if w.strip() and w not in "，,。！？!?"]
    if not words or any(w in _ZH_OWN_SUBJECT for w, _ in words):
        return False
    rest = [(w, f) for w, f in words if not (f in _ZH_BEFORE_VERB or w.startswith("每"))]
    if not rest:
        return False
    if rest[0][1].startswith("n") and len(rest) > 1:
        # "走路很慢", "腿脚不好": a property of the one before, said of a part or a doing of theirs
        after = [f for _, f in rest[1:] if f not in {"zg", "d"}]
        return bool(after) and after[0] == "a"
    return rest[0][1].startswith("v") or rest[0][1] == "p"


def _third_party_clause(clause: str, sentence: str, line: str) -> bool:
    """Whether ``clause`` tells a sensitive detail of someone other than the user (``line``, the
    text around it, says whether the one it speaks of is a pet)."""
    if _SENSITIVE_EN.search(clause):
        if _about_a_pet(sentence) or (_about_a_pet(line) and not _THIRD_EN.search(clause)):
            return False
        mine = _FIRST_PERSON.search(clause) is not None
        names = [n for n in _NAME.findall(" " + clause.strip()) if n not in _NOT_NAMES]
        return bool(_THIRD_EN.search(clause)) or (not mine and (bool(names) or bool(_THIRD_EN.search(sentence))))
    if _SENSITIVE_ZH.search(clause):
        return bool(_THIRD_ZH.search(clause)) or ("我" not in clause and bool(_THIRD_ZH.search(sentence)))
    return False
