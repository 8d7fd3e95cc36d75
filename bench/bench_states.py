"""Benchmark: reading and writing k-state grid files against the solver, as `countlo solve FILE
--topology torus --out FILE` spends them.

Run from the repository root:  python bench/bench_states.py [--size 4095] [--repeats 3]
One solvable start on an n x n torus (plus rule, two states) is written as text once; then, for
each repeat, the text is parsed (`formats.states.parse_grid`), solved (`visible.solutions.solve`)
and the presses formatted (`formats.states.format_grid`). Figures are this process's CPU time
(time.process_time), median over the repeats; the load average is printed because the machine
may be shared. A second line does the same for a 1000 x 1000 plane with three states (star
rule), where the grid is the same text with the digits 0..2. Issue 31's goal: the grid I/O costs
little beside the solver.
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
from countlo.formats.states import format_grid, parse_grid
from countlo.rules import Rules
from countlo.visible import solutions


def cpu(f):
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def case(shape: Shape, repeats: int) -> tuple[float, float, float]:
    k = shape.rules.states
    rng = random.Random(20261127)
    x = [rng.randrange(k) for _cell in range(shape.cells)]
    if shape.rules.topology == "torus":  # the plus rule's lights by rolls (apply's limit is 4M cells)
        import numpy as np

        a = np.array(x, dtype=np.uint8).reshape(shape.rows, shape.cols)
        start = (a ^ np.roll(a, 1, 0) ^ np.roll(a, -1, 0) ^ np.roll(a, 1, 1) ^ np.roll(a, -1, 1)).ravel().tolist()
    else:
        start = solutions.apply(shape, [0] * shape.cells, x)  # solvable: what x presses light
    text = format_grid(shape, start)
    reads, solves, writes = [], [], []
    for _ in range(repeats):
        t, (_r, _c, values) = cpu(lambda: parse_grid(text, k))
        reads.append(t)
        t, sol = cpu(lambda values=values: solutions.solve(shape, values))
        solves.append(t)
        t, _out = cpu(lambda sol=sol: format_grid(shape, sol.presses))
        writes.append(t)
    return statistics.median(reads), statistics.median(solves), statistics.median(writes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=4095, help="side of the torus (default 4095)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"CPU seconds, median of {args.repeats}; load average {os.getloadavg()[0]:.2f} at the start")
    print()
    print("| board | read | solve | write | read + write / solve |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, shape in ((f"{args.size}x{args.size} torus, plus, 2 states",
                         Shape(args.size, args.size, Rules.make("torus"))),
                        ("1000x1000 plane, star, 3 states", Shape(1000, 1000, Rules.make("plane", "star", 3)))):
        r, s, w = case(shape, args.repeats)
        print(f"| {name} | {r:.3f} | {s:.3f} | {w:.3f} | {(r + w) / s:.2f}x |", flush=True)
    print()
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
