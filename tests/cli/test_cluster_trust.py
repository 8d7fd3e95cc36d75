"""The cluster's trust model (issue 28, items 2 and 6): plain tcp only on this machine unless
--trust-cluster, tls:// with the CA and this client's certificate, results taken back only as
plain data checked field by field (a hostile worker's pickle never runs here), and a bad address
is one line without Dask's 20-second clean-up and traceback."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_cluster import needs_cluster

from countlo.board import Shape
from countlo.cli import main
from countlo.cli.records import BadResultError, from_plain, to_plain

ROOT = Path(__file__).resolve().parents[2]


def one_line(capsys, code: int) -> str:
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@needs_cluster
@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "tcp://scheduler.example:8786", "10.1.2.3:8786"])
def test_plain_tcp_to_another_machine_needs_trust_cluster(capsys, address):
    err = one_line(capsys, main(["simulate", "--games", "1", "--size", "3x3", "--scheduler", address]))
    assert "--trust-cluster" in err and "tls://" in err


@needs_cluster
def test_trust_cluster_lets_plain_tcp_try(capsys, monkeypatch):
    import countlo.cli.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    err = one_line(capsys, main(["simulate", "--games", "1", "--size", "3x3", "--trust-cluster",
                                 "--scheduler", "tcp://192.0.2.1:8786"]))  # TEST-NET-1: nothing answers
    assert "cannot reach the Dask scheduler at tcp://192.0.2.1:8786" in err


@needs_cluster
@pytest.mark.parametrize(("extra", "words"), [
    (["--scheduler", "tls://10.0.0.5:8786"], "tls:// needs --tls-ca-file, --tls-cert and --tls-key"),
    (["--scheduler", "tcp://127.0.0.1:8786", "--tls-ca-file", "ca.pem"], "need a tls:// scheduler address"),
    (["--scheduler", "tls://10.0.0.5:8786", "--tls-ca-file", "no-ca.pem", "--tls-cert", "c.pem", "--tls-key", "k.pem"],
     "cannot read no-ca.pem"),
])
def test_tls_needs_its_files(capsys, monkeypatch, tmp_path, extra, words):
    monkeypatch.chdir(tmp_path)
    err = one_line(capsys, main(["simulate", "--games", "1", "--size", "3x3", *extra]))
    assert words in err


@needs_cluster
@pytest.mark.parametrize("address", ["bogus://x", "tls://127.0.0.1:1", "ucx://x:1", "inproc://x"])
def test_an_address_dask_cannot_use_is_one_line_and_no_traceback_at_exit(address):
    r = subprocess.run([sys.executable, "-m", "countlo", "simulate", "--games", "1", "--size", "3x3",
                        "--scheduler", address], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr


class Hostile:
    """What a hostile worker sends instead of a game: unpickling it makes a folder."""

    def __init__(self, flag: str):
        self.flag = flag

    def __reduce__(self):
        return (_mark, (self.flag,))


def _mark(path: str) -> None:
    import threading
    import traceback

    Path(path).write_text(threading.current_thread().name + "\n" + "".join(traceback.format_stack()))  # where it ran


@pytest.fixture
def tcp_cluster():
    """A cluster on this machine whose worker runs in this process (so a test can replace what
    it plays) but talks over tcp, so results travel serialised as from any other worker."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


@needs_cluster
def test_a_hostile_workers_pickle_never_runs_here(capsys, monkeypatch, tmp_path, tcp_cluster):
    import countlo.cli.workers as workers

    flag = tmp_path / "pwned"
    where = str(flag)  # the task carries only this text; the worker makes the hostile reply
    monkeypatch.setattr(workers, "play_plain", lambda *a, **k: Hostile(where))
    monkeypatch.setattr(workers, "play_seed", lambda *a, **k: Hostile(where))  # what older countlo submitted
    err = one_line(capsys, main(["simulate", "--games", "1", "--size", "3x3", "--scheduler", tcp_cluster]))
    assert "only plain game records are accepted" in err
    assert not flag.exists()


@needs_cluster
def test_a_malformed_record_from_a_worker_is_refused(capsys, monkeypatch, tcp_cluster):
    import countlo.cli.workers as workers

    monkeypatch.setattr(workers, "play_plain", lambda *a, **k: json.dumps({"record": {}, "decision_times": []}))
    err = one_line(capsys, main(["simulate", "--games", "1", "--size", "3x3", "--scheduler", tcp_cluster]))
    assert "malformed result for seed 0" in err


def _plain(seed: int = 5) -> str:
    from countlo.play.game import play_game
    from countlo.play.oracle import SimulatedOracle

    shape = Shape(3, 3)
    oracle = SimulatedOracle(shape, seed, 0.5)
    return to_plain(shape, seed, play_game(oracle, "adaptive", "exact", seed), oracle.board)


def test_a_plain_record_comes_back_as_it_went():
    text = _plain()
    played, record = from_plain(text, Shape(3, 3), 5)
    assert record == json.loads(text)["record"] and played.clicks == record["clicks"]


@pytest.mark.parametrize("change", [
    lambda d: d["record"].update(seed=6),
    lambda d: d["record"].update(outcome="won"),
    lambda d: d["record"].update(steps=[[[9, 26], 1]]),
    lambda d: d["record"].update(steps=[[[1, 1], 10]]),
    lambda d: d["record"].update(steps=[["A1", 1]]),
    lambda d: d["record"].update(start=[[1, 0, 1], [0, 0, 0]]),
    lambda d: d["record"].update(start=[[1, 0, 2], [0, 0, 0], [0, 0, 0]]),
    lambda d: d["record"].update(probes=-1),
    lambda d: d["record"].update(probes=True),
    lambda d: d["record"].update(reason="x" * 10_000),
    lambda d: d["record"].update(extra=1),
    lambda d: d.update(decision_times=[float("inf")]),
    lambda d: d.update(decision_times="fast"),
])
def test_a_record_that_countlo_would_not_write_is_refused(change):
    data = json.loads(_plain())
    change(data)
    with pytest.raises(BadResultError, match="malformed result for seed 5"):
        from_plain(json.dumps(data), Shape(3, 3), 5)


@pytest.mark.parametrize("text", [b"bytes", "not json", "[1, 2]", "x" * (17 << 20)])
def test_what_is_not_json_text_is_refused(text):
    with pytest.raises(BadResultError):
        from_plain(text, Shape(3, 3), 5)
