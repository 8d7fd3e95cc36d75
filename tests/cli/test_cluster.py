"""`countlo simulate --scheduler ADDRESS`: the same games on a Dask cluster that the test starts
itself (a LocalCluster of two single-threaded worker processes), and the one-line errors.

Without the `cluster` extra the cluster tests are skipped, except where COUNTLO_REQUIRE_CLUSTER
is set (.ci/run sets it): there a missing extra fails, so CI never skips them silently.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from countlo.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _have_distributed() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        if os.environ.get("COUNTLO_REQUIRE_CLUSTER"):
            pytest.fail("COUNTLO_REQUIRE_CLUSTER is set but dask/distributed are not installed "
                        "(pip install -e '.[cluster]')")
        return False
    return True


needs_cluster = pytest.mark.skipif(not _have_distributed(),
                                   reason="the cluster extra is not installed: pip install -e '.[cluster]'")


@pytest.fixture(scope="module")
def scheduler():
    """The address of a local Dask cluster: two worker processes, one thread each."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def simulate_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["simulate", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def without_times(data: dict) -> dict:
    """A summary minus what depends on the clock."""
    out = {k: v for k, v in data.items() if "_ms_" not in k and k != "records"}
    out["records"] = [{k: v for k, v in r.items() if "_ms_" not in k} for r in data["records"]]
    return out


@needs_cluster
def test_the_cluster_plays_the_same_games_as_one_process(capsys, tmp_path, scheduler):
    args = ("--size", "5x5", "--games", "12", "--seed", "40")
    code1, one = simulate_json(capsys, *args, "--jobs", "1")
    records = tmp_path / "r.jsonl"
    code2, dask = simulate_json(capsys, *args, "--scheduler", scheduler, "--records", str(records))
    assert code1 == code2 == 0
    assert without_times(one) == without_times(dask)
    assert [r["seed"] for r in dask["records"]] == list(range(40, 52))  # back in seed order
    assert all(r["decision_ms_max"] is not None for r in dask["records"])
    streamed = {r["seed"]: r for r in map(json.loads, records.read_text().splitlines())}
    assert sorted(streamed) == list(range(40, 52))
    assert [streamed[r["seed"]]["steps"] for r in dask["records"]] == [r["steps"] for r in one["records"]]


@needs_cluster
def test_the_cluster_table_is_the_local_table(capsys, scheduler):
    args = ["simulate", "--size", "4x4", "--games", "6", "--seed", "3", "--strategy", "sequential"]
    assert main([*args, "--jobs", "1"]) == 0
    local = capsys.readouterr().out
    assert main([*args, "--scheduler", scheduler]) == 0
    remote = capsys.readouterr().out
    drop = lambda text: [line for line in text.splitlines() if "time per decision" not in line]
    assert drop(local) == drop(remote) and "6 games on 4x4" in remote


@needs_cluster
def test_ctrl_c_keeps_the_games_the_cluster_finished(tmp_path, scheduler):
    records = tmp_path / "r.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "countlo", "simulate", "--json", "--size", "5x5", "--games", "400",
         "--scheduler", scheduler, "--records", str(records)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if records.exists() and len(records.read_text().splitlines()) >= 3:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err
    data = json.loads(out)
    streamed = [json.loads(x) for x in records.read_text().splitlines()]
    assert proc.returncode == 130 and data["partial"] is True and 3 <= data["games"] < 400
    assert sorted(r["seed"] for r in streamed) == [r["seed"] for r in data["records"]]
    assert data["solved"] + data["unsolvable"] + data["failed"] == data["games"]


@needs_cluster
def test_a_scheduler_that_does_not_answer_is_one_line(capsys, monkeypatch, tmp_path):
    import countlo.cli.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    records = tmp_path / "r.jsonl"
    code = main(["simulate", "--size", "3x3", "--games", "2", "--scheduler", f"tcp://127.0.0.1:{port}",
                 "--records", str(records)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err
    assert not records.exists()  # refused before any file was written


def test_without_the_extra_scheduler_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code = main(["simulate", "--size", "3x3", "--games", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "pip install 'countlo[cluster]'" in err


def test_jobs_and_scheduler_do_not_go_together(capsys):
    code = main(["simulate", "--games", "2", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--jobs and --scheduler" in err


def test_other_commands_never_import_dask():
    code = ("import sys; from countlo.cli import main; "
            "main(['simulate', '--size', '3x3', '--games', '2', '--jobs', '1']); "
            "sys.exit(1 if 'distributed' in sys.modules or 'dask' in sys.modules else 0)")
    r = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


@needs_cluster
@pytest.mark.parametrize("address", ["bogus address", "tcp://host", "10.0.0.1:x"])
def test_a_malformed_scheduler_address_is_one_line(capsys, address):
    code = main(["simulate", "--size", "3x3", "--games", "2", "--scheduler", address])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "is not a scheduler address like tcp://" in err
