"""Shared fixtures: running the CLI as a user would, from this checkout.

`run_cli` runs `countlo ARGS` in this process through `countlo.cli.main(argv)`, with stdin,
stdout, stderr, the working directory and NO_COLOR set as for a child process, and returns the
same CompletedProcess a child would give (uncaught exceptions propagate, so a bug fails the test
with its traceback). `run_cli_process` spawns a real `python -m countlo` for the few end-to-end
tests that need the interpreter, the module entry point and a separate process.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# No example has a deadline: what a test checks never depends on how busy the machine is
# (a loaded 2-core machine runs the same example 10x slower).
settings.register_profile("countlo", deadline=None)
settings.load_profile("countlo")

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# The tests read countlo's English whatever the developer's locale; the ones about Chinese ask
# for it (--lang zh, countlo.i18n.speaking, or their own environment).
os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A test that ran `countlo --lang zh` in-process leaves the next one in English."""
    yield
    from countlo import i18n

    i18n.use("en")


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


class _Input(io.StringIO):
    """Piped standard input: text, not a terminal."""

    def isatty(self) -> bool:
        return False


def _run_in_process(args: list[str], input: str | None = None, timeout: float = 120,
                    cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`countlo ARGS` through main(argv), as `_run` would see it (timeout is not enforced)."""
    from countlo.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_stdin, saved_cwd = sys.stdin, os.getcwd()
    saved_colour = os.environ.get("NO_COLOR")
    os.environ.setdefault("NO_COLOR", "1")
    sys.stdin = _Input(input or "")
    try:
        os.chdir(cwd or ROOT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse: --help, --version, usage errors
                if e.code is None or isinstance(e.code, int):
                    code = e.code or 0
                else:
                    err.write(f"{e.code}\n")
                    code = 1
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        if saved_colour is None:
            os.environ.pop("NO_COLOR", None)
    return subprocess.CompletedProcess(["countlo", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture
def run_cli():
    """Run `countlo ARGS` in-process from this checkout; returns a CompletedProcess."""
    return _run_in_process


@pytest.fixture
def run_cli_process():
    """Run `python -m countlo ARGS` as a child process from this checkout; returns the CompletedProcess."""
    return _run
