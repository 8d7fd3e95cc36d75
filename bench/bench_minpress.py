"""Benchmark: fewest presses for the all-on n x n board (OEIS A075464), proven, in CPU time.

Run from the repository root:  python bench/bench_minpress.py [--from 21] [--to 54] [--limit 120]
Boards of nullity above --hopeless (default 36) get --short seconds (default 20) for the bounds.
Each n is solved by countlo.visible.fewest.fewest with a time limit; the table says whether the
answer is proven, the CPU seconds (this process, median over --repeats for quick ones), and the
published value where tests/data holds it. The baseline column is the plain Gray-code walk over
all 2^nullity solutions (what countlo used before), timed in the same run where it takes at
most a few seconds (nullity <= --gray); the ratio is baseline / countlo.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from countlo.board import Shape
from countlo.visible.engines.polynomial_chase import clears, nullity, quiet_patterns, solve
from countlo.visible.fewest import fewest


def published() -> dict[int, int]:
    out: dict[int, int] = {}
    for name in ("A075464_min_presses_allones_nxn_upto20.txt",
                 "A075464_min_presses_allones_nxn_21to54.txt"):
        for line in (ROOT / "tests" / "data" / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                n, a = line.split()
                out[int(n)] = int(a)
    return out


def gray_walk(x: int, basis: list[int]) -> int:
    """The baseline: every solution visited by a Gray code, one xor and one popcount each."""
    best = x.bit_count()
    for i in range(1, 1 << len(basis)):
        x ^= basis[(i & -i).bit_length() - 1]
        w = x.bit_count()
        best = min(best, w)
    return best


def cpu(fn, *args, **kw):  # type: ignore[no-untyped-def]
    c = time.process_time()
    out = fn(*args, **kw)
    return time.process_time() - c, out


def fmt(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.1f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="lo", type=int, default=21)
    ap.add_argument("--to", dest="hi", type=int, default=54)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per board (wall)")
    ap.add_argument("--repeats", type=int, default=3, help="for boards proven in under 1 s")
    ap.add_argument("--gray", type=int, default=20, help="largest nullity timed for the baseline")
    ap.add_argument("--hopeless", type=int, default=36,
                    help="boards of larger nullity get --short seconds, for the bounds")
    ap.add_argument("--short", type=float, default=20.0)
    args = ap.parse_args()
    known = published()
    print(f"Python {sys.version.split()[0]}; time limit {args.limit:g} s per board")
    print()
    print("| n | nullity | fewest | published | proven | CPU | Gray walk | ratio |")
    print("| ---: | ---: | ---: | ---: | :---: | ---: | ---: | ---: |")
    for n in range(args.lo, args.hi + 1):
        shape = Shape(n, n)
        d = nullity(shape)
        limit = args.limit if d <= args.hopeless else args.short
        secs, f = cpu(fewest, shape, shape.full, time_limit=limit)
        assert f is not None and clears(shape, shape.full, f.bits)
        times = [secs]
        if secs < 1:
            times += [cpu(fewest, shape, shape.full, time_limit=limit)[0]
                      for _ in range(args.repeats - 1)]
        mine = statistics.median(times)
        pub = known.get(n)
        if pub is not None:
            assert f.lower_bound <= pub <= f.count, (n, f, pub)
            assert not f.exact or f.count == pub
        answer = str(f.count) if f.exact else f"{f.count} (>= {f.lower_bound})"
        base = ratio = "-"
        if 10 < d <= args.gray:  # below, both use the same Gray walk
            sol = solve(shape, shape.full)
            assert isinstance(sol.presses, int)
            bsecs, bw = cpu(gray_walk, sol.presses, quiet_patterns(shape))
            assert bw == f.count
            base, ratio = fmt(bsecs), f"{bsecs / max(mine, 1e-5):.1f}x"
        print(f"| {n} | {d} | {answer} | {pub if pub is not None else '-'} | "
              f"{'yes' if f.exact else 'no'} | {fmt(mine)} | {base} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
