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
