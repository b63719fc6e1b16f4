"""One headless Chromium for all browser tests (Debian's ``chromium`` package, driven by the
``playwright`` package; ``playwright install`` cannot download browsers here). Without a
Chromium the browser tests are skipped, with the reason and a warning at the end of the run.
Screenshots of every page go to ``artifacts/console-screenshots/`` (git-ignored)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("MEMORELAY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "console-screenshots"


def _missing() -> str | None:
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    return None


SKIP_REASON = _missing()
SKIP_PREFIX = "BROWSER TESTS SKIPPED: "


# module scope: playwright's sync API holds an event loop in this thread while it is open, and
# later tests that call asyncio.run() must not run inside it (all browser tests are one module)
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if SKIP_REASON is not None:
        pytest.skip(SKIP_PREFIX + SKIP_REASON)
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    # read from the skip reports, not from this process: under pytest-xdist the browser tests
    # run (and skip) in a worker, and only the reports reach the process that writes the summary
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr  # (path, line, "Skipped: …") for a skip
        text = str(longrepr[2] if isinstance(longrepr, tuple) else longrepr)
        if SKIP_PREFIX in text:
            reason = text.split(SKIP_PREFIX, 1)[1]
            warning = f"WARNING: the console browser tests were SKIPPED: {reason}"
            terminalreporter.write_line(warning, red=True, bold=True)
            return
