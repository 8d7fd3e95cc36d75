"""`countlo practice`: Lights Out in the terminal under any grid rules, the lights visible, with hints."""

from __future__ import annotations

import argparse

from countlo.errors import BadSizeError, BoardFormatError, CountloError
from countlo.i18n import N_, _

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Callable

    from countlo.graph import Board
    from countlo.visible.practice import Practice

MAX_SIDE = 18  # 18 columns of four characters fit 80 columns; 18 rows fit 24 lines with a prompt
MAX_NODES = 18  # a graph is drawn a node a row

EPILOG = N_("""\
The start is a seeded random board that can be turned all dark (drawn
uniformly, as `countlo generate` does), or the text grid in FILE. Click a cell
by name (C4, or '4 3') or with the mouse; 'hint' names one click of a
fewest-click way to finish from where you are; 'undo' takes a click back and
'redo' clicks it again; 'solution' marks the fewest clicks on the board and
keeps them right as you click; 'restart' and 'new' begin again. Arrow keys
move a cursor and Space clicks it. An x in FILE is a hole (no cell there);
--graph FILE plays a graph, its nodes typed by name; --buttons FILE a press
map, its buttons typed by name and drawn below its lights; --rule merlin
Merlin's Magic Square.
Boards up to {MAX_SIDE}x{MAX_SIDE}; graphs and press maps up to {MAX_NODES}
rows (nodes, or lights and buttons).
Other rules take the grid options of `countlo solve` (--topology, --rule,
--states K, --target lit, --to FILE): a click adds 1 mod K to the cells of the
rule, the game is won at the target, and with K > 2 presses count with
multiplicity (a hint names one press; a cell to press twice comes up in two
hints; -C4, or Delete at the cursor, clicks backwards). Random starts are drawn
as `countlo generate` draws them under the same options.
Exit 0 (won or left), 1 when FILE's board cannot reach the target, 2 bad input.
""")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from countlo.cli.speech import keep_lines

    keep_lines(p, _(EPILOG).format(MAX_SIDE=MAX_SIDE, MAX_NODES=MAX_NODES))
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

    add_board_arguments(p, graph=True, buttons=True)


def run(args: argparse.Namespace) -> int:
    if args.file is not None and (args.seed is not None or args.difficulty is not None):
        raise CountloError(_("give FILE or --seed/--difficulty, not both"))
    if args.seed is not None:
        from countlo.tokens import whole_number

        whole_number(args.seed, "--seed")  # ASCII digits, bounded: the one check of every number
    game, label, goal, new_game = _game(args)
    return _play(game, label, goal, args, new_game)


def _play(game: Practice, label: str, goal: str, args: argparse.Namespace,
          new_game: Callable[[], tuple[Practice, str]] | None = None) -> int:
    import sys

    from countlo.ui.practice import PracticeSession
    from countlo.ui.terminal import interactive, light_background, run_lines, wants_colour

    session = PracticeSession(game, label, goal=goal, new_game=new_game)
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


def _fits(board: Board) -> None:
    """Refuse, in one line, a board too big to draw in a terminal."""
    from countlo.graph import grid_of
    from countlo.pressmap import PressMap

    shape = grid_of(board)
    if isinstance(board, PressMap) and board.buttons != board.lights:  # a row per light and per button
        if board.cells + board.presses > MAX_NODES:
            raise BadSizeError(_("practice press maps have at most {n} lights and buttons together; this one "
                                 "has {m}").format(n=MAX_NODES, m=board.cells + board.presses))
        return
    if shape is None:
        if board.cells > MAX_NODES:
            raise BadSizeError(_("practice graphs have at most {n} nodes; this one has {m}").format(
                n=MAX_NODES, m=board.cells))
        return
    if shape.rows > MAX_SIDE or shape.cols > MAX_SIDE:
        raise BadSizeError(_("practice boards are at most {n}x{n}; {shape} is larger").format(n=MAX_SIDE, shape=shape))


def _game(args: argparse.Namespace) -> tuple[Practice, str, str, Callable[[], tuple[Practice, str]] | None]:
    """(game, label, goal, new game): the start from FILE or drawn as generate draws it
    (countlo.visible.generate), on a grid under the rule options (the classic game's when none is
    given), a grid with holes (an x in FILE), a graph (--graph) or Merlin's square (--rule merlin)."""
    import random

    from countlo.board import Shape
    from countlo.cli.rules_args import board_and_target, board_given, start_values, target_of
    from countlo.graph import grid_of
    from countlo.visible.generate import generator
    from countlo.visible.practice import Practice, Unwinnable

    size = args.size
    if args.file is not None:
        from countlo.cli.rules_args import is_preset
        from countlo.formats.text import read_input

        # a graph, a press map, Merlin's square: their own size
        sized = args.graph is not None or args.buttons is not None or is_preset(args.rule)
        board = board_and_target(args, None if sized else "1x1", with_target=False, press_maps=True)[0]
        board, start = start_values(board, read_input(args.file), args.file, False)
        drawn = grid_of(board)
        if size is not None and drawn is not None and Shape.parse(size) != Shape(drawn.rows, drawn.cols):
            raise BoardFormatError(_("{where} holds a {shape} board but --size says {size}").format(
                where=args.file, shape=f"{drawn.rows}x{drawn.cols}", size=size))
        target = target_of(board, args)
        label = args.file
    else:
        from countlo.cli.rules_args import is_preset

        own = args.to is not None or args.buttons is not None or is_preset(args.rule)  # sized by itself
        board, target = board_and_target(args, size or (None if own else "5x5"), press_maps=True)
    _fits(board)
    goal = args.to if args.to is not None else args.target or "dark"
    dark = not board_given(args)  # the classic game's words
    new_game = None
    if args.file is None:
        def draw(seed: int) -> tuple[Practice, str]:
            gen = generator(board, random.Random(seed), target)
            gen.check(difficulty=args.difficulty)
            start = list(gen.target)
            while start == gen.target:  # the target itself is solvable too, but no game
                g = gen.in_band(args.difficulty) if args.difficulty else gen.uniform()
                start = g.lights
            return Practice(board, start, target), f"seed {seed}" + (
                f", {args.difficulty}" if args.difficulty else "")

        seed = int(args.seed) if args.seed is not None else random.SystemRandom().randrange(10**6)
        game, label = draw(seed)
        rng = random.Random(seed)
        new_game = lambda: draw(rng.randrange(10**6))
        return game, label, goal, new_game
    if start == (target or [0] * board.cells):
        if dark:
            raise BoardFormatError(_("{file}: every light is already off").format(file=args.file))
        raise BoardFormatError(_("{file}: the start is already the target").format(file=args.file))
    try:
        game = Practice(board, start, target)
    except Unwinnable:
        if dark:
            raise UnwinnableError(_("{file}: this {shape} board can never be turned all dark (countlo solve "
                                    "{file} shows the proof)").format(file=args.file, shape=board)) from None
        if grid_of(board) is None:
            raise UnwinnableError(_("{file}: this start on the {board} can never reach the target (countlo "
                                    "solve with the same options shows the proof)").format(
                                        file=args.file, board=board)) from None
        raise UnwinnableError(_("{file}: this {shape} board can never reach the target under these rules "
                                "(countlo solve with the same options shows the proof)").format(
                                    file=args.file, shape=board)) from None
    return game, label, goal, new_game
