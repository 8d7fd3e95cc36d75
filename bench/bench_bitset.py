"""Benchmark: the bitset API against the row API of the classic solver, in the same run.

Run from the repository root:  python bench/bench_bitset.py [--sizes 255 1000 4095 16383] [--repeats 3]
For each n x n size, one random start is solved through `polynomial_chase.solve_rows` (rows in,
rows out) and through `polynomial_chase.solve` (one int in, one int out: `Shape.to_rows` and
`Shape.from_rows` around the same row solver), alternately, `--repeats` times each. The figure is
this process's CPU time (time.process_time), median over the repeats; the ratio bitset / rows is
the cost of the conversion (issue 31's goal: at most 2x at every size). The "floor" column times
only what any conversion through Python ints must do: the board to bytes, one int from each row's
bytes, each press row to bytes and the joined bytes to one int (no shifts, no masks); (rows + floor)
/ rows is the best ratio such a conversion can reach. The load average is printed because the
machine may be shared: read the ratios, which both sides feel alike.
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


def floor(shape: Shape, board: int, rows: list[int]) -> None:
    """The int <-> bytes work of a round trip, without the bit alignment (see the docstring)."""
    width = (shape.cols + 7) // 8
    data = board.to_bytes((shape.cells + 7) // 8 + width, "little")
    read = int.from_bytes
    for r in range(shape.rows):
        read(data[r * width:(r + 1) * width], "little")
    int.from_bytes(b"".join(row.to_bytes(width, "little") for row in rows), "little")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[255, 1000, 4095, 16383])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"CPU seconds, median of {args.repeats}; load average {os.getloadavg()[0]:.2f} at the start")
    print()
    print("| n x n | rows API | bitset API | bitset / rows | floor | best ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    rng = random.Random(20261127)
    for n in args.sizes:
        shape = Shape(n, n)
        rows = [rng.getrandbits(n) for _row in range(n)]
        board = shape.from_rows(rows)
        polynomial_chase.solve_rows(shape, rows)  # the per-shape polynomials, once, for both
        by_rows, by_bits, by_floor = [], [], []
        for _ in range(args.repeats):
            by_rows.append(cpu(lambda shape=shape, rows=rows: polynomial_chase.solve_rows(shape, rows)))
            by_bits.append(cpu(lambda shape=shape, board=board: polynomial_chase.solve(shape, board)))
            by_floor.append(cpu(lambda shape=shape, board=board, rows=rows: floor(shape, board, rows)))
        r, b, f = (statistics.median(x) for x in (by_rows, by_bits, by_floor))
        print(f"| {n} | {r:.4f} | {b:.4f} | {b / r:.2f}x | {f:.4f} | {(r + f) / r:.2f}x |", flush=True)
    print()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
