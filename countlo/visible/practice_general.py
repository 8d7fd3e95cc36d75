"""A visible game under any grid rules: a click adds 1 (mod k) to the cells of the rule, wrapped by
the topology, and the game is won when the lights equal the target (all dark, all lit, a pattern).

The same interface as countlo.visible.practice.Practice (the classic game on bitsets), on value
vectors through countlo.visible.solutions. A hint is one press of a fewest-press solution from the
lights now, presses counted with multiplicity: a cell to be pressed twice is named by two hints.
Presses commute (docs/MATH.md §18, §23), so following hints wins in the fewest presses from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from countlo.board import Shape
from countlo.visible import solutions
from countlo.visible.practice import Unwinnable

EXACT_LIMIT = 1 << 14  # solutions walked for an exact fewest (k > 2: about 0.4 s); beyond, a bound


class RulesPractice:
    """One game on `shape` (its rules) from `start` to `target` (all 0 when None)."""

    def __init__(self, shape: Shape, start: Sequence[int], target: Sequence[int] | None = None):
        self.shape = shape
        self.k = shape.rules.states
        self.start = list(start)
        self.target = list(target) if target is not None else [0] * shape.cells
        solutions.check_vector(shape, self.start, "the start")
        self.lights = list(self.start)
        self.clicks: list[int] = []
        self._plan: dict[tuple[int, ...], tuple[list[int], bool]] = {}
        found = self.fewest(self.lights)
        if found is None:
            raise Unwinnable(f"this {shape} start can never reach the target")
        self.optimum, self.optimum_exact = sum(found[0]), found[1]

    def fewest(self, lights: Sequence[int]) -> tuple[list[int], bool] | None:
        """(presses reaching the target in the fewest clicks, exact), cached; None if none do.
        With more than EXACT_LIMIT solutions the presses are the best a descent finds (exact
        False) so that a hint stays quick."""
        key = tuple(lights)
        if key not in self._plan:
            found = solutions.fewest(self.shape, lights, self.target, EXACT_LIMIT)
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
        column = solutions.columns(self.shape)[cell]
        for i, t in column.items():
            self.lights[i] = (self.lights[i] + t * times) % self.k

    def click(self, cell: int) -> None:
        """Click `cell` (reading-order index): adds 1 mod k to every cell its rule reaches."""
        self.shape.cell(cell)  # BadCellError when off the board
        self._press(cell, 1)
        self.clicks.append(cell)

    def undo(self) -> int | None:
        if not self.clicks:
            return None
        cell = self.clicks.pop()
        self._press(cell, self.k - 1)
        return cell

    def to_go(self) -> int:
        found = self.fewest(self.lights)
        assert found is not None  # every position reached from a winnable start is winnable
        return sum(found[0])

    def hint(self) -> int | None:
        """A cell of a fewest-press solution from here (the first in reading order), or None."""
        found = self.fewest(self.lights)
        assert found is not None
        return next((j for j, v in enumerate(found[0]) if v), None)
