"""An installed (non-editable) wheel, run from another folder, finds what it ships: the
default config, the learning prompts and the console's templates, and keeps its database in
the user's data folder, never inside the installation."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.servers import free_port
from tests.waits import HTTP_TIMEOUT_S, wait_for

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("gateway", "filters", "config", "pyproject.toml", "setup.py", "README.md")
ADMIN = "adm-wheel-test"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the sources (no stale build/ of the checkout in it),
    installed into a folder of its own."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy2
        copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", str(source), "-w", str(work / "dist")], check=True, timeout=300)
    [wheel] = (work / "dist").glob("memorelay-*.whl")
    site = work / "site"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)], check=True, timeout=300)
    return site


def _env(site: Path, data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORELAY_")}
    # only the installed copy is importable; the dependencies come from this interpreter's site
    env.update(PYTHONPATH=str(site), XDG_DATA_HOME=str(data), MEMORELAY_ADMIN_KEY=ADMIN)
    return env


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    yield folder


def test_check_config_from_another_folder_uses_the_bundled_default(installed: Path, elsewhere: Path) -> None:
    data = elsewhere.parent / "data"
    r = subprocess.run(
        [sys.executable, "-m", "gateway", "check-config"],
        cwd=elsewhere,
        env=_env(installed, data),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    bundled = installed / "gateway" / "_defaults" / "memorelay.yaml"
    assert f"# config: {bundled} (the default memorelay comes with" in r.stdout
    assert f"# database: {data / 'memorelay' / 'data' / 'memorelay.db'}" in r.stdout


def test_the_installed_gateway_serves_prompts_and_console_pages(installed: Path, elsewhere: Path) -> None:
    data = elsewhere.parent / "data"
    port = free_port()
    env = _env(installed, data) | {"MEMORELAY_LEARNING_MODEL": "heuristic"}
    gateway = subprocess.Popen(
        [sys.executable, "-m", "gateway", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=elsewhere,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=HTTP_TIMEOUT_S) as client:

            def answers() -> bool:
                assert gateway.poll() is None, gateway.stderr.read() if gateway.stderr else ""
                try:
                    return client.get("/healthz").status_code == 200
                except httpx.TransportError:
                    return False

            wait_for(answers)
            prompt = client.get("/api/admin/prompts/scoring", headers={"authorization": f"Bearer {ADMIN}"})
            assert prompt.status_code == 200, prompt.text
            shipped = (ROOT / "config" / "prompts" / "scoring.md").read_text(encoding="utf-8")
            assert prompt.json()["source"] == "default" and prompt.json()["prompt"] == shipped
            login = client.get("/console/login")
            assert login.status_code == 200 and "<form" in login.text
            assert client.get("/console-static/console.css").status_code == 200
        assert (data / "memorelay" / "data" / "memorelay.db").is_file()
        assert not list(installed.rglob("*.db"))
    finally:
        gateway.send_signal(signal.SIGINT)
        try:
            gateway.wait(60)
        except subprocess.TimeoutExpired:
            gateway.kill()
            gateway.wait()
