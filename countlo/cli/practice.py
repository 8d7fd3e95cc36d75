"""`countlo practice`: classic Lights Out in the terminal, the lights visible, with hints."""

from __future__ import annotations

import argparse

from countlo.errors import CountloError

MAX_SIDE = 18  # 18 columns of four characters fit 80 columns; 18 rows fit 24 lines with a prompt

EPILOG = f"""\
The start is a seeded random board that can be turned all dark (drawn uniformly, as
`countlo generate` does), or the text grid in FILE. Click a cell by name (C4, or '4 3') or with
the mouse; 'hint' names one click of a fewest-click way to finish from where you are; 'undo'
takes a click back. Boards up to {MAX_SIDE}x{MAX_SIDE}.
Exit 0 (won or left), 1 when FILE's board cannot be turned all dark, 2 bad input.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the start as a text grid (as `countlo solve` reads); default: random")
    p.add_argument("--size", metavar="RxC", help="board size for a random start (default 5x5)")
    p.add_argument("--seed", metavar="K", help="seed of the random start (default: chosen and "
                   "shown)")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"),
                   help="a random start of this difficulty (see countlo generate --help)")
    p.add_argument("--plain", action="store_true",
                   help="plain lines instead of the clickable prompt (also when not a terminal)")


def run(args: argparse.Namespace) -> int:
    import random
    import sys

    from countlo.board import Shape
    from countlo.classic.practice import Practice, Unwinnable
    from countlo.errors import BadSizeError, BoardFormatError
    from countlo.ui.practice import PracticeSession

    if args.file is not None and (args.seed is not None or args.difficulty is not None):
        raise CountloError("give FILE or --seed/--difficulty, not both")
    if args.seed is not None and not args.seed.isdigit():
        raise CountloError(f"--seed must be a whole number, not {args.seed!r}")
    if args.file is not None:
        from countlo.formats.textgrid import parse_grid

        try:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise BoardFormatError(f"cannot read {args.file}: "
                                   f"{getattr(e, 'strerror', None) or e}") from None
        shape, rows = parse_grid(text, args.file)
        if args.size is not None and Shape.parse(args.size) != shape:
            raise BoardFormatError(f"{args.file} holds a {shape} board but --size says "
                                   f"{args.size}")
        _fits(shape, BadSizeError)
        start, label = shape.from_rows(rows), args.file
        if not start:
            raise BoardFormatError(f"{args.file}: every light is already off")
    else:
        from countlo.classic.generate import Generator

        shape = Shape.parse(args.size or "5x5")
        _fits(shape, BadSizeError)
        seed = int(args.seed) if args.seed is not None else random.SystemRandom().randrange(10**6)
        gen = Generator(shape, random.Random(seed))
        gen.check(difficulty=args.difficulty)
        start = 0
        while not start:  # the all-dark board is solvable too, but no game
            g = gen.in_band(args.difficulty) if args.difficulty else gen.uniform()
            start = shape.from_rows(g.lights)
        label = f"seed {seed}" + (f", {args.difficulty}" if args.difficulty else "")
    try:
        game = Practice(shape, start)
    except Unwinnable:
        raise UnwinnableError(f"{args.file}: this {shape} board can never be turned all dark "
                          f"(countlo solve {args.file} shows the proof)") from None
    from countlo.ui.terminal import interactive, run_lines, wants_colour

    session = PracticeSession(game, label)
    if args.plain or not interactive(sys.stdin, sys.stdout):
        run_lines(session, sys.stdin, sys.stdout)  # type: ignore[arg-type]
    else:
        from countlo.ui.clickable import run_clickable

        run_clickable(session, colour=wants_colour(sys.stdout))
    return 0


class UnwinnableError(CountloError):
    """A start no clicks turn all dark (exit 1, like an unsolvable `solve`)."""

    exit_code = 1


def _fits(shape, error) -> None:
    if shape.rows > MAX_SIDE or shape.cols > MAX_SIDE:
        raise error(f"practice boards are at most {MAX_SIDE}x{MAX_SIDE}; {shape} is larger")
