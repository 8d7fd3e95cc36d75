"""What a game record says about the hidden start: clicks, counts and the equations they give.

Clicking k flips exactly N(k), so the lit count changes by
``delta = |N(k)| - 2 * (lit cells in N(k) before the click)``. With f the cells flipped an
odd number of times before the click, a cell j is lit then iff ``b_j xor f_j``, so each
click gives one integer linear equation in the hidden start b with +1/-1 coefficients:
``sum(b[N(k) - f]) - sum(b[N(k) & f]) = lit_before - |N(k) & f|``.
The starting count gives ``sum(b) = n0``. (docs/MATH.md §2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from countlo.board import Shape, popcount, press_masks
from countlo.countboard import CountBoard
from countlo.errors import BadCellError, BadCountError
from countlo.i18n import _


@dataclass(frozen=True)
class Step:
    """One click and the lit count shown after it."""

    cell: int
    count: int


@dataclass(frozen=True)
class Equation:
    """``sum(b[plus]) - sum(b[minus]) == rhs`` over the hidden start b.

    `step` is 0 for the starting count and i (1-based) for the i-th click; `centre` is the
    clicked cell (None for the starting count).
    """

    plus: int
    minus: int
    rhs: int
    step: int
    centre: int | None

    def holds(self, board: int) -> bool:
        """True if the hidden start `board` satisfies this equation."""
        return popcount(board & self.plus) - popcount(board & self.minus) == self.rhs


def possible_after(shape: CountBoard, cell: int, before: int) -> tuple[int, ...]:
    """Counts a click on `cell` can show when `before` lights are lit (any hidden board).

    With j of the |N| cells in N(cell) lit, the count becomes before + |N| - 2j, and
    j lies between max(0, |N| - unlit) and min(|N|, before).
    """
    n = len(shape.neighbours(cell))
    unlit = shape.cells - before
    lo, hi = max(0, n - unlit), min(n, before)
    return tuple(sorted(before + n - 2 * j for j in range(lo, hi + 1)))


def check_start(shape: CountBoard, count: int) -> None:
    """Raise BadCountError unless `count` can be a starting count on `shape`."""
    if not 0 <= count <= shape.cells:
        raise BadCountError(
            _("starting count {count} is impossible on a {shape} board: it must be 0..{cells}").format(
                count=count, shape=shape, cells=shape.cells),
            tuple(range(shape.cells + 1)),
        )


def check_step(shape: CountBoard, cell: int, before: int, after: int, where: str = "") -> None:
    """Raise BadCountError unless a click on `cell` can take the count from `before` to `after`."""
    if not 0 <= cell < shape.cells:
        raise BadCellError(where + _("cell number {n} is off the {shape} board").format(
            n=cell + 1, shape=shape))
    ok = possible_after(shape, cell, before)
    if after not in ok:
        listed = ", ".join(map(str, ok))
        raise BadCountError(
            where + _("count {after} after clicking {cell} is impossible (from {before} lit it can "
                      "only become {listed})").format(after=after, cell=shape.name(cell),
                                                      before=before, listed=listed),
            ok,
        )


@dataclass(frozen=True)
class Record:
    """A game record: board shape, starting count, then clicks with the count after each.

    Every count is checked on entry (range, and parity and size of the change).
    """

    shape: CountBoard
    start: int
    steps: tuple[Step, ...] = field(default=())

    def __post_init__(self) -> None:
        check_start(self.shape, self.start)
        before = self.start
        for i, s in enumerate(self.steps, 1):
            check_step(self.shape, s.cell, before, s.count, where=_("step {step}: ").format(step=i))
            before = s.count

    def then(self, cell: int, count: int) -> Record:
        """This record with one more step (checked)."""
        check_step(self.shape, cell, self.count, count, where=_("step {step}: ").format(step=len(self.steps) + 1))
        return Record(self.shape, self.start, self.steps + (Step(cell, count),))

    def lit_now(self, start: list[float], count: int) -> list[float]:
        """P(cell k lit now) from P(cell k lit at the start) over `count` consistent starts: the
        start's probability, or its complement where the clicks so far flipped k."""
        if not count:
            return start
        flips = self.flips()
        return [1.0 - q if flips >> k & 1 else q for k, q in enumerate(start)]

    def transposed(self) -> Record:
        """The same game read on the transposed board (the hidden engines run their window along
        the shorter side); its cells are self.shape.transposed_cells(). Grids only."""
        if not isinstance(self.shape, Shape):
            raise TypeError(f"only a grid is transposed, not {self.shape}")
        to = self.shape.transposed_cells()
        return Record(self.shape.transposed(), self.start, tuple(Step(to[s.cell], s.count) for s in self.steps))

    def undo(self) -> Record:
        """This record without its last step."""
        return Record(self.shape, self.start, self.steps[:-1])

    def prefix(self, n: int) -> Record:
        """The record of the first n steps."""
        return Record(self.shape, self.start, self.steps[:n])

    @property
    def count(self) -> int:
        """The lit count now (after the last step)."""
        return self.steps[-1].count if self.steps else self.start

    @property
    def counts(self) -> list[int]:
        """All counts shown: the starting count, then one per step."""
        return [self.start] + [s.count for s in self.steps]

    def clicked(self, upto: int | None = None) -> int:
        """Bitset of cells clicked an odd number of times in the first `upto` steps (all by default)."""
        x = 0
        for s in self.steps[:upto]:
            x ^= 1 << s.cell
        return x

    def flips(self, upto: int | None = None) -> int:
        """Bitset of cells toggled an odd number of times by the first `upto` steps (all by default)."""
        masks = press_masks(self.shape)
        f = 0
        for s in self.steps[:upto]:
            f ^= masks[s.cell]
        return f

    def lights(self, start: int) -> int:
        """The lights now, had the hidden start been `start`."""
        return start ^ self.flips()

    def equations(self) -> list[Equation]:
        """One equation for the starting count, then one per step (see module docstring)."""
        masks = press_masks(self.shape)
        eqs = [Equation(self.shape.full, 0, self.start, 0, None)]
        f, before = 0, self.start
        for i, s in enumerate(self.steps, 1):
            n = masks[s.cell]
            lit_before = (popcount(n) - (s.count - before)) // 2
            minus = n & f
            eqs.append(Equation(n & ~f, minus, lit_before - popcount(minus), i, s.cell))
            f ^= n
            before = s.count
        return eqs

    def consistent(self, start: int) -> bool:
        """True if the hidden start `start` would have shown exactly these counts."""
        masks = press_masks(self.shape)
        if popcount(start) != self.start:
            return False
        board = start
        for s in self.steps:
            board ^= masks[s.cell]
            if popcount(board) != s.count:
                return False
        return True


def record_of(shape: CountBoard, start: int, clicks: list[int]) -> Record:
    """The record a hidden start `start` produces under the given clicks (for tests and simulation)."""
    masks = press_masks(shape)
    board, steps = start, []
    for k in clicks:
        board ^= masks[k]
        steps.append(Step(k, popcount(board)))
    return Record(shape, popcount(start), tuple(steps))


def first_prefix(steps: int, holds: Callable[[int], bool]) -> int:
    """The fewest steps n in 0..steps with holds(n), for a property that, once true of a prefix,
    stays true of every longer one (a contradiction, a determined start); `steps` if none is
    shorter. Binary search: O(log steps) calls of `holds`."""
    lo, hi = 0, steps
    while lo < hi:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo
