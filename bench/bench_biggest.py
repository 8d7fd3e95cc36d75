"""Benchmark: the classic solver on the largest board, as a whole process for farm-bench.

Run from the repository root, paired:
    farm-bench -n 3 --vs "python bench/bench_biggest.py --copy" -- python bench/bench_biggest.py
Both make the same random start of --size rows (default 65535 x 65535, 512 MB of row ints); the
default then solves it with the row API (`polynomial_chase.solve_rows`), `--copy` makes one copy
of the rows instead (one operation a row, the answer's memory). The difference of the two is what
the solve costs beyond one pass over the board, in CPU and in peak memory.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.visible.engines import polynomial_chase


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=65535)
    ap.add_argument("--copy", action="store_true", help="copy the rows instead of solving them")
    args = ap.parse_args()
    rng = random.Random(args.size)
    rows = [rng.getrandbits(args.size) for _ in range(args.size)]
    if args.copy:
        kept = [r ^ 0 for r in rows]
    else:
        kept = polynomial_chase.solve_rows(Shape(args.size, args.size), rows).presses or []
    print(len(kept))


if __name__ == "__main__":
    main()
