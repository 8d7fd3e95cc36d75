"""Every solution of a start, and the fewest presses among them.

The solutions are one solution xor the span of the quiet patterns (2^nullity of them); a Gray
code visits them with one xor per step. Finding the lightest is a minimum-weight coset problem
(docs/MATH.md §6).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from countlo.board import Shape
from countlo.classic.solver import quiet_patterns, solve

EXACT_NULLITY = 24  # Gray-code walks of up to 2^24 steps are exact and take seconds at most
WORK = 1 << 28  # word operations the local search may spend beyond that
MEMORY_BITS = 1 << 30  # bits of quiet patterns (and pairs of them) the local search may hold


def all_solutions(shape: Shape, board: int, limit: int | None = None) -> Iterator[int]:
    """Every press set clearing `board` (none if unsolvable), at most `limit` of them.

    Gray code over the quiet basis: step i flips basis[lowest set bit of i].
    """
    sol = solve(shape, board)
    if sol.presses is None:
        return
    total = 1 << sol.nullity
    if limit is not None:
        total = min(total, limit)
    basis = quiet_patterns(shape, (total - 1).bit_length())  # only the ones the walk will use
    x = sol.presses
    for i in range(total):
        if i:
            x ^= basis[(i & -i).bit_length() - 1]
        yield x


def solution_count(shape: Shape, board: int) -> int:
    """Number of press sets clearing `board`: 2^nullity if solvable, else 0."""
    sol = solve(shape, board)
    return 1 << sol.nullity if sol.solvable else 0


def fewest_presses(
    shape: Shape, board: int, exact_nullity: int = EXACT_NULLITY, seed: int = 0
) -> tuple[int, bool] | None:
    """(a press set of minimum size, exact) clearing `board`, or None if unsolvable.

    Nullity <= exact_nullity: Gray-code walk over the whole coset (2^nullity xors and
    popcounts), exact. Beyond: seeded local search over the coset (over the span of as many
    quiet patterns as fit in MEMORY_BITS), exact=False: the count is an upper bound, not a
    proof of minimality.
    """
    sol = solve(shape, board)
    if sol.presses is None:
        return None
    if sol.nullity == 0:
        return sol.presses, True
    if sol.nullity <= exact_nullity:
        return _gray_min(sol.presses, quiet_patterns(shape)), True
    keep = max(8, MEMORY_BITS // shape.cells)  # big kernels of big boards: search a sub-space
    return _descent_min(sol.presses, quiet_patterns(shape, keep), seed), False


def _gray_min(x: int, basis: list[int]) -> int:
    """The lightest member of x + span(basis), by a Gray-code walk."""
    best, best_w = x, x.bit_count()
    flips = [basis[j] for j in range(len(basis))]
    for i in range(1, 1 << len(basis)):
        x ^= flips[(i & -i).bit_length() - 1]
        w = x.bit_count()
        if w < best_w:
            best, best_w = x, w
    return best


def _descent_min(
    x: int, basis: list[int], seed: int, work: int = WORK, patience: int = 2000
) -> int:
    """A light member of x + span(basis): first-improvement descent over single quiet patterns
    and pairs of them (when at most 64 fit in memory), then seeded random restarts, until about
    `work` word operations are spent or `patience` restarts in a row found nothing lighter.
    The result is an upper bound on the minimum."""
    rng = random.Random(seed)
    moves = list(basis)
    cells = max(m.bit_length() for m in moves)
    if len(basis) <= 64 and len(basis) ** 2 * cells <= 2 * MEMORY_BITS:
        moves += [a ^ b for i, a in enumerate(basis) for b in basis[i + 1:]]
    words = max(1, cells // 64)
    budget = max(4 * len(moves), work // words)  # move evaluations allowed

    def descend(v: int) -> int:
        nonlocal budget
        w = v.bit_count()
        improved = True
        while improved and budget > 0:
            improved = False
            for m in moves:
                y = v ^ m
                yw = y.bit_count()
                if yw < w:
                    v, w, improved = y, yw, True
            budget -= len(moves)
        return v

    best = descend(x)
    stale = 0
    while budget > 0 and stale < patience:
        start = best
        for b in basis:
            if rng.getrandbits(1):
                start ^= b
        y = descend(start)
        stale += 1
        if y.bit_count() < best.bit_count():
            best, stale = y, 0
    return best
