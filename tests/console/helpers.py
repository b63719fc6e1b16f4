"""Shared by the console tests: minting links, reading a page's CSRF token, apps' clients."""

from __future__ import annotations

import re
from typing import Any

import httpx

ADMIN = "admin-secret"
APP_KEY = "sk-app"


def app_client(url: str, user: str, key: str = APP_KEY) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"authorization": f"Bearer {key}", "x-memorelay-user": user})


def add(url: str, user: str, title: str, content: str, category: str = "user_preference") -> dict[str, Any]:
    r = app_client(url, user).post("/api/memories", json={"title": title, "content": content, "category": category})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def mint(url: str, user: str, key: str = APP_KEY) -> str:
    r = app_client(url, user, key).post("/api/console-links")
    assert r.status_code == 201, r.text
    assert r.json()["expires_at"].endswith("Z")
    return str(r.json()["url"])


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def browser_session(url: str, link: str, secure_cookies: bool = False) -> tuple[httpx.Client, str]:
    """An httpx client that opened ``link`` like a browser would, and the page's CSRF token.
    ``secure_cookies``: send ``Secure`` cookies over this plain-http connection too (as a
    browser does to an https proxy in front of it)."""
    c = httpx.Client(base_url=url, headers={"origin": url})
    opened = c.get(link)
    assert opened.status_code == 200
    if secure_cookies:
        assert "secure" in opened.headers["set-cookie"].lower()
        for cookie in c.cookies.jar:
            cookie.secure = False
    page = c.get("/me/")
    assert page.status_code == 200, page.text
    return c, csrf_of(page.text)


def follow(page: Any, selector: str) -> None:
    """Clicks a link and waits for the page it opens to load: a bare click returns once the
    navigation has started, and a locator counted then may see the old page or an empty one."""
    with page.expect_navigation():
        page.click(selector)
