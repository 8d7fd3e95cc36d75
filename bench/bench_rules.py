"""Benchmark: solving under other rules (countlo.classic.general) against full-matrix elimination.

Run from the repository root:  python bench/bench_rules.py [--quick]
For each rule family and topology, one random n x n start is solved from cold (the chase plan is
rebuilt every repeat) and the CPU time (time.process_time) is reported as the median of the
repeats. The baseline, in the same run and on the same start, is Gauss-Jordan elimination over
GF(2) on the whole n^2 x n^2 press matrix with bitset rows (countlo.classic.gf2.echelon), the
method the known Python Lights Out tools use; for k > 2 it is the Smith-form solver of
countlo.classic.zk on the whole matrix.
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
from countlo.classic import general, gf2, zk
from countlo.rules import Rules


def cold(board: Shape, start: list[int]) -> None:
    for cache in (general._plan, general._rows, general._columns, general._transposed_plan):
        cache.cache_clear()
    general.solve(board, start)


def full_matrix(board: Shape, start: list[int]) -> None:
    k = board.rules.states
    n = board.cells
    rows: list[dict[int, int]] = [{} for _ in range(n)]
    for j in range(n):
        for i, t in board.hits(j).items():
            rows[i][j] = (rows[i].get(j, 0) + t) % k
    b = [(-v) % k for v in start]
    if k == 2:
        packed = []
        for i, row in enumerate(rows):
            v = b[i] & 1
            for j, t in row.items():
                if t & 1:
                    v |= 2 << j
            packed.append(v)
        gf2.echelon(packed)
    else:
        dense = [[row.get(j, 0) for j in range(n)] for row in rows]
        zk.solve(dense, b, n, k)


def cpu(fn, *args, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn(*args)
        times.append(time.process_time() - t)
    return statistics.median(times)


CASES = [("plane", "plus", 2), ("torus", "plus", 2), ("cylinder", "x", 2), ("moebius", "star", 2),
         ("klein", "ring", 2), ("projective", "plus", 2), ("plane", "knight", 2),
         ("plane", "rowcol", 2), ("plane", "plus", 3), ("torus", "x", 4), ("plane", "plus", 6)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    ap.add_argument("--sizes", default="20,40,100", help="board sides to time (n x n)")
    ap.add_argument("--baseline-max", type=int, default=40, help="largest side for the baseline")
    args = ap.parse_args()
    sizes = [10, 20] if args.quick else [int(s) for s in args.sizes.split(",")]
    repeats = 1 if args.quick else 3
    rng = random.Random(0)
    print("| topology | rule | k | n x n | countlo CPU | full matrix CPU | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for top, rule, k in CASES:
        for n in sizes:
            if rule == "rowcol" and n > 40:
                continue
            board = Shape(n, n, Rules.make(top, rule, k))
            start = [rng.randrange(k) for _ in range(n * n)]
            ours = cpu(cold, board, start, repeats=repeats)
            base = None
            if n <= args.baseline_max and (k == 2 or n <= 20):
                base = cpu(full_matrix, board, start, repeats=1)
            b = "-" if base is None else f"{base * 1000:.1f} ms"
            ratio = "-" if base is None else f"{base / max(ours, 1e-9):.0f}x"
            print(f"| {top} | {rule} | {k} | {n} | {ours * 1000:.1f} ms | {b} | {ratio} |",
                  flush=True)


if __name__ == "__main__":
    main()
