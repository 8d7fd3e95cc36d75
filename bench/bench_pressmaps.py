"""Benchmark: press maps, random rectangular systems (lights x buttons) up to 2,000 x 2,000 over
GF(2) and Z_k, countlo against M4RI on the same GF(2) matrix.

Run from the repository root:
    python bench/bench_pressmaps.py [--sizes 500x500,1000x1500,1500x1000,2000x2000] [--states 2,3]
                                    [--density 0.5] [--repeats 3] [--m4ri PATH]

Each size is a random press map with every entry non-zero with probability --density (a
uniform non-zero value mod k). countlo's time is `solutions.solve` from the press map (CPU time,
median of --repeats, caches cleared each time: the dense matrix is built from the map, eliminated
by countlo.visible.engines.press_matrix, and the answer checked), for two starts: a reachable one
(A x for random x, so the presses are checked A x = b) and a random one (for most rectangular
maps with more lights than buttons unsolvable: then the proof w A = 0, w.b != 0 is checked).
"eliminate" is press_matrix's elimination alone on the dense matrix, the work M4RI does. On
GF(2), M4RI (found as bench/bench_graphs.py finds it: the passagemath-m4ri-m4rie wheel, a system
libm4ri, or --m4ri PATH) brings the same [A | b] to reduced echelon form; its rank of A and of
[A | b] must agree with countlo's nullity and answer. Every squarefree k is also checked by a
plain numpy elimination over each prime of k (the "numpy" column; --no-check skips it). M4RI only reduces; countlo also builds A
from the map and reads the solution or the proof back out, so the columns are not the same work.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line does (countlo.cli.threads),
os.environ.setdefault("OMP_NUM_THREADS", "1")  # set before numpy is imported

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_graphs import INSTALL, M4RI, cpu, find_m4ri, fmt

from countlo.pressmap import PressMap
from countlo.visible import solutions
from countlo.visible.engines import press_matrix, reference_chase
from countlo.visible.engines.choice import chosen


def random_map(lights: int, buttons: int, k: int, density: float, seed: int) -> tuple[PressMap, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = np.where(rng.random((lights, buttons)) < density, rng.integers(1, k, size=(lights, buttons)), 0)
    changes = tuple(tuple((int(i), int(a[i, j])) for i in np.flatnonzero(a[:, j])) for j in range(buttons))
    pm = PressMap(tuple(f"L{i}" for i in range(lights)), tuple(f"b{j}" for j in range(buttons)), changes, k)
    return pm, a.astype(np.int64)


def fresh_solve(pm: PressMap, start: list[int]) -> solutions.Outcome:
    """solutions.solve with nothing kept from an earlier run (the map's columns, its factors)."""
    for cache in (reference_chase.columns, reference_chase.rows, reference_chase.plan, reference_chase.transposed_plan):
        cache.cache_clear()
    press_matrix.factored.kept = []
    return solutions.solve(pm, start)


def eliminate(a: np.ndarray, k: int, b: list[int]) -> list[int] | None:
    """The elimination alone, from the dense matrix (the work M4RI's column does, plus reading
    one solution back): press_matrix's GF(2) or Z_k system, factored and solved once."""
    system = press_matrix.Gf2(a) if k == 2 else press_matrix.Zk(a, k)
    return system.solve(b)


def numpy_rank(a: np.ndarray, p: int) -> int:
    """Rank over the field Z_p by plain forward elimination on numpy rows: an elimination of its own
    (no countlo code), the check of countlo's quiet group and solvability for every prime of k."""
    m = (a % p).astype(np.int32)
    rank = 0
    for c in range(m.shape[1]):
        below = np.flatnonzero(m[rank:, c])
        if not len(below):
            continue
        piv = rank + int(below[0])
        m[[rank, piv]] = m[[piv, rank]]
        m[rank] = m[rank] * pow(int(m[rank, c]), -1, p) % p
        rest = rank + 1 + np.flatnonzero(m[rank + 1:, c])
        if len(rest):
            m[rest] = (m[rest] - np.outer(m[rest, c], m[rank])) % p
        rank += 1
        if rank == m.shape[0]:
            break
    return rank


def independent(a: np.ndarray, k: int, b: list[int], out: solutions.Outcome) -> bool:
    """countlo's quiet group and solvability against numpy_rank, for squarefree k (Z_k is then the
    product of the fields Z_p; k = 4, 8, 9 ... are checked by the answers' certificates only)."""
    from countlo.visible.algebra.smith import factor

    primes = factor(k)
    if any(e > 1 for _p, e in primes):
        return True
    aug = np.concatenate([a, np.array(b, dtype=np.int64).reshape(-1, 1)], axis=1)
    for p, _e in primes:
        rank = numpy_rank(a, p)
        if out.orders.count(p) != a.shape[1] - rank or (numpy_rank(aug, p) == rank) != out.solvable:
            return False
    return True


def check(a: np.ndarray, k: int, b: list[int], out: solutions.Outcome) -> None:
    bv = np.array(b, dtype=np.int64)
    if out.presses is not None:
        assert np.array_equal((a @ np.array(out.presses, dtype=np.int64)) % k, bv % k), "wrong presses"
    else:
        w = np.array(out.witness, dtype=np.int64)
        assert not ((w @ a) % k).any() and int(w @ bv) % k, "wrong proof"


def m4ri_time(m4ri: M4RI, a: np.ndarray, b: list[int], repeats: int) -> tuple[float, int, int]:
    """(median CPU time of reducing [A | b], rank of A, rank of [A | b])."""
    lights, buttons = a.shape
    aug = np.concatenate([a & 1, np.array(b, dtype=np.int64).reshape(-1, 1) & 1], axis=1).astype(np.uint8)
    packed = np.packbits(aug, axis=1, bitorder="little")
    words = (buttons + 1 + 63) // 64
    padded = np.zeros((lights, 8 * words), dtype=np.uint8)
    padded[:, :packed.shape[1]] = packed
    rows = padded.view("<u8").astype(np.uint64)
    times, rank_ab = [], 0
    for _ in range(repeats):
        mat = m4ri.matrix(rows, buttons + 1)
        t = time.process_time()
        rank_ab = m4ri.echelonize(mat)
        times.append(time.process_time() - t)
        m4ri.free(mat)
    only_a = padded.copy()
    only_a.view("<u8")[:, (buttons) // 64] &= ~np.uint64(1 << (buttons % 64))  # drop the b column
    mat = m4ri.matrix(only_a.view("<u8").astype(np.uint64), buttons + 1)
    rank_a = m4ri.echelonize(mat)
    m4ri.free(mat)
    return sorted(times)[len(times) // 2], rank_a, rank_ab


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="500x500,1000x1500,1500x1000,2000x2000", help="LIGHTSxBUTTONS,...")
    ap.add_argument("--states", default="2,3")
    ap.add_argument("--density", type=float, default=0.5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--m4ri", help="path of libm4ri (default: the passagemath wheel, then the system)")
    ap.add_argument("--no-check", action="store_true", help="skip the numpy elimination that checks the ranks")
    args = ap.parse_args()
    path = find_m4ri(args.m4ri)
    m4ri = M4RI(path) if path else None
    if m4ri is None:
        print(INSTALL)
    print(f"{'lights x buttons':>17} {'k':>3} {'engine':>15} {'start':>10} {'countlo':>10} {'eliminate':>10} "
          f"{'quiet':>14} {'M4RI':>10}  agree  numpy")
    for size in args.sizes.split(","):
        lights, buttons = (int(v) for v in size.lower().split("x"))
        for k in (int(v) for v in args.states.split(",")):
            pm, a = random_map(lights, buttons, k, args.density, seed=lights * 7 + buttons * 3 + k)
            rng = random.Random(k)
            x = [rng.randrange(k) for _ in range(buttons)]
            starts = {"reachable": [int(-v) % k for v in (a @ np.array(x)) % k],
                      "random": [rng.randrange(k) for _ in range(lights)]}
            for name, start in starts.items():
                b = [(-v) % k for v in start]
                spent, out = cpu(fresh_solve, pm, start, repeats=args.repeats)
                check(a, k, b, out)
                alone, x_alone = cpu(eliminate, a, k, b, repeats=args.repeats)
                assert (x_alone is not None) == out.solvable
                quiet = " x ".join(f"{o}^{out.orders.count(o)}" for o in sorted(set(out.orders))) or "1"
                theirs, agree = "-", "-"
                if m4ri is not None and k == 2:
                    t, rank_a, rank_ab = m4ri_time(m4ri, a, b, args.repeats)
                    theirs = fmt(t)
                    agree = "yes" if (rank_a == buttons - out.nullity and (rank_ab == rank_a) == out.solvable) else "NO"
                numpy_ok = "-" if args.no_check else "yes" if independent(a, k, b, out) else "NO"
                print(f"{size:>17} {k:>3} {chosen(pm, 'solve'):>15} {name:>10} {fmt(spent):>10} {fmt(alone):>10} "
                      f"{quiet:>14} {theirs:>10}  {agree:>5}  {numpy_ok}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
