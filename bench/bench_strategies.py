"""Benchmark the strategies on seeded games: probes, total clicks and decision time.

    python bench/bench_strategies.py                  # 1000 games per strategy on 6x6
    python bench/bench_strategies.py --games 200 --strategies adaptive fixed --jobs 2

Prints a markdown table (for docs/BENCHMARKS.md). Seeds 0..N-1 are shared by every strategy, so the
strategies face the same hidden boards. Decision time = observe + advice per click, in ms.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.play.game import play_game, summarize
from countlo.play.oracle import SimulatedOracle


def one(job):
    size, strategy, engine, seed, density = job
    shape = Shape.parse(size)
    return play_game(SimulatedOracle(shape, seed, density), strategy, engine, seed)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--size", default="6x6")
    p.add_argument("--engine", default="exact")
    p.add_argument("--density", type=float, default=0.5)
    p.add_argument("--strategies", nargs="+", default=["restore", "sequential", "fixed", "greedy", "adaptive"])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()

    rows = []
    for strategy in args.strategies:
        jobs = [(args.size, strategy, args.engine, seed, args.density) for seed in range(args.games)]
        t = time.perf_counter()
        with Pool(args.jobs) as pool:
            results = pool.map(one, jobs, chunksize=4)
        wall = time.perf_counter() - t
        s = summarize(results)
        rows.append((strategy, s, wall))
        print(f"{strategy}: {s.solved}/{s.games} solved, clicks mean {s.clicks_mean:.2f}, "
              f"{wall:.0f} s", file=sys.stderr)

    print(f"\n{args.games} seeded games per strategy on {args.size} (density {args.density:g}, "
          f"engine {args.engine}); probes and clicks over solved games.\n")
    print("| strategy | solved | probes mean | median | max | total clicks mean | median | max "
          "| decision ms median | max |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for strategy, s, _ in rows:
        print(f"| {strategy} | {s.solved}/{s.games} | {s.probes_mean:.2f} | {s.probes_median:g} | "
              f"{s.probes_max} | {s.clicks_mean:.2f} | {s.clicks_median:g} | {s.clicks_max} | "
              f"{s.decision_ms_median:.1f} | {s.decision_ms_max:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
