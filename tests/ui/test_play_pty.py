"""`countlo play` in a real pseudo-terminal (pexpect), the way a player runs it."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from conftest import ROOT  # noqa: E402

from countlo.board import Shape  # noqa: E402
from countlo.formats.transcript import load  # noqa: E402
from countlo.play.oracle import SimulatedOracle  # noqa: E402

ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78]|\][^\x07]*\x07)")


def spawn(args: list[str], tmp_path: Path, colour: bool = True):
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path), TERM="xterm-256color",
               PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="80", LINES="24")
    env.pop("NO_COLOR", None)
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(sys.executable, ["-m", "countlo", "play", *args], env=env, cwd=str(ROOT),
                         dimensions=(24, 80), encoding="utf-8", timeout=30)


def transcript_in(tmp_path: Path) -> Path:
    """The one transcript written: in the default folder, or (a simulated game's, which is kept
    only when asked) the --transcript file SIM."""
    (path,) = [*(tmp_path / "countlo").glob("*.txt"), *tmp_path.glob(SIM)]
    return path


SIM = "sim.txt"


@pytest.mark.parametrize("colour", [True, False])
def test_sim_pressed_through_to_the_end(tmp_path, colour):
    child = spawn(["--sim", "--seed", "1", "--transcript", str(tmp_path / SIM)], tmp_path, colour)
    child.expect("Enter clicks")
    presses = 0
    while True:
        child.send("\r")
        presses += 1
        i = child.expect(["Enter clicks", "Solved"])
        if i == 1:
            break
        assert presses < 80
    child.expect(pexpect.EOF)
    tail = ANSI.sub("", child.before)
    assert "hidden board was" in tail
    child.close()
    assert child.exitstatus == 0
    record = load(str(transcript_in(tmp_path))).record
    hidden = SimulatedOracle(Shape(6, 6), 1)
    assert record.start == hidden.start() and record.consistent(hidden.board)
    assert record.count == 0 and len(record.steps) == presses
    if not colour:
        assert "\x1b[38;" not in child.before


def test_typed_counts_from_a_simulated_game_reach_zero(tmp_path):
    game = SimulatedOracle(Shape(6, 6), 7)
    child = spawn([], tmp_path)
    child.expect("Starting count")
    child.send(f"{game.start()}\r")
    asked = re.compile(r"Count after \S*?([A-F][1-6])")
    clicks = 0
    while True:
        i = child.expect([asked, "Solved"])
        if i == 1:
            break
        cell = Shape(6, 6).parse_cell(child.match.group(1))
        child.send(f"{game.click(cell)}\r")
        clicks += 1
        assert clicks < 80
    child.expect(pexpect.EOF)
    assert game.lights == 0
    record = load(str(transcript_in(tmp_path))).record
    assert record.count == 0 and len(record.steps) == clicks


def test_ctrl_c_keeps_the_transcript_and_resume_carries_on(tmp_path):
    child = spawn(["--sim", "--seed", "3", "--transcript", str(tmp_path / SIM)], tmp_path)
    for _ in range(3):
        child.expect("Enter clicks")
        child.send("\r")
    child.expect("Enter clicks")
    child.sendintr()
    child.expect("--resume")
    child.expect(pexpect.EOF)
    child.close()
    path = transcript_in(tmp_path)
    assert len(load(str(path)).record.steps) == 3
    child = spawn(["--resume", str(path)], tmp_path)
    child.expect("Resumed after 3 clicks")
    while child.expect(["Enter clicks", "Solved"]) == 0:
        child.send("\r")
    child.expect(pexpect.EOF)
    record = load(str(path)).record
    assert record.count == 0 and record.consistent(SimulatedOracle(Shape(6, 6), 3).board)
