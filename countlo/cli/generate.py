"""`countlo generate`: random solvable boards, uniform, or with a given fewest-press count or
difficulty, as text grids `countlo solve` reads (or JSON lines)."""

from __future__ import annotations

import argparse

from countlo.cli import options
from countlo.i18n import N_, _, ngettext

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `generate --help` loads
if TYPE_CHECKING:  # neither typing nor json (bench/bench_startup.py)
    from collections.abc import Callable
    from typing import Any, TypeVar

    from countlo.graph import Board
    from countlo.visible.generate import Generated

    T = TypeVar("T")

EPILOG = N_("""\
Boards are drawn uniformly from the solvable ones: a uniformly random set of
presses, pushed through the click rule, lights a uniformly random solvable
board (random press *sequences* would favour boards needing few presses).
--presses N: uniform among the boards whose fewest-press count is exactly N.
--difficulty, by the fewest-press count of a board of R x C cells:
  easy    1 to max(1, round(0.15 RC))          (5x5: 1-4, 6x6: 1-5, 7x7: 1-7)
  medium  up to max(easy + 1, round(0.30 RC))  (5x5: 5-8, 6x6: 6-11, 7x7: 8-15)
  hard    above                                (5x5: 9+, 6x6: 12+, 7x7: 16+)
easy and medium draw the count uniformly in the band, then a board with that
count; hard is a uniform solvable board whose count is in the band. Without
--seed a seed is chosen and printed.

Other rules take the options of `countlo solve` (--topology, --rule,
--states K, --graph FILE, --target lit, --to FILE): a uniformly random press
vector (each cell pressed 0..K-1 times) pushed through the rule's click map,
mod K, from the target, gives a board uniform over those that can reach it;
`countlo solve` with the same options reads the output back. With K > 2
presses count with multiplicity (a cell pressed twice counts 2), for --presses
and for the bands, which then use M = (K-1) R C in place of R C.
Exit 0, 1 when no board fits (e.g. --presses beyond what the size ever needs),
2 bad input.
""")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from countlo.cli.speech import keep_lines

    keep_lines(p, _(EPILOG))
    from countlo.cli.rules_args import add_board_arguments

    p.add_argument("--size", metavar="RxC", help=_("board size (default 5x5)"))
    p.add_argument("--count", type=_count, default=1, metavar="N",
                   help=_("how many boards (default 1)"))
    p.add_argument("--seed", type=_seed, metavar="K", help=_("random seed, for the same boards again"))
    how = p.add_mutually_exclusive_group()
    how.add_argument("--presses", type=_count, metavar="N",
                     help=_("boards whose fewest-press count is exactly N"))
    how.add_argument("--difficulty", choices=("easy", "medium", "hard"),
                     help=_("boards whose fewest-press count is in the band (below)"))
    p.add_argument("--json", action="store_true",
                   help=_("one JSON object a line: rows, cols, seed, index, lights (0/1 grid), "
                          "fewest, presses (1-based [row, col] of one fewest-press solution; under "
                          "other rules [row, col, times], with topology, rule, states)"))
    add_board_arguments(p, buttons=True)


def _count(text: str) -> int:
    return options.bounded(1, 1_000_000)(text)


def _seed(text: str) -> int:
    return options.bounded(0, options.LARGEST)(text)  # ASCII digits: not '²' or '٣'


def run(args: argparse.Namespace) -> int:
    import json
    import random
    import sys

    from countlo.board import Shape
    from countlo.cli.rules_args import board_and_target, board_given, is_preset
    from countlo.graph import Graph
    from countlo.pressmap import PressMap
    from countlo.visible.generate import generator

    if getattr(args, "graph", None) is not None and args.size is not None:
        from countlo.errors import BadRuleError

        raise BadRuleError(_("{option} is for grids, not --graph").format(option="--size"))
    if board_given(args):
        size = args.size or (None if args.to is not None else "5x5")  # --to alone: its size
        if getattr(args, "buttons", None) is not None or is_preset(args.rule):
            size = args.size  # a press map has its own lights (on a grid only with --size)
        board, target = board_and_target(args, size, press_maps=True)
    else:
        board, target = Shape.parse(args.size or "5x5"), None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    gen = generator(board, random.Random(seed), target)
    gen.check(args.presses, args.difficulty)
    draw, what = _draw(args, gen.exactly, gen.in_band, gen.uniform)
    k = board.rules.states if isinstance(board, Shape) else board.states
    if k > 2:
        what += _("; presses counted with multiplicity")
    if not args.json:
        print(_("# countlo generate: {boards}, {what}, seed {seed}").format(
            boards=_boards(board, args), what=what, seed=seed))
    for i in range(1, args.count + 1):
        g = draw()
        if args.json:
            print(json.dumps(_json(board, g, seed, i)))
            continue
        print(("" if i == 1 else "\n") + _board_line(i, g.fewest))
        if isinstance(board, PressMap) and board.shape is not None:
            from countlo.formats.states import format_grid

            print(format_grid(board.shape, g.lights), end="")
        elif isinstance(board, Graph | PressMap):
            print(" ".join(n if v == 1 else f"{n}={v}"
                           for n, v in zip(board.nodes, g.lights) if v) or _("# (all 0)"))
        elif k == 2:
            from countlo.formats.textgrid import format_rows

            sys.stdout.write(format_rows(board.to_rows(g.bits), board.cols, "#", "."))
        else:
            from countlo.formats.states import format_grid

            print(format_grid(board, g.lights), end="")
    return 0


def _boards(board: Board, args: argparse.Namespace) -> str:
    """'2 5x5 boards', with the rules and the target when they are not the classic game's."""
    from countlo.board import Shape
    from countlo.pressmap import PressMap
    from countlo.ui.rulewords import graph_text, press_map_text, rules_text

    n = args.count
    if isinstance(board, Shape):
        if board.rules.classic and args.to is None and args.target != "lit":
            return ngettext("{n} {shape} board", "{n} {shape} boards", n).format(n=n, shape=board)
        rules = rules_text(board.rules)
        if args.to is not None:
            rules += _(", ") + _("target {target}").format(target=args.to)
        return ngettext("{n} {shape} board ({rules})", "{n} {shape} boards ({rules})", n).format(
            n=n, shape=board, rules=rules)
    if isinstance(board, PressMap):
        on = press_map_text(board)
        if args.target == "lit" or args.to is not None:
            on += _(", ") + _("target {target}").format(target=args.to or "lit")
        return ngettext("{n} board ({map})", "{n} boards ({map})", n).format(n=n, map=on)
    on = graph_text(board)
    if args.target == "lit" or args.to is not None:
        on += _(", ") + _("target {target}").format(target=args.to or "lit")
    return ngettext("{n} board on the {graph}", "{n} boards on the {graph}", n).format(n=n, graph=on)


def _board_line(i: int, fewest: int | None) -> str:
    """The comment line heading board i: '# board 2: fewest presses 5' (or '# board 2')."""
    if fewest is None:
        return _("# board {i}").format(i=i)
    return _("# board {i}: fewest presses {n}").format(i=i, n=fewest)


def _json(board: Board, g: Generated, seed: int, index: int) -> dict[str, Any]:
    """One board as JSON, in the shape every command's --json shares (docs/json.md)."""
    from countlo.board import Shape
    from countlo.formats.jsonshape import board_head, press_map, press_pairs

    pm = press_map(board)
    lights: list[Any] = list(g.lights)
    if pm is not None and pm.grid is not None:  # a press map on a grid: its lights as rows
        c = pm.grid[1]
        cells = pm.expand(g.lights)
        lights = [cells[r * c:(r + 1) * c] for r in range(pm.grid[0])]
    elif isinstance(board, Shape):
        c = board.cols
        lights = [g.lights[r * c:(r + 1) * c] for r in range(board.rows)]
    presses = None if g.presses is None else press_pairs(board, g.presses)
    return {**board_head(board), "seed": seed, "index": index, "lights": lights, "fewest": g.fewest,
            "presses": presses}


def _draw(args: argparse.Namespace, exactly: Callable[[int], T], in_band: Callable[[str], T],
          uniform: Callable[[], T]) -> tuple[Callable[[], T], str]:
    """The draw the options ask for (--presses, --difficulty, else uniform) and its words."""
    if args.presses is not None:
        presses: int = args.presses
        return (lambda: exactly(presses)), _("fewest presses {n}").format(n=presses)
    if args.difficulty is not None:
        difficulty: str = args.difficulty
        return (lambda: in_band(difficulty)), difficulty
    return uniform, _("uniform over the solvable boards")
