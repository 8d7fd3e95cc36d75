"""Time the exact engine: WindowPosterior(record) plus count_distributions() over realistic records.

Records: a random hidden start, then 0..20 clicks that are random cells, distinct cells, or
click-and-restore pairs (what the strategies produce). Reports medians over all records.

    python bench/bench_posterior.py [--sizes 6x6 8x8] [--records 150] [--baseline] [--clock cpu]
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
from countlo.hidden.posterior.window import WindowPosterior
from countlo.hidden.record import record_of


def records(shape: Shape, n: int, rng: random.Random):
    """n realistic records on `shape` (kind cycles through random, distinct, restore)."""
    for i in range(n):
        start = rng.randrange(1 << shape.cells)
        length = rng.randrange(21)
        kind = ("random", "distinct", "restore")[i % 3]
        if kind == "random":
            clicks = [rng.randrange(shape.cells) for _ in range(length)]
        elif kind == "distinct":
            clicks = rng.sample(range(shape.cells), min(length, shape.cells))
        else:
            cells = rng.sample(range(shape.cells), min((length + 1) // 2, shape.cells))
            clicks = [k for k in cells for _ in range(2)][:length]
        yield kind, record_of(shape, start, clicks)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def timed(rec, method: str, repeats: int, clock=time.perf_counter) -> tuple[float, float]:
    """Best of `repeats` times (ms): build, and build + count_distributions()."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        t0 = clock()
        post = WindowPosterior(rec, method)
        t1 = clock()
        post.count_distributions()
        t2 = clock()
        best = min(best, ((t1 - t0) * 1e3, (t2 - t0) * 1e3), key=lambda x: x[1])
    return best


def measure(shape: Shape, n: int, seed: int, method: str, repeats: int, clock) -> dict[str, float]:
    """Median, 90th percentile and max (ms) over records of build, and build + count_distributions()."""
    rng = random.Random(seed)
    build, total = [], []
    for _, rec in records(shape, n, rng):
        b, t = timed(rec, method, repeats, clock)
        build.append(b)
        total.append(t)
    q = lambda xs, p: sorted(xs)[min(len(xs) - 1, int(p * len(xs)))]
    return {
        "records": n,
        "build median": statistics.median(build),
        "total median": statistics.median(total),
        "total p90": q(total, 0.9),
        "total max": max(total),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", default=["4x4", "5x5", "6x6", "7x7", "8x8"])
    ap.add_argument("--records", type=int, default=150, help="records per size (above 7x7: a fifth)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3, help="time each record this often, keep the best")
    ap.add_argument("--baseline", action="store_true", help="also time the dense tables (slow on 8x8)")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="cpu: process time (shared machines)")
    args = ap.parse_args()
    clock = CLOCKS[args.clock]
    print(f"{args.clock} clock, best of {args.repeats} per record up to 7x7, 1 above")
    print("| board | method | records | build median ms | build + all distributions: median ms | p90 ms | max ms |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for text in args.sizes:
        shape = Shape.parse(text)
        n = args.records if shape.cells <= 49 else max(5, args.records // 5)
        methods = ["sparse", "dense"] if args.baseline and shape.cells <= 66 else ["sparse"]
        medians = {}
        for method in methods:
            r = measure(shape, n, args.seed, method, args.repeats if shape.cells <= 49 else 1, clock)
            medians[method] = r["total median"]
            print(
                f"| {shape} | {method} | {r['records']} | {r['build median']:.1f} | {r['total median']:.1f} "
                f"| {r['total p90']:.1f} | {r['total max']:.1f} |",
                flush=True,
            )
        if len(medians) == 2:
            print(f"| {shape} | dense / sparse | | | {medians['dense'] / medians['sparse']:.1f}x | | |", flush=True)


if __name__ == "__main__":
    main()
