"""Benchmark the hidden game's worst step: decision CPU time and peak memory per game, paired clicks.

Each game is a real `play_game` of one strategy against a SimulatedOracle, played alone in a fresh
worker process (forked from a parent that has imported countlo and made one untimed decision, as
`countlo simulate` has before its first game), so a game's peak resident size is its own and not
what earlier games left behind. Decisions are observe + advice in CPU time (time.process_time).

    python bench/bench_worst.py                              # 200 games of 6x6 adaptive, seeds 1..200
    python bench/bench_worst.py --games 20 --size 10x10 --jobs 1
    python bench/bench_worst.py --log after.jsonl --against before.jsonl   # paired clicks

`--log` writes one JSON line per game (seed, outcome, clicks, decision times, peak MB); `--against`
reads such a file from another commit (run this script from that commit's tree) and prints the
paired difference of total clicks on the seeds both solved. The machine's load average is printed
with the table: CPU times rise a little under load, the clicks and the memory do not.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line does (countlo.cli.threads)
os.environ.setdefault("OMP_NUM_THREADS", "1")

from countlo.board import Shape
from countlo.play.game import play_game
from countlo.play.oracle import SimulatedOracle


def warm(size: str, strategy: str) -> None:
    """One untimed decision in the parent: imports and per-shape tables, inherited by every game."""
    from countlo.play.guide import Guide

    shape = Shape.parse(size)
    guide = Guide(shape, strategy, "exact", counts=False)
    guide.start(shape.cells // 2)
    guide.advice()


def one(job: tuple[str, str, int]) -> dict:
    size, strategy, seed = job
    t = time.process_time()
    r = play_game(SimulatedOracle(Shape.parse(size), seed), strategy, "exact", seed)
    cpu = time.process_time() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB
    return {"seed": seed, "outcome": r.outcome.value, "clicks": r.clicks, "cpu": cpu,
            "times": list(r.decision_times), "peak_mb": peak}


def table(games: list[dict], label: str) -> None:
    ms = [t * 1000 for g in games for t in g["times"]]
    worst = [max(g["times"]) * 1000 for g in games if g["times"]]
    peaks = [g["peak_mb"] for g in games]
    solved = [g["clicks"] for g in games if g["outcome"] == "solved"]
    print("| run | games | solved | mean clicks | decision median | p99 | worst | worst per game median "
          "| CPU per game median | max | peak RSS median | max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    p99 = statistics.quantiles(ms, n=100)[-1] if len(ms) > 1 else float("nan")
    print(f"| {label} | {len(games)} | {len(solved)} | {statistics.mean(solved) if solved else float('nan'):.3f} "
          f"| {statistics.median(ms):.1f} ms | {p99:.0f} ms | {max(ms):.0f} ms | {statistics.median(worst):.0f} ms "
          f"| {statistics.median(g['cpu'] for g in games):.2f} s | {max(g['cpu'] for g in games):.2f} s "
          f"| {statistics.median(peaks):.0f} MB | {max(peaks):.0f} MB |")


def paired(games: list[dict], path: str) -> None:
    """Total clicks against the run logged in `path`, on the seeds that ended the same way in both
    (solved, or proved unclearable: most 16x16 boards cannot be cleared)."""
    base = {g["seed"]: g for g in map(json.loads, open(path, encoding="utf-8"))}
    now = {g["seed"]: g for g in games}
    seeds = sorted(set(base) & set(now))
    both = [s for s in seeds if now[s]["outcome"] == base[s]["outcome"] in ("solved", "unsolvable")]
    other = sum(now[s]["outcome"] != base[s]["outcome"] for s in seeds)
    if not both:
        print(f"\nno seed ended the same way in both runs ({other} ended differently)")
        return
    diff = [now[s]["clicks"] - base[s]["clicks"] for s in both]
    se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
    print(f"\nthis run - {path}, total clicks on the same {len(both)} boards: mean "
          f"{statistics.mean(diff):+.3f} +- {se:.3f} (s.e.); {sum(d < 0 for d in diff)} fewer, "
          f"{sum(d > 0 for d in diff)} more, {sum(d == 0 for d in diff)} equal; {other} ended differently")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--size", default="6x6", help="board size (default 6x6)")
    ap.add_argument("--strategy", default="adaptive", help="strategy (default adaptive)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--log", help="write one JSON line per game to this file")
    ap.add_argument("--against", help="a --log file of another run: print the paired clicks")
    args = ap.parse_args(argv)
    warm(args.size, args.strategy)
    jobs = [(args.size, args.strategy, s) for s in range(args.seed, args.seed + args.games)]
    games: list[dict] = []
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    with get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
        for g in pool.imap(one, jobs):
            games.append(g)
            if log:
                log.write(json.dumps(g) + "\n")
                log.flush()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parent).stdout.strip() or "?"
    print(f"{args.size} {args.strategy}, seeds {args.seed}..{args.seed + args.games - 1}, one game per "
          f"fresh worker, {args.jobs} jobs, commit {commit}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    table(games, args.strategy)
    if args.against:
        paired(games, args.against)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
