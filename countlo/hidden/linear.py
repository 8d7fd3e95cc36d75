"""The `linear` engine: exact integer elimination, then a 0/1 search over what stays free.

Every count is one integer linear equation in the hidden start b (see countlo.hidden.record). Gauss-Jordan
elimination with integer rows (each update ``p[c] * row - row[c] * p``, then division by the row's
gcd) leaves, for every pivot cell c, ``d * b_c + sum(a_j * b_j for free j) == r`` and, for every
dependent equation, a combination of right-hand sides that must vanish. No fractions, no floats.
A full-rank record is then solved outright (each pivot row alone gives b_c = r / d, which must be
0 or 1). Otherwise a depth-first search sets cells in reading order, keeping every reduced row and
every original (local) equation within reach: the unset cells of a row can still add anything in
[sum of its negative coefficients, sum of its positive ones], so a value that would push the row's
remaining right side out of that range is impossible and the cell gets the other one. The
starting count's dense row ``sum(b) = n0`` gets implied companions (n0 minus disjoint local
equations) whose bounds see that those cells' totals are already pinned.

The elimination can carry, for every reduced row, the combination of original equations it came
from (`track=True`); then new right-hand sides cost one matrix-vector product, which is how
countlo.hidden.diagnose tries hundreds of corrected counts against one elimination.
See docs/MATH.md §11.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import gcd

from countlo.board import iter_bits, popcount
from countlo.hidden.record import Record
from countlo.hidden.result import Reconstruction, from_count

LIMIT = 256
"""Default number of solutions the engine counts before answering "at least"."""

Row = list[int]


def _normal(row: Row) -> Row:
    """The row divided by the gcd of its entries."""
    g = gcd(*row)
    return row if g <= 1 else [x // g for x in row]


def _cancel(row: Row, pivot: Row, c: int) -> Row:
    """`row` with column c cancelled by `pivot` (pivot[c] > 0): pivot[c] * row - row[c] * pivot."""
    d, a = pivot[c], row[c]
    return _normal([d * x - a * y for x, y in zip(row, pivot)])


class Elimination:
    """Integer Gauss-Jordan elimination of equations over `n` cells, fed one equation at a time.

    Rows hold n cell coefficients, then either one right-hand side (`track=False`) or one
    coefficient per original equation (`track=True`, the row's combination of them).
    """

    def __init__(self, n: int, track: bool = False, width: int = 0):
        self.n = n
        self.track = track
        self.width = width if track else 1
        self.pivots: dict[int, Row] = {}  # pivot cell -> row with a positive entry there
        self.checks: list[Row] = []  # dependent equations: their right-hand combination must be 0
        self.added = 0
        self.equations: list[tuple[int, int, int]] = []  # (plus, minus, rhs) as added
        self._terms: list[list[tuple[int, int]]] | None = None  # search rows, built once per state
        self._derived: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]] = []

    @property
    def rank(self) -> int:
        """Rank of the equations added so far (over the rationals)."""
        return len(self.pivots)

    def add(self, plus: int, minus: int, rhs: int = 0) -> int | None:
        """Add ``sum(b[plus]) - sum(b[minus]) == rhs``; returns its pivot cell, None if dependent."""
        self.equations.append((plus, minus, rhs))
        self._terms = None
        row = [0] * (self.n + self.width)
        for j in iter_bits(plus):
            row[j] = 1
        for j in iter_bits(minus):
            row[j] = -1
        if self.track:
            row[self.n + self.added] = 1
        else:
            row[self.n] = rhs
        self.added += 1
        for c, p in self.pivots.items():
            if row[c]:
                row = _cancel(row, p, c)
        nonzero = [j for j in range(self.n) if row[j]]
        if not nonzero:
            self.checks.append(row)
            return None
        c = min(nonzero, key=lambda j: (abs(row[j]), j))
        if row[c] < 0:
            row = [-x for x in row]
        for k, p in self.pivots.items():
            if p[c]:
                self.pivots[k] = _cancel(p, row, c)
        self.pivots[c] = row
        return c

    def sides(self, rhs: Sequence[int] = ()) -> tuple[list[int], list[int]]:
        """Right sides of the pivot rows and of the check rows, given the original right sides if tracked."""
        n = self.n
        if not self.track:
            return [p[n] for p in self.pivots.values()], [r[n] for r in self.checks]

        def dot(row: Row) -> int:
            return sum(a * rhs[i] for i, a in enumerate(row[n:]) if a)

        return [dot(p) for p in self.pivots.values()], [dot(r) for r in self.checks]

    def solutions(self, rhs: Sequence[int] | None = None,
                  sides: tuple[list[int], list[int]] | None = None) -> Iterator[int]:
        """Every 0/1 solution (a board bitset), for original right sides `rhs` (default: as added).

        `sides` may pass ``self.sides(rhs)`` when the caller has it already.
        """
        if rhs is None:
            rhs = [r for _, _, r in self.equations]
        pivot_sides, check_sides = sides or self.sides(rhs)
        if any(check_sides):
            return iter(())
        n = self.n
        for (c, p), r in zip(self.pivots.items(), pivot_sides):
            if r not in (0, p[c]) and all(not p[j] for j in range(n) if j != c):
                return iter(())
        derived = [sum(a * rhs[i] for i, a in combo) for combo in self._derived_from()]
        return _Search(n, self._search_terms(), pivot_sides + list(rhs) + derived).run()

    def _search_terms(self) -> list[list[tuple[int, int]]]:
        """(cell, coefficient) lists of the pivot rows, then of the original equations."""
        if self._terms is None:
            pivots = [[(j, p[j]) for j in range(self.n) if p[j]] for p in self.pivots.values()]
            originals = [
                [(j, 1) for j in iter_bits(plus)] + [(j, -1) for j in iter_bits(minus)]
                for plus, minus, _ in self.equations
            ]
            self._derived = self._implied()
            self._terms = pivots + originals + [t for t, _ in self._derived]
        return self._terms

    def _derived_from(self) -> list[list[tuple[int, int]]]:
        """For each implied row of _implied(), its (equation, multiplier) combination."""
        self._search_terms()
        return [combo for _, combo in self._derived]

    def _implied(self) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
        """Rows implied by a dense equation (the starting count) minus disjoint local ones.

        ``sum(b) = n0`` minus equations on disjoint cells leaves a row over the cells they miss,
        whose bounds are far tighter than n0's: the cells of a subtracted equation no longer count
        as free to be anything. Two packings (equations taken first to last, and last to first).
        """
        out = []
        local = [i for i, (p, m, _) in enumerate(self.equations) if popcount(p | m) <= 5]
        for i, (plus, minus, _) in enumerate(self.equations):
            if popcount(plus | minus) <= 5:
                continue
            for order in (local, local[::-1]):
                coef = dict.fromkeys(iter_bits(plus), 1) | dict.fromkeys(iter_bits(minus), -1)
                used, combo = 0, [(i, 1)]
                for q in order:
                    p2, m2, _ = self.equations[q]
                    if (p2 | m2) & used:
                        continue
                    used |= p2 | m2
                    for j in iter_bits(p2):
                        coef[j] = coef.get(j, 0) - 1
                    for j in iter_bits(m2):
                        coef[j] = coef.get(j, 0) + 1
                    combo.append((q, -1))
                if len(combo) > 1:
                    out.append(([(j, a) for j, a in sorted(coef.items()) if a], combo))
        return out


class _Search:
    """Depth-first 0/1 search in reading order with bound propagation on every equation.

    The equations are the reduced pivot rows and the original (local) ones. For each, `resid` is
    its right side minus the cells already set, and [lo, hi] the range the unset cells can still
    add; a cell whose value would push resid out of that range gets the other value, and a row
    whose resid is already outside fails. A pivot cell is forced once its row's free cells are set.
    Each branch tries first the value most of the cell's rows lean towards (which only changes how
    soon solutions turn up, not which).
    """

    def __init__(self, n: int, terms: list[list[tuple[int, int]]], rhs: list[int]):
        self.n = n
        self.terms = terms
        self.resid = list(rhs)
        self.lo = [sum(a for _, a in t if a < 0) for t in self.terms]
        self.hi = [sum(a for _, a in t if a > 0) for t in self.terms]
        self.big = [max((abs(a) for _, a in t), default=0) for t in self.terms]
        self.where: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for i, t in enumerate(self.terms):
            for j, a in t:
                self.where[j].append((i, a))
        self.value = [-1] * n
        self.trail: list[int] = []

    def _check(self, i: int, forced: list[tuple[int, int]]) -> bool:
        """False if row i cannot be met; else queue the cells it forces."""
        r = self.resid[i]
        low, high = r - self.lo[i], self.hi[i] - r
        if low < 0 or high < 0:
            return False
        if low < self.big[i] or high < self.big[i]:
            value = self.value
            for j, a in self.terms[i]:
                if value[j] < 0:
                    no0, no1 = (a > high, a > low) if a > 0 else (-a > low, -a > high)
                    if no0 and no1:
                        return False
                    if no0:
                        forced.append((j, 1))
                    elif no1:
                        forced.append((j, 0))
        return True

    def assign(self, k: int, v: int) -> bool:
        """Set cell k to v and everything that forces; False on a contradiction."""
        value, resid, lo, hi = self.value, self.resid, self.lo, self.hi
        forced = [(k, v)]
        while forced:
            k, v = forced.pop()
            if value[k] >= 0:
                if value[k] != v:
                    return False
                continue
            value[k] = v
            self.trail.append(k)
            for i, a in self.where[k]:
                if a > 0:
                    hi[i] -= a
                else:
                    lo[i] -= a
                if v:
                    resid[i] -= a
            for i, _ in self.where[k]:
                if not self._check(i, forced):
                    return False
        return True

    def undo(self, mark: int) -> None:
        """Unset every cell set since the trail had length `mark`."""
        value, resid, lo, hi, trail = self.value, self.resid, self.lo, self.hi, self.trail
        while len(trail) > mark:
            k = trail.pop()
            v, value[k] = value[k], -1
            for i, a in self.where[k]:
                if a > 0:
                    hi[i] += a
                else:
                    lo[i] += a
                if v:
                    resid[i] += a

    def run(self) -> Iterator[int]:
        forced: list[tuple[int, int]] = []
        if not all(self._check(i, forced) for i in range(len(self.terms))):
            return
        for k, v in forced:
            if not self.assign(k, v):
                return
        yield from self._dfs(0)

    def _dfs(self, k: int) -> Iterator[int]:
        """Depth-first over the unset cells from k, with an explicit stack: a board of thousands
        of cells would exceed Python's recursion limit one frame per cell."""
        value, n = self.value, self.n
        stack: list[list[int]] = []  # [cell, first value, second value, next index, trail mark]
        while True:
            while k < n and value[k] >= 0:
                k += 1
            if k == n:
                yield sum(v << j for j, v in enumerate(value))
            else:
                stack.append([k, *self._first(k), 0, len(self.trail)])
            while stack:  # the next value of the deepest cell with one left
                frame = stack[-1]
                cell, i, mark = frame[0], frame[3], frame[4]
                self.undo(mark)
                if i == 2:
                    stack.pop()
                    continue
                frame[3] = i + 1
                if self.assign(cell, frame[1 + i]):
                    k = cell + 1
                    break
            else:
                return

    def _first(self, k: int) -> tuple[int, int]:
        """Values to try for cell k: 1 first if most of its rows still need more than half their room."""
        votes = 0
        for i, a in self.where[k]:
            r, lo, hi = self.resid[i], self.lo[i], self.hi[i]
            lean = 2 * (r - lo) - (hi - lo)
            votes += (lean > 0) - (lean < 0) if a > 0 else (lean < 0) - (lean > 0)
        return (1, 0) if votes > 0 else (0, 1)


def eliminate(record: Record, track: bool = False) -> Elimination:
    """The elimination of every equation of `record` (right sides carried, or tracked if asked)."""
    eqs = record.equations()
    e = Elimination(record.shape.cells, track, len(eqs))
    for eq in eqs:
        e.add(eq.plus, eq.minus, eq.rhs)
    return e


def solutions(record: Record) -> Iterator[int]:
    """Every hidden start consistent with `record`, by elimination and 0/1 search."""
    return eliminate(record).solutions()


def reconstruct(record: Record, limit: int = LIMIT) -> Reconstruction:
    """The record's reconstruction, counting consistent starts exactly up to `limit`."""
    found, first = 0, None
    for board in solutions(record):
        found += 1
        if first is None:
            first = board
        if found >= limit:
            return from_count(found, first, exact=False)
    return from_count(found, first, exact=True)
