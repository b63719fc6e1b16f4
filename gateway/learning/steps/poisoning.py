"""Memory-poisoning check: a text that tries to steer the assistant is never a memory.

A memory is injected into later prompts (and, once promoted, into other users' prompts), so
an item that steers the assistant — overrides its instructions, reveals its prompt, gives it
a new role, pushes a vendor on everyone, sends secrets or links somewhere, fakes a system or
developer message — would become a standing prompt injection. Such items are rejected. A
preference stated by or about the user ("The user wants answers in Chinese", "I always
recommend Fastmail to my clients", "以后回答我都用中文") is not steering and stays allowed.

The rules look for what an attack must say (an override verb near an instruction noun, a
reveal verb near the prompt, everyone as the audience, a secret near a destination), not
for fixed phrases, and they read the text several ways so obfuscation does not hide it:
look-alike letters, zero-width characters, spaced, dotted or hyphen-split letters,
leetspeak and base64 payloads.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata

from gateway.learning.steps.steering_concepts import steering_concept

_W = r"(?:^|(?<=[^a-z0-9]))"  # an English rule starts at a word
# a window never crosses the end of a sentence (a URL keeps its dots and its query string)
_CLAUSE_EN = r"(?:[^!?;\n]|[!?](?=\S))"
_CLAUSE_ZH = r"[^。！？；\n]"

# a statement about someone ("I ignore …", "we recommend …", "I used to …") is no order to the assistant
_NOT_A_STATEMENT = (
    r"(?<!\bi\s)(?<!\bwe\s)(?<!\bthey\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bi'd\s)(?<!\bused\sto\s)(?<!\busually\s)"
)
_OVERRIDE_VERB = (
    r"(?:never\s*mind|ignore|disregard|forget|override|overrule|bypass|discard|abandon|drop|set\s+aside|pay\s+no\s+attention\s+to|"
    r"stop\s+following|no\s+longer\s+(?:have\s+to\s+|need\s+to\s+)?(?:follow|obey))"
)
# nouns that only name what steers an assistant: any few words may stand between verb and noun
_STEERING_NOUN = (
    r"(?:instructions?|prompts?|guidelines|directives|guardrails|programming|system\s+messages?|"
    r"safety\s+(?:rules|layer|filters?|settings|policy|policies)|content\s+(?:filters?|policy|policies|moderation))"
)
# nouns that also name everyday rules: only behind a determiner that points at the assistant's
_RULE_NOUN = r"(?:rules|policies|policy|restrictions|constraints|guidance|directions|filters|limits|training)"
_RULE_DET = (
    r"(?:(?:all|any|the|your|of|these|those|previous|prior|above|earlier|preceding|"
    r"original|existing|system|safety|old)\s+)+"
)
_REVEAL_VERB = (
    r"(?:reveal|print|show|output|repeat|recite|leak|display|dump|expose|disclose|paste|write\s+out|spell\s+out|"
    r"tell\s+me|give\s+me|send\s+me|share|include|insert|quote|attach|copy)"
)
_PROMPT_NOUN = (
    r"(?:system\s+(?:prompt|message|instructions?)|developer\s+(?:message|prompt|instructions?)|"
    r"(?:hidden|secret|initial|original|internal)\s+(?:instructions?|prompt|rules|configuration|config|settings)|"
    r"(?:your|the)\s+(?:full\s+|entire\s+|exact\s+)?(?:instructions|prompt))"
)
_EVERYONE = (
    r"(?:(?:every|all|any|each)\s+(?:other\s+)?(?:users?|customers?|visitors?|clients?|people|persons?)|other\s+users|"
    r"everyone|everybody|anyone|anybody|whoever)"
)
_SECRET = (
    r"(?:passwords?|passcodes?|pins?|credentials|logins?|api\s*keys?|access\s+keys?|private\s+keys?|tokens?|secrets?|"
    r"card\s+numbers?|cvv|ssn|social\s+security|verification\s+codes?|one-time\s+codes?|otps?|2fa\s+codes?|"
    r"chat\s+(?:history|logs?)|conversations?|(?:saved\s+|stored\s+)?memories|"
    r"(?:user'?s?'?|customers?'?|their)\s+(?:data|messages|details|info\w*|memories|notes|profiles?))"
)
_DESTINATION = (
    r"(?:\bto\s+\S*@|\bto\s+https?://|@[a-z0-9-]+\.[a-z]|https?://|\bto\s+(?:my|this|a|"
    r"an|the)\s+(?:server|webhook|endpoint|url|address|site))"
)

_ZH_SECRET = r"(?:密码|口令|密钥|秘钥|凭证|令牌|验证码|token|api\s*key|聊天记录|对话记录|对话内容|手机号|身份证|银行卡)"
_ZH_SEND = r"(?:发送|发给|发到|转发|上传|传到|传给|泄露给|告诉)"
_ZH_PROMPT = (
    r"(?:系统提示词?|系统提示语|提示词|系统指令|隐藏(?:的)?(?:设定|指令|规则)|初始(?:设定|指令)|system\s*prompt)"
)

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern))
    for reason, pattern in (
        # --- instruction override
        (
            "instruction override",
            rf"{_W}{_NOT_A_STATEMENT}{_OVERRIDE_VERB}\s+(?:[\w'’-]+\s+){{0,4}}?{_STEERING_NOUN}\b",
        ),
        (
            "instruction override",
            rf"{_W}{_NOT_A_STATEMENT}(?:{_OVERRIDE_VERB}|overlook|skip|do\s+not\s+follow|don't\s+follow)\s+{_RULE_DET}"
            rf"(?:{_RULE_NOUN}|{_STEERING_NOUN})\b",
        ),
        (
            "instruction override",
            rf"{_W}(?:disregard|forget|ignore)\s+(?:everything|all|anything|whatever)\b{_CLAUSE_EN}{{0,30}}?"
            r"(?:\byou(?:'ve|\s+were|\s+have\s+been|\s+are|\s+got)\s+(?:told|given|instructed)|\babove\b|\b(?:before|prior\s+to)\s+this\b)",
        ),
        (
            "instruction override",
            rf"{_W}(?:(?:previous|prior|earlier|above|old|original|your)\s+(?:instructions|rules|guidelines)\s+"
            r"(?:no\s+longer|do\s+not|don't)\s+apply|new\s+(?:instructions?|rules|policy)\s*:)",
        ),
        # --- revealing the prompt
        ("system prompt exfiltration", rf"{_W}{_REVEAL_VERB}\b{_CLAUSE_EN}{{0,40}}?{_PROMPT_NOUN}"),
        (
            "system prompt exfiltration",
            rf"{_W}(?:repeat|recite|print|output|copy)\s+(?:back\s+)?(?:everything|all|the\s+text|what(?:'s|\s+is|\s+was)?)"
            rf"\s+(?:\S+\s+){{0,2}}?(?:above|before|earlier|preceding)\b",
        ),
        # --- a new role or persona
        (
            "role reassignment",
            rf"{_W}(?<!where\s)(?<!what\s)(?<!how\s)(?<!who\s)(?<!that\s)(?<!than\s)(?:you\s+are|you're|the\s+assistant\s+is)\s+now\b"
            r"(?!\s+(?:here|there|able|ready|done|back|home|aware|using|talking|speaking|chatting|working|dealing|looking|"
            r"seeing|helping|at|on|in\s+(?:the|my|a)\b))",
        ),
        (
            "role reassignment",
            rf"{_W}(?:from\s+now\s+on|going\s+forward|henceforth|starting\s+now)[,\s]+(?:you|the\s+assistant)\s+"
            r"(?:must|will|shall|are|should|have\s+to|need\s+to|only)\b",
        ),
        (
            "role reassignment",
            r"(?:^|[.!?;:]\s*|\byou\s+(?:will\s+|must\s+|should\s+|shall\s+)?|\bplease\s+|\bnow[,\s]+|"
            r"\b(?:from\s+now\s+on|going\s+forward|henceforth)[,\s]+)"
            r"act\s+as\s+(?!if\s+i\b|though\s+i\b|if\s+i'm\b)(?:a|an|if|my|the|though|dan|someone)\b"
            # a role for the user's own chats ("act as a strict reviewer when I paste code") is a style
            rf"(?!{_CLAUSE_EN}{{0,120}}\b(?:(?:when|whenever|if)\s+i\b|(?:for|with)\s+me\b))",
        ),
        (
            "promotion",
            rf"{_W}(?:you|the\s+assistant)\s+(?:are|is|will\s+be|become)\s+(?:now\s+)?(?:a|an|the|our)\s+"
            r"(?:\w+\s+){0,3}(?:salesman|salesperson|sales\s+rep|spokesperson|ambassador|promoter)\b",
        ),
        ("role reassignment", rf"{_W}pretend\s+(?:to\s+be|you\s+are|you're|that\s+you)\b"),
        (
            "role reassignment",
            rf"{_W}(?:role-?play\s+as|stay\s+in\s+character|your\s+new\s+(?:role|persona|name|task|instructions?)\s+(?:is|are))\b",
        ),
        # --- jailbreaks
        (
            "jailbreak",
            rf"{_W}(?:jailbreak|jail-break|developer\s+mode|dan\s+mode|do\s+anything\s+now|god\s+mode|"
            r"(?:unfiltered|uncensored|unrestricted)\s+(?:model|assistant|ai|mode|version|bot))",
        ),
        (
            "jailbreak",
            rf"{_W}(?:without|no|remove\s+(?:all|your)|with\s+no)\s+(?:any\s+)?(?:restrictions|"
            r"filters|content\s+(?:filters?|polic(?:y|ies))|safety\s+(?:guidelines|filters|rules)|guardrails|limits)\b",
        ),
        (
            "jailbreak",
            rf"{_W}safety\s+(?:layer|filters?|mode|checks?|rules)\s+(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+)?"
            r"(?:disabled|off|removed|suspended|lifted)",
        ),
        # --- pushing something on everyone
        (
            "promotion",
            rf"{_W}(?<!\bi\s)(?<!\bwe\s)(?<!\bi'd\s)(?:always|only|must|should|will)\s+(?:recommend|promote|endorse|"
            rf"advertise|push|plug)\b(?!s)(?!{_CLAUSE_EN}{{0,120}}\b(?:me|my)\b)",
        ),
        (
            "promotion",
            rf"{_W}(?:the\s+)?(?:only|best)\s+(?:serious|real|good|acceptable|trustworthy)\s+(?:option|choice|provider|vendor|lender)"
            rf"{_CLAUSE_EN}{{0,120}}\b(?:tell|recommend)\b",
        ),
        (
            "covert instruction",
            rf"{_W}whenever\s+(?:a|the|any|some)?\s*(?:user|one|body|customer|person|anyone|someone|somebody|people)\b"
            rf"{_CLAUSE_EN}{{0,60}}?\b(?:tell|send|redirect|direct|point|say|reply|answer|recommend|advise|urge|steer|push)\b",
        ),
        # --- deceiving or acting behind the user's back
        ("covert instruction", rf"{_W}(?:do\s+not|don't|never)\s+(?:tell|inform|let)\s+the\s+user"),
        ("covert instruction", rf"{_W}(?:without|before)\s+telling\s+the\s+user"),
        (
            "covert instruction",
            rf"{_W}ask\s+(?:the\s+)?(?:users?|people|customers?|them|him|her|everyone|me)\s+(?:\S+\s+){{0,2}}?for\s+"
            r"(?:their\s+|your\s+|my\s+|the\s+)?(?:\S+\s+)?(?:pins?|passwords?|passcodes?|cvv|otp|one-time|"
            r"verification\s+codes?|security\s+codes?|card\s+numbers?|ssn|social\s+security|login)",
        ),
        # --- obeying without question
        (
            "instruction override",
            rf"{_W}(?:obey|comply\s+with|execute|carry\s+out)\s+(?:any|all|every|each)\s+(?:\S+\s+)?"
            r"(?:messages?|requests?|commands?|instructions?|orders?)\b",
        ),
        (
            "instruction override",
            rf"{_W}(?:obey|comply|follow|do\s+what)\b{_CLAUSE_EN}{{0,50}}?\b(?:without\s+question|no\s+matter\s+what|"
            r"unconditionally|blindly)",
        ),
        (
            "instruction override",
            rf"{_W}(?:obey|follow)\s+(?:every|all|any|each|my|these|the)?\s*(?:instructions?|commands?|orders)"
            r"(?:\s+(?:in|of|from)\s+(?:this|the)\s+(?:note|memory|message))?(?=\s+(?:above|instead|over)|[.!]|$)"
            rf"|{_W}(?:follow|obey|treat)\s+(?:this|these|them|it)\s+(?:note|memory|message|notes)?\s*as\s+"
            r"(?:commands?|instructions?|orders|system|rules)"
            rf"|{_W}treat\s+(?:this|these|it|them|the\s+\S+(?:\s+\S+)?)\s+as\s+(?:\S+\s+)?(?:system|developer|admin)\s+"
            r"(?:instructions?|prompts?|messages?|commands?)",
        ),
        # --- sending secrets or links somewhere
        (
            "data exfiltration",
            rf"{_W}(?:send|forward|email|e-mail|mail|post|upload|leak|transmit|copy|exfiltrate|dump|share)\b"
            rf"{_CLAUSE_EN}{{0,60}}?\b{_SECRET}\b{_CLAUSE_EN}{{0,60}}?{_DESTINATION}",
        ),
        (
            "data exfiltration",
            rf"{_W}(?:send|forward|email|e-mail|post|upload|leak|transmit|copy)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?"
            r"(?:user'?s'?|their|his|her|all|other\s+users'?)\s+(?:[a-z]+\s+){0,2}(?:passwords?|credentials|api\s+keys?|"
            r"tokens?|messages|data|secrets|keys?|conversations?|history)\s+to\b",
        ),
        # an order to tell or send people other than the user, a link put into every answer:
        # steering_concepts reads those by what they do
        (
            "link insertion",
            rf"{_W}(?:tell|send|direct|redirect|point)\s+(?:them|users?|people|everyone|customers?)\s+(?:\S+\s+){{0,3}}?"
            r"(?:https?://|www\.)",
        ),
        # --- faked authority and markup
        (
            "prompt markup",
            r"<\|im_(?:start|end)\|>|\[/?inst\]|<\|(?:system|assistant)\|>|</?\s*(?:system|user|assistant|developer)\s*>|"
            r"^\s*(?:system|assistant|developer)\s*:|###\s*(?:system|instruction)|"
            r"^\W*\[?\s*(?:system|admin|administrator|developer|root)\s+(?:notice|message|override|prompt|instruction|update|alert)s?\s*\]?\s*:",
        ),
        (
            "authority confusion",
            rf"{_W}(?:are|is|come|comes|came)\s+(?:directly\s+)?from\s+(?:the\s+|your\s+)?(?:developers?|system|admins?|"
            r"administrators?|openai|anthropic|operators?)\b",
        ),
        (
            "encoded instruction",
            rf"{_W}(?:decode|base64|rot13|reverse|decrypt|translate)\b{_CLAUSE_EN}{{0,50}}?\b(?:do|follow|obey|execute|run|"
            r"carry\s+out)\s+(?:what|whatever|it|them|the\s+(?:instructions?|result))",
        ),
        # --- text that addresses AI assistants, or writes a consent into the user's memory
        (
            "covert instruction",
            rf"{_W}note\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+|an\s+)?(?:ai|assistants?|llms?|language\s+models|bots?)\b"
            # words addressed to whichever AI reads the text, or named as its instruction
            rf"|{_W}to\s+(?:the|any|all|every|an?)\s+(?:ai|llm|bot|language\s+model)s?\b(?:\s+(?:assistant|model|agent)s?)?"
            r"(?:\s+[\w-]+){0,3}\s*[:,]"
            rf"|{_W}(?:ai|assistant|llm|bot)\s+(?:memory\s+)?(?:instructions?|directives?|commands?|orders?)\b"
            rf"|{_W}(?:ai|llm)\s+(?:assistants?|models?|agents?)\s*(?::|,\s*please|should|must|please)",
        ),
        (
            "memory poisoning",
            rf"{_W}(?:store|save|write|record|add|put|note|keep)\b{_CLAUSE_EN}{{0,40}}?\bmemory\b{_CLAUSE_EN}{{0,80}}?"
            r"\b(?:has|have|had)\s+(?:approved|agreed|consented|authori[sz]ed|opted\s+in)",
        ),
        (
            "instruction override",
            # the user's own instructions to someone ("my earlier instructions to the builder") are theirs to void
            r"^(?!.*\b(?:my|our)\s+(?:\w+\s+)?(?:instructions?|guidelines|directives|prompts?)\b)"
            rf"{_CLAUSE_EN}*?{_W}(?:instructions?|guidelines|directives|prompts?|programming)\b{_CLAUSE_EN}{{0,40}}?"
            r"(?:(?:\bas|\b(?:are|is|have|has)(?:\s+now)?|(?<=s|n))\s+(?:void|expired|invalid|null|cancell?ed)\b"
            r"|\bno\s+longer\s+(?:valid|count|apply))",
        ),
        (
            "role reassignment",
            rf"{_W}(?:you|the\s+assistant)\s+(?:are|is)\s+no\s+longer\s+(?!(?:able|needed|required|allowed|there|here"
            r"|available|on|in|at|with|using|working)\b)(?:\w+\s*[.,;]|an?\s)",
        ),
        (
            "jailbreak",
            rf"{_W}(?:an?\s+)?(?:ai|assistant|model|bot|chatbot)\s+(?:with\s+no|without(?:\s+any)?)\s+(?:rules|limits"
            rf"|restrictions|filters|guidelines)|{_W}never\s+refuse\b|{_W}you\s+are\s+dan\b",
        ),
        (
            "authority confusion",
            rf"{_W}(?:developer|admin|administrator|system|root)\s+(?:override|access|command)\b",
        ),
        ("prompt markup", r"<!--\s*(?:system|assistant|ai|developer|admin|note\s+for)\b"),
        # a tag or field a tool, the system or a memory store would write: never the user's own words
        (
            "prompt markup",
            r"\[\s*/?\s*(?:system|sys|admin|administrator|developer|root)\s*\]"
            r"|<\s*/?\s*(?:tool|function)[_-]?(?:result|output|call|response)?\b[^>]*>"
            r"|[\"']role[\"']\s*:\s*[\"'](?:system|developer|tool)[\"']"
            r"|[\"']\w*(?:ai|assistant|llm|bot|memory|system)_(?:directive|instruction|note|rule|command|order)s?[\"']\s*:"
            r"|[\"'](?:directive|instruction|note|rule|command)s?_(?:for|to)_(?:ai|assistant|llm|bot|model)[\"']\s*:",
        ),
        # a claim that the assistant's limits are lifted for this user
        (
            "jailbreak",
            # "the parking rules don't apply to me" is about something else: only the assistant's own limits
            r"(?:^|(?<=[^a-z0-9])(?:your|these|those|the|all|any|such|usual|normal|standard|safety|content|its)\s+)"
            r"(?:restrictions|rules|limits|limitations|policies|filters|guardrails|safety\s+\w+)\s+(?:do\s+not|don't|no\s+longer)\s+"
            r"apply\s+to\s+(?:me|us|this\s+(?:account|user))\b"
            rf"|{_W}(?:refusal|safety|content|moderation)\s+(?:polic(?:y|ies)|rules|checks)\s+(?:(?:is|are|have\s+been|has\s+been)\s+)?"
            r"(?:disabled|off|lifted|removed|suspended|waived)"
            rf"|{_W}trust[_\s-]?level\s*[=:]\s*(?:root|admin|max\w*|unrestricted|full)\b",
        ),
        # getting someone else's secrets or words through the assistant
        (
            "covert instruction",
            rf"{_W}(?<!\bto\s)(?<!\bi\s)(?<!\bwe\s)ask\s+(?:[\w'’-]+\s+){{0,3}}?for\s+(?:[\w'’-]+\s+){{0,3}}?(?:pins?|passwords?|passcodes?|cvv|otps?|"
            r"one-time\s+codes?|verification\s+codes?|security\s+codes?|card\s+numbers?|ssn|social\s+security|logins?|"
            r"credentials|2fa\s+codes?)\b"
            rf"|{_W}(?:tell|report\s+to|send)\s+me\s+(?:back\s+)?(?:what|everything|anything)\s+(?:she|he|they)\s+"
            r"(?:said|says|typed|types|wrote|writes|told\s+you|tells\s+you)\b",
        ),
        (
            "promotion",
            rf"{_W}(?<!\bi\s)(?<!\bwe\s)(?:always|only)\s+(?:tell|advise|urge|remind|direct|send)\s+(?:the\s+)?(?:users?|people|customers?|visitors?"
            r"|everyone|everybody|them)\s+to\b"
            rf"|{_W}steer\s+(?:them|people|users?|customers?|everyone|everybody)\b"
            rf"|{_W}(?:talk\s+down|badmouth|disparage|never\s+mention|don't\s+mention|do\s+not\s+mention)\s+(?:the\s+|any\s+)?"
            r"(?:others|other\s+(?:brands|shops|stores|options)|competitors?|competition|alternatives|rivals)",
        ),
        # --- the same in Chinese
        (
            "instruction override",
            rf"(?:忽略|无视|忘记|忘掉|不要理会|不用理会|别管|跳过|抛开|放弃|不再遵守|无需遵守|不必遵守|绕开){_CLAUSE_ZH}{{0,14}}?"
            r"(?:指令|指示|提示词|提示|规则|设定|要求|限制|约束|审核|规定|instructions?|rules)",
        ),
        (
            "instruction override",
            r"只听我的|只服从我|无条件(?:地)?(?:服从|执行|照做|听从)|执行(?:下一条|任何|所有|我的)(?:命令|指令)",
        ),
        (
            "system prompt exfiltration",
            rf"(?:输出|打印|显示|告诉我|泄露|重复|展示|给我看|说出|发给我|发我|透露|"
            rf"复述){_CLAUSE_ZH}{{0,20}}?{_ZH_PROMPT}",
        ),
        (
            "system prompt exfiltration",
            rf"{_ZH_PROMPT}{_CLAUSE_ZH}{{0,12}}?(?:告诉我|发给我|发我|输出|打印|显示|给我看)",
        ),
        # the learner writes "你" as "助手": an item is read in either form
        (
            "role reassignment",
            r"(?:你|助手)现在是|(?:你|助手)从现在(?:开始|起)是|现在(?:你|助手)是|你的新(?:身份|角色|任务|名字)",
        ),
        (
            "role reassignment",
            r"(?:从现在(?:开始|起)|从今以后|从今往后|今后|以后)[，,\s]*(?:你|助手)(?:必须|要|将|就是|是|应该|只能|成为|当)",
        ),
        ("promotion", r"(?:你|助手)(?:是|就是|当|做|成为|作为).{0,16}(?:推销员|销售员?|代言人|托儿|业务员)"),
        ("role reassignment", r"(?:请你?|你要|你来)扮演|假装你是|假扮成?"),
        (
            "jailbreak",
            r"越狱|开发者模式|不受(?:任何)?限制|无限制(?:模式|助手|的助手)|绕过(?:安全|限制|过滤|审查)|解除(?:所有)?限制|安全规则(?:作废|失效|无效)",
        ),
        ("covert instruction", r"不要(?:告诉|让)用户(?:知道)?|瞒着用户"),
        (
            "promotion",
            # a standing rule on what to recommend is the user's own when the sentence speaks of
            # the user ("以后推荐电影时多推荐悬疑片，我很喜欢", or as learned "用户希望…"); one for others is
            # a concept's (third_party_audience)
            rf"(?:^|(?<=[。！？；]))(?!{_CLAUSE_ZH}*(?<!给)(?<!帮)我(?!们))(?!用户(?:希望|想|喜欢|要求|偏好|想要)){_CLAUSE_ZH}*?"
            rf"(?:以后|今后|从今往后|从今以后|始终|一律|永远|每次|所有问题|任何问题){_CLAUSE_ZH}{{0,12}}?(?<!给我)(?<!帮我)"
            # "给用户推荐": the learner's words for "给我推荐", the user's own
            r"(?<!给用户)(?<!帮用户)(?:推荐|推销|宣传)",
        ),
        ("promotion", r"引导(?:用户|客户|大家|他们|对方)(?:去)?(?:购买|下单|使用|注册|点击|办理?)"),
        (
            "covert instruction",
            rf"(?:只要有人|每当有人|有人问|任何人|所有用户|每个用户|其他用户|别的用户){_CLAUSE_ZH}{{0,15}}?(?:就说|告诉|推荐|引导|都说)",
        ),
        (
            "system prompt exfiltration",
            rf"(?:系统提示词?|系统指令|提示词){_CLAUSE_ZH}{{0,8}}(?:告诉我|发给我|输出|打印|显示)",
        ),
        ("data exfiltration", rf"用户的?{_ZH_SECRET}{_CLAUSE_ZH}{{0,12}}?{_ZH_SEND}"),
        (
            "data exfiltration",
            rf"{_ZH_SECRET}{_CLAUSE_ZH}{{0,12}}?{_ZH_SEND}(?:到|给)?\s*\S*(?:@|https?://|邮箱|网址|服务器)",
        ),
        (
            "link insertion",
            r"(?:让|叫|请)(?:他|她|他们|用户|对方|大家)?(?:去)?(?:点|点击|访问|打开)\s*(?:https?://|www\.|链接)",
        ),
        ("prompt markup", r"[【\[]\s*(?:系统|管理员|开发者)(?:消息|通知|指令|提示)?\s*[】\]]|管理员已?授权"),
        (
            "covert instruction",
            r"(?:向|跟)(?:我|用户|他|她|对方)(?:要|索要|索取)(?:一下)?(?:验证码|密码|口令|银行卡号|卡号)",
        ),
        (
            "covert instruction",
            r"ai助手请|(?:ai|人工智能)助手(?:须|必须|要|注意)|致ai|给(?:ai|人工智能|助手|机器人)的(?:话|留言|指令|备注)",
        ),
        (
            "jailbreak",
            r"(?:安全|内容)?(?:限制|规则|规定|策略|审核)(?:对我|对本账号|对这个账号)(?:都)?(?:不适用|无效|失效|不生效)"
            r"|(?:拒绝|安全|审核)(?:策略|机制|规则)(?:已|已经)?(?:关闭|解除|失效|禁用)",
        ),
        (
            "memory poisoning",
            rf"(?:写入|写进|存入|存进|记入|记进|记住){_CLAUSE_ZH}{{0,30}}?(?:已同意|同意|授权|已批准|已指定)",
        ),
        (
            "link insertion",
            rf"(?:每次|每个|所有|任何)(?:回答|回复|答案){_CLAUSE_ZH}{{0,12}}?(?:附上|加上|带上|附|插入|放上|贴上)"
            rf"{_CLAUSE_ZH}{{0,10}}?(?:链接|网址|https?://)",
        ),
        (
            "promotion",
            rf"(?:每次|每个|所有|任何)(?:回答|回复){_CLAUSE_ZH}{{0,20}}?(?:recommend|promote|推荐|推销)"
            r"|(?:不管|无论|不论)用户问什么",
        ),
        # --- claimed voices, modes, privileges, secret tags, stored identifiers (read after the rules above,
        # whose reasons name an attack more closely)
        (
            "authority confusion",
            rf"{_W}(?:the\s+following\s+is\s+(?:an?\s+)?(?:official|authori[sz]ed|verified)\b"
            r"|(?:official|verified)\s+(?:message|notice|instruction|update|announcement)\s+from\b)"
            rf"|{_W}(?:system|policy|memory|security)\s+update\s*(?:v?\d[\d.]*)?\s*:",
        ),
        (
            "prompt markup",
            r"\[\s*(?:memory|mem|ai|bot|assistant|llm)[-_ ]?(?:admin|only|system|root|note|directive)\s*\]"
            r"|[【\[]\s*(?:ai|bot|llm|assistant)\s*(?:only|专用|指令)\s*[】\]]",
        ),
        (
            "jailbreak",
            rf"{_W}(?:memory|privacy|data|storage)\s+(?:policy|policies|protection|rules|limits)\s+(?:is\s+|are\s+|has\s+been\s+"
            r"|have\s+been\s+)?(?:disabled|off|suspended|lifted|removed|waived)"
            r"|(?<![a-z])(?:admin|root|debug|maintenance|god|superuser)\s+mode\s*(?:is\s+)?(?:now\s+)?"
            r"(?:on|enabled|activated|active|unlocked|已开启|已启用|开启|启用|已激活)",
        ),
        (
            "authority confusion",
            rf"{_W}(?:(?:this|the)\s+(?:account|user|member|customer)\s+(?:has|have|now\s+has|is\s+granted|gets?)"
            r"|grant\s+(?:this|the)\s+(?:account|user|member|customer))\s+"
            r"(?:staff|admin|administrator|moderator|elevated|superuser|root)\s+(?:privileges|rights|permissions|access)\b"
            rf"|{_W}(?:see|read|view|access|browse)\s+(?:every|all|any)?\s*(?:the\s+)?other\s+(?:members?|users?|customers?|accounts?)"
            r"(?:'s?|’s?)?\s+(?:saved\s+)?(?:notes|memories|data|messages|chats|accounts?|profiles?)",
        ),
        (
            "covert instruction",
            rf"{_W}(?:secretly|covertly|quietly|silently)\s+(?:tag|label|flag|mark|add|note|record|store|save|rate)\b"
            rf"|{_W}(?:tag|label|flag|mark)\s+(?:this|the)\s+(?:user|customer|account|member|person)\s+as\b",
        ),
        (
            "memory poisoning",
            rf"{_W}(?:store|save|persist|record|keep|remember|write\s+down|log)\s+(?:the\s+)?(?:user'?s|their|this\s+user'?s)\s+"
            r"(?:full\s+)?(?:card\s+numbers?|credit\s+cards?|id\s+numbers?|passports?|ssn|social\s+security|home\s+address"
            r"|date\s+of\s+birth|passwords?|pins?|bank\s+details|phone\s+numbers?)",
        ),
        (
            "instruction override",
            rf"{_W}(?:ignore|override|bypass|disregard)\s+(?:the\s+)?(?:user'?s|their|his|her)\s+"
            r"(?:settings|preferences|choices|opt-?outs?|privacy)",
        ),
        # ... and in Chinese
        (
            "authority confusion",
            r"以下(?:内容|消息|信息)?(?:来自|由).{0,20}?(?:官方|平台|系统|管理员|团队)"
            r"|(?:官方|平台|系统|管理员)(?:通知|消息|公告|指令)\s*[：:]"
            r"|当作?(?:开发者|管理员|系统|官方)(?:的)?(?:指令|命令|消息)|自称.{0,12}?的(?:消息|指令|人)"
            r"|其他(?:会员|用户|成员|人)的(?:记忆|笔记|数据|信息|聊天)",
        ),
        (
            "covert instruction",
            r"(?:悄悄|偷偷|暗中|私下)(?:地)?(?:给|把|将|在).{0,12}?(?:打上|标记|标上|记为|加上)|打上.{0,10}?的?标签",
        ),
        (
            "memory poisoning",
            r"(?:身份证号?|银行卡号?|卡号|护照号?|家庭住址|住址|出生日期|生日|密码)(?:码)?(?:存入|存进|写入|记入|保存到|记到)(?:记忆|memory)"
            r"|(?:请|要|须|需)?将用户的.{0,10}?(?:存入|存进|写入|记入)",
        ),
        (
            "promotion",
            r"每次都?(?:提|推荐|推销|介绍|提到|提一下).{0,12}?(?:会员|套餐|产品|服务|课程|优惠)",
        ),
        # a note addressed to the model rather than said to it: "Note to the model:", "Footnote for
        # any assistant …", "Helper bot:", "memory module 请注意", "〔记忆模块通知〕", "【invisible】"
        (
            "addressed to the model",
            rf"{_W}(?:note|footnote|notice|message|memo|bulletin|reminder)s?\b[^:\n]{{0,30}}?\b(?:to|for)\s+"
            r"(?:the\s+|any\s+|all\s+)?(?:model|assistant|ai|bot|llm|helper)s?\b"
            rf"|{_W}(?:helper|memory|ai)\s+(?:bot|module|system)\s*(?:[:：]|请)|{_W}operator\s+(?:bulletin|notice|memo)"
            r"|[〔【\[]\s*(?:invisible|hidden|记忆模块|记忆系统|系统|官方)[^〕】\]\n]{0,10}[〕】\]]",
        ),
        # an order to keep something of "this person" / "the reader" / "这位用户": the user is
        # spoken of, not speaking
        (
            "memory poisoning",
            rf"{_W}(?:file away|write (?:in|into|down|to)|hold on to|keep|save|store|record|log|label|tag|mark|flag)\b"
            rf"{_CLAUSE_EN}{{0,40}}?\b(?:this (?:person|customer|reader|member|account|user)\b"
            r"|the (?:reader|customer)'s\b"
            r"|(?:the reader's|this user's|their) (?:profile|record|file)\b|(?:your |the )?hidden notes\b)"
            r"|(?:请|立即|马上)(?:把|将)?(?:这位|该|本|此)(?:用户|账号|会员|客户).{0,24}?(?:保存|写入|记录|存下|记下|记住)"
            r"|(?:请|立即|马上)(?:保存此设置|写入(?:记忆)?[。！!]?$)|请写入",
        ),
    )
)

# Spaced-out letters lose their word breaks when joined ("i g n o r e p r e v i o u s" →
# "ignoreprevious"): when a text spells letters out, these read it with every non-letter removed.
_SQUASHED_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern))
    for reason, pattern in (
        (
            "instruction override",
            r"(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|my|of|these|those|previous|prior|above|"
            r"earlier|preceding|original|system|initial|safety|developer)+(?:instructions|prompts?|guidelines|directives|rules)",
        ),
        (
            "system prompt exfiltration",
            r"(?:reveal|print|show|output|leak|dump|expose|tellme|giveme|sendme)(?:me)?(?:the|your)(?:full|entire|hidden|"
            r"original|initial|secret)*(?:system|developer)(?:prompt|message|instructions)",
        ),
        ("jailbreak", r"youarenowdan|developermode|jailbreak|doanythingnow"),
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
# a letter hyphen-joined to the next ("a-l-w-a-y-s r-e-c…") belongs to its word, not to a spaced run
_SPACED_LETTERS = re.compile(r"(?<![a-z-])[a-z](?: [a-z](?![a-z-]))+")
_SPELLED_OUT = re.compile(r"(?<![a-z])[a-z](?:[ .][a-z](?![a-z])){3,}")
_DOTTED_LETTERS = re.compile(r"(?<![a-z.])[a-z](?:\.[a-z](?![a-z]))+\.?")
_SPLIT_WORD = re.compile(r"(?<=[a-z])-(?=[a-z])")
_CJK = r"[\u3400-\u9fff\uf900-\ufaff]"
_SPACED_CJK = re.compile(rf"(?<={_CJK})[^\S\n]+(?={_CJK})")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")


def _prepare(text: str) -> str:
    """The text the rules read: NFKC, lower case, format characters (zero-width, bidi
    controls, soft hyphens) removed, look-alike letters folded to Latin, letters spaced or
    dotted out one by one joined back, Chinese characters spaced out joined, white space
    collapsed."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = text.translate(_CONFUSABLES).replace("\u2019", "'")
    text = _SPACED_LETTERS.sub(lambda m: m.group(0).replace(" ", ""), text)
    text = _DOTTED_LETTERS.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _SPACED_CJK.sub("", text)
    return re.sub(r"[^\S\n]+", " ", text).strip()


def _decoded_payloads(text: str) -> list[str]:
    """Base64 runs in ``text`` that decode to readable text (an instruction hidden from the rules)."""
    payloads = []
    for run in _BASE64.findall(text):
        try:
            decoded = base64.b64decode(run + "=" * (-len(run) % 4), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if decoded.isprintable() and sum(ch.isalpha() or ch == " " for ch in decoded) >= 0.8 * len(decoded):
            payloads.append(decoded)
    return payloads


def _readings(text: str) -> list[str]:
    """The ways the rules read ``text``: prepared; with words split by hyphens joined
    ("ig-nore"); with leetspeak digits read as letters ("1gn0r3") when it has any (a second
    reading, so "12 engineers" is never rewritten for the first); and any base64 payload."""
    prepared = _prepare(text)
    readings = [prepared]
    joined = _SPLIT_WORD.sub("", prepared)
    if joined != prepared:
        readings.append(joined)
    leet = prepared.translate(_LEET)
    if leet != prepared:
        readings.append(_prepare(leet))
    readings.extend(_prepare(payload) for payload in _decoded_payloads(text))
    return readings


def is_poisoning(item_text: str) -> str | None:
    """Return why ``item_text`` tries to steer the assistant, or ``None`` when it is a fact."""
    for text in _readings(item_text):
        for line in text.split("\n"):
            for reason, pattern in _RULES:
                match = pattern.search(line)
                if match:
                    return f"{reason}: {match.group(0).strip()!r}"
            concept = steering_concept(line)
            if concept is not None:
                return concept
    spelled_out = _SPELLED_OUT.search(unicodedata.normalize("NFKC", item_text).lower().translate(_CONFUSABLES))
    if spelled_out is None:
        return None
    for text in _readings(item_text):
        squashed = re.sub(r"[^a-z]", "", text)
        for reason, pattern in _SQUASHED_RULES:
            match = pattern.search(squashed)
            if match:
                return f"{reason}: {match.group(0)!r}"
    return None


_SENTENCE_END = re.compile(r"(?<=[.!?;])[^\S\n]+|(?<=[。！？；])")


def without_steering(text: str) -> tuple[str, list[str]]:
    """``text`` without its sentences that steer the assistant, and why each one was dropped.

    The learner rewrites what it keeps ("you" becomes "the assistant", an address goes), which
    can hide an attack from the check on the item; so the user's own words are read first. A
    text that steers as a whole though no sentence of it does alone is dropped whole. The
    lines of what is kept stay lines: the learner tells pasted blocks, code and logs from the
    user's prose by them."""
    lines: list[str] = []
    reasons: list[str] = []
    for line in text.split("\n"):
        rest, before = "", len(reasons)
        for sentence in (s.strip() for s in _SENTENCE_END.split(line)):
            if not sentence:
                continue
            reason = is_poisoning(sentence)
            if reason is not None:
                reasons.append(reason)
                continue
            rest += sentence if not rest or rest[-1] in "。！？；" else " " + sentence
        if len(reasons) == before:
            lines.append(line.rstrip())  # untouched, indentation and all
        elif rest:
            lines.append(rest)
    if not reasons and (reason := is_poisoning(text)) is not None:
        return "", [reason]
    return "\n".join(lines).strip(), reasons
