"""Narrow terminals (issue 11, item 12): `play` and `practice` laid out for 80, 60, 40 and 30 columns.

What is checked is what a person sees: the rendered screen of a terminal of that size (pyte),
driven in-process (prompt_toolkit with a pipe input and a Vt100 output drawing on the screen) and
in a real pseudo-terminal (pexpect). On every screen:
- every word shown is a word the session said (the same game over plain lines, where nothing is
  wrapped): a word split by the right edge ("si" "mulated") is not one;
- the legend stands beside the board when both fit and below it otherwise, entries whole;
- the status bar shows whole parts of the full one, most important first, never a cut number;
- below MIN_WIDTH one line says the terminal is too narrow, once, and the game goes on.
"""

from __future__ import annotations

import io
import re
import threading
import time

import pytest

pytest.importorskip("pyte")

from vt import Pty, Screen

from countlo.board import Shape, values
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.ui.layout import MIN_WIDTH, narrow_note
from countlo.ui.picture import picture_width, plain
from countlo.ui.practice import PracticeSession
from countlo.ui.session import Session
from countlo.ui.terminal import run_lines
from countlo.visible.practice import Practice

SIX = Shape(6, 6)
WIDTHS = [80, 60, 40, 30]
BOARD_ROW = re.compile(r"^[1-6]  ?[\[ ]")  # "1  69  69 ..." or "2  69 [69] ..."


def words(text: str) -> set[str]:
    return set(text.split())


def play_session() -> Session:
    oracle = SimulatedOracle(SIX, 1)
    return Session(Guide(SIX), oracle=oracle, where="t.txt", label=f"simulated game, seed {oracle.seed}")


PLAY_KEYS = ["\r", "\r", "\r", "help\r", "board\r"]
"""Three suggested clicks, the help, the board with its legend: the longest lines a game shows."""


def play_said() -> str:
    """Everything the same game says over plain lines (no terminal, nothing wrapped)."""
    out = io.StringIO()
    run_lines(play_session(), io.StringIO("".join(PLAY_KEYS).replace("\r", "\n")), out)
    return out.getvalue()


PRACTICE_START = [0b100110, 0b010000, 0b001001, 0b011100, 0b000100, 0b000010]


def practice_session() -> PracticeSession:
    return PracticeSession(Practice(SIX, values(SIX.from_rows(PRACTICE_START), SIX.cells)), "start.txt")


PRACTICE_KEYS = ["hint\r", "help\r", "B2\r", "zzzz zzzz zzzz\r"]
PRACTICE_READY = [r"moves? \(fewest"] * 3 + ["! 'zzzz"]  # a refused line stays in the prompt


def practice_said() -> str:
    out = io.StringIO()
    run_lines(practice_session(), io.StringIO("".join(PRACTICE_KEYS).replace("\r", "\n")), out)
    return out.getvalue()


def check_words(lines: list[str], said: str, width: int, bar: str = "F2") -> None:
    """Every word on the screen is one the session said, in the status bar `bar` or the
    narrow-terminal note."""
    known = words(said) | words(bar) | words(narrow_note(width, picture_width(SIX)) or "") | {">"}
    unknown = [w for line in lines for w in line.split() if w not in known]
    assert not unknown, f"split or unknown words {unknown} at {width} columns:\n" + "\n".join(lines)


def check_legend(lines: list[str], width: int) -> None:
    rows = [i for i, line in enumerate(lines) if BOARD_ROW.match(line)]
    assert rows, "\n".join(lines)
    beside = [lines[i] for i in rows if "## lit" in lines[i] or "click this" in lines[i]]
    below = lines[rows[-1] + 1:rows[-1] + 4]
    if width >= picture_width(SIX) + 4 + len("[  ] click this"):
        assert len(beside) == 2 and "lit" not in " ".join(below), "\n".join(lines)
    else:
        assert not beside, "\n".join(lines)
        legend = " ".join(below)
        for entry in ("## lit", ".. dark", "nn % chance lit", "[  ] click this"):
            assert entry in legend, "\n".join(lines)  # whole: an entry never spans two lines


def check_status(lines: list[str], full: list[str], width: int) -> str:
    """The bottom line is the status bar: the first parts of the full one, each whole."""
    status = lines[-1]
    parts = [p.strip() for p in status.split(" · ")]
    assert parts == full[:len(parts)], f"{status!r} is not the start of {full}"
    assert len(parts) >= (2 if width >= MIN_WIDTH else 1) and len(status) <= width
    return status


def check_note(text: str, width: int) -> None:
    note = narrow_note(width, picture_width(SIX))
    if width >= MIN_WIDTH:
        assert note is None and "narrow" not in text.lower()
    else:
        assert note is not None and len(note) <= width
        assert [line.strip() for line in text.splitlines()].count(note) == 1, text


# --- in-process ---------------------------------------------------------------------------------

def run_on_screen(session, front_end, screen: Screen, keys: list[str], ready: str,
                  after: list[str] | None = None) -> list[list[str]]:
    """Run `front_end(session, input, output)` on the screen, sending each of `keys` once `ready`
    shows (after each key, `ready` or that key's pattern in `after`); returns the screen at the
    start and after each key."""
    from prompt_toolkit.input import create_pipe_input

    shots = []
    with create_pipe_input() as pipe:
        screen.answer_to(pipe)
        runner = threading.Thread(target=front_end, args=(session, pipe, screen.output()),
                                  kwargs={"colour": False}, daemon=True)
        runner.start()
        shots.append(_after(screen, ready, 0))
        for key, pattern in zip(keys, after or [ready] * len(keys)):
            start = len(screen.printed)
            pipe.send_text(key)
            shots.append(_after(screen, pattern, start))
        pipe.send_text("\x03")
        runner.join(30)
        assert not runner.is_alive()
    return shots


def _after(screen: Screen, ready: str, start: int) -> list[str]:
    """The screen once `ready` has been printed after position `start` of everything printed
    (the prompt drawn again after a key) and the output has settled."""
    end = time.monotonic() + 30
    while not re.search(ready, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.printed[start:])):
        assert time.monotonic() < end, "the prompt did not come back:\n" + screen.text()
        time.sleep(0.02)
    size = -1
    while size != len(screen.printed):  # nothing new for 0.2 s: the drawing is complete
        size = len(screen.printed)
        time.sleep(0.2)
    return screen.lines()


@pytest.fixture(scope="module")
def said() -> dict[str, str]:
    return {"play": play_said(), "practice": practice_said()}


@pytest.mark.parametrize("width", WIDTHS)
def test_play_in_process(width, said):
    from countlo.ui.terminal import run_terminal

    session = play_session()
    screen = Screen(width, 24)
    shots = run_on_screen(session, run_terminal, screen, PLAY_KEYS, r"Enter clicks")
    assert len(session.guide.record.steps) == 3  # the game went on, whatever the width
    for shot in shots:
        check_words(shot, said["play"], width)
    check_note(screen.text() if width >= MIN_WIDTH else "\n".join(shots[0]), width)
    check_legend(shots[1], width)
    check_legend(shots[-1], width)
    full = [p.strip() for p in plain(session.toolbar()).split(" · ")]
    status = check_status(shots[-1], full, width)
    assert status.strip().startswith("3 clicks")


@pytest.mark.parametrize("width", [80, 40, 30])
def test_practice_in_process(width, said):
    from countlo.ui.clickable import run_clickable

    session = practice_session()
    bar = plain(session.toolbar())
    screen = Screen(width, 24)
    shots = run_on_screen(session, run_clickable, screen, PRACTICE_KEYS, r"moves? \(fewest", PRACTICE_READY)
    assert session.game.clicks == [SIX.parse_cell("B2")]
    bar += plain(session.toolbar())
    for shot in shots:
        check_words(shot, said["practice"], width, bar)
    check_note("\n".join(shots[0]), width)
    full = [p.strip() for p in plain(session.toolbar()).split(" · ")]
    check_status(shots[-1], full, width)
    assert any(line.startswith("! 'zzzz zzzz zzzz' is not") for line in shots[-1])


# --- a real pseudo-terminal -----------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_play_in_a_real_terminal(width, said, tmp_path):
    pty = Pty(["play", "--sim", "--seed", "1", "--transcript", "t.txt"], width, 24, cwd=str(tmp_path),
              env={"XDG_DATA_HOME": str(tmp_path)})
    try:
        shots = [_after(pty.screen, "Enter clicks", 0)]
        for key in PLAY_KEYS:
            start = len(pty.screen.printed)
            pty.send(key)
            shots.append(_after(pty.screen, "Enter clicks", start))
        pty.send("\x03")
        assert pty.wait_exit() == 0
    finally:
        pty.close()
    for shot in shots:
        check_words(shot, said["play"], width)
    check_note("\n".join(shots[0]), width)
    check_legend(shots[1], width)
    check_legend(shots[-1], width)
    plain_status = [line for line in said["play"].splitlines() if line.startswith("3 clicks · ")]
    full = [p.strip() for p in plain_status[-1].split(" · ")] + ["F2 undo", "help"]
    check_status(shots[-1], full, width)
    assert "Left after 3 clicks." in pty.screen.text()


@pytest.mark.parametrize("width", [80, 40, 30])
def test_practice_in_a_real_terminal(width, said, tmp_path):
    grid = "".join("".join("#" if row >> c & 1 else "." for c in range(6)) + "\n" for row in PRACTICE_START)
    (tmp_path / "start.txt").write_text(grid)
    pty = Pty(["practice", "start.txt"], width, 24, cwd=str(tmp_path))
    bar = plain(practice_session().toolbar())
    try:
        shots = [_after(pty.screen, PRACTICE_READY[0], 0)]
        for key, ready in zip(PRACTICE_KEYS, PRACTICE_READY):
            start = len(pty.screen.printed)
            pty.send(key)
            shots.append(_after(pty.screen, ready, start))
        pty.send("\x03")
        assert pty.wait_exit() == 0
    finally:
        pty.close()
    game = practice_session().game
    game.click(SIX.parse_cell("B2"))
    bar += " " + plain(PracticeSession(game).toolbar())
    for shot in shots:
        check_words(shot, said["practice"], width, bar)
    check_note("\n".join(shots[0]), width)
    full = [p.strip() for p in plain(PracticeSession(game).toolbar()).split(" · ")]
    check_status(shots[-1], full, width)
    assert any(line.startswith("! 'zzzz zzzz zzzz' is not") for line in shots[-1])


@pytest.mark.parametrize("width", [80, 40])
def test_practice_board_stays_in_place_so_clicks_land_where_aimed(width):
    """Issue 26, item 9: the board slid down a row per move (each answer printed above it), so a
    click aimed at where a cell was drawn hit the cell below. The board keeps its screen rows,
    and a click at the position seen at the start presses that cell after several moves."""
    from prompt_toolkit.input import create_pipe_input

    from countlo.ui.clickable import run_clickable

    session = practice_session()
    screen = Screen(width, 30)

    def top(shot: list[str]) -> int:
        rows = [i for i, line in enumerate(shot) if line.startswith("1  ")]
        assert rows, "\n".join(shot)
        return rows[-1]

    with create_pipe_input() as pipe:
        screen.answer_to(pipe)
        runner = threading.Thread(target=run_clickable, args=(session, pipe, screen.output()),
                                  kwargs={"colour": False}, daemon=True)
        runner.start()
        shots = [_after(screen, r"moves? \(fewest", 0)]
        x, y = 4 * 3 + 4, top(shots[0]) + 4  # D4's lamp where the first screen drew it (1-based)
        for key in ["B2\r", "C3\r", "undo\r", "E5\r", f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"]:
            start = len(screen.printed)
            pipe.send_text(key)
            shots.append(_after(screen, r"moves? \(fewest", start))
        pipe.send_text("\x03")
        runner.join(30)
        assert not runner.is_alive()
    assert [top(shot) for shot in shots] == [top(shots[0])] * len(shots)
    assert session.game.clicks == [SIX.parse_cell(c) for c in ("B2", "E5", "D4")]
