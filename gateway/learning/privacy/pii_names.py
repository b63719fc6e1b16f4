"""Which person names the scrubber takes for names: spaCy's small English model tags many
product names as PERSON ("Spring Boot", "Jest"), and run over Chinese text it returns whole
clauses; these rules keep the plausible names and leave the things the user works with."""

from __future__ import annotations

import re

_LATIN_NAME = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f.' \-]*")
_CAMEL = re.compile(r"[a-z][A-Z]")
_NAME_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|Le|La|Van|Von|O')[A-Z]")
# spaCy's small model tags many product names as PERSON; these are never scrubbed as names.
NOT_NAMES = frozenset(
    """
    python java javascript typescript golang go rust ruby perl php scala kotlin swift haskell
    elixir erlang clojure julia dart lua matlab fortran cobol bash zsh powershell
    django flask fastapi starlette uvicorn pydantic numpy pandas pytorch torch tensorflow keras
    spark hadoop kafka airflow celery redis postgres postgresql mysql mariadb sqlite mongodb
    mongo cassandra elasticsearch opensearch clickhouse snowflake bigquery redshift dynamodb
    docker kubernetes helm terraform ansible jenkins grafana prometheus kibana nginx apache
    git github gitlab bitbucket jira confluence slack notion figma vim neovim emacs vscode
    linux ubuntu debian fedora centos windows macos android ios react vue angular svelte next
    nuxt node deno bun webpack vite babel jest pytest mypy ruff black poetry pip conda
    aws azure gcp heroku vercel netlify cloudflare openai anthropic claude chatgpt gemini llama
    mistral ollama litellm presidio spacy hnswlib faiss qdrant milvus pinecone weaviate chroma
    excel word powerpoint outlook teams zoom grpc graphql kotlin laravel rails spring hibernate
    jupyter datadog sentry splunk kibana pagerduty boot code studio switch deck playstation xbox steam
    godot unity unreal blender photoshop figma json yaml toml cloud actions pages drive docs sheets
    """.split()
)


def plausible_name(span: str) -> bool:
    """Drop PERSON hits that are product names, acronyms or lower-case words."""
    span = span.strip()
    if not _LATIN_NAME.fullmatch(span):
        return False
    tokens = span.replace("'s", "").split()
    if any(t.lower().strip(".'-") in NOT_NAMES for t in tokens):
        return False  # "Spring Boot", "Nintendo Switch": a product word makes it a product
    if any(t[:1].islower() for t in tokens):
        return False  # names are capitalised; "json please" is not a person
    if any(_CAMEL.search(t) and not _NAME_PREFIX.match(t) for t in tokens) or any(t.isupper() for t in tokens):
        return False
    return True


CJK_NAME = re.compile(r"[\u4e00-\u9fff]{2,4}")
# words right before a span that make it a thing the user works with, not a person
_PRODUCT_BEFORE = re.compile(
    r"(?:\b(?:use|uses|used|using|in|on|into|onto|via|configure|configuring|configured|install|installed|installing"
    r"|deploy|deployed|deploying|host|hosted|hosting|run|runs|running|prefer|prefers|preferred|switch(?:ed)? to"
    r"|mov(?:e|ed|ing) (?:\w+ ){0,2}to|migrat\w* to|port\w* to|target|targets|targeting|try|tried|learn|learning"
    r"|adopt\w*|upgrade\w*(?: to)?|love|like|hate|build with|built with|built on|based on|powered by)"
    r"|用|使用|换成了?|改用|迁到|迁移到|部署在|基于|跑在|接入|集成|装了?|在用)"
    r"\s*(?:the |a |an |our |my |their |its |some |of )?$",
    re.IGNORECASE,
)
# words right after a span that make it a product
_PRODUCT_AFTER = re.compile(
    r"^\s*(?:please\b|app\b|apps\b|api\b|sdk\b|server\b|cloud\b|cli\b|plugin|extension|version|v?\d"
    r"|config|files?\b|cluster|instance|account|dashboard|editor|ide\b|framework|library|database|db\b"
    r"|for (?:this|that|it|everything)\b|over (?:the|other)\b|做|来做|写|跑|部署|里|上"
    r"|as (?:the|a|an|our|my|their) (?:editor|ide|tool|database|db|backend|frontend|stack|framework|language|server"
    r"|host|platform|cms|os|runtime|orchestrator|queue|broker|cache)\b)",
    re.IGNORECASE,
)
# words right before a span that say it is a person, whatever follows
_PERSON_BEFORE = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|dear|hi|hello|ask|asked|call|called|email|emailed|tell|told|cc|named|name is"
    r"|colleague|boss|manager|friend|wife|husband|partner|son|daughter|mother|father|sister|brother)"
    r"|联系|找|问|是|和|跟|给|叫)\.?\s*$",
    re.IGNORECASE,
)


_LATIN_IN_SPAN = re.compile(r"(?<![A-Za-z])[A-Z][a-z\u00c0-\u024f]+(?:[ -][A-Z][a-z\u00c0-\u024f]+){0,2}(?![A-Za-z])")


def name_parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The plausible names inside a PERSON span. spaCy's English model run over Chinese text
    returns spans such as "请联系Linda Williams确认一下": keep "Linda Williams" (and Chinese
    names jieba confirms), never the whole clause."""
    from gateway.learning.offline.chinese import person_names

    span = text[start:end]
    if CJK_NAME.fullmatch(span.strip()):
        return [(start, end)] if span.strip() in person_names(text) else []
    if not re.search(r"[\u3400-\u9fff]", span):
        return [(start, end)] if plausible_name(span) else []

    parts = [(start + m.start(), start + m.end()) for m in _LATIN_IN_SPAN.finditer(span) if plausible_name(m.group(0))]
    for name in set(person_names(text)):  # segmenting the whole text tags names more reliably
        parts.extend((start + m.start(), start + m.end()) for m in re.finditer(re.escape(name), span))
    return parts


def product_context(text: str, start: int, end: int) -> bool:
    before, after = text[max(0, start - 40) : start], text[end : end + 30]
    if _PERSON_BEFORE.search(before):
        return False
    return bool(_PRODUCT_BEFORE.search(before) or _PRODUCT_AFTER.match(after))
