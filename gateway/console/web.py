"""What the console pages share: templates from package files, security headers, forms, cookies.

Pages are rendered on the server (Jinja2, autoescaped) and work without JavaScript; the
Content-Security-Policy allows only this origin's stylesheet, no scripts at all, forms
posting only here, and framing only by ``console.frame_ancestors``.
"""

from __future__ import annotations

import importlib.resources
import urllib.parse
from collections.abc import Callable
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from gateway.config import ConsoleConfig
from gateway.console.i18n import choose_language, translator
from gateway.console.words import actor_key, change_reason, date, linked, when, when_phrase, why_off
from gateway.errors import PayloadTooLarge

_PACKAGE = "gateway.console"
_MAX_FORM_BYTES = 1_000_000
STATIC_FILES = {"console.css": "text/css; charset=utf-8", "favicon.svg": "image/svg+xml"}


def _load_template(name: str) -> str:
    return (importlib.resources.files(_PACKAGE) / "templates" / name).read_text(encoding="utf-8")


def static_file(name: str) -> bytes:
    return (importlib.resources.files(_PACKAGE) / "static" / name).read_bytes()


class Pages:
    """Renders templates with the caller's language and the console's security headers."""

    def __init__(self, config: ConsoleConfig) -> None:
        self.env = jinja2.Environment(
            loader=jinja2.FunctionLoader(_load_template),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.headers = security_headers(config.frame_ancestors, https=config.public_url.startswith("https://"))
        public = urllib.parse.urlsplit(config.public_url)
        # behind a proxy that rewrites Host, the browser's Origin is the public address
        self.public_origin = f"{public.scheme}://{public.netloc}" if public.netloc else None

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        language = choose_language(request.headers.get("accept-language"))
        t: Callable[..., str] = translator(language)
        html = self.env.get_template(template).render(
            t=t,
            lang=language,
            when=lambda iso: when(iso, language),
            when_phrase=lambda iso: when_phrase(iso, language),
            day=lambda iso: date(iso, language),
            linked=linked,
            why_off=why_off,
            actor_key=actor_key,
            change_reason=change_reason,
            **context,
        )
        response = HTMLResponse(html, status, headers=self.headers)
        response.headers["content-language"] = "zh-CN" if language == "zh" else "en"
        response.headers["vary"] = "Accept-Language, Cookie"
        return response

    def same_origin(self, request: Request) -> bool:
        """A POST whose ``Origin`` (when the browser sends one) is this server or ``console.public_url``."""
        origin = request.headers.get("origin")
        if origin is None:
            return True
        host = request.headers.get("host", "")
        return origin in (f"http://{host}", f"https://{host}") or origin == self.public_origin

    def redirect(self, url: str) -> Response:
        return RedirectResponse(url, 303, headers=self.headers)


def security_headers(frame_ancestors: str, *, https: bool = False) -> dict[str, str]:
    csp = (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        f"base-uri 'none'; frame-ancestors {frame_ancestors}"
    )
    headers = {
        "content-security-policy": csp,
        "x-content-type-options": "nosniff",
        "referrer-policy": "same-origin",
        "cache-control": "no-store",
        "cross-origin-opener-policy": "same-origin",
    }
    if https:  # served to browsers over https only (console.public_url): keep it so
        headers["strict-transport-security"] = "max-age=31536000"
    if frame_ancestors == "'none'":
        headers["x-frame-options"] = "DENY"
    elif frame_ancestors == "'self'":
        headers["x-frame-options"] = "SAMEORIGIN"
    return headers


async def read_form(request: Request) -> dict[str, str]:
    """An ``application/x-www-form-urlencoded`` body (last value wins), size-limited."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > _MAX_FORM_BYTES:
            raise PayloadTooLarge(f"form over {_MAX_FORM_BYTES} bytes")
    pairs = urllib.parse.parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True)
    return dict(pairs)


def set_session_cookie(response: Response, request: Request, name: str, value: str, path: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=path,
        httponly=True,
        samesite="strict",
        # behind a TLS-terminating proxy the request itself may look like plain http
        secure=request.url.scheme == "https" or _public_https(request),
    )


def _public_https(request: Request) -> bool:
    return str(request.app.state.services.config.console.public_url).startswith("https://")


def clear_cookie(response: Response, name: str, path: str) -> None:
    response.delete_cookie(name, path=path, httponly=True, samesite="strict")


def query_string(**values: Any) -> str:
    kept = {k: v for k, v in values.items() if v not in (None, "", 0)}
    return ("?" + urllib.parse.urlencode(kept)) if kept else ""
