"""Benchmark: the bitset API against the row API of the classic solver, in the same run.

Run from the repository root:  python bench/bench_bitset.py [--sizes 255 1000 4095 16383] [--repeats 3]
For each n x n size, one random start is solved through `polynomial_chase.solve_rows` (rows in,
rows out) and through `polynomial_chase.solve` (one int in, one int out: `Shape.to_rows` and
`Shape.from_rows` around the same row solver), alternately, `--repeats` times each. The figure is
this process's CPU time (time.process_time), median over the repeats; the ratio bitset / rows is
the cost of the conversion (issue 31's goal: at most 2x at every size). The load average is
printed because the machine may be shared: read the ratio, which both sides feel alike.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.visible.engines import polynomial_chase


def cpu(f) -> float:
    t = time.process_time()
    f()
    return time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[255, 1000, 4095, 16383])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"CPU seconds, median of {args.repeats}; load average {os.getloadavg()[0]:.2f} at the start")
    print()
    print("| n x n | rows API | bitset API | bitset / rows |")
    print("| --- | ---: | ---: | ---: |")
    rng = random.Random(20261127)
    for n in args.sizes:
        shape = Shape(n, n)
        rows = [rng.getrandbits(n) for _row in range(n)]
        board = shape.from_rows(rows)
        polynomial_chase.solve_rows(shape, rows)  # the per-shape polynomials, once, for both
        by_rows, by_bits = [], []
        for _ in range(args.repeats):
            by_rows.append(cpu(lambda shape=shape, rows=rows: polynomial_chase.solve_rows(shape, rows)))
            by_bits.append(cpu(lambda shape=shape, board=board: polynomial_chase.solve(shape, board)))
        r, b = statistics.median(by_rows), statistics.median(by_bits)
        print(f"| {n} | {r:.3f} | {b:.3f} | {b / r:.2f}x |", flush=True)
    print()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
