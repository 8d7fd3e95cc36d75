"""The `optimal` strategy: fewest expected total clicks, solved exactly on small boards.

With A invertible a game takes |X_start| + 2 W clicks (W: clicks made outside the press set
needed at that moment), so the policy minimising the expected W minimises expected total clicks.
The programme over beliefs is countlo.play.strategies.beliefs; this module feeds it every pattern's press set
and keys each belief by its least image under the board's symmetries (docs/MATH.md §20).

Values and choices are memoised per shape in memory for the life of the process, so each belief is
solved once; nothing is written to disk. Boards above MAX_CELLS cells, or whose press matrix is
singular, are refused in one line.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable
from functools import lru_cache

from countlo.board import Shape, press_masks
from countlo.countboard import CountBoard
from countlo.errors import CountloError
from countlo.hidden.record import Record
from countlo.play.strategies.beliefs import Belief, BeliefProgramme, press_sets
from countlo.visible.batch import algebra

MAX_CELLS = 10  # 3x3 takes 0.5 s, 1x10 5 s; 1x12 took 166 s and 3x4 did not finish in 7 min (docs/BENCHMARKS.md)


class OptimalUnavailableError(CountloError, ValueError):
    """A board too large, or with a singular press matrix, for the exact optimum."""


class Solver(BeliefProgramme):
    """Exact values and optimal clicks of the beliefs of one small invertible shape."""

    def __init__(self, shape: CountBoard):
        if shape.cells > MAX_CELLS:
            raise OptimalUnavailableError(
                f"strategy optimal is solved exactly only on boards of at most {MAX_CELLS} cells "
                f"(2x2, 3x3, 2x4, 1x10, ...); {shape} has {shape.cells}: use adaptive")
        alg = algebra(shape)
        if not alg.invertible:
            raise OptimalUnavailableError(
                f"strategy optimal needs a board whose every start has one press set; on {shape} "
                f"some starts cannot be cleared: use adaptive")
        self.shape = shape
        press = press_sets(alg)
        self.presses = [press(s) for s in range(1 << shape.cells)]  # index = light pattern
        super().__init__(press_masks(shape), self.presses.__getitem__)
        # the board's symmetries as maps of patterns and of cells: values are the same on a
        # belief and on its images, so one canonical image is solved (docs/MATH.md §20)
        self._patterns: list[list[int]] = []
        self._cells: list[list[int]] = []
        if not isinstance(shape, Shape):  # a press board: the identity only
            self._cells.append(list(range(shape.cells)))
            self._patterns.append(list(range(1 << shape.cells)))
        for sym in shape.symmetries() if isinstance(shape, Shape) else ():
            self._cells.append([sym.apply(1 << k).bit_length() - 1 for k in range(shape.cells)])
            self._patterns.append([sym.apply(s) for s in range(1 << shape.cells)])

    def key(self, belief: Belief) -> tuple[Hashable, int]:
        """(the least image of `belief` under the symmetries, as bytes; the symmetry's index)."""
        best, at = b"", -1
        for i, pattern in enumerate(self._patterns):
            image = array("H", sorted(pattern[s] for s in belief)).tobytes()
            if at < 0 or image < best:
                best, at = image, i
        return best, at

    def from_belief_frame(self, cell: int, frame: int) -> int:
        return self._cells[frame][cell]

    def to_belief_frame(self, cell: int, frame: int) -> int:
        return self._cells[frame].index(cell)

    # --- beliefs ------------------------------------------------------------------------------
    def belief(self, record: Record) -> Belief:
        """The light patterns now of every start consistent with `record`."""
        n = self.shape.cells
        lights = [b for b in range(1 << n) if b.bit_count() == record.start]
        for step in record.steps:
            m = self.masks[step.cell]
            lights = [s ^ m for s in lights if (s ^ m).bit_count() == step.count]
        return frozenset(lights)

    def start_beliefs(self) -> dict[int, Belief]:
        """Starting count -> the belief it leaves (every pattern with that many lights)."""
        n = self.shape.cells
        out: dict[int, set[int]] = {}
        for b in range(1 << n):
            out.setdefault(b.bit_count(), set()).add(b)
        return {c: frozenset(s) for c, s in out.items()}

    def expected_total(self) -> float:
        """Expected total clicks over uniformly random starts when played optimally."""
        n = self.shape.cells
        waste = sum(len(s) * self.value(s) for s in self.start_beliefs().values()) / (1 << n)
        press = sum(x.bit_count() for x in self.presses) / (1 << n)
        return press + 2 * waste

@lru_cache(maxsize=8)
def solver(shape: CountBoard) -> Solver:
    """The memoised solver of `shape` (one per process: the cache the strategy shares)."""
    return Solver(shape)


class Optimal:
    """The `optimal` strategy: the click of the exact programme for the belief the record leaves."""

    name = "optimal"
    asks = False

    def __init__(self, shape: CountBoard):
        self.shape = shape
        self.solver = solver(shape)

    def next_click(self, record: Record, knowledge: object) -> int | None:
        """An optimal probe, or None once the start is known (the finish is then the press set)."""
        if record.count == 0:
            return None
        return self.solver.choice(self.solver.belief(record))
