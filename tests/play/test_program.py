"""Game programs over the line protocol: honest, crashing, hanging, garbling and lying ones."""

from __future__ import annotations

import sys
import textwrap

import pytest

from countlo.board import Shape
from countlo.errors import OracleError
from countlo.play.game import Mismatch, Outcome, Refused, play_game
from countlo.play.oracle import SimulatedOracle
from countlo.play.program import ProgramOracle
from countlo.ui.wording import ending_text

S33 = Shape(3, 3)

GAME = """
import os, random, sys
R, C = {rows}, {cols}
rng = random.Random(int(os.environ.get("COUNTLO_SEED", "0")))
lit = {{(r, c) for r in range(R) for c in range(C) if rng.random() < 0.5}}
print(len(lit), flush=True)
clicks = 0
for line in sys.stdin:
    r, c = (int(x) - 1 for x in line.split())
    for cell in [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]:
        if 0 <= cell[0] < R and 0 <= cell[1] < C:
            lit ^= {{cell}}
    clicks += 1
    {twist}
    print(len(lit), flush=True)
"""


def program(tmp_path, twist: str = "pass", rows: int = 3, cols: int = 3) -> list[str]:
    path = tmp_path / "game.py"
    path.write_text(textwrap.dedent(GAME.format(rows=rows, cols=cols, twist=twist)))
    return [sys.executable, str(path)]



def test_an_honest_program_matches_the_simulated_board(tmp_path):
    cmd = program(tmp_path)
    with ProgramOracle(cmd, S33, env={"COUNTLO_SEED": "5"}) as o:
        sim = SimulatedOracle(S33, seed=0, board=_board_of(o, sim_seed=5))
        for k in [0, 4, 8, 4, 2, 7]:
            assert o.click(k) == sim.click(k)


def _board_of(o: ProgramOracle, sim_seed: int) -> int:
    import random

    rng = random.Random(sim_seed)
    board = 0
    for k in range(9):
        if rng.random() < 0.5:
            board |= 1 << k
    assert o.start() == board.bit_count()
    return board


@pytest.mark.parametrize("strategy", ["sequential", "restore", "fixed", "adaptive", "manual"])
def test_whole_games_through_a_program_end_at_zero(tmp_path, strategy):
    cmd = program(tmp_path, "sys.stderr.write(f'{clicks} clicks\\n')")
    for seed in range(4):
        with ProgramOracle(cmd, S33, env={"COUNTLO_SEED": str(seed)}) as o:
            r = play_game(o, strategy, seed=seed)
        assert r.solved, r.ending
        assert r.record.count == 0


def test_a_crashing_program_is_reported_with_the_last_exchange(tmp_path):
    cmd = program(tmp_path, "if clicks == 3: sys.stderr.write('boom\\n'); sys.exit(3)")
    with ProgramOracle(cmd, S33) as o:
        o.start()
        o.click(0)
        o.click(1)
        with pytest.raises(OracleError, match=r"after clicking C1 \(row 1 col 3\) the program exited \(exit code 3\): boom"):
            o.click(2)
        with pytest.raises(OracleError, match="already exited"):
            o.click(3)
    with ProgramOracle(cmd, S33) as o:
        r = play_game(o, "sequential")
    assert r.outcome == Outcome.ORACLE_ERROR and "exit code 3" in ending_text(S33, r.ending) and r.clicks == 2


def test_garbage_is_named(tmp_path):
    cmd = program(tmp_path, "print('abc', flush=True); continue")
    with ProgramOracle(cmd, S33) as o:
        o.start()
        with pytest.raises(OracleError, match=r"after clicking B2 \(row 2 col 2\) the program printed 'abc', not a count"):
            o.click(4)


def test_a_count_off_the_board_is_refused(tmp_path):
    cmd = program(tmp_path, "print(99, flush=True); continue")
    with ProgramOracle(cmd, S33) as o:
        o.start()
        with pytest.raises(OracleError, match="printed 99, not a count of a 3x3 board"):
            o.click(0)


def test_a_hanging_program_times_out(tmp_path):
    cmd = program(tmp_path, "import time; time.sleep(30)")
    with ProgramOracle(cmd, S33, timeout=60) as o:  # the interpreter's start-up may be slow on a loaded machine
        o.start()
        o.timeout = 0.5  # only the click's answer must wait past this
        with pytest.raises(OracleError, match=r"after clicking A1 \(row 1 col 1\) the program printed nothing within 0.5 s"):
            o.click(0)


def test_a_missing_program_is_named():
    with pytest.raises(OracleError, match="cannot start game program 'no-such-countlo-game'"):
        ProgramOracle("no-such-countlo-game --flag", S33)


@pytest.mark.parametrize("strategy", ["sequential", "restore", "fixed", "adaptive"])
def test_a_lying_program_ends_in_a_clear_contradiction(tmp_path, strategy):
    # from the 4th click on, the program claims two more lights than it has (when it can)
    lie = "print(len(lit) + (2 if clicks >= 4 and len(lit) < R * C - 1 else 0), flush=True); continue"
    cmd = program(tmp_path, lie)
    for seed in range(6):
        with ProgramOracle(cmd, S33, env={"COUNTLO_SEED": str(seed)}) as o:
            r = play_game(o, strategy, seed=seed)
        assert r.outcome == Outcome.CONTRADICTION, r.ending
        assert isinstance(r.ending, (Refused, Mismatch)), r.ending
        assert 3 <= r.clicks <= 12  # a physically impossible count never enters the record


def test_a_missing_node_script_is_reported_by_its_error_not_the_version_footer():
    """Issue 26 item 9: node ends a crash with 'Node.js v20.11.0'; the line that says what went
    wrong is 'Error: Cannot find module ...'."""
    from countlo.play.program import telling_line

    node = ["node:internal/modules/cjs/loader:1228", "  throw err;", "  ^", "",
            "Error: Cannot find module '/x/game.js'", "    at Module._resolveFilename (node:x:1:1)",
            "{", "  code: 'MODULE_NOT_FOUND',", "  requireStack: []", "}", "", "Node.js v20.11.0"]
    assert telling_line(node) == "Error: Cannot find module '/x/game.js'"
    assert telling_line(["Traceback (most recent call last):", '  File "g.py"', "ValueError: bad"]) == \
        "ValueError: bad"
    assert telling_line(["boom"]) == "boom" and telling_line(["", "Node.js v20.1.0"]) == ""
