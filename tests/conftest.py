"""Shared fixtures: running the CLI as a user would, from this checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def _run(args: list[str], input: str | None = None, timeout: float = 120, cwd: Path | None = None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("NO_COLOR", "1")
    return subprocess.run(
        [sys.executable, "-m", "countlo", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd or ROOT,
    )


@pytest.fixture
def run_cli():
    """Run `python -m countlo ARGS` from this checkout; returns the CompletedProcess."""
    return _run
