"""`countlo simulate` at scale: worker processes, records streamed to a file, Ctrl-C keeping the
finished games, and a 10 x 10 game through the command line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from countlo.cli import main

ROOT = Path(__file__).resolve().parent.parent


def simulate_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["simulate", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def without_times(data: dict) -> dict:
    """A summary minus what depends on the clock."""
    out = {k: v for k, v in data.items() if "_ms_" not in k and k != "records"}
    out["records"] = [{k: v for k, v in r.items() if "_ms_" not in k} for r in data["records"]]
    return out


def test_two_workers_play_the_same_games_as_one_process(capsys, tmp_path):
    args = ("--size", "4x4", "--games", "10", "--seed", "7")
    code1, one = simulate_json(capsys, *args, "--jobs", "1")
    code2, two = simulate_json(capsys, *args, "--jobs", "2", "--records", str(tmp_path / "r.jsonl"))
    assert code1 == code2 == 0
    assert without_times(one) == without_times(two)
    assert one["partial"] is False and one["games"] == 10
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert sorted(r["seed"] for r in lines) == list(range(7, 17))  # in the order they finished
    by_seed = {r["seed"]: r for r in lines}
    assert [by_seed[r["seed"]]["steps"] for r in two["records"]] == [r["steps"] for r in two["records"]]


def test_records_file_that_cannot_be_written_is_one_line(capsys, tmp_path):
    code = main(["simulate", "--size", "3x3", "--games", "2", "--records", str(tmp_path / "no" / "r")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "cannot write --records" in err


def _interrupt_after(lines: int, *args: str) -> tuple[int, dict, list[dict]]:
    records = Path(args[args.index("--records") + 1])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "countlo", "simulate", "--json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if records.exists() and len(records.read_text().splitlines()) >= lines:
            break
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err
    return proc.returncode, json.loads(out), [json.loads(x) for x in records.read_text().splitlines()]


def test_ctrl_c_keeps_every_finished_game_in_one_process(tmp_path):
    code, data, streamed = _interrupt_after(
        2, "--size", "5x5", "--games", "400", "--jobs", "1", "--records", str(tmp_path / "r.jsonl"))
    assert code == 130 and data["partial"] is True and data["games_asked"] == 400
    assert 2 <= data["games"] < 400
    assert [r["seed"] for r in data["records"]] == list(range(data["games"]))
    assert sorted(r["seed"] for r in streamed) == [r["seed"] for r in data["records"]]


def test_ctrl_c_keeps_every_finished_game_with_workers(tmp_path):
    code, data, streamed = _interrupt_after(
        2, "--size", "5x5", "--games", "400", "--jobs", "2", "--records", str(tmp_path / "r.jsonl"))
    assert code == 130 and data["partial"] is True
    assert 2 <= data["games"] < 400
    assert sorted(r["seed"] for r in streamed) == [r["seed"] for r in data["records"]]
    assert data["solved"] + data["unsolvable"] + data["failed"] == data["games"]


def test_a_10x10_game_through_the_command_line(capsys):
    code, data = simulate_json(capsys, "--size", "10x10", "--games", "1", "--seed", "3", "--jobs", "1")
    assert code == 0 and data["failed"] == 0 and data["games"] == 1
    rec = data["records"][0]
    assert rec["outcome"] in ("solved", "unsolvable")
    if rec["solved"]:  # the hidden board replays to dark
        from countlo.board import Shape

        shape = Shape(10, 10)
        board = shape.from_rows([sum(v << c for c, v in enumerate(row)) for row in rec["start"]])
        for (row, col), count in rec["steps"]:
            board = shape.press(board, (row - 1) * 10 + col - 1)
            assert board.bit_count() == count
        assert board == 0


@pytest.mark.parametrize("command", [
    ["simulate", "--size", "17x17", "--games", "1"],
    ["simulate", "--size", "3x1000"],
    ["play", "--sim", "--size", "20x20", "--plain"],
], ids=lambda c: " ".join(c[:3]))
def test_boards_beyond_the_engine_are_refused_up_front_in_one_line(capsys, tmp_path, monkeypatch, command):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code = main(command)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "at most 1000 cells whose shorter side is at most 16 (the largest square is 16x16)" in err
    assert not any(tmp_path.rglob("*"))  # no transcript was started


def test_replay_with_the_exact_engine_refuses_a_board_beyond_it(capsys, tmp_path):
    tape = tmp_path / "big.txt"
    tape.write_text("# countlo transcript 1\n# size: 20x20\n\nstart 7\n")
    code = main(["replay", str(tape), "--engine", "exact"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "20x20" in err  # refused up front, one line


def test_default_jobs_play_a_short_run_in_this_process(capsys, monkeypatch):
    import countlo.cli.workers as workers

    def no_workers(*args, **kwargs):
        raise AssertionError("a short run started worker processes")

    ticks = iter(range(10**6))  # a clock counting its calls: 0.1 s of work per call, however loaded the machine
    monkeypatch.setattr(workers, "clock", lambda: next(ticks) / 10)
    monkeypatch.setattr(workers, "available_cores", lambda: 4)
    _, one = simulate_json(capsys, "--size", "3x3", "--games", "5", "--seed", "2", "--jobs", "1")
    monkeypatch.setattr(workers, "play_in_workers", no_workers)
    code, default = simulate_json(capsys, "--size", "3x3", "--games", "5", "--seed", "2")
    assert code == 0 and without_times(default) == without_times(one)


def test_default_jobs_hand_a_long_run_to_no_more_workers_than_games_left(capsys, monkeypatch):
    import countlo.cli.workers as workers

    started: list[tuple[list[int], int]] = []
    real = workers.play_in_workers

    def spy(args, seeds, jobs):
        started.append((list(seeds), jobs))
        yield from real(args, seeds, jobs)

    monkeypatch.setattr(workers, "available_cores", lambda: 8)
    monkeypatch.setattr(workers, "HANDOVER_SECONDS", 0.0)  # every run counts as long
    monkeypatch.setattr(workers, "play_in_workers", spy)
    code, default = simulate_json(capsys, "--size", "4x4", "--games", "4", "--seed", "11")
    assert started == [([12, 13, 14], 3)]  # the first game in this process, then 3 workers, not 8
    _, one = simulate_json(capsys, "--size", "4x4", "--games", "4", "--seed", "11", "--jobs", "1")
    assert code == 0 and without_times(default) == without_times(one)
