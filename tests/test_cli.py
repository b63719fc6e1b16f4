"""The ``memorelay`` command line: check-config, memories, and the packaging files around it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import yaml

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
        timeout=120,
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


def test_config_is_found_by_flag_then_env_then_working_directory(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    r = memorelay("check-config", cwd=empty)
    assert r.returncode == 1
    for looked in (empty / "config" / "memorelay.yaml", empty / "memorelay.yaml"):
        assert str(looked) in r.stderr
    assert "--config" in r.stderr and "MEMORELAY_CONFIG" in r.stderr

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
    assert memorelay("memories", "delete", *base, memory_id).returncode == 0
    assert memorelay("memories", "delete", *base, memory_id).returncode == 1
    assert orjson.loads(memorelay("memories", "list", *base).stdout)["total"] == 0
    bad = memorelay("memories", "add", *base, "--title", "x", "--content", "y", "--category", "nope")
    assert bad.returncode == 1 and "category" in bad.stderr


def test_docker_files_parse_and_agree() -> None:
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    service = compose["services"]["memorelay"]
    assert service["build"]["dockerfile"] == "docker/Dockerfile" and service["build"]["context"] == ".."
    assert "127.0.0.1:8400:8400" in service["ports"]
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    instructions = [line.split()[0] for line in dockerfile.splitlines() if line and not line.startswith((" ", "#"))]
    assert instructions[0] == "FROM" and "CMD" in instructions and "EXPOSE" in instructions
    for copied in ("gateway", "filters", "config", "pyproject.toml"):
        assert copied in dockerfile and (ROOT / copied).exists()


def test_makefile_and_ci_use_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make serve" in readme and "make test" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "\nserve:" in makefile and "\ntest:" in makefile
