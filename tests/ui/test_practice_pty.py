"""`countlo practice` in a real pseudo-terminal played with the mouse: clicks arrive as xterm SGR
mouse sequences at the screen position of a cell, and the board drawn on the screen changes as
the rules say (issue 16). The terminal (tests/vt.py) answers cursor-position requests, as a real
one does, so prompt_toolkit knows where on the screen its board is."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from vt import Pty

from countlo.board import Shape
from countlo.rules import Rules
from countlo.ui.practice import PracticeSession
from countlo.visible.practice import Practice


def drawn(game, shape: Shape) -> list[str]:
    """The board rows as the screen should show them (no hint brackets)."""
    rows = []
    for r in range(shape.rows):
        cells = []
        for c in range(shape.cols):
            v = game.state(r * shape.cols + c)
            cells.append(".." if not v else "##" if game.k == 2 else f"{v:>2}")
        rows.append(f"{r + 1}  " + "  ".join(cells))
    return rows


def board_on(lines: list[str], shape: Shape) -> tuple[int, list[str]]:
    """(screen row of the board's first row, 0-based; the rows) of the live board: the last
    block of rows numbered 1..R on the screen."""
    starts = [i for i, ln in enumerate(lines) if ln.startswith("1  ")
              and i + shape.rows <= len(lines)
              and all(lines[i + r].startswith(f"{r + 1}  ") for r in range(shape.rows))]
    assert starts, "no board on the screen:\n" + "\n".join(lines)
    top = starts[-1]
    return top, [ln.replace("[", " ").replace("]", " ").rstrip() for ln in lines[top:top + shape.rows]]


def mouse_click(top: int, cell: int, shape: Shape) -> str:
    """An xterm SGR left press and release on the lamp of `cell` (1-based screen coordinates):
    the row label takes two columns, each cell four, its lamp the middle two."""
    r, c = divmod(cell, shape.cols)
    x, y = 4 * c + 4, top + r + 1
    return f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"


@pytest.mark.parametrize("grid, options, shape", [
    ("#.#\n.#.\n#.#\n", [], Shape(3, 3)),
    ("120\n012\n", ["--states", "3", "--topology", "cylinder"],
     Shape(2, 3, Rules.make("cylinder", "plus", 3))),
])
def test_practice_played_with_the_mouse_in_a_real_terminal(tmp_path, grid, options, shape):
    (tmp_path / "start.txt").write_text(grid)
    game = Practice(shape, [1 if ch in "#1" else int(ch) if ch.isdigit() else 0 for ch in grid if ch in "#.0123456789"])
    pty = Pty(["practice", "start.txt", *options], 80, 24, cwd=str(tmp_path))
    try:
        lines = pty.wait_for(r"moves? \(fewest")
        top, rows = board_on(lines, shape)
        assert rows == drawn(game, shape)
        clicks = 0
        while not game.won:
            cell = game.hint() if clicks != 1 else (game.hint() + 1) % shape.cells  # one detour
            game.click(cell)
            clicks += 1
            pty.send(mouse_click(top, cell, shape))
            lines = pty.wait_for(rf"\n\s*{clicks}\. {shape.name(cell)}\b")
            if game.won:
                break
            lines = pty.wait_for(rf"{clicks} moves? \(fewest")
            top, rows = board_on(lines, shape)
            assert rows == drawn(game, shape), f"after clicking {shape.name(cell)} with the mouse"
        text = "\n".join(pty.wait_for(r"solved in"))
        assert re.search(rf"solved in {clicks} moves", " ".join(text.split()))
        assert pty.wait_exit() == 0
    finally:
        pty.close()


@pytest.mark.parametrize("files, options, kind", [
    ({"start.txt": "#x#\n.#.\n#.x\n"}, [], "holes"),
    ({"start.txt": "a b\n", "g.txt": "a b\nb c\nc d\nd a\n"}, ["--graph", "g.txt"], "graph"),
    ({"start.txt": "120\n012\n"}, ["--states", "3", "--topology", "torus"], "states"),
    ({"start.txt": "#.#\n...\n#.#\n"}, ["--rule", "merlin"], "merlin"),
])
def test_every_board_kind_is_won_with_the_keyboard_in_a_real_terminal(tmp_path, files, options, kind):
    """Arrow keys move the cursor and Space clicks it; the solution overlay stays on the screen
    and right as the player clicks; the game is won in a real pseudo-terminal."""
    from countlo.cli.main import build_parser
    from countlo.cli.rules_args import board_and_target, start_values

    for name, text in files.items():
        (tmp_path / name).write_text(text)
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        args = build_parser("practice").parse_args(["practice", "start.txt", *options])
        sized = args.graph is not None or args.rule == "merlin"
        board = board_and_target(args, None if sized else "1x1", with_target=False, press_maps=True)[0]
        board, start = start_values(board, files["start.txt"], "start.txt", False)
    finally:
        os.chdir(here)
    game = Practice(board, start)
    pty = Pty(["practice", "start.txt", *options], 80, 24, cwd=str(tmp_path))
    try:
        pty.wait_for(r"moves? \(fewest")
        pty.send("solution\r")
        pty.wait_for(r"Solution shown(.|\n)*moves? \(fewest")  # the next prompt is up: keys reach it
        clicks = 0
        mirror = PracticeSession(Practice(board, start))  # the session's cursor, moved as the keys move it
        arrows = {(-1, 0): "\x1b[A", (1, 0): "\x1b[B", (0, 1): "\x1b[C", (0, -1): "\x1b[D"}
        while not game.won:
            cell = game.hint()
            assert cell is not None
            keys = ""
            for first in ((1, 0), (0, 1)):  # rows then columns, or columns then rows (holes in the way)
                trial = PracticeSession(Practice(board, start))
                trial.cursor, path = mirror.cursor, ""
                for axis in (first, (first[1], first[0])):
                    for step in (axis, (-axis[0], -axis[1])):
                        for _ in range(20):
                            before = trial.cursor
                            trial.move_cursor(*step)
                            if trial.cursor == before or not _closer(trial, before, cell):
                                trial.cursor = before
                                break
                            path += arrows[step]
                if trial.cursor == cell:
                    keys = path
                    break
            assert mirror.cursor == cell or keys, (kind, mirror.cursor, cell)
            mirror.cursor = cell
            for key in keys:  # one key at a time, as a person presses them
                pty.send(key)
            pty.send(" ")
            game.click(cell)
            clicks += 1
            lines = pty.wait_for(rf"\n\s*{clicks}\. {re.escape(board.name(cell))}\b")
            if not game.won:
                lines = pty.wait_for(rf"{clicks} moves? \(fewest")
                shown = "\n".join(lines)
                for j, times in enumerate(game.solution()):  # the overlay follows the clicks
                    if times and game.shape is None:
                        assert re.search(rf"^{re.escape(board.name(j))}\s+[({{<]", shown, re.M), (kind, shown)
        text = "\n".join(pty.wait_for(r"solved in"))
        assert re.search(rf"solved in {clicks} moves?", " ".join(text.split()))
        assert pty.wait_exit() == 0
    finally:
        pty.close()


def _closer(session, before: int, goal: int) -> bool:
    """Whether the cursor's move took it nearer `goal` on the drawn board (rows and columns)."""
    def where(light: int) -> tuple[int, int]:
        return next((r, c) for r, row in enumerate(session.layout) for c, i in enumerate(row) if i == light)

    (r0, c0), (r1, c1), (rg, cg) = where(before), where(session.cursor), where(goal)
    return abs(r1 - rg) + abs(c1 - cg) < abs(r0 - rg) + abs(c0 - cg)


def test_a_press_map_is_won_in_a_real_terminal(tmp_path):
    """A press map whose buttons are not its lights: the buttons are rows of their own below the
    lights, a typed name clicks one, Down and Up move the cursor from button to button and Space
    clicks it, and the overlay marks the buttons still to press as the player clicks."""
    from conftest import ROOT

    from countlo.cli.rules_args import start_values
    from countlo.formats.pressmaps import parse_press_map

    dials = (ROOT / "examples" / "dials.txt").read_text()
    (tmp_path / "dials.txt").write_text(dials)
    (tmp_path / "start.txt").write_text("green=2 blue\n")
    board, start = start_values(parse_press_map(dials, 3, "dials.txt"), "green=2 blue\n", "start.txt", False)
    game = Practice(board, start)
    pty = Pty(["practice", "start.txt", "--buttons", "dials.txt", "--states", "3"], 80, 24, cwd=str(tmp_path))
    try:
        pty.wait_for(r"moves? \(fewest")
        pty.send("solution\r")
        pty.wait_for(r"Solution shown(.|\n)*moves? \(fewest")
        cursor, clicks = 0, 0
        while not game.won:
            j = game.hint()
            assert j is not None
            name = board.buttons[j]
            if clicks == 0:
                pty.send(name + "\r")  # typed: the cursor goes to the button clicked
            else:
                for _ in range(abs(j - cursor)):
                    pty.send("\x1b[B" if j > cursor else "\x1b[A")
                pty.send(" ")
            cursor = j
            game.click(j)
            clicks += 1
            pty.wait_for(rf"\n\s*{clicks}\. {name}\b")
            if not game.won:
                shown = "\n".join(pty.wait_for(rf"{clicks} moves? \(fewest"))
                for b, times in enumerate(game.solution()):  # the marks follow the clicks
                    mark = {0: " ", 1: r"\(", 2: "{"}[min(times, 2)]
                    assert re.search(rf"^{board.buttons[b]}\s?{mark}==", shown, re.M), shown
        text = " ".join("\n".join(pty.wait_for(r"solved in")).split())
        assert re.search(rf"solved in {clicks} moves?", text) and clicks == 3
        assert pty.wait_exit() == 0
    finally:
        pty.close()
