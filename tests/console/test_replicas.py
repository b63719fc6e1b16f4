"""The console behind a load balancer: two gateways (replicas) on one PostgreSQL. A link minted
on one opens a session that works on the other, a logout on either ends the session and the
link on both, the operator console's sign-in holds on every replica, and the database never
holds a session's cookie value."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.conftest import GatewayFactory
from tests.console.helpers import ADMIN, add, app_client, csrf_of, mint
from tests.e2e.test_durability import gateway_process, kill9


def _browser(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"origin": url})


def _move(client: httpx.Client, url: str) -> httpx.Client:
    """The same browser (its cookies) talking to another replica, as behind a load balancer."""
    moved = _browser(url)
    moved.cookies = client.cookies
    return moved


def _pg_text(pg_url: str) -> str:
    """Every value of every console and meta row, as text."""
    with psycopg.connect(pg_url) as conn:
        rows = [*conn.execute("SELECT * FROM console_sessions"), *conn.execute("SELECT * FROM console_revoked_links")]
        rows += list(conn.execute("SELECT * FROM meta"))
    return repr(rows)


@pytest.mark.parametrize("secret", ["", "shared-console-secret"])
def test_a_session_started_on_one_replica_works_on_the_other_until_a_logout_on_either(
    gateway: GatewayFactory, pg_url: str, secret: str
) -> None:
    options = {"memory": {"database": pg_url}, "auth": {"admin_key": ADMIN}, "console": {"secret": secret}}
    with gateway(**options) as a, gateway(**options) as b:
        memory = add(a, "alice", "Drinks green tea", "Alice drinks green tea every morning.")
        link = mint(a, "alice")
        assert link.startswith(a)
        on_a = _browser(a)
        assert on_a.get(link).status_code == 200  # the link minted on A, opened on A
        on_b = _move(on_a, b)
        page = on_b.get("/me/")  # the session started on A, served by B
        assert page.status_code == 200 and "Drinks green tea" in page.text
        csrf = csrf_of(page.text)
        assert csrf == csrf_of(on_a.get("/me/").text)  # one token, whichever replica renders it
        # a change on B with the token of the page B rendered
        assert on_b.post(f"/me/memories/{memory['id']}/delete", data={"csrf": csrf}).status_code == 303
        assert app_client(a, "alice").get(f"/api/memories/{memory['id']}").status_code == 404
        assert on_b.post("/me/settings", data={"csrf": "x" + csrf, "learning": "off"}).status_code == 403

        # a link minted on B opens on A too
        minted_on_b = mint(b, "bob")
        assert minted_on_b.startswith(b)
        assert _browser(a).get(minted_on_b.replace(b, a)).status_code == 200

        # logout on B: the session and the link are refused on A (and on B)
        assert on_b.post("/me/logout", data={"csrf": csrf}).status_code == 200
        assert _move(on_a, a).get("/me/").status_code == 403
        assert on_a.get("/me/").status_code == 403
        assert httpx.get(link.replace(b, a)).status_code == 403
        assert httpx.get(link.replace(a, b)).status_code == 403


def test_a_killed_replicas_sessions_and_links_carry_on_on_the_other(
    gateway: GatewayFactory, pg_url: str, upstream_url: str, tmp_path: Path
) -> None:
    config = {
        "upstreams": {"default": {"api_base": upstream_url}},
        "memory": {"database": pg_url, "embedding": {"provider": "none"}},
        "auth": {"admin_key": ADMIN},
    }
    with gateway(memory={"database": pg_url}, auth={"admin_key": ADMIN}) as b:
        with gateway_process(config, tmp_path) as (a, proc):
            user, operator = _browser(a), _browser(a)
            assert user.get(mint(a, "alice")).status_code == 200
            assert operator.post("/console/login", data={"key": ADMIN}, follow_redirects=False).status_code == 303
            unopened = mint(a, "bob")
            kill9(proc)  # no goodbye: whatever A knew is in the database or lost
        assert _move(user, b).get("/me/").status_code == 200
        assert _move(operator, b).get("/console/", follow_redirects=False).status_code == 200
        assert _browser(b).get(unopened.replace(a, b)).status_code == 200


def test_logout_ends_every_session_its_link_started(gateway: GatewayFactory, pg_url: str) -> None:
    options = {"memory": {"database": pg_url}}
    with gateway(**options) as a, gateway(**options) as b:
        link = mint(a, "alice")
        first, second = _browser(a), _browser(b)
        assert first.get(link).status_code == 200
        assert second.get(link.replace(a, b)).status_code == 200  # the same link, another browser
        page = first.get("/me/")
        assert first.post("/me/logout", data={"csrf": csrf_of(page.text)}).status_code == 200
        assert second.get("/me/").status_code == 403  # the revoked link's other session ended too


def test_operator_signs_in_on_one_replica_and_works_on_the_other(gateway: GatewayFactory, pg_url: str) -> None:
    options = {"memory": {"database": pg_url}, "auth": {"admin_key": ADMIN}}
    with gateway(**options) as a, gateway(**options) as b:
        on_a = _browser(a)
        assert on_a.post("/console/login", data={"key": ADMIN}, follow_redirects=False).status_code == 303
        on_b = _move(on_a, b)
        page = on_b.get("/console/prompts", follow_redirects=False)
        assert page.status_code == 200
        csrf = csrf_of(page.text)
        text = "Score this conversation: {conversation}"
        saved = on_b.post("/console/prompts/scoring", data={"csrf": csrf, "prompt": text}, follow_redirects=False)
        assert saved.status_code == 303
        assert "Score this conversation" in on_a.get("/console/prompts").text
        # the user page's cookie is no operator session, nor the reverse
        assert on_b.get("/me/").status_code == 403
        assert on_b.post("/console/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
        assert _move(on_a, a).get("/console/", follow_redirects=False).headers["location"] == "/console/login"


def test_the_database_holds_no_session_cookie_nor_csrf_token(gateway: GatewayFactory, pg_url: str) -> None:
    options = {"memory": {"database": pg_url}, "auth": {"admin_key": ADMIN}}
    with gateway(**options) as a:
        user = _browser(a)
        assert user.get(mint(a, "alice")).status_code == 200
        operator = _browser(a)
        operator.post("/console/login", data={"key": ADMIN}, follow_redirects=False)
        secrets = [
            user.cookies["memorelay_me"],
            operator.cookies["memorelay_console"],
            csrf_of(user.get("/me/").text),
            csrf_of(operator.get("/console/").text),
        ]
        stored = _pg_text(pg_url)
        assert "operator" in stored and "alice" in stored  # the rows are there ...
        for value in secrets:
            assert value not in stored  # ... without a value that rides a session


def test_sqlite_holds_sessions_across_a_restart_but_no_cookie(gateway: GatewayFactory, tmp_path: Path) -> None:
    with gateway() as url:
        c = _browser(url)
        assert c.get(mint(url, "alice")).status_code == 200
        cookie = c.cookies["memorelay_me"]
    with gateway() as url:  # the same file, a new process: the session is still there
        assert _move(c, url).get("/me/").status_code == 200
    db = sqlite3.connect(tmp_path / "db" / "memorelay.db")
    rows = repr(list(db.execute("SELECT * FROM console_sessions")))
    db.close()
    assert "alice" in rows and cookie not in rows


def test_an_empty_secret_on_postgresql_is_warned_about(
    gateway: GatewayFactory, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="memorelay"), gateway(memory={"database": pg_url}):
        pass
    assert any("console.secret is empty" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="memorelay"):
        with gateway(memory={"database": pg_url}, console={"secret": "s"}):
            pass
        with gateway():  # SQLite: one process, its own key
            pass
    assert not any("console.secret" in r.getMessage() for r in caplog.records)


def test_changing_the_admin_key_or_the_console_secret_signs_those_sessions_out(
    gateway: GatewayFactory,
) -> None:
    with gateway(auth={"admin_key": "first-admin"}, console={"secret": "first"}) as url:
        operator, user = _browser(url), _browser(url)
        assert operator.post("/console/login", data={"key": "first-admin"}, follow_redirects=False).status_code == 303
        assert user.get(mint(url, "alice")).status_code == 200
    with gateway(auth={"admin_key": "first-admin"}, console={"secret": "first"}) as url:  # a plain restart
        assert _move(operator, url).get("/console/", follow_redirects=False).status_code == 200
        assert _move(user, url).get("/me/").status_code == 200
    with gateway(auth={"admin_key": "second-admin"}, console={"secret": "first"}) as url:  # admin key rotated
        assert _move(operator, url).get("/console/", follow_redirects=False).status_code == 303
        assert _move(user, url).get("/me/").status_code == 200
    with gateway(auth={"admin_key": "first-admin"}, console={"secret": "second"}) as url:  # secret rotated
        assert _move(user, url).get("/me/").status_code == 403
