"""The most likely typo in a contradictory record: which single count, changed to what, fixes it.

Changing one count never changes which cells were flipped, only right-hand sides: count i enters
the equation of step i (through ``lit before = (|N| - (count_i - count_{i-1})) / 2``) and of step
i + 1, and the starting count also enters ``sum(b) = n0``. So one integer elimination of the
record's equations, carrying for every reduced row its combination of the original equations
(countlo.hidden.linear), answers every candidate fix with a few multiply-adds, plus a 0/1 search only
when the equations leave cells free. (docs/MATH.md §13)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from countlo.board import popcount, press_masks
from countlo.countboard import CountBoard
from countlo.errors import BadCellError
from countlo.hidden.linear import Elimination
from countlo.hidden.record import Record, Step, possible_after
from countlo.i18n import _

RawRecord = tuple[CountBoard, int, Sequence[Step | tuple[int, int]]]
"""A record as typed, possibly failing the entry checks: (shape, starting count, (cell, count)s)."""


@dataclass(frozen=True)
class Fix:
    """Count `step` (0: the starting count, i: after the i-th click) was `written`; `suggested` fits."""

    step: int
    written: int
    suggested: int


def _raw(record: Record | RawRecord) -> tuple[CountBoard, list[int], list[int]]:
    """CountBoard, clicked cells (cells[i - 1] is step i's) and counts (counts[0] is the start)."""
    if isinstance(record, Record):
        return record.shape, [s.cell for s in record.steps], record.counts
    shape, start, steps = record
    cells = [s.cell if isinstance(s, Step) else s[0] for s in steps]
    counts = [start] + [s.count if isinstance(s, Step) else s[1] for s in steps]
    for i, k in enumerate(cells, 1):
        if not 0 <= k < shape.cells:
            raise BadCellError(_("step {step}: ").format(step=i) + _("cell number {n} is off the {shape} board").format(
                n=k + 1, shape=shape))
    return shape, cells, counts


def _entry_ok(shape: CountBoard, cells: list[int], counts: list[int], i: int) -> bool:
    """Does count i pass its entry check (range for the start, size and parity of the change else)?"""
    if i == 0:
        return 0 <= counts[0] <= shape.cells
    return 0 <= counts[i - 1] <= shape.cells and counts[i] in possible_after(shape, cells[i - 1], counts[i - 1])


def _coefficients(shape: CountBoard, cells: list[int]) -> list[tuple[int, int, int]]:
    """(plus, minus, |N(cell)|) of every equation, as in countlo.hidden.record (|N| = n0's cell count for the start)."""
    masks = press_masks(shape)
    out, f = [(shape.full, 0, shape.cells)], 0
    for k in cells:
        n = masks[k]
        out.append((n & ~f, n & f, popcount(n)))
        f ^= n
    return out


def _rhs(coef: list[tuple[int, int, int]], counts: list[int], i: int) -> int:
    """Right side of equation i for these counts (lit in N before the click, minus |N & flipped|)."""
    if i == 0:
        return counts[0]
    _, minus, size = coef[i]
    return (size - (counts[i] - counts[i - 1])) // 2 - popcount(minus)


def _candidates(shape: CountBoard, cells: list[int], counts: list[int], i: int) -> list[int]:
    """Values for count i, other than the written one, that pass every entry check they touch."""
    if i == 0 or not 0 <= counts[i - 1] <= shape.cells:
        values: Sequence[int] = range(shape.cells + 1)
    else:
        values = possible_after(shape, cells[i - 1], counts[i - 1])
    touched = [j for j in (i, i + 1) if j < len(counts)]
    out = []
    for v in values:
        if v == counts[i]:
            continue
        trial = counts[:i] + [v] + counts[i + 1 :]
        if all(_entry_ok(shape, cells, trial, j) for j in touched):
            out.append(v)
    return out


class _Corrections:
    """One tracked elimination of the record's equations, asked about many corrected counts."""

    def __init__(self, shape: CountBoard, cells: list[int], counts: list[int], bad: set[int]):
        self.n, self.counts = shape.cells, counts
        self.coef = _coefficients(shape, cells)
        self.e = Elimination(shape.cells, track=True, width=len(counts))
        for plus, minus, _lit in self.coef:
            self.e.add(plus, minus)
        self.base = [0 if j in bad else _rhs(self.coef, counts, j) for j in range(len(counts))]
        self.pivot_base, self.check_base = self.e.sides(self.base)

    def consistent(self, i: int | None = None, v: int = 0) -> bool:
        """Does some start explain the counts with count i set to v (the counts as written if i is None)?"""
        rhs, shift = self.base, []
        if i is not None:
            trial = self.counts[:i] + [v] + self.counts[i + 1 :]
            rhs = list(self.base)
            for j in (i, i + 1)[: len(trial) - i]:
                rhs[j] = _rhs(self.coef, trial, j)
                shift.append((self.n + j, rhs[j] - self.base[j]))
        checks = [s + sum(r[c] * d for c, d in shift) for s, r in zip(self.check_base, self.e.checks)]
        if any(checks):
            return False
        pivots = [s + sum(r[c] * d for c, d in shift) for s, r in zip(self.pivot_base, self.e.pivots.values())]
        return next(self.e.solutions(rhs, (pivots, checks)), None) is not None


MAX_COUNTS = 600
"""Longest record searched for a single typo. The search keeps, for every equation, the
combination of original equations it came from: memory and time grow with the square of the
number of counts (600 counts: about a second; 20,000 would need gigabytes), so longer records
are not searched and callers say so (see `searchable`)."""


def searchable(record: Record | RawRecord) -> bool:
    """Whether `diagnose` answers for this record: at most MAX_COUNTS counts, or impossible
    counts too far apart for one typo (then no single change can fix it, whatever the length)."""
    shape, cells, counts = _raw(record)
    return len(counts) <= MAX_COUNTS or _scattered(_bad(shape, cells, counts))


def _bad(shape: CountBoard, cells: list[int], counts: list[int]) -> set[int]:
    """The entries whose count no click could show after the count before it."""
    return {j for j in range(len(counts)) if not _entry_ok(shape, cells, counts, j)}


def _scattered(bad: set[int]) -> bool:
    return bool(bad) and max(bad) - min(bad) > 1  # one changed count touches two entries


def diagnose(record: Record | RawRecord) -> list[Fix]:
    """Every single count change that makes the record consistent, most likely first.

    Empty if the record is already consistent, if no single change fixes it, or if it is longer
    than MAX_COUNTS (see `searchable`). Order: smallest
    |written - suggested| first (a slip of one step of the count is the commonest typo), then
    later steps first (an arbitrary but fixed tie-break, so the order is stable).
    """
    shape, cells, counts = _raw(record)
    m = len(counts)
    bad = _bad(shape, cells, counts)
    if _scattered(bad) or m > MAX_COUNTS:
        return []
    trials = _Corrections(shape, cells, counts, bad)
    if not bad and trials.consistent():
        return []
    fixes = [
        Fix(i, counts[i], v)
        for i in range(m)
        if bad <= {i, i + 1}
        for v in _candidates(shape, cells, counts, i)
        if trials.consistent(i, v)
    ]
    fixes.sort(key=lambda f: (abs(f.written - f.suggested), -f.step))
    return fixes
