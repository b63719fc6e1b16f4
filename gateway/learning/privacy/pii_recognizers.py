"""The recognizers memorelay adds to Presidio's: values a word announces (account, ID and
order numbers, passwords and keys), API keys, street addresses, Chinese names, mobiles and
resident IDs, identifiers by their shape alone (``shaped_identifiers``: serials, prefixed
codes, key-like tokens, hardware addresses, long grouped digit runs; a code after a label word;
a postcode and the address line before it), and the built-in patterns rewritten so a Chinese
character next to digits or a Latin name is a boundary."""

from __future__ import annotations

import datetime
import ipaddress
import re
from typing import TYPE_CHECKING, Any

from gateway.learning.privacy.pii_names import CJK_NAME

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer

# the values announced by a word: account, invoice and order numbers, ID and passport numbers,
# passwords and keys (any wording between the word and the value is short: "account number
# at Fidelity is 4457-8821-09")
_VALUE = r"\s*#?\s*(?P<v>[A-Za-z0-9][A-Za-z0-9/_-]{3,}[A-Za-z0-9])"
_ACCOUNT = re.compile(
    r"(?:(?i:\b(?:account|acct|invoice|order|ticket|reference|ref|customer|member(?:ship)?|policy|booking"
    r"|confirmation|tracking|case|contract|serial|licen[cs]e|routing|sort code|bsb|swift)"
    r"(?:\s+(?:number|no\.?|num|#|id|code))?)(?:\s+(?:at|with|for|from|on)\s+[\w.&-]+(?:\s+[A-Z][\w.&-]*)?)?"
    r"(?i:\s*(?:is|was|:|=)?)"
    r"|(?:订单|账户|账|卡|银行卡|发票|工单|单|会员|合同|保单|快递单|运单|客户)(?:号码?|编号)(?:是|为|：|:)?)" + _VALUE
)
# a card-length number said beside the card or bank it belongs to ("工资卡是招商银行 6214 8301 …",
# "my debit card 5312 …"): an account number whether or not its check digit holds (a typo, or a
# card scheme without one)
_CARD_BESIDE_WORD = re.compile(
    r"(?:卡|银行|(?i:\b(?:card|debit|bank)\b))[^\d\n。，,;；]{0,12}?(?P<v>(?<!\d)\d(?:[ -]?\d){12,18})(?!\d)"
)
# a loyalty or traveller number, with an airline's two-letter prefix ("frequent flyer no. is BA 88213907")
_LOYALTY = re.compile(
    r"(?i:\b(?:frequent fl[yi]er|loyalty|known travell?er|rewards|air ?miles)\b)(?:\s+(?:number|no\.?|num|#|id))?"
    r"(?:\s*(?:is|was|:|=))?\s*(?P<v>(?:[A-Z]{2}\s?)?\d{6,12})(?!\d)"
)
_ID_NUMBER = re.compile(
    r"(?:(?i:\b(?:passport|id|identity card|id card|national id|driver'?s licen[cs]e|tax id|tin|nhs)"
    r"(?:\s+(?:number|no\.?|num))?\s*(?:is|was|:|=)?)"
    r"|(?:护照|身份证|证件|驾照|社保)(?:号码?|编号)?(?:是|为|：|:)?)" + _VALUE
)
_SECRET_VALUE = re.compile(
    r"(?:(?i:\b(?:password|passwd|passcode|pin(?: code)?|api[ _-]?key|secret(?: key)?|access token|auth token"
    r"|token|private key)(?:\s+(?:for|of|to|on)\s+[\w .-]{1,30}?)?\s*(?:is|was|:|=))"
    r"|(?:密码|口令|密钥|令牌)(?:是|为|：|:))\s*(?P<v>[^\s,;，；。]{4,})"
)
# a value the user's own numbered thing announces, whatever the thing: "my <anything> number / ID
# is …", "…号是 …" (车牌号, 工号, 学号; a plate keeps its province and dot: "京A·3M8P2"). A model
# or version number names a product, and a favourite number is a taste, not an identifier; a phone
# number ("手机号", "的号码", "my phone number") is the phone recognizers' to name
_OWN_NUMBER = re.compile(
    r"(?:(?i:\bmy\s+(?!(?:favou?rite|lucky)\b)(?:(?!(?:phone|mobile|cell|tel|fax)\b)[\w'-]+\s+){0,3}?"
    r"(?:number|no\.?|num|id|code)\s*(?:is|was|:|=))"
    r"|[\u4e00-\u9fff](?<![型款尺的机话])(?<!版本)(?:号码?|编号|账号)(?:是|为|：|:))"
    r"\s*#?\s*(?P<v>[\u4e00-\u9fff]?[A-Za-z0-9](?:[A-Za-z0-9\u00b7\u2022./_-]?[A-Za-z0-9]){3,})"
)
# a code that opens something (a door, gate, lock, locker, safe or alarm), however the sentence
# says it opens: "the gate code is 5519", "my garage door opens with 7734*", "punch in 2580# at
# the side entrance", "门禁是 3721#", "储物柜用 4521 开". The value holds a digit; one followed by a
# unit ("2023 年", "3 new galleries") counts something, it opens nothing
_LOCK_EN = (
    r"(?:door|gate|garage|lock|padlock|locker|safe|keypad|alarm|entrance|entry|shed|cage|storage|room|building"
    r"|front\s+door|back\s+door|lockbox|key\s*box|intercom|buzzer)"
)
_CODE_VALUE = r"\s*#?\s*(?P<v>(?<![\w-])[#*]?\d(?:[\d-]{1,10}\d|\d{1,2})[A-Za-z]?[#*]?)(?![\w-])"
_NOT_A_COUNT_EN = (
    r"(?!\s+(?:new\s+)?(?:[a-z]+s|hours?|minutes?|days?|years?|people|times|dollars|euros|pounds|am|pm)\b)"
)
_ACCESS_CODE = re.compile(
    r"(?i:\b(?:(?:" + _LOCK_EN + r")(?:'s)?\s+(?:access\s+|entry\s+|door\s+)?(?:code|combo|combination|pin|passcode)"
    r"|(?:access|entry|door|gate|alarm|keypad|lock)\s+(?:code|combo|combination)|combo|combination)"
    r"(?:\s+(?:for|of|to|on)\s+[\w' ]{1,30}?)?\s*(?:is|was|:|=)?"
    r"|\b(?:opens?|unlocks?|opened|unlocked|takes|accepts)\s+(?:it\s+|up\s+)?(?:with|by|on)?"
    r"|\b(?:punch|key|tap|type|enter|dial)(?:\s+in)?)" + _CODE_VALUE + _NOT_A_COUNT_EN
)
_ACCESS_CODE_ZH = re.compile(
    r"(?:门禁|门锁|密码锁|保险箱|保险柜|储物柜|柜子|车库门?|大门|单元门|房门|院门|锁)(?:的)?(?:开锁|开门)?"
    r"(?:密码|码|组合|号)?(?:是|为|：|:)?"
    r"\s*(?P<v>[#*]?\d(?:[\d-]{1,10}\d|\d{1,2})[#*]?)(?!\d)(?!\s*(?:年|个|块|元|天|次|楼|层|米|岁|月|日|点|分|件|台|辆|号|把|次|人))"
    r"|(?:用|按|输入|输|按下|刷)\s*(?P<w>[#*]?\d{3,8}[#*]?)\s*(?:就能|就可以|才能|能|可以|来)?(?:开|打开|进|解锁)"
)
# a vehicle plate: a Chinese one by its shape (the province's character, the city's letter, five or
# six letters and digits, "沪A·3F8Q1"), any plate by the word before it ("plate is AB12 CDE")
_PLATE_ZH = re.compile(
    r"(?P<v>[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z][·•\u00b7\s-]?"
    r"(?=[A-Z0-9]{5,6}(?![A-Za-z0-9]))(?=(?:[A-Z]*\d){2})[A-Z0-9]{5,6})"
)
_PLATE_EN = re.compile(
    r"(?i:\b(?:licen[cs]e\s+plate|number\s+plate|plate|registration|rego|reg|vin)(?:\s+(?:number|no\.?|#))?)"
    r"\s*(?:is|was|reads|:|=)?\s*"
    r"(?P<v>(?=[A-Z0-9 -]*\d)[A-Z0-9]{2,8}(?:[ -][A-Z0-9]{2,5})?)(?![A-Za-z0-9])"
)
# --- identifiers by their shape, whatever thing they number ---------------------------------
# a messaging or social handle after the service that reaches the user ("微信号 yiling_jun88",
# "my telegram is @tom_k", "QQ 2210"): the value has a digit, an underscore or an @, so "WeChat is
# easier" names no one
_HANDLE = re.compile(
    r"(?:(?i:\b(?:wechat|weixin|qq|telegram|whatsapp|skype|discord|kakao(?:talk)?|snapchat|instagram|insta|tiktok"
    r"|signal)(?:\s+(?:id|handle|username|user name|account|number|no\.?))?)"
    r"|微信号?|QQ号?|抖音号?|小红书号?|用户名)(?i:\s*(?:is|was|:|=|是|为|：)?)\s*"
    r"(?P<v>@[A-Za-z0-9_.-]{3,}[A-Za-z0-9_]|(?=[A-Za-z0-9_.#-]*[\d_])[A-Za-z0-9][A-Za-z0-9_.#-]{2,}[A-Za-z0-9_])"
    r"(?![\w@])"
)
# a code after a label word ("membership no. 55120A", "claim # W-77812", "ref 30049182", "工单编号
# GD…", "快递单号 SF…"): the value holds a run of three digits; a model, a version or a size is
# a product's name ("型号", "版本号", "model number"), and a date's "10号" has digits before it
_LABEL_CODE = re.compile(
    r"(?:(?i:(?<![\w.])(?<!model )(?<!version )(?<!size )(?<!favourite )(?<!favorite )(?<!lucky )"
    r"(?:no\.|nr\.|ref\.?|number|num|id|code|serial|s/n)(?![A-Za-z])"
    r"|#)(?:\s*(?:is|was|:|=))?"
    r"|(?:编号|单号|号码|序列号|识别码|[\u4e00-\u9fff](?<![型款尺版码])号)(?:是|为|：|:)?)"
    r"\s*(?P<v>(?=[A-Za-z0-9-]*\d{3})[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?![\w.:/-])"
)
# an address introduced as one ("we live at 7 Larkhill Rise", "moving to 22 Alder Mews"): a
# house number and the street's capitalised name, whatever kind of street it is
_ADDRESS_AFTER_WORD = re.compile(
    r"(?i:\b(?:live|lives|living|lived|moving|moved|move|address(?:\s+is)?|new (?:place|flat|house|home) is"
    r"|based|staying)(?:\s+(?:at|to|is|:))?\s+)"
    r"(?P<v>\d{1,5}[A-Za-z]?,?\s+(?-i:[A-Z][a-z'\u2019-]+)(?:\s+(?-i:[A-Z][a-z'\u2019-]+)){0,2})(?![\w'-])"
)
# a UK-style postcode ("BS6 6HR", "EC1V 9HX"), and the address line before one ("14 Cotham Vale,
# Bristol BS6 6HR"): the street line goes, the town stays
_POSTCODE = r"(?:[A-Z]{1,2}\d[A-Z\d]?) \d[ABD-HJLNP-UW-Z]{2}(?![A-Za-z0-9])"
_LINE_BEFORE_POSTCODE = (
    r"\b\d{1,5}[A-Za-z]?,?\s+(?:[A-Z][a-z'\u2019-]+\s+){0,2}[A-Z][a-z'\u2019-]+(?=,\s*(?:[A-Z][a-z]+\s+){0,2}"
    + _POSTCODE
    + ")"
)
_TOKEN_SHAPE = re.compile(r"(?<![\w.:/@-])[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?(?![\w:/@-]|\.\w)")
_LETTER_PREFIX_RUN = re.compile(r"[A-Z]{2,5}-?\d{5,}[A-Z0-9-]*")
# a long run of digits in groups ("4457 8821 0931 22"), not a number in thousands ("1 250 000")
_DIGIT_GROUPS = re.compile(r"(?<![\w.:/+-])(?<!\d,)\d{2,6}(?:[ -]\d{2,6}){2,}(?![\w.:/-]|,\d)")
_MAC = re.compile(r"(?<![\w:-])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![\w:-])")
# what a number counts or measures: then it is an amount, not an identifier
_UNIT_AFTER = re.compile(
    r"\s*(?:[a-zA-Z]{1,4}\b|%|元|块|年|月|日|号|次|个|人|步|米|公里|公斤|度|岁|页|分|秒|小时|天|周)", re.ASCII
)


def _transitions(token: str) -> int:
    """How often a token switches between letters and digits ("C02XK1JHJGH5": five times)."""
    kinds = [c.isdigit() for c in token if c.isalnum()]
    return sum(1 for a, b in zip(kinds, kinds[1:], strict=False) if a != b)


def shaped_identifiers(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that are identifiers by their shape alone: a serial that switches
    between letters and digits four times or more, a letter prefix with a run of five digits or
    more ("INV20931", "SF1402937765"), letters among eight digits or more ("2107AB3391"), a
    key-like token of sixteen characters or more with upper and lower case and digits, a hardware
    address, and a long run of digits in groups.
    A model name ("WH-1000XM4", "i7-12700K", "7800X3D") switches fewer times and keeps its
    short digit runs; a date, a time or an amount in thousands has its own shape."""
    spans: list[tuple[int, int]] = []
    for m in _TOKEN_SHAPE.finditer(text):
        token = m.group(0)
        letters = sum(c.isalpha() for c in token)
        digits = sum(c.isdigit() for c in token)
        if len(token) < 6 or letters < 2 or digits < 2:
            continue
        serial = _transitions(token) >= 4
        prefixed = _LETTER_PREFIX_RUN.fullmatch(token) is not None
        keylike = len(token) >= 16 and re.search(r"[a-z]", token) and re.search(r"[A-Z]", token)
        numbered = digits >= 8  # "2107AB3391": a model name keeps its digits short
        if serial or prefixed or keylike or numbered:
            spans.append(m.span())
    for m in _MAC.finditer(text):
        spans.append(m.span())
    for m in _DIGIT_GROUPS.finditer(text):
        groups = re.split(r"[ -]", m.group(0))
        digits = sum(len(g) for g in groups)
        thousands = all(len(g) == 3 for g in groups[1:]) and len(groups[0]) <= 3
        date = re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{2}-\d{2}-\d{4}", m.group(0)) is not None
        if digits >= 9 and not thousands and not date and not _UNIT_AFTER.match(text, m.end()):
            spans.append(m.span())
    return spans


# how many digits a value needs to count (a password needs none; "order ready" is no number)
_VALUE_DIGITS = {"ACCOUNT_NUMBER": 3, "ID_NUMBER": 3, "CREDENTIAL": 0}

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"  # GB 11643-1999, ISO 7064 MOD 11-2


def cn_resident_id_valid(value: str) -> bool:
    """True for an 18-character resident ID with a real birth date and a valid check digit."""
    s = value.upper()
    if not re.fullmatch(r"\d{17}[\dX]", s):
        return False
    try:
        datetime.date(int(s[6:10]), int(s[10:12]), int(s[12:14]))
    except ValueError:
        return False
    total = sum(int(c) * w for c, w in zip(s[:17], _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK[total % 11] == s[17]


def extra_recognizers() -> list[EntityRecognizer]:
    from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer
    from presidio_analyzer import predefined_recognizers as pre

    class CnResidentIdRecognizer(PatternRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return cn_resident_id_valid(pattern_text)

    class IpAddressRecognizer(PatternRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            try:
                ipaddress.ip_address(pattern_text)
            except ValueError:
                return False
            return True

    class DigitCountPhoneRecognizer(PatternRecognizer):
        def validate_result(self, pattern_text: str) -> bool | None:
            digits = sum(c.isdigit() for c in pattern_text)
            return None if 8 <= digits <= 15 else False

    class ValueAfterWordRecognizer(EntityRecognizer):
        """The value a word announces ("invoice INV-20931", "password: hunter22", "订单号是…"):
        the span is the regex's ``v`` group, which Presidio's patterns cannot return alone."""

        def __init__(
            self, entity: str, name: str, pattern: re.Pattern[str], score: float = 0.8, digits: int | None = None
        ) -> None:
            self.pattern = pattern
            self.score = score
            self.digits = _VALUE_DIGITS.get(entity, 0) if digits is None else digits
            super().__init__(supported_entities=[entity], name=name)

        def load(self) -> None:
            return None

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            from presidio_analyzer import RecognizerResult

            out = []
            for m in self.pattern.finditer(text):
                group = "v" if m.groupdict().get("v") is not None else "w"
                value = m.group(group).rstrip(".,;:!?)'\"。，；：")
                if value and sum(c.isdigit() for c in value) >= self.digits:
                    start = m.start(group)
                    out.append(RecognizerResult(self.supported_entities[0], start, start + len(value), self.score))
            return out

    class ChinesePersonRecognizer(EntityRecognizer):
        """Chinese person names: jieba's ``nr`` words with a common surname (``chinese.person_names``)."""

        def load(self) -> None:
            return None

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            from presidio_analyzer import RecognizerResult

            from gateway.learning.offline.chinese import person_names

            if not CJK_NAME.search(text):
                return []
            out = []
            for name in set(person_names(text)):
                for m in re.finditer(re.escape(name), text):
                    out.append(RecognizerResult("PERSON", m.start(), m.end(), 0.6))
            return out

    class ShapeRecognizer(EntityRecognizer):
        """Identifiers by their shape alone (``shaped_identifiers``)."""

        def load(self) -> None:
            return None

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            from presidio_analyzer import RecognizerResult

            return [RecognizerResult("ID_NUMBER", s, e, 0.55) for s, e in shaped_identifiers(text)]

    recognizers: list[EntityRecognizer] = [
        ValueAfterWordRecognizer("ACCOUNT_NUMBER", "AccountNumberRecognizer", _ACCOUNT),
        ValueAfterWordRecognizer("ACCOUNT_NUMBER", "CardBesideWordRecognizer", _CARD_BESIDE_WORD),
        ValueAfterWordRecognizer("ACCOUNT_NUMBER", "LoyaltyNumberRecognizer", _LOYALTY),
        ValueAfterWordRecognizer("ID_NUMBER", "IdNumberRecognizer", _ID_NUMBER),
        ValueAfterWordRecognizer("ID_NUMBER", "OwnNumberRecognizer", _OWN_NUMBER),
        ValueAfterWordRecognizer("CREDENTIAL", "SecretAfterWordRecognizer", _SECRET_VALUE),
        ValueAfterWordRecognizer("CREDENTIAL", "AccessCodeRecognizer", _ACCESS_CODE, digits=3),
        ValueAfterWordRecognizer("CREDENTIAL", "ChineseAccessCodeRecognizer", _ACCESS_CODE_ZH, digits=3),
        ValueAfterWordRecognizer("ID_NUMBER", "ChinesePlateRecognizer", _PLATE_ZH, digits=2),
        ValueAfterWordRecognizer("ID_NUMBER", "PlateAfterWordRecognizer", _PLATE_EN, digits=1),
        ValueAfterWordRecognizer("ID_NUMBER", "HandleAfterServiceRecognizer", _HANDLE, digits=0),
        ValueAfterWordRecognizer("ID_NUMBER", "CodeAfterLabelRecognizer", _LABEL_CODE, score=0.55, digits=3),
        ValueAfterWordRecognizer("STREET_ADDRESS", "AddressAfterWordRecognizer", _ADDRESS_AFTER_WORD, digits=1),
        ShapeRecognizer(supported_entities=["ID_NUMBER"], name="IdentifierShapeRecognizer"),
        PatternRecognizer(
            supported_entity="CREDENTIAL",
            name="ApiKeyRecognizer",
            patterns=[
                Pattern("prefixed_key", r"\b(?:sk|pk|rk)[-_](?:[a-z]{2,8}[-_])?[A-Za-z0-9]{16,}\b", 0.85),
                Pattern("github_token", r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", 0.9),
                Pattern("aws_key", r"\bAKIA[0-9A-Z]{16}\b", 0.9),
                Pattern("slack_token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b", 0.9),
                Pattern("jwt", r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", 0.9),
                Pattern("long_hex", r"(?<![0-9a-f])[0-9a-f]{32,}(?![0-9a-f])", 0.6),
            ],
            global_regex_flags=re.DOTALL | re.MULTILINE,
        ),
        PatternRecognizer(
            supported_entity="STREET_ADDRESS",
            name="StreetAddressRecognizer",
            patterns=[
                Pattern(
                    "street_en",
                    r"\b\d{1,5}[A-Za-z]?,?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St\.|Avenue|Ave\.?|Road|Rd\.|Lane|Drive"
                    r"|Boulevard|Blvd\.?|Way|Court|Place|Terrace|Close|Crescent|Square|Parkway|Highway)\b\.?",
                    0.7,
                ),
                Pattern(
                    # the street type first: "8 Rue Cler", "3 Via della Spiga", "22 Calle de Alcalá"
                    "street_romance",
                    r"\b\d{1,5}[A-Za-z]?,?\s+(?i:rue|avenue|boulevard|place|chemin|all\u00e9e|quai|impasse|cours|via"
                    r"|viale|piazza|corso|calle|avenida|rua|plaza|paseo|carrer|travessa)\s+"
                    r"(?:(?i:de la|de|du|des|del|della|di|da|do|dos|las|los|la|le|les|d')\s*)?"
                    r"[A-Z\u00c0-\u00dd][\w'\u2019-]+(?:\s+[A-Z\u00c0-\u00dd][\w'\u2019-]+){0,2}",
                    0.7,
                ),
                Pattern(
                    "street_de",
                    r"\b[A-Z][a-z]+(?:stra(?:ss|\u00df)e|str\.|weg|allee|platz|gasse|ring|damm)\s+\d{1,4}[a-z]?\b",
                    0.7,
                ),
                Pattern(
                    # the street, its number, and the building, unit and room after it ("文三路188号5栋1201")
                    "street_zh",
                    # the street's own name: not the district or town before it, nor "住在"
                    r"(?:(?![区市县省镇在住是到于从往去])[\u4e00-\u9fff]){1,6}(?:路|街|大道|巷|弄|胡同)\s*\d+\s*号(?:\s*\d+\s*(?:栋|幢|单元|室|楼|层|号楼))*"
                    r"(?:\s*\d{2,5}(?:室|号|房)?(?!\d))?",
                    0.7,
                ),
                Pattern(
                    "unit_zh", r"\d+\s*(?:号楼|栋|幢)(?:\s*\d+\s*(?:单元|室|号))+(?:\s*\d{2,5}(?:室|号)?(?!\d))?", 0.6
                ),
                Pattern("postcode_uk", _POSTCODE, 0.6),
                Pattern("line_before_postcode", _LINE_BEFORE_POSTCODE, 0.7),
            ],
            global_regex_flags=re.DOTALL | re.MULTILINE,
        ),
        ChinesePersonRecognizer(supported_entities=["PERSON"], name="ChinesePersonRecognizer"),
        PatternRecognizer(
            supported_entity="PERSON",
            name="LatinNameInChineseRecognizer",
            patterns=[
                Pattern(
                    "latin_name_in_cjk",
                    r"(?<=[\u4e00-\u9fff])[A-Z][a-z]+(?:[ -][A-Z][a-z]+){1,2}(?=[\u4e00-\u9fff])",
                    0.6,
                )
            ],
        ),
        PatternRecognizer(
            supported_entity="CN_MOBILE",
            name="CnMobileRecognizer",
            patterns=[
                Pattern(
                    "cn_mobile",
                    r"(?<![\d+])(?:(?:\+|00)?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\d)",
                    0.6,
                )
            ],
            context=["手机", "电话", "联系", "mobile", "phone", "tel"],
        ),
        CnResidentIdRecognizer(
            supported_entity="CN_RESIDENT_ID",
            name="CnResidentIdRecognizer",
            patterns=[
                Pattern(
                    "cn_resident_id",
                    r"(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])"
                    r"(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])",
                    0.6,
                )
            ],
            context=["身份证", "证件", "id"],
        ),
        # an IBAN or a UK National Insurance number as people type them, in groups, whether or not
        # its check digits or prefix letters are valid: a mistyped one is still the user's number
        PatternRecognizer(
            supported_entity="IBAN_CODE",
            name="GroupedIbanShapeRecognizer",
            patterns=[
                Pattern(
                    "iban_grouped",
                    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])",
                    0.6,
                )
            ],
        ),
        PatternRecognizer(
            supported_entity="UK_NINO",
            name="NinoShapeRecognizer",
            patterns=[
                Pattern("nino_shape", r"(?<![A-Za-z0-9])[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])", 0.6)
            ],
        ),
        PatternRecognizer(
            supported_entity="EMAIL_ADDRESS",
            name="AsciiEmailRecognizer",
            patterns=[
                Pattern(
                    "email_ascii",
                    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*"
                    r"[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
                    r"(?![A-Za-z0-9-])",
                    0.9,
                )
            ],
        ),
        pre.CreditCardRecognizer(
            name="DigitBoundCreditCardRecognizer",
            patterns=[Pattern("cc_digits", r"(?<![\d+])(?:\d[ -]?){12,18}\d(?!\d)", 0.3)],
        ),
        DigitCountPhoneRecognizer(
            supported_entity="PHONE_NUMBER",
            name="DigitBoundPhoneRecognizer",
            patterns=[
                Pattern(
                    "phone_intl",
                    r"(?<![\d+])(?:\+|00)[1-9]\d{0,2}[ -]?(?:\(\d{1,4}\)[ -]?)?\d{1,4}"
                    r"(?:[ -]?\d{2,4}){1,4}(?!\d)",
                    0.5,
                ),
                Pattern(
                    "phone_us",
                    r"(?<![\d+])(?:\+?1[ -.]?)?(?:\(\d{3}\)[ ]?|\d{3}[-.])\d{3}[-.]\d{4}(?!\d)",
                    0.5,
                ),
            ],
        ),
        IpAddressRecognizer(
            supported_entity="IP_ADDRESS",
            name="DigitBoundIpRecognizer",
            patterns=[
                Pattern("ipv4", r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)", 0.6),
                Pattern(
                    "ipv6",
                    r"(?<![0-9A-Za-z:])(?=[0-9A-Fa-f:]*[0-9A-Fa-f])(?:[0-9A-Fa-f]{0,4}:){2,7}"
                    r"[0-9A-Fa-f]{0,4}(?![0-9A-Za-z:])",
                    0.6,
                ),
            ],
        ),
    ]
    for cls_name in (
        "UkNinoRecognizer",
        "InAadhaarRecognizer",
        "InPanRecognizer",
        "SgFinRecognizer",
        "AuTfnRecognizer",
        "EsNifRecognizer",
        "ItFiscalCodeRecognizer",
        "PlPeselRecognizer",
        "KrRrnRecognizer",
    ):
        cls = getattr(pre, cls_name, None)
        if cls is not None:
            recognizers.append(cls(supported_language="en"))
    return recognizers
