"""`countlo play --lang zh` in a real pseudo-terminal, its screen read through pyte (a terminal
emulator that gives Chinese characters their two columns): a typed game reaches 0, and the board
picture, its legend, the prompt's cursor and the status bar sit where they do in English."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect  # the test extras: a real pseudo-terminal
import pyte  # the test extras: a terminal emulator giving Chinese characters their two columns
from conftest import ROOT

from countlo import i18n
from countlo.board import Shape
from countlo.formats.transcript import load
from countlo.play.oracle import SimulatedOracle

COLS, LINES = 80, 24
SIX = Shape(6, 6)


class Terminal:
    """What the player sees: every byte the program wrote, fed to an 80x24 pyte screen, which
    answers the program's cursor-position requests as a real terminal does (prompt_toolkit shows
    the status bar only once it knows where the cursor is)."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLS, LINES)
        self.stream = pyte.Stream(self.screen)
        self.child = None
        self.screen.write_process_input = self.answer

    def answer(self, data: str) -> None:
        if self.child is not None:
            self.child.send(data)

    def write(self, text: str) -> None:
        self.stream.feed(text)

    def flush(self) -> None:
        pass

    def cell(self, y: int, x: int) -> str:
        return self.screen.buffer[y][x].data

    def text(self, y: int, x0: int = 0, x1: int = COLS) -> str:
        """Row y from column x0 to x1 as displayed (a wide character once, its stub skipped)."""
        return "".join(self.cell(y, x) for x in range(x0, x1))


def spawn(args: list[str], tmp_path: Path):
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path), TERM="xterm-256color",
               COLUMNS=str(COLS), LINES=str(LINES), LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    env.pop("LANGUAGE", None)
    return pexpect.spawn(sys.executable, ["-m", "countlo", "play", *args], env=env, cwd=str(ROOT),
                         dimensions=(LINES, COLS), encoding="utf-8", timeout=30)


def settle(child) -> None:
    """Read whatever the program still writes for the current prompt (toolbar, cursor moves)."""
    try:
        while True:
            child.read_nonblocking(65536, timeout=0.5)
    except (pexpect.TIMEOUT, pexpect.EOF):
        pass


def check_layout(term: Terminal, cell: str) -> None:
    """The board picture, the legend beside it, the prompt asking for `cell` with the cursor
    right after it, and the status bar on the last line."""
    rows = [y for y in range(LINES) if term.text(y, 0, 24).startswith("   A   B   C   D   E   F")]
    assert rows, "\n".join(term.screen.display)
    top = rows[-1]
    for c, letter in enumerate("ABCDEF"):
        assert term.cell(top, 3 + 4 * c) == letter
    legend = ["## " + i18n._("lit"), ".. " + i18n._("dark"), "nn " + i18n._("% chance lit"),
              "[  ] " + i18n._("click this")]
    for r in range(6):
        y = top + 1 + r
        assert term.cell(y, 0) == str(r + 1)
        for c in range(6):
            glyph = term.cell(y, 3 + 4 * c) + term.cell(y, 4 + 4 * c)
            assert re.fullmatch(r"##|\.\.|[ 1-9][0-9]", glyph), (r, c, term.text(y))
            assert term.cell(y, 2 + 4 * c) in " [" and term.cell(y, 5 + 4 * c) in " ]+-"  # +/- marks
        if r < len(legend):  # the legend starts in the same column on every line
            assert term.text(y, 30).rstrip() == legend[r], term.text(y)
    y, x = top + int(cell[1]), 2 + 4 * "ABCDEF".index(cell[0])  # the asked cell is bracketed
    assert term.cell(y, x) == "[" and term.cell(y, x + 3) == "]", "\n".join(term.screen.display)
    prompt_rows = [y for y in range(top, LINES) if "后的亮灯数" in term.screen.display[y]]
    assert prompt_rows
    y = prompt_rows[-1]
    shown = term.screen.display[y].rstrip()
    assert shown.startswith(f"点击 {cell} 后的亮灯数 [") and shown.endswith("]：")
    assert (term.screen.cursor.y, term.screen.cursor.x) == (y, i18n.width(shown))
    status = term.screen.display[LINES - 1]  # the status bar, on the terminal's last line
    # whole parts only, as many as fit the 80 columns (a Chinese character takes two)
    assert re.fullmatch(r" \d+ 次点击 · 剩 \S+ 种盘面 · 36 位中已知 \d+\.\d 位 · adaptive · F2 撤销( · help)? *",
                        status), "\n".join(term.screen.display)
    assert i18n.width(status.rstrip()) <= COLS


def test_a_typed_game_in_chinese_reaches_zero_with_the_screen_aligned(tmp_path):
    with i18n.speaking("zh"):
        game = SimulatedOracle(SIX, 7)
        term = Terminal()
        child = spawn(["--lang", "zh"], tmp_path)
        child.logfile_read, term.child = term, child
        child.expect("初始亮灯数")
        settle(child)
        assert "countlo play: 6x6 盘面，adaptive 策略，exact 引擎" in "\n".join(term.screen.display)
        child.send(f"{game.start()}\r")
        asked = re.compile(r"点击 \S*?([A-F][1-6])\S*? 后的亮灯数")
        clicks = checked = 0
        while True:
            i = child.expect([asked, "完成"])
            if i == 1:
                break
            cell = child.match.group(1)
            if clicks in (0, 3, 8):
                settle(child)
                check_layout(term, cell)
                checked += 1
            child.send(f"{game.click(SIX.parse_cell(cell))}\r")
            clicks += 1
            assert clicks < 80
            child.expect(rf" {clicks}\. ")  # this step's log line: the next prompt comes after it
        child.expect(pexpect.EOF)
        assert checked == 3 and game.lights == 0
        final = "\n".join(term.screen.display)
        assert "完成：" in final and "记录文件：" in final
        (path,) = (tmp_path / "countlo").glob("*.txt")
        record = load(str(path)).record
        assert record.count == 0 and len(record.steps) == clicks
