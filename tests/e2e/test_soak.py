"""A short run of ``bench/soak.py`` with its targets checked (``--check``).

About a minute, so it runs only with ``MEMORELAY_SOAK=1`` (``MEMORELAY_SOAK=1 make test``);
the 3-minute, 32-stream run is ``python bench/soak.py`` (bench/README.md, Soak).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not os.environ.get("MEMORELAY_SOAK"), reason="set MEMORELAY_SOAK=1 to run the soak (~1 min)")
def test_short_soak_meets_the_targets() -> None:
    args = ["--streams", "4", "--duration", "10", "--drain-timeout", "5", "--check"]
    run = subprocess.run(
        [sys.executable, "bench/soak.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    # the summary names each missed target, and the gateway's warnings
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
