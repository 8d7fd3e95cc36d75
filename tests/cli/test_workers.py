"""simulate's worker processes die with their parent, even when it is killed with SIGKILL (a
crash, the OOM killer), and leave no leaked-semaphore warning behind (issue 28, item 4)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
POLLS = 600  # 0.1 s apart: generous on a loaded machine; a worker that outlives its parent plays for minutes


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (dead, not yet reaped) is not alive
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process table from /proc")
def test_workers_and_the_tracker_end_when_simulate_is_killed(tmp_path):
    records = tmp_path / "r.jsonl"
    parent = subprocess.Popen(
        [sys.executable, "-m", "countlo", "simulate", "--jobs", "2", "--games", "100000", "--size", "6x6",
         "--records", str(records)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, start_new_session=True)
    children: list[int] = []
    for _ in range(POLLS * 3):  # until the workers have played (their start-up is behind them)
        if records.exists() and len(records.read_text().splitlines()) >= 4:
            break
        time.sleep(0.1)
    children = [int(p) for p in subprocess.run(["pgrep", "-P", str(parent.pid)], capture_output=True,
                                               text=True).stdout.split()]
    assert len(children) >= 2  # two workers (and the resource tracker)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    for _ in range(POLLS):
        if not any(alive(c) for c in children):
            break
        time.sleep(0.1)
    left = [c for c in children if alive(c)]
    for c in left:
        os.kill(c, signal.SIGKILL)
    assert not left, "workers outlived the killed simulate"
    assert parent.stderr is not None
    err = parent.stderr.read().decode()  # EOF: every process holding the pipe has ended
    assert "leaked semaphore" not in err and "Traceback" not in err, err


def test_a_worker_whose_parent_is_already_gone_ends_at_once():
    code = "from countlo.cli.workers import die_with_parent; die_with_parent(parent=1); print('played on')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=120)
    assert r.returncode == 1 and "played on" not in r.stdout


def test_the_watchdog_ends_a_worker_without_prctl(tmp_path):
    """Where there is no PR_SET_PDEATHSIG (not Linux), the watchdog thread alone ends the worker."""
    pid_file = tmp_path / "worker.pid"
    worker = ("import os, sys, time; sys.platform = 'other'; "
              "from countlo.cli.workers import die_with_parent; die_with_parent(); "
              f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)")
    middle = ("import subprocess, sys, time; "
              f"subprocess.Popen([sys.executable, '-c', {worker!r}]); time.sleep(600)")
    parent = subprocess.Popen([sys.executable, "-c", middle], env=ENV)
    for _ in range(POLLS):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.1)
    pid = int(pid_file.read_text())
    parent.kill()
    parent.wait()
    for _ in range(POLLS):
        if not alive(pid):
            break
        time.sleep(0.1)
    gone = not alive(pid)
    if not gone:
        os.kill(pid, signal.SIGKILL)
    assert gone
