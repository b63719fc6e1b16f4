"""Minted links never take their host from the request, and an https ``console.public_url``
makes session cookies ``Secure`` and the pages send HSTS."""

from __future__ import annotations

import httpx

from tests.conftest import GatewayFactory

HEADERS = {"authorization": "Bearer sk-app", "x-memorelay-user": "alice"}


def test_a_minted_link_ignores_the_host_header(gateway: GatewayFactory) -> None:
    with gateway() as url:
        r = httpx.post(url + "/api/console-links", headers={**HEADERS, "host": "evil.example"})
    assert r.status_code == 201
    link = r.json()["url"]
    assert link.startswith(url + "/me/open?token="), link  # the address the server listens on
    assert "evil.example" not in link


def test_a_minted_link_uses_the_public_url(gateway: GatewayFactory) -> None:
    with gateway(console={"public_url": "https://memory.example.com"}) as url:
        r = httpx.post(url + "/api/console-links", headers={**HEADERS, "host": "evil.example"})
    assert r.json()["url"].startswith("https://memory.example.com/me/open?token=")


def test_on_a_wildcard_address_a_link_needs_the_public_url(gateway: GatewayFactory) -> None:
    # listening on every address, the socket's own address (a container's) is no public one
    admin = {"authorization": "Bearer adm"}
    for host in ("0.0.0.0", "::"):
        with gateway(server={"host": host}, auth={"admin_key": "adm"}) as url:
            app = httpx.post(url + "/api/console-links", headers=HEADERS)
            operator = httpx.post(url + "/api/admin/console-links", headers=admin, json={"tenant": "t", "user": "u"})
        for r in (app, operator):
            assert r.status_code == 503 and "console.public_url" in r.json()["error"]["message"], r.text
    with gateway(server={"host": "0.0.0.0"}, console={"public_url": "https://memory.example.com"}) as url:
        r = httpx.post(url + "/api/console-links", headers=HEADERS)
    assert r.status_code == 201 and r.json()["url"].startswith("https://memory.example.com/me/open?token=")


def test_an_https_public_url_makes_cookies_secure_and_sends_hsts(gateway: GatewayFactory) -> None:
    with gateway(console={"public_url": "https://memory.example.com"}) as url:
        link = httpx.post(url + "/api/console-links", headers=HEADERS).json()["url"]
        opened = httpx.get(url + link.removeprefix("https://memory.example.com"))
        login = httpx.get(url + "/console/login")
    assert opened.status_code == 200
    cookie = opened.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie
    for page in (opened, login):
        assert page.headers["strict-transport-security"].startswith("max-age=")


def test_plain_http_sends_no_hsts(gateway: GatewayFactory) -> None:
    with gateway() as url:
        login = httpx.get(url + "/console/login")
    assert login.status_code == 200 and "strict-transport-security" not in login.headers
