"""What the memory and admin APIs accept: request bodies and query strings as pydantic models.

Each model is validated once at the edge (``gateway.api.validation``) and is also the source of
the OpenAPI document (``gateway.api.openapi``). Field rules and limits are not repeated here: the
validators call ``gateway.memory.validate`` (the same rules the memory service applies to every
write), and the JSON Schema patterns describe what those rules accept, so a generated request that
the schema calls valid is one the service accepts.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from gateway.chat.identity import MAX_ID_LENGTH, is_valid_id
from gateway.memory import CATEGORIES, KINDS, SCOPES, MemoryValidationError, validate

MAX_PAGE = 200
MAX_OFFSET = 10**9
MAX_PROMPT = 20_000

# Python's str.strip() removes what `\s` matches plus \x1c-\x1f; the patterns below spell that out
# so that Python's re and the Rust/ECMA engines of schema tools agree on what "blank" means.
_WS = r"[\s\x1c-\x1f]"
_NON_WS = r"[^\s\x1c-\x1f]"
# after stripping: not empty, no line break
_ONE_LINE_NOT_BLANK = rf"^{_WS}*[^\r\n]*{_NON_WS}[^\r\n]*{_WS}*$"
# after stripping: no "\n" (may be empty: an empty tag is skipped)
_TAG = rf"^{_WS}*(?:[^\n]*{_NON_WS})?{_WS}*$"

Title = Annotated[
    str,
    Field(max_length=validate.MAX_TITLE, json_schema_extra={"pattern": _ONE_LINE_NOT_BLANK}),
    AfterValidator(validate.title),
]
Content = Annotated[
    str,
    Field(max_length=validate.MAX_CONTENT, json_schema_extra={"pattern": _NON_WS}),
    AfterValidator(validate.content),
]
Category = Annotated[str, Field(json_schema_extra={"enum": list(CATEGORIES)}), AfterValidator(validate.category)]
Kind = Annotated[str, Field(json_schema_extra={"enum": list(KINDS)}), AfterValidator(validate.kind)]
Subcategory = Annotated[
    str,
    Field(max_length=validate.MAX_SUBCATEGORY, json_schema_extra={"pattern": r"^[^\n]*$"}),
    AfterValidator(validate.subcategory),
]
Tag = Annotated[str, Field(max_length=validate.MAX_TAG, json_schema_extra={"pattern": _TAG})]
Tags = Annotated[list[Tag], Field(max_length=validate.MAX_TAGS), AfterValidator(validate.tags)]
Score = Annotated[float, Field(ge=0.0, le=1.0), AfterValidator(validate.score)]
NonEmpty = Annotated[str, Field(min_length=1)]


# the characters an id may not hold, as far as a schema pattern can say it: control characters,
# no-break and other non-ASCII spaces, soft hyphen, zero-width and bidi controls, line and
# paragraph separators, byte-order mark, surrogates and private use. The server's rule
# (``is_valid_id``: printable) also refuses the rarer format and unassigned characters
_ID_REFUSED = (
    "\\x00-\\x1f\\x7f-\\xa0\\xad\\u1680\\u180e\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f"
    "\\u3000\\ud800-\\uf8ff\\ufeff\\ufff9-\\ufffb"
)
# what ``identifier`` accepts, as a JSON Schema pattern (for ids in paths too)
ID_PATTERN = f"[^{_ID_REFUSED}]*[^\\s{_ID_REFUSED}][^{_ID_REFUSED}]*"


def identifier(value: str) -> str:
    """A tenant or user id of the admin API, held to the rule of ``X-Memorelay-User``
    (``gateway.chat.identity.is_valid_id``): stripped, not blank, at most ``MAX_ID_LENGTH``
    characters, all printable."""
    value = value.strip()
    if not value:
        raise ValueError("must not be blank")
    if not is_valid_id(value):
        raise ValueError(f"must be printable and at most {MAX_ID_LENGTH} characters")
    return value


def _identifier_or_empty(value: str) -> str:
    return identifier(value) if value else value


# a tenant or user id: not blank, printable, surrounding whitespace dropped
Identifier = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_ID_LENGTH,
        json_schema_extra={"pattern": f"^{ID_PATTERN}$"},
    ),
    AfterValidator(identifier),
]


class _Body(BaseModel):
    """A JSON request body: exact types (no "true" for true), unknown fields refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # a fixed message for any error on a field, where the generic one would say less
    field_messages: ClassVar[dict[str, str]] = {}


class MemoryCreate(_Body):
    """A new personal memory (``POST /api/memories``, ``POST /api/admin/users/{user}/memories``)."""

    title: Title
    content: Content
    category: Category
    subcategory: Subcategory | None = None
    tags: Tags | None = None
    kind: Kind | None = Field(
        None,
        description="fact, preference, relation, episode or rule; when absent: a tag naming a kind, else rule "
        "for a standing instruction on the answers' language or style, preference for another user_preference, "
        "else fact",
    )
    pinned: bool = Field(
        False, description="L1: injected first on every turn (memory.max_pinned_per_user per user, 409 past it)"
    )


def _no_defaults(schema: dict[str, Any]) -> None:
    # in a patch an absent field stays as it is: there is no default to document
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)


class MemoryPatch(_Body):
    """The fields a user may change on an own personal memory; absent fields stay as they are."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_no_defaults)

    title: Title | SkipJsonSchema[None] = None
    content: Content | SkipJsonSchema[None] = None
    category: Category | SkipJsonSchema[None] = None
    subcategory: Subcategory | None = None
    kind: Kind | SkipJsonSchema[None] = None
    tags: Tags | None = None
    enabled: bool | SkipJsonSchema[None] = None
    pinned: bool | SkipJsonSchema[None] = None

    @model_validator(mode="before")
    @classmethod
    def _no_nulls(cls, data: Any) -> Any:
        # null means "clear" only where a field can be empty (subcategory, tags, disabled_reason)
        if isinstance(data, dict):
            for key in ("title", "content", "category", "kind", "enabled", "pinned", "score"):
                if key in cls.model_fields and key in data and data[key] is None:
                    raise MemoryValidationError(key, "must not be null")
        return data

    def changes(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


class AdminMemoryPatch(MemoryPatch):
    """An operator's change to any memory: also its score and the reason it is disabled."""

    score: Score | SkipJsonSchema[None] = None
    disabled_reason: str | None = None


class TenantMemoryCreate(MemoryCreate):
    """A shared or system memory for every user of a tenant (``POST /api/admin/memories``)."""

    tenant: Identifier
    scope: Literal["shared", "system"] = "shared"
    source: Literal["auto", "manual", "system"] | None = None
    score: Score | None = None


class SettingsUpdate(_Body):
    """``PUT /api/memories/settings``."""

    learning_enabled: bool


class PromptUpdate(_Body):
    """``PUT /api/admin/prompts/{name}``: a new prompt text, or null (or no ``prompt``) to reset it."""

    field_messages: ClassVar[dict[str, str]] = {
        "prompt": f"'prompt' must be a string of at most {MAX_PROMPT} characters with the {{conversation}} placeholder"
    }
    prompt: Annotated[str, Field(max_length=MAX_PROMPT, pattern=r"\{conversation\}")] | None = None


def _empty_is_absent(data: Any) -> Any:
    # `?limit=` means the default, as it always has
    if isinstance(data, dict):
        return {k: v for k, v in data.items() if v != ""}
    return data


def _flag(value: Any) -> Any:
    if isinstance(value, str) and value.lower() in ("0", "false", "no"):
        return False
    if isinstance(value, str) and value.lower() in ("1", "true", "yes"):
        return True
    return value


Flag = Annotated[bool, BeforeValidator(_flag)]
Limit = Annotated[int, Field(ge=1, le=MAX_PAGE)]
Offset = Annotated[int, Field(ge=0, le=MAX_OFFSET)]
CategoryFilter = Annotated[str, Field(json_schema_extra={"enum": list(CATEGORIES)}), AfterValidator(validate.category)]
KindFilter = Annotated[str, Field(json_schema_extra={"enum": list(KINDS)}), AfterValidator(validate.kind)]


def _scope(value: str) -> str:
    if value not in SCOPES:
        raise MemoryValidationError("scope", f"must be one of {', '.join(SCOPES)}")
    return value


class _Query(BaseModel):
    """A query string: unknown parameters are ignored, an empty one counts as absent."""

    model_config = ConfigDict(extra="ignore")
    field_messages: ClassVar[dict[str, str]] = {}

    _drop_empty = model_validator(mode="before")(_empty_is_absent)


class PageQuery(_Query):
    limit: Limit = 50
    offset: Offset = 0


class MemoryListQuery(PageQuery):
    """``GET /api/memories``: with ``q``, ranked by the retrieval that injection uses."""

    q: str = ""
    category: CategoryFilter | None = None
    kind: KindFilter | None = None
    scope: Annotated[str, Field(json_schema_extra={"enum": list(SCOPES)}), AfterValidator(_scope)] | None = None
    include_disabled: Flag = False


class DeleteAllQuery(_Query):
    field_messages: ClassVar[dict[str, str]] = {"confirm": "deleting all memories needs ?confirm=true"}
    confirm: Annotated[Flag, Field(json_schema_extra={"enum": [True]})]

    @model_validator(mode="after")
    def _confirmed(self) -> DeleteAllQuery:
        if not self.confirm:
            raise MemoryValidationError("confirm", "must be true")
        return self


class ExportQuery(_Query):
    format: Literal["json", "markdown", "csv"] = "json"


class TenantQuery(_Query):
    """An optional tenant filter of the admin API."""

    tenant: Identifier | None = None


class TenantPageQuery(TenantQuery, PageQuery):
    pass


class ReviewQuery(PageQuery):
    """Supersede reviews (``learning.review: queue``), oldest first: the pending ones unless asked."""

    state: Literal["pending", "accepted", "rejected"] = "pending"


class TenantReviewQuery(TenantQuery, ReviewQuery):
    pass


class ReflectionQuery(TenantPageQuery):
    """``GET /api/admin/reflections``: newest first; ``user`` one user's reports (with
    ``tenant``: in that tenant), an empty ``user`` is absent; ``kind`` only users' reports
    or only tenants' (a tenant report sums a round over the tenant's users)."""

    user: (
        Annotated[
            str,
            Field(max_length=MAX_ID_LENGTH, json_schema_extra={"pattern": f"^({ID_PATTERN})?$"}),
            AfterValidator(_identifier_or_empty),
        ]
        | None
    ) = None
    kind: Literal["user", "tenant"] | None = None


class UserMemoriesQuery(PageQuery):
    """``GET /api/admin/users/{user}/memories``: the user's personal memories in one tenant."""

    tenant: Identifier
    q: str = ""
    category: CategoryFilter | None = None
    kind: KindFilter | None = None
    include_disabled: Flag = False


class TenantRequiredQuery(_Query):
    tenant: Identifier


class ConsoleLinkFor(_Body):
    """``POST /api/admin/console-links``: whose ``/me/`` page the link opens."""

    tenant: Identifier
    user: Identifier
