"""The guided session driven in-process: directly, over plain lines, and behind prompt_toolkit
with create_pipe_input() / DummyOutput()."""

from __future__ import annotations

import io
import random

import pytest

from countlo.board import Shape, popcount
from countlo.picture import plain
from countlo.session import Session, amount
from countlo.terminal import run_lines, run_terminal, wants_colour
from guide_double import Guide

SHAPE = Shape(3, 3)


class Hidden:
    """A seeded hidden board answering clicks with counts (the simulated game)."""

    def __init__(self, shape: Shape, seed: int):
        self.shape = shape
        self.board = self.lights = random.Random(seed).getrandbits(shape.cells)
        self.clicks = 0

    def start(self) -> int:
        return popcount(self.board)

    def click(self, cell: int) -> int:
        self.lights = self.shape.press(self.lights, cell)
        self.clicks += 1
        return popcount(self.lights)


class Journal:
    """Records what a transcript writer is asked to write."""

    def __init__(self):
        self.lines: list[tuple] = []

    def start(self, count):
        self.lines.append(("start", count))

    def step(self, cell, count, comment=None):
        self.lines.append(("step", cell, count))

    def undo(self):
        self.lines.append(("undo",))

    def fix(self, step, count):
        self.lines.append(("fix", step, count))

    def note(self, text):
        self.lines.append(("note", text))

    @property
    def record(self):
        """The record the lines written so far describe."""
        from countlo.observe import Record, Step

        start, steps = None, []
        for line in self.lines:
            if line[0] == "start":
                start = line[1]
            elif line[0] == "step":
                steps.append(Step(*line[1:]))
            elif line[0] == "undo":
                steps.pop()
            elif line[0] == "fix":
                if line[1] == 0:
                    start = line[2]
                else:
                    steps[line[1] - 1] = Step(steps[line[1] - 1].cell, line[2])
        return None if start is None else Record(SHAPE, start, tuple(steps))

    def steps(self) -> list[tuple[int, int]]:
        """The steps left standing after undos."""
        out = []
        for line in self.lines:
            if line[0] == "step":
                out.append(line[1:])
            elif line[0] == "undo":
                out.pop()
        return out


def typed_game(shape: Shape, seed: int, strategy: str = "adaptive") -> tuple[int, list[str]]:
    """The hidden start and the lines a player types to follow the advice to the end."""
    game = Hidden(shape, seed)
    hidden = game.board
    session = Session(Guide(shape, strategy))
    lines = [str(game.start())]
    session.handle(lines[0])
    while not session.guide.done:
        cell = session.target()
        lines.append(str(game.click(cell)))
        assert session.check(lines[-1]) is None
        session.handle(lines[-1])
    return hidden, lines


def test_a_whole_typed_game_reaches_zero():
    hidden, lines = typed_game(SHAPE, 5)
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal)
    for line in lines:
        assert not session.over
        session.handle(line)
    assert session.over and session.guide.done
    assert session.guide.known() == hidden
    assert journal.lines[0] == ("start", popcount(hidden))
    assert len(journal.steps()) == len(lines) - 1


def test_impossible_count_is_refused_and_changes_nothing():
    session = Session(Guide(SHAPE))
    session.handle("4")
    cell = session.target()
    possible = session.guide.possible_counts(cell)
    bad = next(n for n in range(SHAPE.cells + 1) if n not in possible)
    before = session.guide.record
    reason = session.check(str(bad))
    assert reason is not None and str(bad) in reason
    assert all(str(n) in reason for n in possible)
    out = plain(session.handle(str(bad)))
    assert out.startswith("! ") and session.guide.record == before
    # the prompt names the possible counts too
    assert " ".join(map(str, possible)) in plain(session.prompt())


def test_starting_count_must_fit_the_board():
    session = Session(Guide(SHAPE))
    assert "0-9" in session.check("10")
    assert session.check("C1") is not None
    assert session.check("9") is None


def test_a_different_cell_then_its_count_and_on_one_line():
    game = Hidden(SHAPE, 2)
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal)
    session.handle(str(game.start()))
    session.handle(SHAPE.name(session.target()))  # the advised cell itself: nothing changes
    assert session.pending is None
    other = next(k for k in range(SHAPE.cells) if k != session.target())
    session.handle(SHAPE.name(other))
    assert session.pending == other and session.target() == other
    assert SHAPE.name(other) in plain(session.prompt())
    count = game.click(other)
    session.handle(str(count))
    assert session.pending is None and journal.steps() == [(other, count)]
    k = 4
    session.handle(f"{k // 3 + 1} {k % 3 + 1} {game.click(k)}")  # "row col count"
    assert journal.steps()[-1] == (k, popcount(game.lights))


def test_undo_takes_back_a_step_or_a_pending_cell():
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal)
    session.handle("4")
    assert session.check("undo") is not None  # nothing to undo yet
    cell = session.target()
    count = session.guide.possible_counts(cell)[-1]
    session.handle(str(count))
    session.handle("C3")
    assert session.pending == 8
    session.handle("undo")
    assert session.pending is None and len(session.guide.record.steps) == 1
    session.handle("undo")
    assert session.guide.record.steps == () and journal.steps() == []
    assert journal.lines[-1] == ("undo",)


def test_fix_corrects_a_count():
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal)
    session.handle("4")
    cell = session.target()
    first, *_, last = session.guide.possible_counts(cell)
    session.handle(str(last))
    assert session.check("fix 2 3") is not None
    session.handle(f"fix 1 {first}")
    assert session.guide.record.steps[0].count == first and journal.lines[-1] == ("fix", 1, first)


def test_simulated_game_presses_enter_to_the_end():
    game = Hidden(SHAPE, 7)
    hidden = game.board
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal, oracle=game)
    assert session.hidden == hidden
    assert session.check("4") is not None  # the game gives the counts
    n = 0
    while not session.over:
        out = plain(session.handle(""))
        n += 1
        assert n < 40
    assert game.lights == 0 and session.guide.known() == hidden
    assert "hidden board was" in out and "Solved" in out
    assert len(journal.steps()) == game.clicks


def test_simulated_undo_takes_the_click_back_in_the_game():
    game = Hidden(SHAPE, 8)
    session = Session(Guide(SHAPE), oracle=game)
    before = game.lights
    session.handle("B2")
    assert game.lights != before
    session.handle("undo")
    assert game.lights == before and session.guide.record.steps == ()


def test_help_history_board_and_quit():
    where = "/tmp/some-transcript.txt"
    session = Session(Guide(SHAPE), where=where)
    session.handle("3")
    assert "undo" in plain(session.handle("help"))
    assert "start" in plain(session.handle("history"))
    assert "bits known" in plain(session.handle("board"))
    out = plain(session.handle("quit"))
    assert session.over and where in out and "--resume" in out


def test_plain_lines_front_end_plays_a_typed_game():
    hidden, lines = typed_game(SHAPE, 11)
    lines.insert(1, "99")  # refused, then the game carries on
    out = io.StringIO()
    session = Session(Guide(SHAPE))
    run_lines(session, io.StringIO("\n".join(lines) + "\n"), out)
    text = out.getvalue()
    assert session.guide.done and "Solved" in text and "! 99 is not possible" in text
    assert "\x1b[" not in text  # no colour codes in plain mode


def test_plain_lines_end_of_input_leaves_cleanly():
    out = io.StringIO()
    session = Session(Guide(SHAPE), where="/tmp/t.txt")
    run_lines(session, io.StringIO("4\n"), out)
    assert session.over and not session.guide.done and "--resume /tmp/t.txt" in out.getvalue()


def test_amounts_read_easily():
    assert amount(12345) == "12,345"
    assert amount(9_075_135_300) == "9.1 billion"


def test_colour_only_for_terminals_without_no_color():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert wants_colour(Tty(), {}) and not wants_colour(Tty(), {"NO_COLOR": "1"})
    assert not wants_colour(io.StringIO(), {})


# --- behind prompt_toolkit ----------------------------------------------------------------
pt_input = pytest.importorskip("prompt_toolkit.input")


def drive(session: Session, keys: str) -> None:
    """Run the prompt_toolkit front end on `keys` as typed input, with no real terminal."""
    from prompt_toolkit.output import DummyOutput

    with pt_input.create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        run_terminal(session, input=pipe, output=DummyOutput())


def test_terminal_plays_a_typed_game_with_a_refusal():
    hidden, lines = typed_game(SHAPE, 3)
    keys = lines[0] + "\r" + "42\r\x15" + "".join(line + "\r" for line in lines[1:])
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal)
    drive(session, keys)
    assert session.guide.done and session.guide.known() == hidden
    assert len(journal.steps()) == len(lines) - 1


def test_terminal_simulated_game_by_enter_alone():
    game = Hidden(SHAPE, 4)
    session = Session(Guide(SHAPE), oracle=game)
    drive(session, "\r" * 40)
    assert session.guide.done and game.lights == 0


@pytest.mark.parametrize("undo_keys", ["\x1bOQ", "\x1bu", "undo\r"])
def test_terminal_undo_key(undo_keys):
    game = Hidden(SHAPE, 6)
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal, oracle=game)
    drive(session, "\r\r" + undo_keys + "\x04")
    assert len(session.guide.record.steps) == 1 and journal.lines[-1] == ("undo",)


@pytest.mark.parametrize("leave", ["\x03", "\x04", "quit\r"])
def test_terminal_leaves_cleanly_keeping_the_steps(leave):
    journal = Journal()
    session = Session(Guide(SHAPE), writer=journal, oracle=Hidden(SHAPE, 9))
    drive(session, "\r\r\r" + leave)
    assert session.over and not session.guide.done and len(journal.steps()) == 3


def test_transcripts_go_under_xdg_data_home_named_by_date(tmp_path):
    from datetime import datetime

    from countlo.commands.play import data_dir, default_path

    assert data_dir({"XDG_DATA_HOME": "/x"}).as_posix() == "/x/countlo"
    assert data_dir({"HOME": "/home/p"}).as_posix() == "/home/p/.local/share/countlo"
    env = {"XDG_DATA_HOME": str(tmp_path)}
    when = datetime(2026, 11, 21, 17, 45, 2)
    first = default_path(Shape(6, 6), True, when, env)
    assert first == tmp_path / "countlo" / "2026-11-21-174502-6x6-sim.txt"
    first.write_text("taken")
    assert default_path(Shape(6, 6), True, when, env).name == "2026-11-21-174502-6x6-sim-2.txt"
