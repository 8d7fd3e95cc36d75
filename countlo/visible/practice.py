"""A visible game on any board: clicks (backwards too), undo, redo, restart, hints, the fewest
presses from any position, and the optimum from the start.

No I/O: `countlo practice` (countlo.ui) draws it and reads the player's clicks. A click adds 1
(mod k) to the cells of the rule, wrapped by the topology, and the game is won when the lights
equal the target (all dark, all lit, a pattern). A hint is one press of a fewest-press solution
from the lights now, presses counted with multiplicity (a cell to be pressed twice is named by
two hints): presses commute (docs/MATH.md §1, §18, §23), so following hints wins in the fewest
presses from here (§6). Under the classic rules the fewest presses come from the bitset search
of countlo.visible.fewest; under any other rules from countlo.visible.solutions.
"""

from __future__ import annotations

from collections.abc import Sequence

from countlo.board import Shape, Vector, bits, values
from countlo.graph import Board, button_count, grid_of
from countlo.visible import solutions
from countlo.visible.bitsets import fewest_presses

EXACT_LIMIT = 1 << 14  # solutions walked for an exact fewest (k > 2: about 0.4 s); beyond, a bound


class Unwinnable(ValueError):
    """A start that no clicks turn into the target."""


class Practice:
    """One game on `board` (a grid under its rules, a grid with holes, a graph, a press map) from
    `start` to `target` (all 0 when None). `shape` is the grid the game is drawn on (None on a
    graph or a press map off a grid); on a grid with holes its cells are not the lights. A click,
    a hint and the solution are of buttons: the cells themselves but on a press map whose
    buttons are other things (docs/MATH.md §27)."""

    def __init__(self, board: Board, start: Sequence[int], target: Sequence[int] | None = None):
        self.board = board
        self.buttons = button_count(board)
        self.shape = grid_of(board)
        self.k = solutions.states(board)
        self.start = list(start)
        self.target = list(target) if target is not None else [0] * board.cells
        solutions.check_vector(board, self.start, "the start")
        solutions.check_vector(board, self.target, "the target")
        self.lights = list(self.start)
        self.clicks: list[int] = []
        self.steps: list[int] = []  # each click's step: 1, or k - 1 for a click backwards
        self.undone: list[tuple[int, int]] = []  # (cell, step) taken back, for redo
        self._plan: dict[tuple[int, ...], tuple[Vector, bool]] = {}
        found = self.fewest(self.lights)
        if found is None:
            raise Unwinnable(f"this {board} start can never reach the target")
        self.optimum, self.optimum_exact = sum(found[0]), found[1]

    def fewest(self, lights: Sequence[int]) -> tuple[Vector, bool] | None:
        """(presses reaching the target in the fewest clicks, exact), cached; None if none do.
        Under other rules with more than EXACT_LIMIT solutions the presses are the best a descent
        finds (exact False), so that a hint stays quick."""
        key = tuple(lights)
        if key not in self._plan:
            b = self.board
            if isinstance(b, Shape) and b.rules.classic:
                classic = fewest_presses(b, bits(lights) ^ bits(self.target))
                found = None if classic is None else (values(classic[0], b.cells), classic[1])
            else:
                found = solutions.fewest(b, lights, self.target, EXACT_LIMIT)
            if found is None:
                return None
            self._plan[key] = found
        return self._plan[key]

    def state(self, cell: int) -> int:
        return self.lights[cell]

    @property
    def moves(self) -> int:
        return len(self.clicks)

    @property
    def won(self) -> bool:
        return self.lights == self.target

    @property
    def lit(self) -> int:
        """Cells not yet as the target has them."""
        return sum(a != t for a, t in zip(self.lights, self.target))

    def _press(self, cell: int, times: int) -> None:
        column = solutions.columns(self.board)[cell]
        for i, t in column.items():
            self.lights[i] = (self.lights[i] + t * times) % self.k

    def click(self, cell: int, backwards: bool = False) -> None:
        """Click button `cell` (a cell's reading-order index but on a press map): adds 1 mod k to
        every light it changes (times its amount), or takes 1 away when `backwards` (with k
        states, k - 1 clicks forwards). A new click forgets what undo took back."""
        if not 0 <= cell < self.buttons:
            from countlo.errors import BadCellError  # noqa: PLC0415

            raise BadCellError(f"no button {cell + 1} on this board of {self.buttons}")
        step = self.k - 1 if backwards else 1
        self._press(cell, step)
        self.clicks.append(cell)
        self.steps.append(step)
        self.undone.clear()

    def undo(self) -> int | None:
        """Take back the last click; the cell, or None when there was none."""
        if not self.clicks:
            return None
        cell, step = self.clicks.pop(), self.steps.pop()
        self._press(cell, self.k - step)
        self.undone.append((cell, step))
        return cell

    def redo(self) -> int | None:
        """Click again what the last undo took back; the cell, or None when there is nothing."""
        if not self.undone:
            return None
        cell, step = self.undone.pop()
        self._press(cell, step)
        self.clicks.append(cell)
        self.steps.append(step)
        return cell

    def restart(self) -> None:
        """Back to the start, no clicks made (and nothing to redo)."""
        self.lights = list(self.start)
        self.clicks.clear()
        self.steps.clear()
        self.undone.clear()

    def solution(self) -> Vector:
        """How often to press each button to win from the lights now, in the fewest presses (the
        overlay a player can keep on while clicking: it is recomputed for every position)."""
        found = self.fewest(self.lights)
        assert found is not None  # every position reached from a winnable start is winnable
        return found[0]

    def to_go(self) -> int:
        """The fewest clicks that win from the lights now."""
        found = self.fewest(self.lights)
        assert found is not None  # every position reached from a winnable start is winnable
        return sum(found[0])

    def hint(self) -> int | None:
        """A button of a fewest-press solution from here (the first in reading order), or None
        when the game is won."""
        found = self.fewest(self.lights)
        assert found is not None
        return next((j for j, v in enumerate(found[0]) if v), None)
