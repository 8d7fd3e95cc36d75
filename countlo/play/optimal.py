"""The `optimal` strategy: fewest expected total clicks, solved exactly on small boards.

With A invertible a game takes |X_start| + 2 W clicks (W: clicks outside the press set needed at
that moment), so the policy minimising the expected W minimises expected total clicks. A belief
is the set of light patterns still possible now, all equally likely; its value is

    V(S) = 0 if |S| <= 1, else min over clicks k of P_S(k not in X) + sum_o P(o) V(S_o),

where S_o are the boards (lights after the click) that show count o. Clicks whose count is the
same for every board of S move S to one set and can form cycles; every cycle costs at least one
click outside X, so a per-belief shortest path (Dijkstra) over such clicks, ending in an
informative click, gives V exactly (docs/MATH.md §20).

Values and choices are memoised per shape in memory for the life of the process, so each belief is
solved once; nothing is written to disk. Boards above MAX_CELLS cells, or whose press matrix is
singular, are refused in one line.
"""

from __future__ import annotations

import heapq
import math
from functools import lru_cache

from countlo.board import Shape, iter_bits, press_masks
from countlo.classic.batch import algebra, row_ints
from countlo.errors import CountloError
from countlo.hidden.record import Record

MAX_CELLS = 10  # 3x3 and 2x4 take seconds; 3x4 (12 cells) did not finish in minutes here
Belief = frozenset[int]


class OptimalUnavailableError(CountloError, ValueError):
    """A board too large, or with a singular press matrix, for the exact optimum."""


class Solver:
    """Exact values and optimal clicks of the beliefs of one small invertible shape."""

    def __init__(self, shape: Shape):
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
        self.masks = press_masks(shape)
        columns = row_ints(alg.M.T.astype("uint8"))  # column j of M: the press set of light j
        self.press: list[int] = []  # press set clearing each light pattern (index = pattern)
        for s in range(1 << shape.cells):
            x = 0
            for j in iter_bits(s):
                x ^= columns[j]
            self.press.append(x)
        self._value: dict[Belief, float] = {}
        self._choice: dict[Belief, int] = {}

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
        press = sum(x.bit_count() for x in self.press) / (1 << n)
        return press + 2 * waste

    # --- the programme ------------------------------------------------------------------------
    def choice(self, belief: Belief) -> int | None:
        """An optimal click on `belief`, None once at most one board is left."""
        if len(belief) <= 1:
            return None
        self.value(belief)
        return self._choice[belief]

    def value(self, belief: Belief) -> float:
        """V(belief): the least expected number of clicks still to be made outside the press set."""
        if len(belief) <= 1:
            return 0.0
        found = self._value.get(belief)
        if found is not None:
            return found
        best, first_best = math.inf, -1
        dist = {belief: 0.0}
        heap: list[tuple[float, int, Belief, int]] = [(0.0, 0, belief, -1)]
        tie = 1
        while heap:
            d, _, now, first = heapq.heappop(heap)
            if d >= best:
                break
            if d > dist[now]:
                continue
            q, k, moves = self._informative(now, best - d)
            if d + q < best:
                best, first_best = d + q, (first if first >= 0 else k)
            for cost, cell, after in moves:
                nd = d + cost
                if nd < best and nd < dist.get(after, math.inf):
                    dist[after] = nd
                    heapq.heappush(heap, (nd, tie, after, first if first >= 0 else cell))
                    tie += 1
        self._value[belief] = best
        self._choice[belief] = first_best
        return best

    def _informative(self, belief: Belief,
                     bound: float) -> tuple[float, int, list[tuple[float, int, Belief]]]:
        """(best informative value if below `bound` else inf, its click, uninformative moves).

        Moves are (cost, click, belief after) for clicks whose count every board shares.
        """
        m = len(belief)
        candidates: list[tuple[float, int, float, dict[int, list[int]]]] = []
        moves: list[tuple[float, int, Belief]] = []
        for k, mask in enumerate(self.masks):
            groups: dict[int, list[int]] = {}
            outside = 0
            for s in belief:
                if not self.press[s] >> k & 1:
                    outside += 1
                t = s ^ mask
                groups.setdefault(t.bit_count(), []).append(t)
            cost = outside / m
            if len(groups) == 1:
                moves.append((cost, k, frozenset(next(iter(groups.values())))))
            else:
                sizes = sorted(len(g) for g in groups.values())
                bits = -sum(c / m * math.log2(c / m) for c in sizes)
                candidates.append((cost - 0.5 * bits, k, cost, groups))
        candidates.sort(key=lambda c: (c[0], c[1]))
        best, best_k = math.inf, -1
        for _, k, cost, groups in candidates:
            total = cost
            limit = min(best, bound)
            if total >= limit:
                continue
            for g in sorted(groups.values(), key=len, reverse=True):
                total += len(g) / m * self.value(frozenset(g))
                if total >= limit:
                    break
            if total < limit:
                best, best_k = total, k
        return best, best_k, moves


@lru_cache(maxsize=8)
def solver(shape: Shape) -> Solver:
    """The memoised solver of `shape` (one per process: the cache the strategy shares)."""
    return Solver(shape)


class Optimal:
    """The `optimal` strategy: the click of the exact programme for the belief the record leaves."""

    name = "optimal"
    asks = False

    def __init__(self, shape: Shape):
        self.shape = shape
        self.solver = solver(shape)

    def next_click(self, record: Record, knowledge: object) -> int | None:
        """An optimal probe, or None once the start is known (the finish is then the press set)."""
        if record.count == 0:
            return None
        return self.solver.choice(self.solver.belief(record))
