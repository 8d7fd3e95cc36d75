"""The most likely typo in a contradictory record: which single count, changed to what, fixes it.

Changing one count never changes which cells were flipped, only right-hand sides: count i enters
the equation of step i (through ``lit before = (|N| - (count_i - count_{i-1})) / 2``) and of step
i + 1, and the starting count also enters ``sum(b) = n0``. So one integer elimination of the
record's equations, carrying for every reduced row its combination of the original equations
(countlo.linear), answers every candidate fix with a few multiply-adds, plus a 0/1 search only
when the equations leave cells free.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from countlo.board import Shape, popcount, press_masks
from countlo.errors import BadCellError
from countlo.linear import Elimination
from countlo.observe import Record, Step, possible_after

RawRecord = tuple[Shape, int, Sequence[Union[Step, tuple[int, int]]]]
"""A record as typed, possibly failing the entry checks: (shape, starting count, (cell, count)s)."""


@dataclass(frozen=True)
class Fix:
    """Count `step` (0: the starting count, i: after the i-th click) was `written`; `suggested` fits."""

    step: int
    written: int
    suggested: int


def _raw(record: Record | RawRecord) -> tuple[Shape, list[int], list[int]]:
    """Shape, clicked cells (cells[i - 1] is step i's) and counts (counts[0] is the start)."""
    if isinstance(record, Record):
        return record.shape, [s.cell for s in record.steps], record.counts
    shape, start, steps = record
    cells = [s.cell if isinstance(s, Step) else s[0] for s in steps]
    counts = [start] + [s.count if isinstance(s, Step) else s[1] for s in steps]
    for i, k in enumerate(cells, 1):
        if not 0 <= k < shape.cells:
            raise BadCellError(f"step {i}: cell number {k + 1} is off the {shape} board")
    return shape, cells, counts


def _entry_ok(shape: Shape, cells: list[int], counts: list[int], i: int) -> bool:
    """Does count i pass its entry check (range for the start, size and parity of the change else)?"""
    if i == 0:
        return 0 <= counts[0] <= shape.cells
    return 0 <= counts[i - 1] <= shape.cells and counts[i] in possible_after(shape, cells[i - 1], counts[i - 1])


def _coefficients(shape: Shape, cells: list[int]) -> list[tuple[int, int, int]]:
    """(plus, minus, |N(cell)|) of every equation, as in countlo.observe (|N| = n0's cell count for the start)."""
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


def _candidates(shape: Shape, cells: list[int], counts: list[int], i: int) -> list[int]:
    """Values for count i, other than the written one, that pass every entry check they touch."""
    touched = [j for j in (i, i + 1) if j < len(counts)]
    out = []
    for v in range(shape.cells + 1):
        if v == counts[i]:
            continue
        trial = counts[:i] + [v] + counts[i + 1 :]
        if all(_entry_ok(shape, cells, trial, j) for j in touched):
            out.append(v)
    return out


def diagnose(record: Record | RawRecord) -> list[Fix]:
    """Every single count change that makes the record consistent, most likely first.

    Empty if the record is already consistent, or if no single change fixes it. Order: smallest
    |written - suggested| first (a slip of one step of the count is the commonest typo), then
    later steps first (an arbitrary but fixed tie-break, so the order is stable).
    """
    shape, cells, counts = _raw(record)
    m = len(counts)
    bad = {j for j in range(m) if not _entry_ok(shape, cells, counts, j)}
    coef = _coefficients(shape, cells)
    e = Elimination(shape.cells, track=True, width=m)
    for plus, minus, _ in coef:
        e.add(plus, minus)
    base = [0 if j in bad else _rhs(coef, counts, j) for j in range(m)]
    pivot_base, check_base = e.sides(base)
    if not bad and next(e.solutions(base, (pivot_base, check_base)), None) is not None:
        return []
    n = shape.cells
    pivot_rows, check_rows = list(e.pivots.values()), e.checks
    fixes = []
    for i in range(m):
        touched = [j for j in (i, i + 1) if j < m]
        if not bad <= set(touched):
            continue
        for v in _candidates(shape, cells, counts, i):
            trial = counts[:i] + [v] + counts[i + 1 :]
            rhs = list(base)
            shift = []
            for j in touched:
                rhs[j] = _rhs(coef, trial, j)
                shift.append((n + j, rhs[j] - base[j]))
            checks = [s + sum(r[col] * d for col, d in shift) for s, r in zip(check_base, check_rows)]
            if any(checks):
                continue
            pivots = [s + sum(r[col] * d for col, d in shift) for s, r in zip(pivot_base, pivot_rows)]
            if next(e.solutions(rhs, (pivots, checks)), None) is not None:
                fixes.append(Fix(i, counts[i], v))
    fixes.sort(key=lambda f: (abs(f.written - f.suggested), -f.step))
    return fixes


def explain(fix: Fix, record: Record | RawRecord) -> str:
    """One line for a person, e.g. "step 14 (C3): you typed 17; 15 makes every count consistent"."""
    shape, cells, _ = _raw(record)
    where = "the starting count" if fix.step == 0 else f"step {fix.step} ({shape.name(cells[fix.step - 1])})"
    return f"{where}: you typed {fix.written}; {fix.suggested} makes every count consistent"
