"""A game of classic Lights Out with the lights visible: clicks, undo, hints and the optimum.

No I/O: `countlo practice` (countlo.ui) draws it and reads the player's clicks. The lights are a
bitset; a click on k toggles N(k). A hint is one press of a fewest-press solution of the lights
as they are now: clicks commute (docs/MATH.md §1), so pressing any cell of such a set and then
the rest of it wins in the fewest clicks from here (§6).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from countlo.board import Shape, press_masks
from countlo.visible.fewest import fewest_presses


class Unwinnable(ValueError):
    """A start that no clicks turn all dark."""


@dataclass
class Practice:
    """One game: the start, the clicks so far (in order), and the fewest clicks from the start."""

    shape: Shape
    start: int
    clicks: list[int] = field(default_factory=list)
    lights: int = 0
    optimum: int = 0
    optimum_exact: bool = True
    _plan: dict[int, tuple[int, bool]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.lights = self.start
        for k in self.clicks:
            self.lights ^= press_masks(self.shape)[k]
        found = self.fewest(self.start)
        if found is None:
            raise Unwinnable(f"this {self.shape} start cannot be turned all dark")
        self.optimum, self.optimum_exact = found[0].bit_count(), found[1]

    def fewest(self, lights: int) -> tuple[int, bool] | None:
        """(a fewest-press set clearing `lights`, exact), cached per lights; None if none does."""
        if lights not in self._plan:
            found = fewest_presses(self.shape, lights)
            if found is None:
                return None
            self._plan[lights] = found
        return self._plan[lights]

    k = 2  # light states
    target = None  # all dark

    def state(self, cell: int) -> int:
        """1 if `cell` is lit."""
        return self.lights >> cell & 1

    @property
    def moves(self) -> int:
        return len(self.clicks)

    @property
    def won(self) -> bool:
        return self.lights == 0

    @property
    def lit(self) -> int:
        return self.lights.bit_count()

    def click(self, cell: int) -> None:
        """Click `cell` (reading-order index): toggles it and its orthogonal neighbours."""
        self.shape.cell(cell)  # BadCellError when off the board
        self.lights ^= press_masks(self.shape)[cell]
        self.clicks.append(cell)

    def undo(self) -> int | None:
        """Take back the last click; the cell, or None when there was none."""
        if not self.clicks:
            return None
        cell = self.clicks.pop()
        self.lights ^= press_masks(self.shape)[cell]
        return cell

    def to_go(self) -> int:
        """The fewest clicks that win from the lights now."""
        found = self.fewest(self.lights)
        assert found is not None  # every position reached from a winnable start is winnable
        return found[0].bit_count()

    def hint(self) -> int | None:
        """One cell of a fewest-press solution from the lights now (the first in reading order),
        or None when the game is won."""
        found = self.fewest(self.lights)
        assert found is not None
        presses = found[0]
        return None if not presses else (presses & -presses).bit_length() - 1
