"""`countlo practice`: Lights Out in the terminal under any grid rules, the lights visible, with hints."""

from __future__ import annotations

import argparse

from countlo.errors import BadSizeError, BoardFormatError, CountloError
from countlo.i18n import N_, _

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.board import Shape
    from countlo.visible.practice import Practice

MAX_SIDE = 18  # 18 columns of four characters fit 80 columns; 18 rows fit 24 lines with a prompt

EPILOG = N_("""\
The start is a seeded random board that can be turned all dark (drawn
uniformly, as `countlo generate` does), or the text grid in FILE. Click a cell
by name (C4, or '4 3') or with the mouse; 'hint' names one click of a
fewest-click way to finish from where you are; 'undo' takes a click back.
Boards up to {MAX_SIDE}x{MAX_SIDE}.
Other rules take the grid options of `countlo solve` (--topology, --rule,
--states K, --target lit, --to FILE): a click adds 1 mod K to the cells of the
rule, the game is won at the target, and with K > 2 presses count with
multiplicity (a hint names one press; a cell to press twice comes up in two
hints). Random starts are drawn as `countlo generate` draws them under the same
options.
Exit 0 (won or left), 1 when FILE's board cannot reach the target, 2 bad input.
""")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from countlo.cli.speech import keep_lines

    keep_lines(p, _(EPILOG).format(MAX_SIDE=MAX_SIDE))
    p.add_argument("file", nargs="?", metavar="FILE",
                   help=_("the start as a text grid (as `countlo solve` reads); default: random"))
    p.add_argument("--size", metavar="RxC", help=_("board size for a random start (default 5x5)"))
    p.add_argument("--seed", metavar="K", help=_("seed of the random start (default: chosen and "
                                                 "shown)"))
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"),
                   help=_("a random start of this difficulty (see countlo generate --help)"))
    p.add_argument("--plain", action="store_true",
                   help=_("plain lines instead of the clickable prompt (also when not a terminal)"))
    p.add_argument("--background", choices=("light", "dark"), type=str.lower, metavar="LIGHT|DARK", help=_(
        "the terminal's background, for readable colours (default: what COLORFGBG says, else dark)"))
    from countlo.cli.rules_args import add_board_arguments

    add_board_arguments(p, graph=False)


def run(args: argparse.Namespace) -> int:
    if args.file is not None and (args.seed is not None or args.difficulty is not None):
        raise CountloError(_("give FILE or --seed/--difficulty, not both"))
    if args.seed is not None:
        from countlo.tokens import whole_number

        whole_number(args.seed, "--seed")  # ASCII digits, bounded: the one check of every number
    return _play(*_game(args), args)


def _play(game: Practice, label: str, goal: str, args: argparse.Namespace) -> int:
    import sys

    from countlo.ui.practice import PracticeSession
    from countlo.ui.terminal import interactive, light_background, run_lines, wants_colour

    session = PracticeSession(game, label, goal=goal)
    if args.plain or not interactive(sys.stdin, sys.stdout):
        run_lines(session, sys.stdin, sys.stdout)
    else:
        from countlo.ui.clickable import run_clickable

        run_clickable(session, colour=wants_colour(sys.stdout),
                      light=light_background(getattr(args, "background", None)))
    return 0


class UnwinnableError(CountloError):
    """A start no clicks turn all dark (exit 1, like an unsolvable `solve`)."""

    exit_code = 1


def _fits(shape: Shape) -> None:
    if shape.rows > MAX_SIDE or shape.cols > MAX_SIDE:
        raise BadSizeError(_("practice boards are at most {n}x{n}; {shape} is larger").format(n=MAX_SIDE, shape=shape))


def _game(args: argparse.Namespace) -> tuple[Practice, str, str]:
    """(game, label, goal): the start from FILE or drawn as generate draws it
    (countlo.visible.generate), under the rule options (the classic game's when none is given)."""
    import random

    from countlo.board import Shape
    from countlo.cli.rules_args import board_and_target, board_given, start_values
    from countlo.visible.generate import generator
    from countlo.visible.practice import Practice, Unwinnable

    size = args.size
    if args.file is not None:
        from countlo.formats.text import read_input

        board = board_and_target(args, "1x1", with_target=False)[0]
        board, start = start_values(board, read_input(args.file), args.file, False)
        assert isinstance(board, Shape)  # practice takes no --graph
        if size is not None and Shape.parse(size) != Shape(board.rows, board.cols):
            raise BoardFormatError(_("{where} holds a {shape} board but --size says {size}").format(
                where=args.file, shape=f"{board.rows}x{board.cols}", size=size))
        target = board_and_target(args, f"{board.rows}x{board.cols}")[1]  # the target's size too
        label = args.file
    else:
        board, target = board_and_target(args, size or (None if args.to is not None else "5x5"))
    assert isinstance(board, Shape)
    _fits(board)
    goal = args.to if args.to is not None else args.target or "dark"
    dark = not board_given(args)  # the classic game's words
    if args.file is None:
        seed = int(args.seed) if args.seed is not None else random.SystemRandom().randrange(10**6)
        gen = generator(board, random.Random(seed), target)
        gen.check(difficulty=args.difficulty)
        start = list(gen.target)
        while start == gen.target:  # the target itself is solvable too, but no game
            g = gen.in_band(args.difficulty) if args.difficulty else gen.uniform()
            start = g.lights
        label = f"seed {seed}" + (f", {args.difficulty}" if args.difficulty else "")
    elif start == (target or [0] * board.cells):
        if dark:
            raise BoardFormatError(_("{file}: every light is already off").format(file=args.file))
        raise BoardFormatError(_("{file}: the start is already the target").format(file=args.file))
    try:
        game = Practice(board, start, target)
    except Unwinnable:
        if dark:
            raise UnwinnableError(_("{file}: this {shape} board can never be turned all dark (countlo solve "
                                    "{file} shows the proof)").format(file=args.file, shape=board)) from None
        raise UnwinnableError(_("{file}: this {shape} board can never reach the target under these rules "
                                "(countlo solve with the same options shows the proof)").format(
                                    file=args.file, shape=board)) from None
    return game, label, goal
