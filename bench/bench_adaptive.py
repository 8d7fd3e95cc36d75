"""Benchmark: the adaptive strategy against its baseline (adaptive-v1) on seeded random boards.

Every game is a real `play_game` against a SimulatedOracle (each light on with probability 1/2),
so the numbers include the guide, the exact posterior and the finish. Total clicks = probes +
finishing clicks; decision time = observe + advice per step, as the guide reports it.

    python bench/bench_adaptive.py                 # 1000 games of 6x6, seeds 0..999
    python bench/bench_adaptive.py --games 100 --jobs 2 --size 5x5
    python bench/bench_adaptive.py --strategies adaptive greedy entropy adaptive-v1
    python bench/bench_adaptive.py --log games.jsonl     # one JSON line per game as it ends
    python bench/bench_adaptive.py --report games.jsonl  # the table of a (partial) logged run
    python bench/bench_adaptive.py --games 30 --cpu      # decisions are timed in CPU time (always now)

The adaptive strategy was tuned on seeds 10000 and up; the default seeds 0..999 are held out.
The table's last line is the paired difference of the first strategy against the last one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread per worker: --jobs sets the cores

from countlo.board import Shape
from countlo.play.game import Outcome, play_game
from countlo.play.oracle import SimulatedOracle


def one_game(job: tuple[str, str, int, bool]) -> tuple[str, int, str, int, int, list[float]]:
    strategy, size, seed, _cpu = job  # play_game times decisions in CPU time already (--cpu kept for old commands)
    result = play_game(SimulatedOracle(Shape.parse(size), seed), strategy, "exact", seed)
    return strategy, seed, result.outcome.value, result.probes, result.clicks, list(result.decision_times)


def summary_row(name: str, games: list[tuple]) -> str:
    solved = [g for g in games if g[2] == Outcome.SOLVED.value]
    clicks = [g[4] for g in solved]
    probes = [g[3] for g in solved]
    ms = [t * 1000 for g in games for t in g[5]]
    unsolvable = sum(g[2] == Outcome.UNSOLVABLE.value for g in games)
    failed = len(games) - len(solved) - unsolvable

    def trio(xs, fmt):
        if not xs:
            return "-", "-", "-"
        return fmt(statistics.mean(xs)), fmt(statistics.median(xs)), fmt(max(xs))

    c, p, m = trio(clicks, lambda v: f"{v:.2f}"), trio(probes, lambda v: f"{v:.2f}"), trio(ms, lambda v: f"{v:.1f}")
    p90 = f"{statistics.quantiles(ms, n=10)[-1]:.1f}" if len(ms) > 1 else "-"
    return (f"| {name} | {len(games)} | {len(solved)} | {unsolvable} | {failed} | {c[0]} | {c[1]} | {c[2]} "
            f"| {p[0]} | {p[2]} | {m[1]} | {p90} | {m[2]} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per strategy (default 1000)")
    ap.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    ap.add_argument("--size", default="6x6", help="board size (default 6x6)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--strategies", nargs="+", default=["adaptive", "adaptive-v1"],
                    help="strategies to compare (default: adaptive adaptive-v1)")
    ap.add_argument("--cpu", action="store_true",
                    help="accepted for old commands: decisions are always timed in CPU time")
    ap.add_argument("--log", help="append one JSON line per finished game to this file")
    ap.add_argument("--report", help="print the table of games logged in this file, play none")
    args = ap.parse_args(argv)
    if args.report:
        games = [tuple(json.loads(line)) for line in open(args.report, encoding="utf-8")]
        names = list(dict.fromkeys(g[0] for g in games))
        seeds = sorted({g[1] for g in games})
        print(f"{len(games)} logged games, seeds {seeds[0]}..{seeds[-1]}\n")
        table({n: [g for g in games if g[0] == n] for n in names})
        return 0
    seeds = range(args.first_seed, args.first_seed + args.games)
    jobs = [(s, args.size, seed, args.cpu) for seed in seeds for s in args.strategies]
    t0 = time.time()
    results: dict[str, list[tuple]] = {s: [] for s in args.strategies}
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    with Pool(args.jobs) as pool:
        for done, r in enumerate(pool.imap_unordered(one_game, jobs, chunksize=2), 1):
            results[r[0]].append(r)
            if log:
                log.write(json.dumps(r) + "\n")
                log.flush()
            if done % 50 == 0:
                print(f"  {done}/{len(jobs)} games, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    print(f"{args.size}, seeds {seeds.start}..{seeds.stop - 1}, {args.jobs} jobs, "
          f"{time.time() - t0:.0f} s wall, decisions timed in CPU time\n")
    table(results)
    return 0


def table(results: dict[str, list[tuple]]) -> None:
    """The markdown table, and the paired difference of the first strategy against the last."""
    names = list(results)
    print("| strategy | games | solved | unsolvable | failed | total clicks mean | median | max "
          "| probes mean | probes max | decision ms median | p90 | max |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for s in names:
        print(summary_row(s, results[s]))
    if len(names) > 1:
        base = {g[1]: g[4] for g in results[names[-1]] if g[2] == Outcome.SOLVED.value}
        first = {g[1]: g[4] for g in results[names[0]] if g[2] == Outcome.SOLVED.value}
        both = sorted(set(base) & set(first))
        if both:
            diff = [first[s] - base[s] for s in both]
            se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
            print(f"\n{names[0]} - {names[-1]} total clicks, same boards: mean "
                  f"{statistics.mean(diff):+.2f} +- {se:.2f} (s.e.), {sum(d < 0 for d in diff)} fewer / "
                  f"{sum(d > 0 for d in diff)} more of {len(both)}")


if __name__ == "__main__":
    raise SystemExit(main())
