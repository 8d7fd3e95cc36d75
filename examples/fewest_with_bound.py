"""The fewest presses for the all-on n x n board, with the proven lower bound when a time limit
stops the search first: `python examples/fewest_with_bound.py [n] [seconds]`."""

import sys

import countlo

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
f = countlo.fewest([[1] * n] * n, time_limit=seconds)
if f.exact:
    print(f"{n}x{n} all on: {f.count} presses, proven fewest")
else:
    print(f"{n}x{n} all on: {f.count} presses found; every solution needs at least {f.lower_bound}")
