"""Benchmark: classic Lights Out solving on random n x n starts, and the full-matrix baseline.

Run from the repository root:  python bench/bench_solve.py [--quick]
Times are over repeats on fresh random starts, in-process, each solve from cold (the per-shape
polynomials are recomputed every time); generating the start is not timed. Wall time and this
process's CPU time are both shown: on a shared machine the CPU time is the steadier figure. The baseline is Gauss-Jordan elimination over GF(2) on the n^2 x n^2
press matrix with bitset rows, as the known Python Lights Out packages do.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.visible.engines import polynomial_chase


def gauss_jordan(shape: Shape, board: int) -> int | None:
    """One press set clearing `board` by Gauss-Jordan on the augmented press matrix."""
    n = shape.cells
    rows = []
    for k in range(n):
        row = 0
        for j in shape.neighbours(k):
            row |= 1 << j
        rows.append(row | ((board >> k) & 1) << n)
    where = []
    r = 0
    for col in range(n):
        bit = 1 << col
        piv = next((i for i in range(r, n) if rows[i] & bit), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        pr = rows[r]
        for i in range(n):
            if i != r and rows[i] & bit:
                rows[i] ^= pr
        where.append(col)
        r += 1
    if any(rows[i] >> n & 1 for i in range(r, n)):
        return None
    return sum(1 << col for i, col in enumerate(where) if rows[i] >> n & 1)


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def timed2(fn, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one call."""
    t, c = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - t, time.process_time() - c


def bench_solver(n: int, repeats: int) -> tuple[float, float, float, int]:
    """(median wall, best wall, median CPU, nullity) over random starts; the first answer checked."""
    rng = random.Random(n)
    shape = Shape(n, n)
    walls, cpus = [], []
    for i in range(repeats):
        rows = [rng.getrandbits(n) for _ in range(n)]
        polynomial_chase.plan_for.cache_clear()
        wall, cpu = timed2(polynomial_chase.solve_rows, shape, rows)
        walls.append(wall)
        cpus.append(cpu)
        if i == 0:
            sol = polynomial_chase.solve_rows(shape, rows)
            if sol.solvable:
                assert polynomial_chase.rows_clear(rows, sol.presses, n)
            del sol
    return statistics.median(walls), min(walls), statistics.median(cpus), polynomial_chase.nullity(shape)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip 65535 x 65535")
    args = ap.parse_args()
    sizes = [(6, 51), (60, 31), (100, 31), (511, 15), (1023, 11), (4000, 7), (4095, 7),
             (65000, 3), (65535, 3)]
    if args.quick:
        sizes = sizes[:-1]
    print(f"Python {sys.version.split()[0]}")
    print()
    print("| n x n | nullity | wall, median | wall, best | CPU, median | repeats |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for n, reps in sizes:
        wall, best, cpu, null = bench_solver(n, reps)
        print(f"| {n} | {null} | {fmt(wall)} | {fmt(best)} | {fmt(cpu)} | {reps} |", flush=True)
    print()
    print("| n x n | full-matrix Gauss-Jordan | countlo | speed-up |")
    print("| ---: | ---: | ---: | ---: |")
    for n, reps in ((20, 5), (40, 3), (60, 3)):
        rng = random.Random(n)
        shape = Shape(n, n)
        boards = [rng.getrandbits(shape.cells) for _ in range(reps)]
        base = statistics.median(timed(gauss_jordan, shape, b) for b in boards)
        ours = []
        for b in boards:
            polynomial_chase.plan_for.cache_clear()
            ours.append(timed(polynomial_chase.solve, shape, b))
        mine = statistics.median(ours)
        sol = polynomial_chase.solve(shape, boards[0])
        assert (gauss_jordan(shape, boards[0]) is None) == (not sol.solvable)
        print(f"| {n} | {fmt(base)} | {fmt(mine)} | {base / mine:,.0f}x |", flush=True)


if __name__ == "__main__":
    main()
