"""CPU time and peak memory of the exact posterior on small boards under far-reaching rules:
the window programme (`Posterior`, the engine before the split one) against the split engine
(`SplitPosterior`, what `posterior_of` now picks there).

Each engine runs in its own child process over the same records (a random hidden start, then
0, 3, 6, ..., 18 random clicks), building the posterior and every next-count law (what one
decision of the adaptive strategy asks for; the window programme without its 512 MB table
bound, as it ran before the split engine). Reported: the child's CPU time for all records
(median of --repeats children, CPU clock: the machine may be shared), the slowest record, and
the child's peak RSS. A board the window programme refuses says so.

    python bench/bench_wide.py [--repeats 3] [--boards klein:knight:5x5,torus:plus:6x6]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOARDS = "klein:knight:5x5,torus:plus:6x6,moebius:ring:6x6,projective:x:6x6"


def child(board: str, engine: str) -> None:
    """Run one engine over the records of one board; print CPU times and peak RSS as JSON."""
    import resource

    from countlo.board import Shape
    from countlo.errors import CountloError
    from countlo.hidden.posterior.split import SplitPosterior
    from countlo.hidden.posterior.window import WindowPosterior
    from countlo.hidden.record import record_of
    from countlo.rules import Rules

    if engine == "window":  # the baseline: the window programme without the 512 MB table bound
        import countlo.hidden.posterior.sparse as sparse

        sparse.TABLE_BYTES = 1 << 62
    topology, rule, size = board.split(":")
    rows, cols = map(int, size.split("x"))
    shape = Shape(rows, cols, Rules.make(topology, rule))
    rng = random.Random(1)
    recs = []
    for length in range(0, 19, 3):
        start = rng.getrandbits(shape.cells)
        recs.append(record_of(shape, start, [rng.randrange(shape.cells) for _ in range(length)]))
    times = []
    try:
        for rec in recs:
            t = time.process_time()
            post = WindowPosterior(rec) if engine == "window" else SplitPosterior(rec)
            post.count_distributions()
            times.append(time.process_time() - t)
    except CountloError as e:
        print(json.dumps({"refused": str(e)}))
        return
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KB
    print(json.dumps({"cpu": sum(times), "max": max(times), "rss": peak}))


def run(board: str, engine: str) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, __file__, "--child", board, engine], capture_output=True,
                         text=True, env=env, check=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--boards", default=BOARDS, help="topology:rule:RxC, comma-separated")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    print(f"CPU seconds for 7 records (0..18 clicks) incl. every next-count law, median of "
          f"{args.repeats} child processes; peak RSS of the child (shared machine: CPU clock)")
    print(f"{'board':24} {'engine':7} {'cpu s':>8} {'slowest s':>10} {'peak RSS':>10}")
    for board in args.boards.split(","):
        for engine in ("window", "split"):
            runs = [run(board, engine) for _ in range(args.repeats)]
            if "refused" in runs[0]:
                print(f"{board:24} {engine:7} refused: {runs[0]['refused']}")
                continue
            cpu = statistics.median(float(str(r["cpu"])) for r in runs)
            slow = statistics.median(float(str(r["max"])) for r in runs)
            rss = statistics.median(int(str(r["rss"])) for r in runs)
            print(f"{board:24} {engine:7} {cpu:8.3f} {slow:10.3f} {rss / 2**20:8.0f} MB")


if __name__ == "__main__":
    main()
