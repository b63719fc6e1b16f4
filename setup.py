"""The wheel carries the default config and prompts (``config/``) as package data under
``gateway/_defaults``, so an installed (non-editable) memorelay finds them from any folder.
Everything else about the build is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithDefaults(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "gateway" / "_defaults"
        shutil.copytree(Path(__file__).parent / "config", target, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithDefaults})
