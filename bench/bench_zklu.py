"""Benchmark: the dense elimination over Z_k behind the line chase (countlo.visible.algebra.dense_lu, docs/MATH.md §18.4).

Run from the repository root:  python bench/bench_zklu.py [--sizes 1000,2000,4000,6000] [--states 3,4,6]
                                       [--repeats 3] [--against main] [--chase torus:x:3:1000 ...]
For each size n and k, one random n x n system over Z_k whose last few columns are combinations of
the others (a small kernel, like the chase's constraints) is factored by dense_lu.System (the kernel with
its orders and everything a solve needs) and the CPU time (time.process_time) is reported as the
median of the repeats. In the same run and on the same matrix:
* `--against REV` (default main) factors it with zklu as it is at that git revision (the code this
  one replaces), read with `git show` into a module of its own; `--against ''` leaves it out;
* the BLAS yardstick: one float32 n x n matrix product (2 n^3 flops, three times an LU's; the
  elimination cannot run much below a third of it).
`--chase TOPOLOGY:RULE:K:N` (repeatable) times instead the systems the line chase itself leaves
on that N x N board (countlo.visible.engines.line_chase_mod_k, read where it hands them to dense_lu.System; one per
checkerboard colour when the game splits).
The products are small: one BLAS thread, as the command line runs (countlo.cli.threads). The load
average is printed with the table (the machine is shared).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from countlo.board import Shape
from countlo.rules import Rules
from countlo.visible.algebra import dense_lu
from countlo.visible.engines import line_chase_mod_k

NULLITY = 8  # dependent columns at the end of each random system


def system(n: int, k: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, (n, n))
    a[:, n - NULLITY:] = a[:, :NULLITY] @ rng.integers(0, k, (NULLITY, NULLITY)) % k
    return a


def chased(spec: str) -> list[tuple[Any, int]]:
    """The systems zkchase hands to dense_lu.System for the board TOPOLOGY:RULE:K:N, with their k."""
    topology, rule, k, n = spec.split(":")
    board = Shape(int(n), int(n), Rules.make(topology, rule, int(k)))
    found: list[tuple[Any, int]] = []
    real = dense_lu.System

    def keep(a: Any, k: int, overwrite: bool = False) -> Any:
        found.append((np.array(a, dtype=np.int64), k))  # a copy: the chase's own matrix is factored in place
        return real(a, k, overwrite)

    dense_lu.System = keep  # type: ignore[assignment,misc]  # Blocks builds its halves through it too
    try:
        line_chase_mod_k.plan.cache_clear()
        line_chase_mod_k.plan(board)
    finally:
        dense_lu.System = real  # type: ignore[misc]
    return found


def old_module(rev: str) -> ModuleType:
    """countlo.visible.algebra.dense_lu as it is at git revision `rev`, as a module of its own."""
    text = subprocess.run(["git", "show", f"{rev}:countlo/visible/algebra/dense_lu.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "zklu_old.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("zklu_old", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cpu(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000,4000,6000")
    ap.add_argument("--states", default="3,4,6")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--against", default="main", help="git revision of the zklu to compare with ('' for none)")
    ap.add_argument("--chase", action="append", default=[], help="TOPOLOGY:RULE:K:N: the chase's own systems")
    args = ap.parse_args()
    old = old_module(args.against) if args.against else None
    print(f"CPU time (s), median of {args.repeats}; load average {os.getloadavg()[0]:.1f} at the start")
    if args.chase:
        print(f"{'board':>24} {'m x n':>12} {'zklu':>8} {'at ' + args.against if old else '':>10} {'ratio':>6}")
        for spec in args.chase:
            for a, k in chased(spec):
                t_new = cpu(lambda a=a, k=k: dense_lu.System(a, k), args.repeats)
                shape = f"{a.shape[0]} x {a.shape[1]}"
                if old is not None:
                    t_old = cpu(lambda a=a, k=k: old.System(a, k), args.repeats)
                    print(f"{spec:>24} {shape:>12} {t_new:>8.3f} {t_old:>10.3f} {t_old / t_new:>6.2f}", flush=True)
                else:
                    print(f"{spec:>24} {shape:>12} {t_new:>8.3f}", flush=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        return
    print(f"{'n':>6} {'k':>4} {'zklu':>8} {'at ' + args.against if old else '':>10} {'ratio':>6} {'f32 n^3 product':>16}")
    for n in (int(s) for s in args.sizes.split(",")):
        yard = cpu(lambda n=n: np.ones((n, n), np.float32) @ np.ones((n, n), np.float32), args.repeats)
        for k in (int(s) for s in args.states.split(",")):
            a = system(n, k, n + k)
            new = dense_lu.System(a, k)
            assert not (a @ new.gens % k).any()
            t_new = cpu(lambda a=a, k=k: dense_lu.System(a, k), args.repeats)
            if old is not None:
                assert list(old.System(a, k).orders) == list(new.orders)
                t_old = cpu(lambda a=a, k=k: old.System(a, k), args.repeats)
                print(f"{n:>6} {k:>4} {t_new:>8.3f} {t_old:>10.3f} {t_old / t_new:>6.2f} {yard:>16.3f}", flush=True)
            else:
                print(f"{n:>6} {k:>4} {t_new:>8.3f} {'':>10} {'':>6} {yard:>16.3f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
