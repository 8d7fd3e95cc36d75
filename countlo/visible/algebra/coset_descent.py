"""A light member of a coset found by local search: the upper bound when the exact coset
searches (coset_walsh, coset_radix) cannot hold the quiet patterns (docs/MATH.md §6).
Generic over cells as bits of ints."""

from __future__ import annotations

WORK = 1 << 28  # word operations the search may spend
MEMORY_BITS = 1 << 30  # bits of basis patterns (and pairs of them) the search may hold


def descent_min(
    x: int, basis: list[int], seed: int, work: int = WORK, patience: int = 2000
) -> int:
    """A light member of x + span(basis): first-improvement descent over single quiet patterns
    and pairs of them (when at most 64 fit in memory), then seeded random restarts, until about
    `work` word operations are spent or `patience` restarts in a row found nothing lighter.
    The result is an upper bound on the minimum."""
    import random  # noqa: PLC0415  (only huge kernels need it; start-up: bench/bench_startup.py)

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
