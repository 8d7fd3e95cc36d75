"""The guided session driven in-process: directly, over plain lines, and behind prompt_toolkit
with create_pipe_input() / DummyOutput(); always with the real Guide and transcript Writer."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from typed import drive

from countlo.board import Shape
from countlo.formats.transcript import Header, Writer, load
from countlo.hidden.diagnose import Fix
from countlo.play.advice import Doubt
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.ui.picture import plain
from countlo.ui.session import Session
from countlo.ui.terminal import run_lines, wants_colour
from countlo.ui.wording import amount, boards

SHAPE = Shape(3, 4)  # nullity 0: every start can be cleared
SIX = Shape(6, 6)


def writer_at(path: Path, shape: Shape = SHAPE) -> Writer:
    return Writer.create(str(path), Header.new(shape, "adaptive", None, "exact"))


def on_file(path: Path):
    """The record the transcript file holds."""
    return load(str(path)).record


def typed_game(shape: Shape, seed: int, strategy: str = "adaptive") -> tuple[int, list[str]]:
    """The hidden start and the lines a player types to follow the advice to the end."""
    game = SimulatedOracle(shape, seed)
    session = Session(Guide(shape, strategy))
    lines = [str(game.start())]
    session.handle(lines[0])
    while not session.over:
        lines.append(str(game.click(session.target())))
        assert session.check(lines[-1]) is None
        session.handle(lines[-1])
    assert game.lights == 0
    return game.board, lines


def test_a_whole_typed_6x6_game_reaches_zero(tmp_path):
    hidden, lines = typed_game(SIX, 5)
    path = tmp_path / "t.txt"
    session = Session(Guide(SIX), writer=writer_at(path, SIX), where=str(path))
    out = ""
    for line in lines:
        assert not session.over
        out += plain(session.handle(line))
    assert session.over and session.guide.done and session.guide.known() == hidden
    assert "Solved" in out and "as planned" in out
    record = on_file(path)
    assert record == session.guide.record and record.consistent(hidden) and record.count == 0


@pytest.mark.parametrize("strategy", ["adaptive", "restore", "sequential", "fixed"])
def test_every_strategy_is_guided_to_the_end(strategy):
    _hidden, lines = typed_game(SHAPE, 2, strategy)
    assert len(lines) > 2


def test_impossible_count_is_refused_and_changes_nothing():
    session = Session(Guide(SHAPE))
    session.handle("8")
    session.handle(str(session.guide.possible_counts(session.target())[0]))
    cell = session.target()
    possible = session.guide.possible_counts(cell)
    bad = next(n for n in range(SHAPE.cells + 1) if n not in possible)
    before = session.guide.record
    reason = session.check(str(bad))
    assert reason is not None and str(bad) in reason
    assert " ".join(map(str, possible)) in reason
    out = plain(session.handle(str(bad)))
    assert out.startswith("! ") and session.guide.record == before
    assert " ".join(map(str, possible)) in plain(session.prompt())  # the prompt lists them too


def test_starting_count_must_fit_the_board():
    session = Session(Guide(SHAPE))
    assert "0-12" in session.check("13")
    assert session.check("C1") is not None
    assert session.check("12") is None


def test_a_different_cell_then_its_count_and_on_one_line(tmp_path):
    game = SimulatedOracle(SHAPE, 2)
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path))
    session.handle(str(game.start()))
    session.handle(SHAPE.name(session.target()))  # the advised cell itself: nothing changes
    assert session.pending is None
    other = next(k for k in range(SHAPE.cells) if k != session.target())
    session.handle(SHAPE.name(other))
    assert session.pending == other and session.target() == other
    assert f"You clicked {SHAPE.name(other)} instead" in plain(session.prompt())
    count = game.click(other)
    session.handle(str(count))
    assert session.pending is None and on_file(path).steps[-1].cell == other
    k = 5
    session.handle(f"{k // 4 + 1} {k % 4 + 1} {game.click(k)}")  # "row col count" on one line
    session.handle(f"A1 {game.click(0)}")  # "cell count" on one line
    assert [s.cell for s in on_file(path).steps] == [other, k, 0]
    assert on_file(path).consistent(game.board)


def test_undo_takes_back_a_step_or_a_pending_cell(tmp_path):
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path))
    session.handle("8")
    assert session.check("undo") is not None  # nothing to undo yet
    count = session.guide.possible_counts(session.target())[-1]
    session.handle(str(count))
    session.handle("D3")
    assert session.pending == 11
    session.handle("undo")
    assert session.pending is None and len(session.guide.record.steps) == 1
    session.handle("undo")
    assert session.guide.record.steps == () and on_file(path).steps == ()
    assert path.read_text().rstrip().endswith("undo")


def play_with_a_typo(tmp_path: Path, shape: Shape, seed: int, typo_at: int) -> set[str] | None:
    """Play a typed game where the count of step `typo_at` is typed 2 off (while still possible),
    then the true counts; the player insists on a refused count the game shows ("!"), answers a
    question naming its typo with that line, else takes Enter (the likeliest answer, or the
    click that tells the suspects apart). The ways the typo showed up, or None if no such typo
    was possible. Checks the game ends with the transcript equal to the guide's record and true
    to the hidden board."""
    game = SimulatedOracle(shape, seed)
    path = tmp_path / f"{seed}-{typo_at}.txt"
    session = Session(Guide(shape), writer=writer_at(path, shape))
    session.handle(str(game.start()))
    real, seen, typed = None, set(), 0
    while not session.over:
        typed += 1
        assert typed < 20 * shape.cells
        if isinstance(session.advice(), Doubt):
            if session.pending is not None:  # the click that tells the suspects apart
                seen.add("told apart")
                session.handle(str(game.click(session.pending)))
                continue
            if f"fix {typo_at} {real}" in plain(session.prompt()):
                seen.add("asked")
                session.handle(f"fix {typo_at} {real}")
            else:
                session.handle("")
            continue
        cell = session.target()
        count = game.click(cell)
        line = f"{shape.name(cell)} {count}"
        if len(session.guide.record.steps) + 1 == typo_at and real is None:
            real = count
            typos = [c for c in session.guide.possible_counts(cell) if abs(c - real) == 2]
            if not typos:
                return None
            line = f"{shape.name(cell)} {typos[0]}"
        reason = session.check(line)
        if reason is not None:
            assert "type !" in reason
            seen.add("insisted")
            line = "!"
        session.handle(line)
    assert game.lights == 0 and session.guide.done
    record = on_file(path)
    assert record == session.guide.record and record.consistent(game.board)
    assert any(isinstance(m, Fix) and m.step == typo_at and m.suggested == real for m in session.guide.corrections)
    return seen


def test_a_mistyped_count_is_found_later_every_way_and_the_game_still_ends(tmp_path):
    """The session asks which mistake it was (naming the typo), or first refuses the next true
    count (the player insists with '!'), or offers a click to tell the suspects apart: every
    way turns up, every game ends with the typo corrected."""
    shape, seen = Shape(4, 5), set()
    for seed in range(1, 13):
        for typo_at in (3, 6, 9):
            seen |= play_with_a_typo(tmp_path, shape, seed, typo_at) or set()
    assert {"asked", "insisted", "told apart"} <= seen


def test_simulated_game_presses_enter_to_the_end(tmp_path):
    game = SimulatedOracle(SIX, 7)
    path = tmp_path / "t.txt"
    session = Session(Guide(SIX), writer=writer_at(path, SIX), oracle=game)
    assert session.check("4") is not None  # the game gives the counts
    n, out = 0, ""
    while not session.over:
        out = plain(session.handle(""))
        n += 1
        assert n < 80
    assert game.lights == 0 and session.guide.known() == game.board
    assert "hidden board was" in out and "Solved" in out
    assert len(on_file(path).steps) == game.clicks == n


def test_simulated_undo_takes_the_click_back_in_the_game():
    game = SimulatedOracle(SHAPE, 8)
    session = Session(Guide(SHAPE), oracle=game)
    before = game.lights
    session.handle("B2")
    assert game.lights != before
    session.handle("undo")
    assert game.lights == before and session.guide.record.steps == ()


def test_manual_strategy_asks_for_the_cell():
    game = SimulatedOracle(SHAPE, 4)
    session = Session(Guide(SHAPE, "manual"))
    session.handle(str(game.start()))
    assert session.target() is None and "e.g. C4 17" in plain(session.prompt())
    assert session.check("3") is not None
    session.handle(f"B3 {game.click(9)}")
    assert session.guide.record.steps[-1].cell == 9


def test_quit_then_resume_carries_on_with_every_step_kept(tmp_path):
    game = SimulatedOracle(SHAPE, 9)
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path), where=str(path))
    session.handle(str(game.start()))
    for _ in range(3):
        session.handle(str(game.click(session.target())))
    out = plain(session.handle("quit"))
    assert session.over and f"--resume {path}" in out
    session.writer.close()
    writer, transcript = Writer.resume(str(path))
    assert len(transcript.record.steps) == 3
    again = Session(Guide.from_record(transcript.record), writer=writer, where=str(path))
    assert "Resumed after 3 clicks" in plain(again.greeting())
    while not again.over:
        again.handle(str(game.click(again.target())))
    assert game.lights == 0
    assert on_file(path).count == 0 and on_file(path).steps[:3] == transcript.record.steps


def test_help_history_board_fix():
    session = Session(Guide(SHAPE), where="/tmp/some-transcript.txt")
    session.handle("8")
    first, *_, last = session.guide.possible_counts(session.target())
    session.handle(str(last))
    assert "undo" in plain(session.handle("help"))
    assert f"-> {last}" in plain(session.handle("history"))
    assert "bits known" in plain(session.handle("board"))
    assert session.check("fix 5 3") is not None
    session.handle(f"fix 1 {first}")
    assert session.guide.record.steps[0].count == first


def test_plain_lines_front_end_plays_a_typed_game():
    _hidden, lines = typed_game(SHAPE, 11)
    lines.insert(1, "99")  # refused, then the game carries on
    out = io.StringIO()
    session = Session(Guide(SHAPE))
    run_lines(session, io.StringIO("\n".join(lines) + "\n"), out)
    text = out.getvalue()
    assert session.guide.done and "Solved" in text and "! 99 is impossible after" in text
    assert "\x1b[" not in text  # no colour codes in plain mode
    assert "boards left" in text  # the status line stands in for the toolbar


def test_plain_lines_end_of_input_leaves_cleanly():
    out = io.StringIO()
    session = Session(Guide(SHAPE), where="/tmp/t.txt")
    run_lines(session, io.StringIO("4\n"), out)
    assert session.over and not session.guide.done and "--resume /tmp/t.txt" in out.getvalue()


def test_amounts_read_easily():
    assert amount(12345) == "12,345" and amount(9_075_135_300) == "9.1 billion"
    assert boards(1) == "1 board" and boards(2) == "2 boards"


def test_colour_only_for_terminals_without_no_color():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert wants_colour(Tty(), {}) and not wants_colour(Tty(), {"NO_COLOR": "1"})
    assert not wants_colour(io.StringIO(), {})


def test_transcripts_go_under_xdg_data_home_named_by_date(tmp_path):
    from datetime import datetime

    from countlo.cli.play import data_dir, default_path

    assert data_dir({"XDG_DATA_HOME": "/x"}).as_posix() == "/x/countlo"
    assert data_dir({"HOME": "/home/p"}).as_posix() == "/home/p/.local/share/countlo"
    env = {"XDG_DATA_HOME": str(tmp_path)}
    when = datetime(2026, 11, 21, 17, 45, 2)
    first = default_path(SIX, True, when, env)
    assert first == tmp_path / "countlo" / "2026-11-21-174502-6x6-sim.txt"
    first.write_text("taken")
    assert default_path(SIX, True, when, env).name == "2026-11-21-174502-6x6-sim-2.txt"


# --- behind prompt_toolkit ----------------------------------------------------------------
pytest.importorskip("prompt_toolkit.input")  # the tests below type into its front end (tests/typed.py)


def test_terminal_plays_a_typed_game_with_a_refusal(tmp_path):
    hidden, lines = typed_game(SHAPE, 3)
    keys = lines[0] + "\r" + "42\r\x15" + "".join(line + "\r" for line in lines[1:])
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path))
    drive(session, keys)
    assert session.guide.done and session.guide.known() == hidden
    assert len(on_file(path).steps) == len(lines) - 1


def test_terminal_simulated_game_by_enter_alone():
    game = SimulatedOracle(SHAPE, 4)
    session = Session(Guide(SHAPE), oracle=game)
    drive(session, "\r" * 60)
    assert session.guide.done and game.lights == 0


@pytest.mark.parametrize("undo_keys", ["\x1bOQ", "\x1bu", "undo\r"])
def test_terminal_undo_key(tmp_path, undo_keys):
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path), oracle=SimulatedOracle(SHAPE, 6))
    drive(session, "\r\r" + undo_keys + "\x04")
    assert len(session.guide.record.steps) == 1 and len(on_file(path).steps) == 1


@pytest.mark.parametrize("leave", ["\x03", "\x04", "quit\r"])
def test_terminal_leaves_cleanly_keeping_the_steps(tmp_path, leave):
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path), oracle=SimulatedOracle(SHAPE, 9))
    drive(session, "\r\r\r" + leave)
    assert session.over and not session.guide.done and len(on_file(path).steps) == 3


def test_a_wrong_finishing_count_is_flagged_and_undo_puts_it_right(tmp_path):
    game = SimulatedOracle(SIX, 7)
    path = tmp_path / "t.txt"
    session = Session(Guide(SIX), writer=writer_at(path, SIX))
    session.handle(str(game.start()))
    while session.advice().phase != "finish":
        session.handle(str(game.click(session.target())))
    advice = session.advice()
    count = game.click(advice.cell)
    wrong = next(c for c in session.accepted(advice.cell) if c != count)
    out = plain(session.handle(str(wrong)))
    assert f"expected {advice.expected}!" in out
    if session.advice().phase == "stuck":
        assert "undo" in plain(session.prompt())
    assert "expected" in path.read_text()  # the transcript keeps the surprise as a comment
    session.handle("undo")
    session.handle(str(count))
    while not session.over:
        session.handle(str(game.click(session.target())))
    assert game.lights == 0 and on_file(path) == session.guide.record


def test_resuming_a_solved_game_says_so_and_ends(tmp_path):
    game = SimulatedOracle(SHAPE, 5)
    path = tmp_path / "t.txt"
    session = Session(Guide(SHAPE), writer=writer_at(path), oracle=game)
    while not session.over:
        session.handle("")
    session.writer.close()
    writer, transcript = Writer.resume(str(path))
    again = Session(Guide.from_record(transcript.record), writer=writer, oracle=game)
    assert again.over and "already solved" in plain(again.greeting())


def test_undo_of_a_typed_count_asks_for_the_count_again_not_a_second_click(tmp_path):
    """Issue 11 item 4: beside the real game the click stays made when its count is undone."""
    shape = Shape(6, 6)
    game = SimulatedOracle(shape, 1)
    session = Session(Guide(shape), writer=writer_at(tmp_path / "t.txt", shape))
    session.handle(str(game.start()))
    cell = session.target()
    count = game.click(cell)
    session.handle(f"{shape.name(cell)} {count}")
    out = plain(session.handle("undo"))
    name = shape.name(cell)
    assert f"type the count {name} shows" in out
    prompt = plain(session.prompt())
    assert f"Count after {name}" in prompt and f"Click {name}" not in prompt
    session.handle(str(count))  # the count again, with no second click in the game
    assert session.guide.record.steps[-1].cell == cell and game.lights is not None
    assert len(session.guide.record.steps) == 1


def test_a_count_the_engine_cannot_follow_is_kept_and_the_session_ends(tmp_path, monkeypatch):
    """Under wide rules the exact posterior's tables may pass their memory limit only once a
    record opens them: that count is a real observation, so it reaches the transcript and the
    session ends with one line, instead of refusing the count (the limit lowered to meet it)."""
    from countlo.hidden.posterior import sparse
    from countlo.rules import Rules

    monkeypatch.setattr(sparse, "TABLE_BYTES", 1 << 20)
    shape = Shape(6, 7, Rules.make("torus", "plus"))  # 42 cells: the window programme
    game = SimulatedOracle(shape, 3)
    path = tmp_path / "t.txt"
    session = Session(Guide(shape), writer=Writer.create(str(path), Header.new(shape, "adaptive", None, "exact")),
                      where=str(path))
    typed = [game.start()]
    out = plain(session.handle(str(typed[0])))
    while not session.over and len(typed) < 100:
        typed.append(game.click(session.target()))
        out = plain(session.handle(str(typed[-1])))
    assert session.over and len(typed) > 2 and not session.guide.done
    assert "would pass 1 MB" in out and "The count is saved; countlo cannot follow this game any further." in out
    assert f"Transcript: {path}" in out
    record = on_file(path)
    assert [record.start, *(s.count for s in record.steps)] == typed  # every count, the last one too
    assert record.consistent(game.board)
    assert "countlo stopped here" in path.read_text()
