"""Configuration: read once from YAML, interpolated, validated, frozen, passed down.

Only this module reads the environment (``${VAR}`` / ``${VAR:-default}`` in the YAML, and
``MEMORELAY_CONFIG``). ``find_config`` decides which file is read: ``--config``, else
``$MEMORELAY_CONFIG``, else ``config/memorelay.yaml`` or ``memorelay.yaml`` in the working
directory. A relative ``memory.database`` is relative to the config file's folder, so the
gateway and the CLI find the same database from any working directory.
Errors name the file and the key path (``filters[0].memory_injection.top_k``).
Secrets are ``pydantic.SecretStr``: their ``repr`` is masked and ``masked_dump``
prints them as ``'***'``.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator

DEFAULT_CONFIG_PATH = "config/memorelay.yaml"
CONFIG_ENV = "MEMORELAY_CONFIG"
# looked for in the working directory, in this order, without --config or MEMORELAY_CONFIG
SEARCH_PATHS = (DEFAULT_CONFIG_PATH, "memorelay.yaml")
DEFAULT_DATABASE = "data/memorelay.db"

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class ConfigError(Exception):
    """A config file that cannot be used; the message names file and key path."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ServerConfig(_Frozen):
    host: str = "127.0.0.1"
    port: int = Field(8400, ge=0, le=65535)
    max_body_bytes: int = Field(10 * 1024 * 1024, gt=0)
    upstream_timeout_s: float = Field(600.0, gt=0)
    connect_timeout_s: float = Field(5.0, gt=0)
    # a request head / body that has not fully arrived in time gets a 408 (gateway/http/server_protocol.py)
    header_timeout_s: float = Field(10.0, gt=0)
    body_timeout_s: float = Field(30.0, gt=0)
    shutdown_grace_s: float = Field(30.0, ge=0)
    access_log: bool = True
    # a request line plus headers past this size, or with more headers, gets a 431
    max_head_bytes: int = Field(65536, ge=1024)
    max_headers: int = Field(100, ge=10)
    # browser origins (https://app.example) allowed to call the gateway cross-origin; none by default
    cors_origins: tuple[str, ...] = ()
    # when set, GET /metrics needs 'Authorization: Bearer <token>'
    metrics_token: SecretStr = SecretStr("")
    # reverse proxies (addresses or CIDRs) whose X-Forwarded-For / -Proto name the client; none by
    # default, so no caller can pick the address the wrong-key limit counts (gateway/http/forwarded.py).
    # One string is read as a comma-separated list (an environment variable)
    trusted_proxies: tuple[str, ...] = ()

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _proxy_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, proxies: tuple[str, ...]) -> tuple[str, ...]:
        for i, proxy in enumerate(proxies):
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"[{i}] {proxy!r} is not an address or network (10.0.0.5, 172.16.0.0/12)") from None
        return proxies

    @field_validator("cors_origins")
    @classmethod
    def _origins(cls, origins: tuple[str, ...]) -> tuple[str, ...]:
        for i, origin in enumerate(origins):
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
                raise ValueError(f"[{i}] {origin!r} is not an origin: write scheme://host[:port] (https://app.example)")
        return tuple(o.rstrip("/") for o in origins)


def _relay_patterns(patterns: tuple[str, ...]) -> tuple[str, ...]:
    for i, pattern in enumerate(patterns):
        if not pattern.startswith("/v1/"):
            raise ValueError(f"[{i}] {pattern!r}: a relay pattern is a path starting with /v1/ (* matches anything)")
    return patterns


class GatewayKey(_Frozen):
    key: SecretStr
    tenant: str = Field(min_length=1, max_length=128)
    # account-level upstream paths this tenant may reach besides upstreams.<name>.relay
    relay: tuple[str, ...] = ()

    @field_validator("relay")
    @classmethod
    def _patterns(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _relay_patterns(value)

    @field_validator("key")
    @classmethod
    def _not_empty(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value():
            raise ValueError("gateway key is empty (is its environment variable set?)")
        return value


class AuthConfig(_Frozen):
    keys: tuple[GatewayKey, ...] = ()
    admin_key: SecretStr = SecretStr("")
    # wrong gateway / admin keys one client address may send per window before 429s (0 = no limit)
    max_failures: int = Field(10, ge=0)
    failure_window_s: float = Field(60, gt=0)
    # pass-through mode only: serve requests that carry no credential (tenant 'anonymous',
    # or ``tenant``); off by default, since anyone who reaches the port would share it
    allow_anonymous: bool = False
    # pass-through mode only: one fixed tenant for every caller instead of a hash of each
    # credential, so a single-app deployment keeps its memories when its upstream key rotates
    tenant: str | None = Field(None, min_length=1, max_length=128)

    @field_validator("keys")
    @classmethod
    def _distinct_keys(cls, keys: tuple[GatewayKey, ...]) -> tuple[GatewayKey, ...]:
        seen: dict[str, int] = {}
        for i, k in enumerate(keys):  # the key itself is never part of the message
            first = seen.setdefault(k.key.get_secret_value(), i)
            if first != i:
                raise ValueError(
                    f"auth.keys[{i}].key is the same key as auth.keys[{first}].key "
                    f"(tenants {keys[first].tenant!r} and {k.tenant!r}): each gateway key names exactly one tenant"
                )
        return keys

    @model_validator(mode="after")
    def _pass_through_options(self) -> AuthConfig:
        if self.keys and (self.tenant is not None or self.allow_anonymous):
            raise ValueError("auth.tenant and auth.allow_anonymous apply to pass-through mode (no auth.keys) only")
        return self


def no_url_credentials(url: str) -> str:
    """Refuse ``user:password@`` in an upstream URL: it would be shown wherever the URL is,
    and the key belongs in ``api_key``. The message never repeats the URL."""
    if urlsplit(url).username is not None or "@" in urlsplit(url).netloc:
        raise ValueError("must not carry credentials (user:password@): put the key in api_key")
    return url


class DefaultUpstream(_Frozen):
    api_base: str = "https://api.openai.com/v1"
    api_key: SecretStr = SecretStr("")
    # account-level paths (files, batches, stored responses …) relayed although every tenant shares
    # the operator's upstream account; see gateway/relay/policy.py and the README's Security section
    relay: tuple[str, ...] = ()

    @field_validator("api_base")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return no_url_credentials(value).rstrip("/")

    @field_validator("relay")
    @classmethod
    def _patterns(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _relay_patterns(value)


class AnthropicUpstream(DefaultUpstream):
    """Target of ``/v1/messages``; an empty key forwards the caller's own ``x-api-key``."""

    api_base: str = "https://api.anthropic.com"


class ModelAlias(_Frozen):
    model_name: str = Field(min_length=1)
    litellm_params: dict[str, Any]
    model_info: dict[str, Any] = Field(default_factory=dict)

    @field_validator("litellm_params")
    @classmethod
    def _has_model(cls, value: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(value.get("model"), str) or not value["model"]:
            raise ValueError("litellm_params.model is required")
        if isinstance(value.get("api_base"), str):
            try:
                no_url_credentials(value["api_base"])
            except ValueError as exc:
                raise ValueError(f"litellm_params.api_base {exc}") from None
        return value


class UpstreamsConfig(_Frozen):
    default: DefaultUpstream = DefaultUpstream()
    anthropic: AnthropicUpstream = AnthropicUpstream()
    models: tuple[ModelAlias, ...] = ()


class EmbeddingConfig(_Frozen):
    provider: Literal["local", "litellm", "none"] = "local"
    model: str | None = None
    api_base: str | None = None
    api_key: SecretStr | None = None
    # where the local model keeps a fast-loading copy of its weights (gateway/memory/model_cache.py);
    # unset: the user's cache folder ($XDG_CACHE_HOME/memorelay, ~/.cache/memorelay); "": no copy
    cache_folder: str | None = None

    @field_validator("api_base")
    @classmethod
    def _no_credentials(cls, value: str | None) -> str | None:
        return value if value is None else no_url_credentials(value)


class RecallConfig(_Frozen):
    """Injection's ranking paths beyond relevance (``gateway/memory/recall.py``); 0 turns one off.
    Each bonus is added to relevance scaled to [0, 1] (1 = the best candidate), so a weight is
    the relevance gap it can close."""

    recency_weight: float = Field(0.05, ge=0, le=1)
    recency_half_life_days: float = Field(30, gt=0)
    popularity_weight: float = Field(0.1, ge=0, le=1)
    cooccurrence_weight: float = Field(0.05, ge=0, le=1)
    fatigue_weight: float = Field(0.3, ge=0, le=1)
    fatigue_turns: int = Field(3, ge=1, le=50)


class MemoryConfig(_Frozen):
    database: str = DEFAULT_DATABASE
    embedding: EmbeddingConfig = EmbeddingConfig()
    default_context_window: int = Field(8192, gt=0)
    checkpoint_interval_s: float = Field(600, gt=0)
    busy_timeout_ms: int = Field(5000, ge=0)
    max_database_mb: float | None = Field(None, gt=0)
    max_manual_memories_per_user: int = Field(1000, ge=1)
    # pinned (L1) memories a user may keep: injected on every turn, so kept few (409 past it)
    max_pinned_per_user: int = Field(10, ge=0)
    # ?q= searches (APIs, /me/, console) keep a hit only when a word matched or its cosine to
    # the query reaches this (0 = no floor); calibrated on the local encoder, README "Search"
    search_min_relevance: float = Field(0.15, ge=0, le=1)
    # retrieval from memory for the users this process serves (LRU within this budget; 0 = off),
    # for partitions of at most working_set_max_rows memories (bigger ones are searched in the store)
    working_set_mb: float = Field(256, ge=0)
    working_set_max_rows: int = Field(50_000, ge=1)
    recall: RecallConfig = RecallConfig()

    @field_validator("database")
    @classmethod
    def _sqlite_or_postgres(cls, value: str) -> str:
        scheme = database_url_scheme(value)
        if scheme is None:
            return value
        if scheme in ("postgresql", "postgres"):
            if not urlsplit(value).path.strip("/"):
                raise ValueError("a PostgreSQL URL names its database: postgresql://user@host:5432/memorelay")
            return value
        raise ValueError(f"'{scheme}://' databases are not supported: use a SQLite file path or a postgresql:// URL")

    @property
    def is_postgres(self) -> bool:
        return database_url_scheme(self.database) in ("postgresql", "postgres")


class ConsoleConfig(_Frozen):
    """The user page ``/me/`` and the operator console ``/console/`` (SPEC section 9)."""

    # signs console links; empty = a random key per process on SQLite (links die on restart), and on
    # PostgreSQL a key from a seed stored in the database and auth.admin_key (gateway.console.links)
    secret: SecretStr = SecretStr("")
    link_ttl_s: float = Field(900, gt=0)
    session_ttl_s: float = Field(8 * 3600, gt=0)
    # CSP frame-ancestors sources allowed to embed the pages ("'none'", "'self'", "https://app.example")
    frame_ancestors: str = "'none'"
    # base of minted links (e.g. https://memory.example.com); empty = the request's own scheme and host
    public_url: str = ""

    @field_validator("frame_ancestors", "public_url")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if any(c in value for c in ';,\r\n"<>'):
            raise ValueError("must not contain ';', ',', '\"', '<', '>' or line breaks")
        return value.strip().rstrip("/")


@dataclass(frozen=True, slots=True)
class FilterSpec:
    """One ``filters:`` entry: a registry name or ``module:Class``, and its raw options."""

    name: str
    options: dict[str, Any]
    index: int


class BackupConfig(_Frozen):
    """Scheduled backups the gateway writes (``memorelay backup`` files); ``interval_h: 0`` is off.
    A relative ``folder`` is relative to the config file's folder, like ``memory.database``."""

    interval_h: float = Field(0, ge=0)
    folder: str = "../data/backups"
    keep: int = Field(7, ge=1)


class TelemetryConfig(_Frozen):
    """OpenTelemetry traces over OTLP/HTTP (``gateway.telemetry``); off by default, and then the
    OpenTelemetry packages are not even imported (``pip install memorelay[telemetry]``)."""

    enabled: bool = False
    # the collector's OTLP/HTTP base URL; spans are posted to <endpoint>/v1/traces
    endpoint: str = "http://127.0.0.1:4318"
    service_name: str = Field("memorelay", min_length=1)
    # extra headers on every export (a hosted collector's API key …)
    headers: dict[str, SecretStr] = Field(default_factory=dict)
    # share of new traces recorded (a continued traceparent keeps the app's decision)
    sample_ratio: float = Field(1.0, ge=0, le=1)
    # finished spans are sent in batches at least this often
    export_interval_ms: float = Field(5000, gt=0)
    # keys the tenant and user hashes in span attributes (empty: a fixed key, so a guessable id
    # could be found by hashing guesses; set one to make the hashes unguessable)
    hash_key: SecretStr = SecretStr("")

    @field_validator("endpoint")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if urlsplit(value).scheme not in ("http", "https"):
            raise ValueError("must be an http:// or https:// URL (the collector's OTLP/HTTP port, usually 4318)")
        return value.rstrip("/")


class Config(_Frozen):
    server: ServerConfig = ServerConfig()
    auth: AuthConfig = AuthConfig()
    upstreams: UpstreamsConfig = UpstreamsConfig()
    memory: MemoryConfig = MemoryConfig()
    console: ConsoleConfig = ConsoleConfig()
    backup: BackupConfig = BackupConfig()
    telemetry: TelemetryConfig = TelemetryConfig()
    filters: tuple[Any, ...] = ()
    source: str = "<defaults>"

    @property
    def filter_specs(self) -> list[FilterSpec]:
        return [_filter_spec(entry, i, self.source) for i, entry in enumerate(self.filters)]

    @property
    def gateway_key_mode(self) -> bool:
        return bool(self.auth.keys)


def _filter_spec(entry: Any, index: int, source: str) -> FilterSpec:
    where = f"{source}: filters[{index}]"
    if isinstance(entry, str):
        return FilterSpec(entry, {}, index)
    if isinstance(entry, dict) and len(entry) == 1:
        ((name, options),) = entry.items()
        if options is None:
            options = {}
        if not isinstance(name, str) or not isinstance(options, dict):
            raise ConfigError(f"{where}: expected 'name: {{options}}'")
        return FilterSpec(name, dict(options), index)
    raise ConfigError(f"{where}: expected a filter name or 'name: {{options}}'")


def interpolate(value: Any, env: dict[str, str], path: str = "") -> Any:
    """Replace ``${VAR}`` and ``${VAR:-default}`` in every string of a parsed YAML tree."""
    if isinstance(value, str):
        return _interpolate_str(value, env, path)
    if isinstance(value, list):
        return [interpolate(v, env, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: interpolate(v, env, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
    return value


def _interpolate_str(text: str, env: dict[str, str], path: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in env:
            return env[name]
        if default is not None:
            return default
        raise ConfigError(f"{path}: environment variable {name} is not set (write ${{{name}:-}} if optional)")

    return _VAR.sub(replace, text)


@dataclass(frozen=True, slots=True)
class ConfigLocation:
    """The config file to read (absolute) and how it was chosen, for messages."""

    path: Path
    origin: str  # "--config" | "MEMORELAY_CONFIG" | "working directory" | "bundled default"
    # the folder its relative paths are relative to, when not the file's own (an installed copy)
    relative_to: Path | None = None

    @property
    def folder(self) -> Path:
        return self.relative_to or self.path.parent


def find_config(
    explicit: str | Path | None = None, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> ConfigLocation:
    """``explicit`` (``--config``), else ``$MEMORELAY_CONFIG``, else the first of
    ``SEARCH_PATHS`` in the working directory, else the default config memorelay comes with
    (``bundled_config``); ``ConfigError`` lists where it looked."""
    env = os.environ if env is None else env
    if explicit:
        return ConfigLocation(_absolute(Path(explicit), cwd), "--config")
    if env.get(CONFIG_ENV):
        return ConfigLocation(_absolute(Path(env[CONFIG_ENV]), cwd), CONFIG_ENV)
    tried = [_absolute(Path(p), cwd) for p in SEARCH_PATHS]
    for candidate in tried:
        if candidate.is_file():
            return ConfigLocation(candidate, "working directory")
    bundled = bundled_config(env)
    if bundled is not None:
        return bundled
    raise ConfigError(
        "no config file found: --config is not given, MEMORELAY_CONFIG is not set, and none of "
        + ", ".join(str(p) for p in tried)
        + " exists (pass --config PATH, set MEMORELAY_CONFIG, or copy config/memorelay.yaml there)"
    )


def bundled_config(env: Mapping[str, str]) -> ConfigLocation | None:
    """The default config: a source checkout's ``config/memorelay.yaml`` (its relative paths
    as with ``--config``: the checkout's ``data/``), else the copy an installed wheel carries
    (``gateway/_defaults``, see setup.py), whose relative paths are relative to
    ``$XDG_DATA_HOME/memorelay/config`` (``~/.local/share``): its database is then
    ``~/.local/share/memorelay/data/memorelay.db``, never a file inside the installation."""
    checkout = Path(__file__).resolve().parents[1] / DEFAULT_CONFIG_PATH
    if checkout.is_file():
        return ConfigLocation(checkout, "bundled default")
    installed = Path(__file__).resolve().parent / "_defaults" / "memorelay.yaml"
    if installed.is_file():
        data = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "share")
        return ConfigLocation(installed, "bundled default", relative_to=Path(data) / "memorelay" / "config")
    return None


def _absolute(path: Path, cwd: Path | None) -> Path:
    path = path.expanduser()
    return Path(os.path.normpath(path if path.is_absolute() else (cwd or Path.cwd()) / path))


def load_config(path: str | Path | ConfigLocation | None = None, env: dict[str, str] | None = None) -> Config:
    """Read, interpolate and validate a config file; raise ``ConfigError`` naming the key path.
    Without ``path`` the file is found by ``find_config``."""
    location = path if isinstance(path, ConfigLocation) else find_config(path, env)
    file = location.path
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        given = f" named by {CONFIG_ENV}" if location.origin == CONFIG_ENV else ""
        raise ConfigError(f"{file}: cannot read config file{given} ({exc.strerror})") from exc
    try:
        raw = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{file}: invalid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise ConfigError(f"{file}: the top level must be a mapping")
    try:
        raw = interpolate(raw, dict(os.environ) if env is None else env)
    except ConfigError as exc:
        raise ConfigError(f"{file}: {exc}") from exc
    folder = location.folder
    raw = _resolve_backup_folder(_resolve_database(raw, folder), folder)
    raw = _resolve_cache_folder(raw, folder, os.environ if env is None else env)
    return config_from_dict(raw, source=str(file))


_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_QUERY_PASSWORD = re.compile(r"((?:^|&)password=)[^&]*", re.IGNORECASE)


def database_url_scheme(database: str) -> str | None:
    """The scheme of a ``scheme://…`` database URL (a SQLite ``file:`` URI is not one), else None."""
    match = _URL_SCHEME.match(database)
    if match is None or match.group(1).lower() == "file":
        return None
    return match.group(1).lower()


def display_database(database: str) -> str:
    """``database`` as it may be shown in logs and errors: a URL's password is masked."""
    if database_url_scheme(database) is None:
        return database
    parts = urlsplit(database)
    if parts.password is not None:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    return urlunsplit(parts._replace(query=_QUERY_PASSWORD.sub(r"\1***", parts.query)))


def _resolve_database(raw: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Make ``memory.database`` absolute, relative to the config file's ``folder``
    (``:memory:``, ``""`` and ``file:`` URIs stay as they are)."""
    memory = raw.get("memory", {})
    if not isinstance(memory, dict):
        return raw  # validation names the problem
    database = memory.get("database", DEFAULT_DATABASE)
    if not isinstance(database, str) or database in ("", ":memory:") or database.startswith("file:"):
        return raw
    if database_url_scheme(database) is not None:
        return raw  # a URL (PostgreSQL, or refused by validation) is never made into a path
    return {**raw, "memory": {**memory, "database": str(_absolute(Path(database), folder))}}


def _resolve_backup_folder(raw: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Make ``backup.folder`` absolute, relative to the config file's ``folder``."""
    backup = raw.get("backup", {})
    if not isinstance(backup, dict):
        return raw  # validation names the problem
    target = backup.get("folder", BackupConfig().folder)
    if not isinstance(target, str):
        return raw
    return {**raw, "backup": {**backup, "folder": str(_absolute(Path(target), folder))}}


def user_cache_folder(env: Mapping[str, str]) -> str:
    """memorelay's folder in the user's cache: ``$XDG_CACHE_HOME/memorelay``, else ``~/.cache/memorelay``."""
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memorelay")


def _resolve_cache_folder(raw: dict[str, Any], folder: Path, env: Mapping[str, str]) -> dict[str, Any]:
    """An unset ``memory.embedding.cache_folder`` is the user's cache folder; a relative one is
    relative to the config file's ``folder``, like ``memory.database``; ``""`` stays (no copy)."""
    memory = raw.get("memory", {})
    embedding = memory.get("embedding", {}) if isinstance(memory, dict) else None
    if not isinstance(embedding, dict):
        return raw  # validation names the problem
    target = embedding.get("cache_folder")
    if target is None:
        target = user_cache_folder(env)
    elif not isinstance(target, str) or not target:
        return raw
    embedding = {**embedding, "cache_folder": str(_absolute(Path(target), folder))}
    return {**raw, "memory": {**memory, "embedding": embedding}}


def config_from_dict(raw: dict[str, Any], source: str = "<dict>") -> Config:
    try:
        config = Config.model_validate({**raw, "source": source})
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source)) from exc
    config.filter_specs  # noqa: B018 - validates the shape of every filter entry
    return config


def _describe(exc: ValidationError, source: str) -> str:
    lines = []
    for err in exc.errors():
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".")
        lines.append(f"{source}: {loc or '<root>'}: {err['msg']}")
    return "\n".join(lines)


def masked_dump(config: Config) -> dict[str, Any]:
    """The effective config as plain data, every secret shown as '***' (or '' when unset)."""
    masked: dict[str, Any] = _mask(config.model_dump(mode="python", exclude={"source"}))
    masked["memory"]["database"] = display_database(config.memory.database)
    return masked


_SECRET_WORDS = ("key", "secret", "token", "password")


def _mask(value: Any, name: str = "") -> Any:
    if isinstance(value, SecretStr):
        return "***" if value.get_secret_value() else ""
    if isinstance(value, str) and value and any(w in name.lower() for w in _SECRET_WORDS):
        return "***"  # e.g. litellm_params.api_key, which stays a plain string for litellm
    if isinstance(value, dict):
        return {k: _mask(v, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_mask(v) for v in value]
    return value
