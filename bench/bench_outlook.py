"""Benchmark: the session's estimate of the clicks still to come (countlo.play.outlook, docs/MATH.md §25).

Plays seeded games with a strategy (default adaptive) and, at every probe, records the bits still
unknown (log2 of the boards possible) and the clicks still to be made outside the press set then
needed, W = (clicks still to come - |X now|) / 2 with X from the hidden board. Prints the rate c
(sum W / sum bits: the WASTE_PER_BIT the estimate uses), W by bands of bits, and the mean absolute
error of the estimate itself against the clicks that actually came.

    python bench/bench_outlook.py                      # 60 games of 6x6, seeds 5000..5059
    python bench/bench_outlook.py --size 3x4 --games 200
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.play.guide import Guide
from countlo.play.knowledge import press_set
from countlo.play.oracle import SimulatedOracle
from countlo.play.outlook import WASTE_PER_BIT


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="6x6")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=5000, help="seeds apart from the strategy bench's 0..999")
    ap.add_argument("--strategy", default="adaptive")
    a = ap.parse_args()
    rows, cols = (int(x) for x in a.size.lower().split("x"))
    shape = Shape(rows, cols)
    points: list[tuple[float, float]] = []  # (bits unknown, W still to come)
    errors: list[float] = []  # |estimate - clicks that came|
    for seed in range(a.first_seed, a.first_seed + a.games):
        game = SimulatedOracle(shape, seed)
        guide = Guide(shape, a.strategy, counts=False)
        guide.start(game.start())
        trace: list[tuple[float, int, int, float]] = []
        while not guide.done:
            advice = guide.advice()
            if advice.phase == "probe":
                x = press_set(shape, game.board ^ guide.record.flips())
                found = guide.outlook()
                assert x is not None and found is not None
                bits = math.log2(guide.knowledge().possible)
                trace.append((bits, x.bit_count(), len(guide.record.steps), found.to_go))
            elif advice.phase != "finish":
                raise SystemExit(f"seed {seed}: the game stopped ({advice.phase})")
            guide.observe(advice.cell, game.click(advice.cell))
        total = len(guide.record.steps)
        for bits, x, at, to_go in trace:
            points.append((bits, (total - at - x) / 2))
            errors.append(abs(to_go - (total - at)))
    rate = sum(w for _, w in points) / sum(b for b, _ in points)
    print(f"{shape}, {a.strategy}, {a.games} games from seed {a.first_seed}: {len(points)} probes")
    print(f"rate c = sum W / sum bits = {rate:.3f} (countlo uses {WASTE_PER_BIT})")
    for lo in range(0, shape.cells, 4):
        band = [w for b, w in points if lo <= b < lo + 4]
        if band:
            print(f"  {lo:>2}-{lo + 4:<2} bits unknown: {len(band):>5} probes, W to come {statistics.mean(band):.2f}")
    print(f"estimate of the clicks to come: mean absolute error {statistics.mean(errors):.2f}, "
          f"median {statistics.median(errors):.1f}")


if __name__ == "__main__":
    main()
