"""Benchmark the hidden game at scale: decision CPU time, peak memory and total clicks per size.

    python bench/bench_scale.py                                  # sizes 6 8 10 12 16, 20 games
    python bench/bench_scale.py --sizes 10x10 --games 20 --strategies adaptive sequential fixed

For each size the boards are the first `games` seeds (from --seed) whose simulated board can be
cleared, so every strategy plays the same boards and every game ends dark (16 x 16 has nullity 8:
only one random board in 256 can be cleared). Each (size, strategy) runs in fresh worker
processes; decision time is CPU time (time.process_time) of observe + advice, memory is the
largest peak resident size of a worker. Prints a markdown table (for docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line does (countlo.cli.threads)
os.environ.setdefault("OMP_NUM_THREADS", "1")

from countlo.board import Shape
from countlo.play.game import play_game
from countlo.play.knowledge import press_set
from countlo.play.oracle import SimulatedOracle


def solvable_seeds(shape: Shape, first: int, games: int) -> list[int]:
    """The first `games` seeds from `first` whose simulated board can be cleared."""
    out, seed = [], first
    while len(out) < games:
        if press_set(shape, SimulatedOracle(shape, seed).board) is not None:
            out.append(seed)
        seed += 1
    return out


def warm(size: str, strategy: str) -> None:
    """One untimed decision per worker, as `countlo simulate` does (imports, per-shape tables)."""
    from countlo.play.guide import Guide

    shape = Shape.parse(size)
    guide = Guide(shape, strategy, "exact", counts=False)
    guide.start(shape.cells // 2)
    guide.advice()


def one(job: tuple[str, str, int]) -> tuple[str, int, list[float], int]:
    from countlo.errors import CountloError

    size, strategy, seed = job
    shape = Shape.parse(size)
    try:
        r = play_game(SimulatedOracle(shape, seed), strategy, "exact", seed)
        outcome, clicks, times = r.outcome.value, r.clicks, list(r.decision_times)
    except CountloError as e:  # the engine refused this game's record (e.g. too wide a frontier)
        outcome, clicks, times = f"refused: {e}", 0, []
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # MB (Linux: KB)
    return outcome, clicks, times, peak


def measure(size: str, strategy: str, seeds: list[int], jobs: int) -> dict:
    with ProcessPoolExecutor(jobs, initializer=warm, initargs=(size, strategy)) as pool:
        results = list(pool.map(one, [(size, strategy, s) for s in seeds]))
    ms = [t * 1000 for _, _, times, _ in results for t in times]
    solved = [c for outcome, c, _, _ in results if outcome == "solved"]
    refused = [outcome for outcome, *_ in results if outcome.startswith("refused")]
    return {
        "games": len(results),
        "solved": len(solved),
        "refused": refused,
        "clicks": statistics.mean(solved) if solved else float("nan"),
        "median": statistics.median(ms) if ms else float("nan"),
        "worst": max(ms) if ms else float("nan"),
        "game": statistics.median(sum(times) for _, _, times, _ in results if times) if ms else float("nan"),
        "memory": max(peak for *_, peak in results),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", nargs="+", default=["6x6", "8x8", "10x10", "12x12", "16x16"])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--strategies", nargs="+", default=["adaptive", "sequential", "fixed"])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()
    print(f"{args.games} games per size and strategy on clearable boards from seed {args.seed}; "
          "CPU time per decision; memory = peak resident size of a worker\n")
    print("| size | strategy | games | solved | mean clicks | decision median | decision worst | "
          "CPU per game | peak memory |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        seeds = solvable_seeds(Shape.parse(size), args.seed, args.games)
        for strategy in args.strategies:
            m = measure(size, strategy, seeds, args.jobs)
            print(f"| {size} | {strategy} | {m['games']} | {m['solved']} | {m['clicks']:.1f} | "
                  f"{m['median']:.1f} ms | {m['worst']:.0f} ms | {m['game']:.1f} s | {m['memory']:.0f} MB |",
                  flush=True)
            for why in sorted(set(m["refused"])):
                print(f"<!-- {size} {strategy}: {m['refused'].count(why)} games {why} -->", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
