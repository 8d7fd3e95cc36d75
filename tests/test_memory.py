"""Refusals of requests too large for memory happen before any large allocation (issue 11, item 7).

Each command runs in a child process whose address space is capped (resource.RLIMIT_AS) far
below what the request would need: the refusal must still come as one line and exit 2, so it was
made before the board, tables or output were built. A control shows the cap really bites.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")

ROOT = Path(__file__).resolve().parent.parent
CAP = 400 << 20  # bytes of address space: Python, numpy and countlo fit; no huge board does


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def run_capped(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               XDG_DATA_HOME=str(cwd / "data"))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, preexec_fn=_capped, timeout=120)


def test_the_cap_really_stops_a_large_allocation(tmp_path):
    p = run_capped(["-c", "bytearray(600 << 20)"], tmp_path)
    assert p.returncode != 0 and "MemoryError" in p.stderr


BIG = "# countlo transcript 1\n# size: 65535x65535\n\nstart 5\nA1 4\n"


@pytest.mark.parametrize("argv, limit", [
    (["solve", "--all-on", "--size", "65535x65535", "--min"], "4096x4096"),
    (["solve", "--all-on", "--size", "65535x65535", "--all", "--limit", "2"], "4096x4096"),
    (["solve", "--all-on", "--size", "65535x65535", "--full"], "2048x2048"),
    (["solve", "--all-on", "--size", "65535x65535", "--classes"], "65536 cells"),
    (["play", "--sim", "--size", "65535x65535"], "1000 cells"),
    (["play", "--sim", "--size", "3x1000"], "1000 cells"),
    (["simulate", "--size", "65535x65535", "--games", "1"], "1000 cells"),
    (["replay", "big.txt", "--engine", "z3"], "4096 cells"),
    (["replay", "big.txt", "--engine", "exact"], "480 cells"),
    (["replay", "big.txt", "--engine", "linear"], "16384 cells"),
    (["replay", "big.txt"], "16384 cells"),
])
def test_large_requests_are_refused_before_any_large_allocation(tmp_path, argv, limit):
    (tmp_path / "big.txt").write_text(BIG)
    p = run_capped(["-m", "countlo", *argv], tmp_path)
    assert p.returncode == 2, p.stderr[-2000:]
    assert p.stderr.count("\n") == 1 and limit in p.stderr, p.stderr[-2000:]
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.txt"))


def test_a_wide_rule_game_fits_under_the_cap(tmp_path):
    """A 5x5 Klein bottle under the knight rule: the window programme's tables took 5.9 GB; the
    split engine's memory is fixed by the board (countlo.hidden.posterior.split.split_bytes)."""
    p = run_capped(["-m", "countlo", "simulate", "--size", "5x5", "--topology", "klein", "--rule",
                    "knight", "--games", "1", "--seed", "1", "--json"], tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    assert '"failed": 0' in p.stdout
