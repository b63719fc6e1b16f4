"""Console links and sessions over real HTTP: signing, expiry, logout, CSRF, isolation, consent,
headers and language. The browser tests (test_browser.py) drive the same flows in Chromium."""

from __future__ import annotations

import time

import httpx

from gateway.auth import pass_through_tenant
from gateway.console.links import LinkSigner
from tests.conftest import GatewayFactory
from tests.console.helpers import ADMIN, APP_KEY, add, app_client, browser_session, mint
from tests.e2e.test_learning import learning, say


def test_link_opens_a_session_for_exactly_that_user(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": ADMIN}) as url:
        add(url, "alice", "Drinks green tea", "Alice drinks green tea every morning.")
        add(url, "bob", "Plays chess", "Bob plays chess on Sundays.")
        c = httpx.Client(base_url=url)
        opened = c.get(mint(url, "alice"))
        assert opened.status_code == 200
        cookie = opened.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/me/" in cookie
        page = c.get("/me/")
        assert "Signed in as alice" in page.text and "Drinks green tea" in page.text
        assert "Plays chess" not in page.text
        # without the cookie there is no page
        assert httpx.get(url + "/me/").status_code == 403


def test_admin_mints_for_any_tenant_and_user(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": ADMIN}) as url:
        add(url, "carol", "Lives in Lyon", "Carol lives in Lyon.")
        body = {"tenant": pass_through_tenant(f"Bearer {APP_KEY}"), "user": "carol"}
        assert httpx.post(url + "/api/admin/console-links", json=body).status_code == 401
        admin = {"authorization": f"Bearer {ADMIN}"}
        r = httpx.post(url + "/api/admin/console-links", json=body, headers=admin)
        assert r.status_code == 201
        c, _ = browser_session(url, r.json()["url"])
        assert "Lives in Lyon" in c.get("/me/").text
        bad = httpx.post(url + "/api/admin/console-links", json={"user": "x"}, headers=admin)
        assert bad.status_code == 400 and bad.json()["error"]["param"] == "tenant"


def test_forged_expired_and_replayed_links_get_403(gateway: GatewayFactory) -> None:
    secret = "console-test-secret"
    with gateway(console={"secret": secret}) as url:
        link = mint(url, "alice")
        token = link.split("token=")[1]
        claims, signature = token.split(".")
        other = mint(url, "bob").split("token=")[1].split(".")[0]
        for forged in (f"{other}.{signature}", f"{claims}.{signature[:-2]}AA", "garbage", ""):
            r = httpx.get(url + "/me/open", params={"token": forged})
            assert r.status_code == 403 and "This link does not work" in r.text
        tenant = pass_through_tenant(f"Bearer {APP_KEY}")
        expired, _ = LinkSigner(secret, 900).mint(tenant, "alice", now=time.time() - 901)
        assert httpx.get(url + "/me/open", params={"token": expired}).status_code == 403
        fresh, _ = LinkSigner(secret, 900).mint(tenant, "alice")  # same secret: a genuine link
        assert httpx.get(url + "/me/open", params={"token": fresh}).status_code == 200
        # logging out ends the session and the link that started it
        c, csrf = browser_session(url, link)
        assert c.post("/me/logout", data={"csrf": csrf}).status_code == 200
        assert c.get("/me/").status_code == 403
        assert httpx.get(link).status_code == 403


def test_links_survive_a_restart_only_with_a_configured_secret(gateway: GatewayFactory) -> None:
    with gateway(console={"secret": "s1"}) as url:
        signed = mint(url, "alice")
    with gateway() as url:
        random_key = mint(url, "alice")
    with gateway(console={"secret": "s1"}) as url:
        assert httpx.get(url + "/me/open?" + signed.split("?")[1]).status_code == 200
        assert httpx.get(url + "/me/open?" + random_key.split("?")[1]).status_code == 403


def test_changes_need_the_csrf_token_and_the_own_origin(gateway: GatewayFactory) -> None:
    with gateway() as url:
        m = add(url, "alice", "Drinks green tea", "Alice drinks green tea.")
        c, csrf = browser_session(url, mint(url, "alice"))
        assert c.post(f"/me/memories/{m['id']}/delete", data={}).status_code == 403
        assert c.post(f"/me/memories/{m['id']}/delete", data={"csrf": "x" + csrf}).status_code == 403
        cross = c.post(f"/me/memories/{m['id']}/delete", data={"csrf": csrf}, headers={"origin": "https://evil.test"})
        assert cross.status_code == 403
        assert app_client(url, "alice").get(f"/api/memories/{m['id']}").status_code == 200
        assert c.post(f"/me/memories/{m['id']}/delete", data={"csrf": csrf}).status_code == 303
        assert app_client(url, "alice").get(f"/api/memories/{m['id']}").status_code == 404


def test_behind_a_proxy_the_public_origin_is_accepted(gateway: GatewayFactory) -> None:
    with gateway(console={"public_url": "https://memory.example.com/"}) as url:
        link = mint(url, "alice")
        assert link.startswith("https://memory.example.com/me/open?token=")
        # the proxy speaks https to the browser, so the session cookie is Secure: httpx, speaking
        # plain http to the gateway here, is told to send it anyway
        c, csrf = browser_session(url, url + link.removeprefix("https://memory.example.com"), secure_cookies=True)
        proxied = {"origin": "https://memory.example.com"}
        assert c.post("/me/settings", data={"csrf": csrf, "learning": "off"}, headers=proxied).status_code == 303
        other = {"origin": "https://other.example.com"}
        assert c.post("/me/settings", data={"csrf": csrf, "learning": "on"}, headers=other).status_code == 403


def test_a_session_cannot_reach_another_users_memory(gateway: GatewayFactory) -> None:
    with gateway() as url:
        theirs = add(url, "bob", "Bob's secret", "Bob's bank is Example Bank.")
        c, csrf = browser_session(url, mint(url, "alice"))
        assert c.get(f"/me/memories/{theirs['id']}").status_code == 404
        edit = {"csrf": csrf, "title": "mine now", "content": "x", "category": "domain"}
        assert c.post(f"/me/memories/{theirs['id']}", data=edit).status_code == 404
        assert c.post(f"/me/memories/{theirs['id']}/delete", data={"csrf": csrf}).status_code == 404
        assert c.post("/me/clear", data={"csrf": csrf, "confirm": "yes"}).status_code == 303
        still = app_client(url, "bob").get(f"/api/memories/{theirs['id']}")
        assert still.status_code == 200 and still.json()["title"] == "Bob's secret"
        assert "Bob's" not in c.get("/me/", params={"q": "bank"}).text


def test_opt_in_consent_learns_only_after_the_user_turns_learning_on(gateway: GatewayFactory) -> None:
    with gateway(filters=learning(model="heuristic", consent="opt_in")) as url:
        assert say(url, "erin", "I prefer tabs.")["x-memorelay-learning"] == "skipped; reason=disabled"
        assert app_client(url, "erin").get("/api/memories/settings").json() == {"learning_enabled": False}
        c, csrf = browser_session(url, mint(url, "erin", key="sk-app"))
        page = c.get("/me/").text
        assert "learns only after you turn learning on" in page and 'data-learning="off"' in page
        assert c.post("/me/settings", data={"csrf": csrf, "learning": "on"}).status_code == 303
        assert say(url, "erin", "I prefer tabs.")["x-memorelay-learning"] == "queued"


def test_security_headers_and_frame_ancestors(gateway: GatewayFactory) -> None:
    with gateway() as url:
        r = httpx.get(url + "/console/login")
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "script-src" not in csp
        assert r.headers["x-frame-options"] == "DENY"
    with gateway(console={"frame_ancestors": "https://app.example"}) as url:
        r = httpx.get(url + "/console/login")
        assert "frame-ancestors https://app.example" in r.headers["content-security-policy"]
        assert "x-frame-options" not in r.headers


def test_chinese_text_by_accept_language(gateway: GatewayFactory) -> None:
    with gateway() as url:
        c, _ = browser_session(url, mint(url, "alice"))
        zh = c.get("/me/", headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.8"})
        assert "AI 记住的关于你的信息" in zh.text and zh.headers["content-language"] == "zh-CN"
        en = c.get("/me/", headers={"accept-language": "en-GB,zh;q=0.5"})
        assert "What the AI knows about you" in en.text
