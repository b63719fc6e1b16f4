"""The MCP tools' names, descriptions and arguments: one pydantic model per tool.

Each model is both the tool's ``inputSchema`` (``model_json_schema``) and the validator of
its arguments, so the schema a client is shown cannot drift from what is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gateway.memory import validate
from gateway.store.kinds import Kind

Category = Literal["user_preference", "business", "technical", "organizational", "domain"]

_MAX_TEXT = validate.MAX_CONTENT
_MAX_ID = 256


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class RecallArgs(_Args):
    query: str = Field(min_length=1, max_length=4000, description="What the agent needs to know about, in words.")
    kind: Kind | None = Field(None, description="Only memories of this kind.")
    category: Category | None = Field(None, description="Only memories of this category.")
    limit: int | None = Field(
        None, ge=1, le=50, description="At most this many matches besides pinned ones (default: the injection top_k)."
    )
    model: str | None = Field(
        None, max_length=256, description="Fit the block to this model's token budget, as a chat with it would."
    )


class RememberArgs(_Args):
    text: str = Field(
        min_length=1,
        max_length=_MAX_TEXT,
        description='The fact to remember, as the user would say it after "remember:".',
    )


class ForgetArgs(_Args):
    id: str | None = Field(None, min_length=1, max_length=_MAX_ID, description="The id of the memory to forget.")
    description: str | None = Field(
        None,
        min_length=1,
        max_length=4000,
        description="What to forget, in words; every own memory that means it is forgotten.",
    )

    @model_validator(mode="after")
    def _one_of(self) -> ForgetArgs:
        if (self.id is None) == (self.description is None):
            raise ValueError("give exactly one of 'id' and 'description'")
        return self


class ListArgs(_Args):
    limit: int = Field(20, ge=1, le=100, description="Page size.")
    offset: int = Field(0, ge=0, description="Memories to skip (newest first).")
    kind: Kind | None = Field(None, description="Only memories of this kind.")
    category: Category | None = Field(None, description="Only memories of this category.")
    include_disabled: bool = Field(False, description="Also list forgotten and replaced memories.")


class UpdateArgs(_Args):
    id: str = Field(min_length=1, max_length=_MAX_ID, description="The id of an own memory.")
    text: str = Field(min_length=1, max_length=_MAX_TEXT, description="Its new text (the title follows from it).")


class PinArgs(_Args):
    id: str = Field(min_length=1, max_length=_MAX_ID, description="The id of an own memory.")
    pinned: bool = Field(description="true: given on every turn, whatever the question; false: only when relevant.")


class ProfileArgs(_Args):
    pass


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    arguments: type[_Args]
    read_only: bool
    destructive: bool = False

    def input_schema(self) -> dict[str, Any]:
        schema = self.arguments.model_json_schema()
        schema.pop("title", None)
        return schema


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "recall",
        "The user's memories relevant to a query, exactly as memorelay would put them before a chat turn: "
        "pinned memories first, then the best matches within the token budget. Returns the memory block "
        "text and the memories (ids, titles, contents).",
        RecallArgs,
        read_only=True,
    ),
    ToolSpec(
        "remember",
        'Store a fact about the user, as if they had said "remember: ..." in a chat: personal data is '
        "removed, instructions to the assistant are refused, a duplicate is not stored twice and a changed "
        "fact replaces the old one. Says what was stored, replaced or refused, and why.",
        RememberArgs,
        read_only=False,
    ),
    ToolSpec(
        "forget",
        'Forget one memory by id, or every own memory that means a description (as "forget ..." in a '
        "chat). Forgotten memories are disabled, no longer recalled or injected.",
        ForgetArgs,
        read_only=False,
        destructive=True,
    ),
    ToolSpec(
        "list",
        "The user's memories, newest first, one page at a time (own personal plus the tenant's shared ones).",
        ListArgs,
        read_only=True,
    ),
    ToolSpec(
        "update",
        "Replace the text of one of the user's own memories.",
        UpdateArgs,
        read_only=False,
        destructive=True,
    ),
    ToolSpec(
        "pin",
        "Pin a memory (given on every turn, whatever the question) or unpin it.",
        PinArgs,
        read_only=False,
    ),
    ToolSpec(
        "profile",
        "The user's profile to load at the start of a session: pinned memories and the most used facts, "
        "as one memory block.",
        ProfileArgs,
        read_only=True,
    ),
)
BY_NAME = {t.name: t for t in TOOLS}


def problem(exc: ValidationError) -> str:
    """A validation error as one line per field, without echoing the input."""
    lines = []
    for error in exc.errors(include_input=False, include_url=False):
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        lines.append(f"{where}: {error['msg']}")
    return "invalid arguments: " + "; ".join(lines)
