"""`countlo simulate`: tables, JSON, game programs and bad options."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from countlo.cli import main


def simulate(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_table_reports_games_solved_probes_clicks_and_times(capsys):
    code, out, err = simulate(capsys, "--size", "3x3", "--games", "12", "--strategy", "sequential")
    assert code == 0, err
    assert "12 games on 3x3, strategy sequential, engine exact, seeds 0-11" in out
    for label in ("solved             12", "failed             0", "probes", "total clicks",
                  "time per decision"):
        assert label in out


def test_json_has_the_documented_keys_and_per_game_records(capsys):
    code, out, _ = simulate(capsys, "--size", "3x3", "--games", "6", "--seed", "40",
                            "--strategy", "restore", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("games", "solved", "probes_mean", "probes_max", "clicks_mean", "clicks_median",
                "clicks_max", "decision_ms_mean", "decision_ms_max", "records"):
        assert key in data
    assert data["games"] == data["solved"] == 6
    recs = data["records"]
    assert [r["seed"] for r in recs] == list(range(40, 46))
    for r in recs:
        # replay the record on its hidden board: the last count is 0 and every count matches
        from countlo.board import Shape

        shape = Shape(3, 3)
        board = shape.from_rows([sum(v << c for c, v in enumerate(row)) for row in r["start"]])
        assert r["start_count"] == board.bit_count()
        for (row, col), count in r["steps"]:
            board = shape.press(board, (row - 1) * 3 + col - 1)
            assert board.bit_count() == count
        assert board == 0 and r["clicks"] == len(r["steps"])
    assert data["clicks_max"] == max(r["clicks"] for r in recs)


def test_unclearable_boards_are_counted_not_failed(capsys):
    code, out, _ = simulate(capsys, "--size", "2x3", "--games", "16", "--strategy", "fixed", "--json")
    data = json.loads(out)
    assert code == 0 and data["failed"] == 0
    assert data["unsolvable"] > 0 and data["solved"] + data["unsolvable"] == 16


def test_a_game_program_plays_end_to_end(capsys, tmp_path):
    game = tmp_path / "game.py"
    game.write_text(textwrap.dedent("""
        import os, random, sys
        rng = random.Random(int(os.environ["COUNTLO_SEED"]))
        lit = {k for k in range(9) if rng.random() < 0.5}
        print(len(lit), flush=True)
        for line in sys.stdin:
            r, c = (int(x) - 1 for x in line.split())
            for rr, cc in [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]:
                if 0 <= rr < 3 and 0 <= cc < 3:
                    lit ^= {rr * 3 + cc}
            print(len(lit), flush=True)
    """))
    code, out, err = simulate(capsys, "--size", "3x3", "--games", "5", "--strategy", "fixed",
                              "--oracle-cmd", f"{sys.executable} {game}", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["solved"] == 5 and all(r["steps"][-1][1] == 0 for r in data["records"] if r["steps"])


def test_a_crashing_program_fails_the_run_with_its_reason(capsys, tmp_path):
    game = tmp_path / "crash.py"
    game.write_text("print(4, flush=True)\nimport sys\nsys.stdin.readline()\nsys.exit(7)\n")
    code, out, _ = simulate(capsys, "--size", "3x3", "--games", "2", "--oracle-cmd",
                            f"{sys.executable} {game}", "--strategy", "sequential")
    assert code == 1
    assert "failed             2" in out
    assert "seed 0: oracle error: after clicking A1 (row 1 col 1) the program exited (exit code 7)" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--strategy", "best"], "invalid choice: 'best' (choose from 'adaptive'"),
        (["--engine", "magic"], "invalid choice: 'magic' (choose from 'exact', 'linear', 'z3')"),
        (["--size", "6y6"], "bad board size '6y6'"),
    ],
)
def test_bad_options_are_one_line_errors(capsys, args, message):
    code, _out, err = simulate(capsys, "--games", "1", *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["--games", "0"], ["--density", "1.5"], ["--timeout", "-1"]])
def test_bad_numbers_are_refused_by_the_parser(capsys, args):
    assert main(["simulate", *args]) == 2
    assert "simulate" in capsys.readouterr().err


def test_simulate_6x6_from_the_command_line(run_cli_process):
    p = run_cli_process(["simulate", "--games", "3", "--strategy", "fixed", "--seed", "7", "--json"])
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert (data["rows"], data["cols"]) == (6, 6) and data["games"] == data["solved"] == 3
    assert [r["seed"] for r in data["records"]] == [7, 8, 9]
    assert all(r["probes"] <= 24 and r["steps"][-1][1] == 0 for r in data["records"])
    assert p.stderr == ""  # no progress bar when stderr is not a terminal


def test_simulate_table_from_the_command_line(run_cli):
    p = run_cli(["simulate", "--games", "2", "--strategy", "sequential"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("2 games on 6x6, strategy sequential, engine exact, seeds 0-1, density 0.5")
    assert "solved             2" in p.stdout


def test_simulate_help_names_every_option(run_cli):
    p = run_cli(["simulate", "--help"])
    for opt in ("--games", "--strategy", "--engine", "--size", "--seed", "--density", "--oracle-cmd", "--json"):
        assert opt in p.stdout


def test_a_game_refused_at_its_first_click_records_that_click_and_count(run_cli, tmp_path):
    """Issue 28 item 11: the click was sent and a count read, so the record says so."""
    import sys

    game = tmp_path / "liar.py"  # every light on, then still every light on: no click leaves that
    game.write_text("import sys\nprint(9, flush=True)\nfor line in sys.stdin:\n    print(9, flush=True)\n")
    r = run_cli(["simulate", "--size", "3x3", "--games", "1", "--jobs", "1", "--json",
                 "--oracle-cmd", f"{sys.executable} {game}"])
    rec = json.loads(r.stdout)["records"][0]
    assert rec["outcome"] == "contradiction"
    assert rec["clicks"] == 1 and len(rec["steps"]) == 1 and rec["steps"][0][1] == 9
    assert rec["refused_last"] is True


def test_a_solved_games_record_refuses_nothing(run_cli):
    r = run_cli(["simulate", "--size", "3x3", "--games", "3", "--jobs", "1", "--json"])
    for rec in json.loads(r.stdout)["records"]:
        assert rec["refused_last"] is False and rec["clicks"] == len(rec["steps"])
