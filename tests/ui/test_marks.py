"""The session's marks (cells needed or never needed whatever the board) and its estimate of the
clicks to go: on the right cells, explained in the legend, within 80 columns; in-process (plain
prompt, and prompt_toolkit over a pipe drawn on a pyte screen) and in a real pseudo-terminal."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest
from brute import BrutePosterior
from typed import drive

from countlo.board import Shape, press_masks
from countlo.play.guide import Guide
from countlo.play.knowledge import press_set
from countlo.play.oracle import SimulatedOracle
from countlo.ui.picture import plain
from countlo.ui.session import Session

SIX = Shape(6, 6)
PIN_GROUP = ["A1", "C1", "A3", "C3", "E3", "C5"]  # clicking these settles E1 and A5 (docs/MATH.md §19)


def marks_in(text: str, shape: Shape) -> dict[int, str]:
    """Cell -> '+' or '-' as drawn in the last board picture of `text` (fourth column of a cell)."""
    lines = text.splitlines()
    pad = len(str(shape.rows))
    head = max(i for i, ln in enumerate(lines) if ln.split()[:2] == ["A", "B"])
    out: dict[int, str] = {}
    for r in range(shape.rows):
        row = lines[head + 1 + r]
        assert row.startswith(f"{r + 1:>{pad}} ")
        for c in range(shape.cols):
            slot = row[pad + 1 + 4 * c: pad + 5 + 4 * c]
            if slot[0] != "[" and slot[3] in "+-":
                out[r * shape.cols + c] = slot[3]
    return out


def brute_marks(record) -> dict[int, str]:
    """The marks every consistent start agrees on, by listing them all (small boards)."""
    shape, flips = record.shape, record.flips()
    masks = press_masks(shape)
    table: dict[int, int] = {}
    for p in range(1 << shape.cells):
        lights = 0
        for k in range(shape.cells):
            if p >> k & 1:
                lights ^= masks[k]
        table[lights] = p
    xs = [table[b ^ flips] for b in BrutePosterior(record).starts]
    out = {k: "+" for k in range(shape.cells) if all(x >> k & 1 for x in xs)}
    out.update({k: "-" for k in range(shape.cells) if not any(x >> k & 1 for x in xs)})
    return out


def test_plain_prompt_marks_the_settled_cells_and_explains_them():
    shape = Shape(3, 4)
    seen = set()
    for seed in range(5):
        session = Session(Guide(shape), oracle=SimulatedOracle(shape, seed))
        while not session.over:
            text = plain(session.prompt(status=True))
            assert max(len(ln) for ln in text.splitlines()) <= 80
            if session.advice().phase == "probe":
                want = {k: m for k, m in brute_marks(session.guide.record).items()
                        if k != session.target()}  # the suggested cell shows its brackets
                assert marks_in(text, shape) == want
                assert ("needed, any board" in text) == ("+" in want.values())
                assert ("never needed" in text) == ("-" in want.values())
                assert re.search(r"[Aa]bout \d+ clicks? to go \(an estimate\)", text)
                seen |= set(want.values())
            else:
                assert not marks_in(text, shape) and "to go (an estimate)" not in text
            session.handle("")
    assert seen == {"+", "-"}


def test_board_command_explains_the_marks_on_6x6():
    game = SimulatedOracle(SIX, 2)
    session = Session(Guide(SIX), oracle=game)
    for cell in PIN_GROUP:
        session.handle(cell)
    text = plain(session.handle("board"))
    drawn = marks_in(text, SIX)
    assert set(drawn) == {SIX.parse_cell("E1"), SIX.parse_cell("A5")}
    truth = press_set(SIX, game.lights)
    assert all((m == "+") == bool(truth >> k & 1) for k, m in drawn.items())
    assert "whatever the hidden board is" in " ".join(text.split()) and "About " in text
    assert max(len(ln) for ln in text.splitlines()) <= 80


def test_plain_lines_front_end_shows_the_estimate():
    from countlo.ui.terminal import run_lines

    out = io.StringIO()
    session = Session(Guide(SIX), oracle=SimulatedOracle(SIX, 3))
    run_lines(session, io.StringIO("\n".join(PIN_GROUP) + "\n"), out)
    text = out.getvalue()
    assert ("clicks to go (an estimate)" in text and "needed, any board" in text) or "never needed" in text


# --- prompt_toolkit over a pipe, drawn on a virtual 80-column screen ----------------------------
pytest.importorskip("prompt_toolkit.input")  # the tests below type into its front end (tests/typed.py)
pyte = pytest.importorskip("pyte")


def screen_of(raw: str, columns: int = 80, rows: int = 24) -> list[str]:
    screen = pyte.Screen(columns, rows)
    pyte.ByteStream(screen).feed(raw.encode())
    return list(screen.display)


def test_terminal_draws_the_marks_on_the_right_cells_at_80_columns():
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    game = SimulatedOracle(SIX, 1)
    session = Session(Guide(SIX), oracle=game)
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm-256color")
    drive(session, "".join(c + "\r" for c in PIN_GROUP) + "board\r", output)  # then the input ends
    rows = screen_of(sink.getvalue(), rows=200)  # tall: nothing scrolls out of sight
    text = "\n".join(rows)
    drawn = marks_in(text, SIX)
    truth = press_set(SIX, game.lights)
    assert set(drawn) == {SIX.parse_cell("E1"), SIX.parse_cell("A5")}
    assert all((m == "+") == bool(truth >> k & 1) for k, m in drawn.items())
    assert "needed, any board" in text or "never needed" in text
    assert "whatever the hidden board is" in " ".join(text.split())


# --- a real pseudo-terminal -------------------------------------------------------------------
pexpect = pytest.importorskip("pexpect")


def test_pty_play_shows_marks_and_estimate(tmp_path: Path):
    from conftest import ROOT

    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path), TERM="xterm-256color",
               PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="80", LINES="24")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "countlo", "play", "--sim", "--seed", "4"], env=env,
                          cwd=str(ROOT), dimensions=(24, 80), encoding="utf-8", timeout=30)
    raw = ""
    child.expect("Enter clicks")
    raw += child.before + child.after
    for cell in PIN_GROUP:
        child.send(cell + "\r")
        child.expect("Enter clicks")
        raw += child.before + child.after
    child.expect(r"another cell\):")
    raw += child.before + child.after
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    rows = screen_of(raw)
    text = "\n".join(rows)
    game = SimulatedOracle(SIX, 4)
    for cell in PIN_GROUP:
        game.click(SIX.parse_cell(cell))
    truth = press_set(SIX, game.lights)
    drawn = marks_in(text, SIX)
    assert set(drawn) == {SIX.parse_cell("E1"), SIX.parse_cell("A5")}
    assert all((m == "+") == bool(truth >> k & 1) for k, m in drawn.items())
    assert "to go (an estimate)" in text
    first = next(r for r in reversed(rows) if r.startswith("1 "))
    assert first.rstrip().endswith("## lit")  # the legend stays beside the board: nothing wrapped
    assert ("needed, any board" in text) == ("+" in drawn.values())
    assert ("never needed" in text) == ("-" in drawn.values())
