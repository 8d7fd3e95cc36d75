"""Benchmark: drawing pictures (PNG and SVG) and generating boards.

Run from the repository root:  python bench/bench_boards.py [--repeats N] [--big]
CPU time of this process (time.process_time), median over repeats, in-process. Pictures: the
start and its presses of a random n x n board, solving not timed; with --big also 4095 x 4095.
Generating: CPU per board for uniform boards, --presses N and each difficulty; the baseline in
the same run is the plain uniform draw (the ratio says what the exact fewest-press checks cost).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.formats import figures
from countlo.formats.image import save
from countlo.visible.engines.polynomial_chase import solve_rows
from countlo.visible.generate import BitsetGenerator as Generator


def cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def pictures(sizes: list[int], repeats: int) -> None:
    print("picture        size      pixels        CPU median")
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            shape = Shape(n, n)
            rng = random.Random(n)
            start = [rng.getrandbits(n) for _ in range(n)]
            sol = solve_rows(shape, start)
            pic = (figures.solved(shape, start, sol.presses) if sol.solvable
                   else figures.unsolvable(shape, start, sol.witness))
            for kind in ("png", "svg"):
                if kind == "svg" and shape.cells > 1 << 14:
                    continue
                path = os.path.join(d, f"b.{kind}")
                times = []
                for _ in range(repeats if n < 4000 else 1):
                    times.append(cpu(lambda pic=pic, path=path: save(pic, path)))
                lay = save(pic, path)
                print(f"{kind:<5} {n:>5}x{n:<5} {lay.width:>6}x{lay.height:<6} "
                      f"{statistics.median(times) * 1e3:>10.1f} ms   "
                      f"({os.path.getsize(path):,} bytes)")


def generating(repeats: int) -> None:
    print("\ngenerate       size   what                 CPU per board   vs uniform")
    for size, count in (("5x5", 200), ("6x6", 200), ("9x9", 50), ("19x19", 5), ("100x100", 50)):
        shape = Shape.parse(size)
        gen = Generator(shape, random.Random(1))
        cases = [("uniform", gen.uniform)]
        if gen.basis is not None:
            cases += [("--presses 4", lambda gen=gen: gen.exactly(4))]
            cases += [(f"--difficulty {d}", lambda d=d, gen=gen: gen.in_band(d))
                      for d in ("easy", "medium", "hard")]
        base = None
        for what, draw in cases:
            per = statistics.median(cpu(lambda draw=draw, count=count: [draw() for _ in range(count)])
                                    / count
                                    for _ in range(repeats))
            base = base or per
            print(f"{size:>18}   {what:<20} {per * 1e3:>9.3f} ms   {per / base:>8.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--big", action="store_true", help="also draw a 4095 x 4095 board")
    args = ap.parse_args()
    pictures([5, 64, 128, 1023] + ([4095] if args.big else []), args.repeats)
    generating(args.repeats)


if __name__ == "__main__":
    main()
