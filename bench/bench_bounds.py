"""Benchmark: how close the lower bound of a stopped `--min` gets to the known minimum.

Run from the repository root:  python bench/bench_bounds.py [--sizes 39,47,64] [--limits 1,5]
For each all-on n x n board and each time limit (seconds of wall time), countlo.visible.fewest
.fewest runs until the limit, and the table gives the best found, the proven lower bound, the
minimum (published A075464 where tests/data holds it, else proven by an unlimited run when
--prove is given) and the bound as a share of the minimum. The last column is the counting bound
(lit cells over five, docs/MATH.md §24) for comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_minpress import published

from countlo.board import Shape
from countlo.visible.engines.polynomial_chase import nullity
from countlo.visible.fewest import fewest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="39,47")
    ap.add_argument("--limits", default="1,5")
    ap.add_argument("--prove", action="store_true", help="prove unpublished minima first")
    args = ap.parse_args()
    known = published()
    print(f"Python {sys.version.split()[0]}")
    print()
    print("| n | nullity | limit | best found | lower bound | minimum | bound / minimum | "
          "n^2 / 5 | CPU |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in (int(v) for v in args.sizes.split(",")):
        shape = Shape(n, n)
        full = (1 << shape.cells) - 1
        minimum = known.get(n)
        if minimum is None and args.prove:
            found = fewest(shape, full)
            assert found is not None and found.exact
            minimum = found.count
        for limit in (float(v) for v in args.limits.split(",")):
            c = time.process_time()
            found = fewest(shape, full, time_limit=limit)
            spent = time.process_time() - c
            assert found is not None
            if minimum is not None:
                assert found.lower_bound <= minimum <= found.count
            share = "-" if minimum is None else f"{found.lower_bound / minimum:.0%}"
            print(f"| {n} | {nullity(shape)} | {limit:g} s | {found.count} | {found.lower_bound} | "
                  f"{minimum if minimum is not None else '-'} | {share} | "
                  f"{-(-shape.cells // 5)} | {spent:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
