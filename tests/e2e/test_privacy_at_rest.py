"""What stays on disk: after a learning job ends, the raw bytes of the
database, its -wal and its -shm file hold none of the PII the turn carried; a deleted
memory's text is gone from the audit log the admin API serves."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import add, admin_client, user_client

PII = ("13812345678", "440308199001011239", "4111111111111111")


def raw_hits(database: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for suffix in ("", "-wal", "-shm"):
        path = Path(str(database) + suffix)
        if path.exists():
            hits = [p for p in PII if p.encode() in path.read_bytes()]
            if hits:
                found[path.name] = hits
    return found


def test_no_pii_on_disk_after_a_learning_job_ends(gateway: GatewayFactory, tmp_path: Path) -> None:
    database = tmp_path / "db" / "memorelay.db"
    filters = [{"learning": {"model": "heuristic", "workers": 1}}]
    text = (
        "I prefer tabs over spaces. My phone is 13812345678, 身份证440308199001011239, "
        "and my card number is 4111111111111111."
    )
    with gateway(filters=filters, auth={"admin_key": ADMIN}) as url:
        assert say(url, "pia", text)["x-memorelay-learning"] == "queued"
        wait_for(lambda: log_entries(url))  # the job has ended
        assert "tabs" in str(memories(url, "pia"))
        # the queue went idle: payload wiped (secure_delete) and the WAL checkpointed and truncated
        wait_for(lambda: raw_hits(database) == {}, timeout=15)
    assert raw_hits(database) == {}


def test_audit_log_keeps_no_text_of_deleted_memories(gateway: GatewayFactory, tmp_path: Path) -> None:
    database = tmp_path / "db" / "memorelay.db"
    with gateway(auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "del")
        one = add(c, "Phone 13812345678", "ID 440308199001011239")
        c.patch(f"/api/memories/{one['id']}", json={"content": "card 4111111111111111"})
        add(c, "Card again 4111111111111111", "more")
        assert c.delete(f"/api/memories/{one['id']}").status_code == 204
        assert c.delete("/api/memories", params={"confirm": "true"}).status_code == 204
        log = admin_client(url).get("/api/admin/audit-log").json()["data"]
        assert [e["action"] for e in log].count("delete") == 2
        assert not [p for p in PII if p in str(log)], log
        wait_for(lambda: raw_hits(database) == {}, timeout=15)
