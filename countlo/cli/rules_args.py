"""The board, rule and start options every command shares: --topology, --rule, --states, --graph,
--target, --to and --lit, turned into the Rules a Shape carries, a Board, and start and target
vectors."""

from __future__ import annotations

import argparse

from countlo.cli import options
from countlo.errors import BadRuleError
from countlo.i18n import _
from countlo.tokens import shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from typing import Any

    from countlo.board import Shape
    from countlo.countboard import CountBoard
    from countlo.graph import Board
    from countlo.pressmap import PressMap
    from countlo.rules import Rule, Rules


def add_rule_arguments(p: argparse.ArgumentParser, boards: bool = True) -> None:
    """The rule options of the hidden game, and with `boards` its other boards (--graph,
    --buttons, --holes; `replay` reads the board from the transcript's header)."""
    p.add_argument("--topology", metavar="NAME",
                   help=_("plane (default), cylinder, torus, moebius, klein or projective"))
    p.add_argument("--rule", metavar="NAME|FILE",
                   help=_("click rule: plus (default), x, star, ring, knight, rowcol, or a FILE "
                          "drawing it (# changed, . unchanged, O the centre changed, o the centre unchanged)")
                   + (_("; merlin: Merlin's Magic Square; sigma or sigma+ on a --graph") if boards else ""))
    p.add_argument("--states", type=options.integer, metavar="K",
                   help=_("light states; the hidden game needs 2 (the count model)"))
    p.add_argument("--target", choices=("dark", "lit"),
                   help=_("the game ends with every light out (dark, default) or on (lit)"))
    if not boards:
        return
    p.add_argument("--graph", metavar="FILE", help=_("play on a graph (one edge 'a b' a line, 'a -> b' one way) "
                                                     "instead of a grid; nodes are typed by name"))
    add_buttons_argument(p)
    p.add_argument("--holes", metavar="CELLS|FILE", help=_(
        "grid cells that are not there: A1 names (C1,A3) or a grid FILE where x marks a hole"))


def hidden_board(args: argparse.Namespace) -> CountBoard:
    """The board of the hidden game the options ask for: a grid (--size, default 6x6) under its
    rules, with --holes taken out, Merlin's square (--rule merlin), a --graph or a --buttons press
    map. One line (exit 2) for more than two states or buttons that are not the lights."""
    from countlo.board import Shape
    from countlo.countboard import count_board

    if args.states is not None and args.states != 2:
        rules_of(args)  # says why, in one line
    graph, buttons, holes = getattr(args, "graph", None), getattr(args, "buttons", None), getattr(args, "holes", None)
    target = args.target or "dark"
    if graph is not None or buttons is not None or is_preset(args.rule):
        if holes is not None:
            raise BadRuleError(_("--holes is for grids, not --graph, --buttons or --rule merlin"))
        board = board_of(argparse.Namespace(graph=graph, buttons=buttons, topology=args.topology or "plane",
                                            rule=args.rule, states=2, size=args.size))[0]
        return count_board(board, target, graph or buttons or "")
    shape = Shape.parse(args.size or "6x6").with_rules(rules_of(args))
    if holes is None:
        return shape
    return count_board(holed_grid(shape, holes, args.size is not None), target)


def holed_grid(shape: Shape, text: str, sized: bool = False) -> PressMap:
    """The grid `shape` without the cells --holes names (A1 names), or the grid of a FILE with x
    holes (which must be the size of `shape` when `sized`: --size was given)."""
    import os

    from countlo.board import Shape
    from countlo.errors import BadCellError
    from countlo.formats.states import parse_grid
    from countlo.formats.text import read_input
    from countlo.pressmap import holed

    if os.path.exists(text):
        holes: list[int] = []
        rows, cols, _values = parse_grid(read_input(text), 2, text, holes)
        if sized and (rows, cols) != (shape.rows, shape.cols):
            from countlo.errors import BoardFormatError

            raise BoardFormatError(_("{where} holds a {rows}x{cols} board, the board is {board}").format(
                where=text, rows=rows, cols=cols, board=shape))
        shape = Shape(rows, cols, shape.rules)
    else:
        holes = []
        for item in text.replace(",", " ").split():
            at = shape.parse_cell(item)
            if at in holes:
                raise BadCellError(_("--holes: {cell} is listed twice").format(cell=shape.name(at)))
            holes.append(at)
    return holed(shape, sorted(holes))


def given(args: argparse.Namespace) -> bool:
    """True if any rule option was given."""
    return any(getattr(args, k, None) is not None
               for k in ("topology", "rule", "states", "target", "graph", "buttons", "holes"))


def rules_of(args: argparse.Namespace) -> Rules:
    """The Rules the options ask for (the classic game where an option is left out)."""
    from countlo.rules import Rules

    if args.states is not None and args.states != 2:
        raise BadRuleError(_("--states {k}: the hidden game needs two states (a click changes the count "
                             "by |N| - 2 x the lit cells of N, which needs lights that are either on "
                             "or off); use 'countlo solve --states'").format(k=args.states))
    return Rules.make("plane" if args.topology is None else args.topology, rule_of(args.rule), 2,
                      args.target or "dark")


def add_buttons_argument(p: Any) -> None:
    """--buttons FILE, on a parser or an argument group."""
    p.add_argument("--buttons", metavar="FILE",
                   help=_("a press map instead of a grid: lines 'BUTTON: LIGHT LIGHT ...' (LIGHT*m adds m "
                          "with --states), or a 0/1 matrix, one row per button, one column per light"))


def add_board_arguments(p: argparse.ArgumentParser, graph: bool = True, buttons: bool = False) -> None:
    """The rule options of `solve`, for `generate` and `practice`: any topology, click rule and
    number of states, a graph (when `graph`), a press map (when `buttons`), and the target (all
    dark, all lit or a FILE)."""
    p.add_argument("--topology", metavar="NAME",
                   help=_("plane (default), cylinder, torus, moebius, klein or projective"))
    p.add_argument("--rule", metavar="NAME|FILE",
                   help=_("click rule: plus (default), x, star, ring, knight, rowcol, or a FILE drawing "
                          "it (# changed, . unchanged, O the centre changed, o the centre unchanged); "
                          "sigma or sigma+ on a --graph") if graph else
                   _("click rule: plus (default), x, star, ring, knight, rowcol, or a FILE "
                     "drawing it (# changed, . unchanged, O the centre changed, o the centre unchanged)"))
    p.add_argument("--states", metavar="K",
                   help=_("light states 2..255: a click adds 1 mod K to the cells of its rule "
                          "(default 2)"))
    if graph:
        p.add_argument("--graph", metavar="FILE",
                       help=_("a graph (one edge 'a b' a line) instead of a grid, as solve reads"))
    if buttons:
        add_buttons_argument(p)
    target = p.add_mutually_exclusive_group()
    target.add_argument("--target", choices=("dark", "lit"),
                        help=_("the goal: every light dark (default) or lit (state 1)"))
    target.add_argument("--to", metavar="FILE", help=_("the goal: the pattern in FILE (as solve "
                                                       "--to reads it)"))


def board_given(args: argparse.Namespace) -> bool:
    """True if any option of add_board_arguments was given."""
    return any(getattr(args, k, None) is not None
               for k in ("topology", "rule", "states", "graph", "buttons", "target", "to"))


def board_and_target(args: argparse.Namespace, size: str | None,
                     with_target: bool = True, press_maps: bool = False) -> tuple[Board, list[int] | None]:
    """(board, target values or None for all dark) the options ask for: a Shape of `size` (None:
    the size of the --to pattern) with its Rules, or the Graph of --graph. Raises CountloError
    (one line) on a bad option."""
    from countlo.board import Shape
    from countlo.errors import BadSizeError
    from countlo.formats.text import read_input

    states = 2
    if args.states is not None:
        from countlo.tokens import whole_number

        states = whole_number(args.states, "--states")  # ASCII digits, bounded; board_of checks the range
    graph = getattr(args, "graph", None)
    buttons = getattr(args, "buttons", None)
    if not press_maps and is_preset(args.rule):
        raise BadRuleError(_("rule {text!r} is a press map: use it with 'countlo solve' or 'countlo generate'").format(
            text=args.rule))
    if press_maps and (buttons is not None or is_preset(args.rule)):  # --buttons FILE, --rule merlin
        board = board_of(argparse.Namespace(graph=graph, buttons=buttons, topology=args.topology or "plane",
                                            rule=args.rule, states=states, size=size))[0]
        return board, target_of(board, args) if with_target else None
    if graph is None and size is None:
        if args.to is None:
            raise BadSizeError(_("a board size is needed (--size RxC)"))
        unsized = board_of(argparse.Namespace(graph=None, topology="plane" if args.topology is None else args.topology,
                                              rule=args.rule, states=states, size=None))[0]
        sized = start_values(unsized, read_input(args.to), args.to, False)[0]  # the size of the target
        assert isinstance(sized, Shape)
        size = f"{sized.rows}x{sized.cols}"
    topology = "plane" if args.topology is None else args.topology
    board = board_of(argparse.Namespace(graph=graph, topology=topology, rule=args.rule,
                                        states=states, size=None if graph is not None else size))[0]
    return board, target_of(board, args) if with_target else None


def target_of(board: Board, args: argparse.Namespace) -> list[int] | None:
    """The target --to FILE (read on `board`: its size, its holes) or --target lit give, None
    for all dark."""
    if args.to is not None:
        from countlo.formats.text import read_input

        return start_values(board, read_input(args.to), args.to, True)[1]
    if args.target == "lit":
        return [1] * board.cells
    return None


def rule_of(text: str | None) -> Rule:
    """A named rule, or the rule drawn in the file `text`."""
    import os

    from countlo.formats.text import read_input
    from countlo.rules import Rule
    if text is None:
        return Rule.named("plus")
    from countlo.graph import GRAPH_RULES  # not before: the classic path never loads the graphs

    key = text.strip().lower()
    if key in GRAPH_RULES:
        raise BadRuleError(_("rule {text!r} is for graphs: pass --graph FILE").format(text=text))
    if is_preset(key):
        raise BadRuleError(_("rule {text!r} is a press map: use it with 'countlo solve' or 'countlo generate'").format(
            text=text))
    try:
        return Rule.named(key)
    except BadRuleError:
        if not os.path.exists(text):
            raise
    return Rule.from_text(read_input(text), text)


def is_preset(rule: str | None) -> bool:
    """True for a named press map (--rule merlin)."""
    if rule is None:  # the classic path loads no press maps (start-up: bench/bench_startup.py)
        return False
    from countlo.pressmap import PRESETS

    return rule.strip().lower() in PRESETS


def board_of(args: argparse.Namespace) -> tuple[Board, str]:
    """The board (a Shape with its rules, a Graph or a PressMap) and where the start comes from."""
    from countlo.board import Shape
    from countlo.formats.text import read_input
    from countlo.rules import Rules
    if getattr(args, "buttons", None) is not None or is_preset(args.rule):
        return press_map_of(args), "press map"
    if args.graph is not None:
        from countlo.formats.states import parse_graph
        from countlo.graph import GRAPH_RULES

        if args.topology.strip().lower() != "plane":
            raise BadRuleError(_("{option} is for grids, not --graph").format(option="--topology"))
        if args.size is not None:
            raise BadRuleError(_("{option} is for grids, not --graph").format(option="--size"))
        rule = (args.rule or "sigma+").strip().lower()
        if rule not in GRAPH_RULES:
            raise BadRuleError(_("unknown graph rule {rule!r}: expected sigma (neighbours only) or sigma+ "
                                 "(neighbours and the node)").format(rule=args.rule))
        graph = parse_graph(read_input(args.graph), args.graph).with_rule(rule, args.states)
        return graph, "graph"
    rules = Rules.make(args.topology, rule_of(args.rule), args.states)
    size = Shape.parse(args.size) if args.size is not None else None
    return Shape(size.rows, size.cols, rules) if size else Shape(1, 1, rules), "grid"


def press_map_of(args: argparse.Namespace) -> Board:
    """The press map of --buttons FILE or a preset (--rule merlin), on the grid of --size if given."""
    from countlo.board import Shape
    from countlo.formats.text import read_input
    from countlo.pressmap import merlin
    from countlo.rules import MAX_STATES

    buttons = getattr(args, "buttons", None)
    if buttons is not None and getattr(args, "graph", None) is not None:
        raise BadRuleError(_("give one board: --buttons or --graph"))
    if buttons is not None and args.rule is not None:
        raise BadRuleError(_("--buttons FILE says what each button changes: leave out --rule"))
    if (args.topology or "plane").strip().lower() != "plane":
        raise BadRuleError(_("{option} is for grids, not press maps").format(option="--topology"))
    if isinstance(args.states, bool) or not 2 <= args.states <= MAX_STATES:
        raise BadRuleError(_("the number of states must be 2..{most}, not {n}").format(most=MAX_STATES, n=args.states))
    grid = Shape.parse(args.size) if args.size is not None else None
    if buttons is None:
        return merlin(*((3, 3) if grid is None else (grid.rows, grid.cols)), states=args.states)
    from countlo.formats.pressmaps import parse_press_map

    return parse_press_map(read_input(buttons), args.states, buttons, grid)


def start_values(board: Board, text: str, where: str, sized: bool) -> tuple[Board, list[int]]:
    from countlo.board import Shape
    from countlo.errors import BoardFormatError
    from countlo.formats.states import parse_graph_state, parse_grid
    from countlo.graph import Graph
    from countlo.pressmap import PressMap

    if isinstance(board, PressMap) and board.grid is not None:
        holes: list[int] = []
        rows, cols, values = parse_grid(text, board.states, where, holes if board.places is not None else None)
        if (rows, cols) != board.grid:
            raise BoardFormatError(_("{where} holds a {rows}x{cols} board, the board is {board}").format(
                where=where, rows=rows, cols=cols, board=board.shape))
        if board.places is not None:
            if tuple(holes) != board.holes:
                raise BoardFormatError(_("{where} has its holes (x) in other cells than the start").format(
                    where=where))
            return board, [values[p] for p in board.places]
        return board, values
    if isinstance(board, PressMap):
        return board, parse_graph_state(text, board, where, light=True)
    if isinstance(board, Graph):
        return board, parse_graph_state(text, board, where)
    holes = []
    rows, cols, values = parse_grid(text, board.rules.states, where, holes)
    if sized and (rows, cols) != (board.rows, board.cols):
        raise BoardFormatError(_("{where} holds a {rows}x{cols} board, the board is {board}").format(
            where=where, rows=rows, cols=cols, board=board))
    if holes:  # a grid with holes: the cells that are there, under the grid's rules
        from countlo.pressmap import holed

        holey = holed(Shape(rows, cols, board.rules), holes)
        assert holey.places is not None
        return holey, [values[p] for p in holey.places]
    return Shape(rows, cols, board.rules), values


def lit_values(text: str, board: Board) -> list[int]:
    """The start --lit names: A1 names or reading-order numbers on a grid, node names on a graph."""
    from countlo.errors import BoardFormatError
    from countlo.formats.textgrid import lit_items, parse_lit
    from countlo.graph import Graph
    from countlo.pressmap import PressMap

    out = [0] * board.cells
    if isinstance(board, PressMap) and board.shape is not None:
        board = board.shape
    if isinstance(board, Graph | PressMap):
        index = {n: i for i, n in enumerate(board.nodes)}
        for item in lit_items(text):
            if item not in index:
                if isinstance(board, PressMap):
                    raise BoardFormatError(_("--lit: unknown light {light}").format(light=shown(item)))
                raise BoardFormatError(_("--lit: unknown node {node!r}").format(node=item))
            if out[index[item]]:  # as on a grid (textgrid.parse_lit) and in a start file
                raise BoardFormatError(_("--lit item {item} is listed twice").format(item=item))
            out[index[item]] = 1
        return out
    for r, row in enumerate(parse_lit(text, board)):
        for c in range(board.cols):
            if row >> c & 1:
                out[r * board.cols + c] = 1
    return out
