"""`countlo generate`: random solvable boards, uniform, or with a given fewest-press count or
difficulty, as text grids `countlo solve` reads (or JSON lines)."""

from __future__ import annotations

import argparse
import json

EPILOG = """\
Boards are drawn uniformly from the solvable ones: a uniformly random set of presses, pushed
through the click rule, lights a uniformly random solvable board (random press *sequences*
would favour boards needing few presses).
--presses N: uniform among the boards whose fewest-press count is exactly N.
--difficulty, by the fewest-press count of a board of R x C cells:
  easy    1 to max(1, round(0.15 RC))             (5x5: 1-4, 6x6: 1-5, 7x7: 1-7)
  medium  up to max(easy + 1, round(0.30 RC))     (5x5: 5-8, 6x6: 6-11, 7x7: 8-15)
  hard    above                                    (5x5: 9+, 6x6: 12+, 7x7: 16+)
easy and medium draw the count uniformly in the band, then a board with that count; hard is a
uniform solvable board whose count is in the band. Without --seed a seed is chosen and printed.
Exit 0, 1 when no board fits (e.g. --presses beyond what the size ever needs), 2 bad input.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("--size", metavar="RxC", default="5x5", help="board size (default 5x5)")
    p.add_argument("--count", type=_count, default=1, metavar="N",
                   help="how many boards (default 1)")
    p.add_argument("--seed", type=_seed, metavar="K", help="random seed, for the same boards again")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--presses", type=_count, metavar="N",
                     help="boards whose fewest-press count is exactly N")
    how.add_argument("--difficulty", choices=("easy", "medium", "hard"),
                     help="boards whose fewest-press count is in the band (below)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object a line: rows, cols, seed, index, lights (0/1 grid), "
                   "fewest, presses (1-based [row, col] of one fewest-press solution)")


def _count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1_000_000:
        raise argparse.ArgumentTypeError(f"expected a whole number 1..1000000, not {text!r}")
    return int(text)


def _seed(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    import random
    import sys

    from countlo.board import Shape
    from countlo.classic.generate import Generator
    from countlo.formats.textgrid import cell_pairs, format_rows

    shape = Shape.parse(args.size)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    gen = Generator(shape, random.Random(seed))
    gen.check(args.presses, args.difficulty)
    if args.presses is not None:
        draw, what = (lambda: gen.exactly(args.presses)), f"fewest presses {args.presses}"
    elif args.difficulty is not None:
        draw, what = (lambda: gen.in_band(args.difficulty)), args.difficulty
    else:
        draw, what = gen.uniform, "uniform over the solvable boards"
    if not args.json:
        print(f"# countlo generate: {args.count} {shape} board{'s' * (args.count != 1)}, {what}, "
              f"seed {seed}")
    for i in range(1, args.count + 1):
        g = draw()
        if args.json:
            print(json.dumps({
                "rows": shape.rows, "cols": shape.cols, "seed": seed, "index": i,
                "lights": [[r >> c & 1 for c in range(shape.cols)] for r in g.lights],
                "fewest": g.fewest,
                "presses": None if g.presses is None else cell_pairs(g.presses)}))
        else:
            fewest = "" if g.fewest is None else f": fewest presses {g.fewest}"
            sep = "\n" if i > 1 else ""
            print(f"{sep}# board {i}{fewest}")
            sys.stdout.write(format_rows(g.lights, shape.cols, "#", "."))
    return 0
