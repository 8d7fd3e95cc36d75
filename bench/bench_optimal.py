"""Benchmark: each strategy's gap to the exact optimum on boards small enough to solve exactly.

Every start of each board is played as a whole game (so the means are exact expectations over
uniformly random starts); the optimum is countlo.play.strategies.optimal's programme, and its CPU time to
solve every belief of the board is shown.

    python bench/bench_optimal.py                          # 2x2, 3x3, 2x4
    python bench/bench_optimal.py --sizes 3x3 --strategies adaptive greedy
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.play.strategies.exhaustive import exact_mean
from countlo.play.strategies.optimal import solver


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", default=["2x2", "3x3", "2x4"])
    ap.add_argument("--strategies", nargs="+", default=["adaptive", "adaptive-v1", "greedy"])
    args = ap.parse_args(argv)
    print("| board | starts | optimum (total clicks) | solve CPU s | "
          + " | ".join(f"{s} | gap" for s in args.strategies) + " |")
    print("| --- | --- | --- | --- | " + " | ".join("--- | ---" for _ in args.strategies) + " |")
    for size in args.sizes:
        shape = Shape.parse(size)
        t = time.process_time()
        optimum = solver(shape).expected_total()
        solve_s = time.process_time() - t
        cells = []
        for s in args.strategies:
            mean = exact_mean(shape, s)
            cells.append(f"{mean:.4f} | {100 * (mean / optimum - 1):+.2f} %")
        print(f"| {size} | {1 << shape.cells} | {optimum:.4f} | {solve_s:.1f} | "
              + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
