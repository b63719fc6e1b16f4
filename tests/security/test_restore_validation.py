"""``memorelay restore`` checks every row with the API's rules: a damaged or invalid backup is
refused as a whole (nothing of the store replaced) with one line naming the row and field."""

from __future__ import annotations

import gzip
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

from tests.conftest import GatewayFactory
from tests.e2e.test_memory_api import ADMIN, add, user_client
from tests.test_cli import memorelay

Lines = list[dict[str, Any]]


def _memory(lines: Lines) -> dict[str, Any]:
    return next(line["memory"] for line in lines if line["type"] == "memory")


def _set(field: str, value: Any) -> Callable[[Lines], None]:
    def change(lines: Lines) -> None:
        _memory(lines)[field] = value

    return change


def _twice(lines: Lines) -> None:
    at = next(i for i, line in enumerate(lines) if line["type"] == "memory")
    lines.insert(at, orjson.loads(orjson.dumps(lines[at])))
    lines[-1]["counts"]["memories"] += 1


def _settings(lines: Lines) -> None:
    at = next(i for i, line in enumerate(lines) if line["type"] == "end")
    lines.insert(
        at,
        {"type": "settings", "tenant": "t", "user_id": "u", "settings": {"learning_enabled": "no"}, "updated_at": "x"},
    )
    lines[-1]["counts"]["settings"] += 1


CASES: dict[str, tuple[Callable[[Lines], None], str]] = {
    "category": (_set("category", "nope"), "category"),
    "scope": (_set("scope", "bogus"), "scope"),
    "long title": (_set("title", "t" * 10_000), "title"),
    "NUL content": (_set("content", "evil\x00text"), "content"),
    "score": (_set("score", 1e9), "score"),
    "tags string": (_set("tags", "a,b"), "tags"),
    "tenant number": (_set("tenant", 5), "tenant"),
    "id null": (_set("id", None), "id"),
    "enabled yes": (_set("enabled", "yes"), "enabled"),
    "NUL user": (_set("user_id", "al\x00ice"), "user_id"),
    "id twice": (_twice, "id"),
    "settings": (_settings, "learning_enabled"),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Lines]:
    """A valid backup of a store holding one memory, and its lines."""
    folder = tmp_path_factory.mktemp("source")
    config = _config(folder, "source")
    from gateway.app import create_app
    from gateway.config import config_from_dict
    from tests.servers import serve_in_thread

    raw = {"auth": {"admin_key": ADMIN}, **yaml.safe_load(config.read_text())}
    with serve_in_thread(create_app(config_from_dict(raw))) as url:
        add(user_client(url, "alice"), "Tea", "The user drinks green tea.")
    backup = folder / "good.jsonl.gz"
    r = memorelay("backup", "--out", str(backup), "--config", str(config))
    assert r.returncode == 0, r.stderr
    return backup, [orjson.loads(line) for line in gzip.decompress(backup.read_bytes()).splitlines()]


def _config(folder: Path, name: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        yaml.safe_dump({"memory": {"database": str(folder / f"{name}.db"), "embedding": {"provider": "none"}}})
    )
    return path


@pytest.fixture
def target(tmp_path: Path, gateway: GatewayFactory) -> Path:
    """A store holding one memory of its own (restores below use --force)."""
    with gateway(memory={"database": str(tmp_path / "target.db")}) as url:
        add(user_client(url, "bob"), "Coffee", "The user drinks black coffee.")
    return _config(tmp_path, "target")


def _titles(config: Path) -> list[str]:
    database = yaml.safe_load(config.read_text())["memory"]["database"]
    with sqlite3.connect(database) as db:
        return [str(r[0]) for r in db.execute("SELECT title FROM memories ORDER BY title")]


def _refused(config: Path, backup: Path) -> str:
    r = memorelay("restore", str(backup), "--force", "--config", str(config))
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert _titles(config) == ["Coffee"]  # nothing replaced
    return r.stderr


@pytest.mark.parametrize("case", list(CASES))
def test_an_invalid_row_refuses_the_whole_file_naming_row_and_field(
    made: tuple[Path, Lines], target: Path, tmp_path: Path, case: str
) -> None:
    change, field = CASES[case]
    lines: Lines = orjson.loads(orjson.dumps(made[1]))
    change(lines)
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(gzip.compress(b"\n".join(orjson.dumps(line) for line in lines) + b"\n"))
    err = _refused(target, bad)
    assert "line " in err and field in err, err


def test_damaged_gzip_is_refused_in_one_line(made: tuple[Path, Lines], target: Path, tmp_path: Path) -> None:
    data = bytearray(made[0].read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8] = bytes(b ^ 0xFF for b in data[middle : middle + 8])
    bad = tmp_path / "flipped.jsonl.gz"
    bad.write_bytes(bytes(data))
    _refused(target, bad)


def test_the_valid_backup_still_restores(made: tuple[Path, Lines], target: Path) -> None:
    r = memorelay("restore", str(made[0]), "--force", "--config", str(target))
    assert r.returncode == 0, r.stderr
    assert _titles(target) == ["Tea"]
