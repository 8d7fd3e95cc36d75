"""`countlo solve`: visible Lights Out on any board under any rules, one question per run (one
solution, all of them, the fewest presses, the classes up to symmetry, the most any start needs,
the quiet patterns); countlo.cli.solve_report prints the answer."""

from __future__ import annotations

import argparse
import sys

from countlo.cli.bigboard import GRID_LIMIT
from countlo.i18n import N_, _, ngettext

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from countlo.board import Shape
    from countlo.cli.solve_report import Pattern, Report
    from countlo.formats.image import Picture
    from countlo.formats.network import Network
    from countlo.graph import Board

ALL_LIMIT = 4096  # --all lists at most this many solutions unless --limit is given
QUIET_PANELS = 16  # --quiet --image draws at most this many basis patterns
MIN_TIME = 60.0  # --min stops after this many CPU seconds unless --time-limit says otherwise
FULL_LIMIT = 1 << 22  # --full prints boards of at most this many cells (2048x2048)
BITSET_LIMIT = 1 << 24  # --min and --all work on one bitset of the board: at most 4096x4096
MOST_TIME = 10.0  # --most searches this many CPU seconds for bounds beyond the exact cases
MOST_LIMIT = 1 << 20  # --most holds the quiet patterns as ints: up to n patterns of n^2 bits (1024x1024)
# how countlo.visible.algebra.covering_radius found its bounds, as the text output words them (JSON keeps its words)
METHODS = (N_("nullity 0: the only solution of the all-pressed start"), N_("nullity 1: closed form"),
           N_("nullity 2: class counts"),
           N_("sphere covering (lower), average solution and two-pattern subcode (upper)"),
           N_("local search (lower), average solution and two-pattern subcode (upper)"))


EPILOG = N_("""\
grid files: one line per row; lit 1 # * O, dark 0 . -; spaces between cells
optional. A line made only of those characters is a row (so '# . #' is a row);
any other line starting with '#' is a comment; blank lines are skipped.
--lit numbers cells 1..R*C in reading order: cell k is row (k-1)//C+1, column
(k-1)%C+1.
Boards above 64x64 print a summary; --full prints everything, --out saves the
press grid, --json lists presses as 1-based [row, column] pairs.
Exit 0 solved, 1 unsolvable, 2 bad input.
--min is proven unless stopped (--time-limit, default 60 CPU seconds, or
Ctrl-C): then it prints the best found and a proven lower bound ("exact": false
and "lower_bound" in JSON).
--most --size RxC: the most presses any solvable start of that size needs, and
such a start.

Other rules: --topology plane|cylinder|torus|moebius|klein|projective,
--rule plus|x|star|ring|knight|rowcol or a FILE drawing the rule (# changed,
. unchanged, O the centre changed, o the centre unchanged), --states K (2..255:
a click adds 1 mod K; grids then hold digits 0..K-1, or spaced numbers above
10), --graph FILE (one edge 'a b' per line, optional 'nodes: a b c' first; rule
sigma+ (node and neighbours, the default) or sigma (neighbours only); the start
is a list of node names, name=value for other states). With K > 2, presses
count with multiplicity: a cell pressed 3 times counts 3.
""")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from countlo.cli.options import integer
    from countlo.cli.speech import keep_lines

    keep_lines(p, _(EPILOG))
    start = p.add_argument_group(_("the start and the target"))
    start.add_argument("file", nargs="?", metavar="FILE|-",
                       help=_("the start as a text grid (1 # * O lit, 0 . - dark); '-' for stdin"))
    start.add_argument("--size", metavar="RxC", help=_("board size, e.g. 6x6 (needed by --lit, --all-on)"))
    start.add_argument("--all-on", action="store_true", help=_("start with every light on"))
    start.add_argument("--lit", metavar="LIST",
                       help=_("lit cells as A1 names or 1-based numbers in reading order, e.g. A1,B2 or 1,7,13"))
    start.add_argument("--to", metavar="FILE", help=_("target pattern (default all dark): presses "
                                                      "turning the start into it"))
    start.add_argument("--target", choices=("dark", "lit"),
                       help=_("target every cell dark (default) or lit (state 1)"))
    rules = p.add_argument_group(_("the rules"))
    rules.add_argument("--topology", default="plane", metavar="NAME",
                       help=_("plane (default), cylinder, torus, moebius, klein or projective"))
    rules.add_argument("--rule", metavar="NAME|FILE",
                       help=_("click rule: plus (default), x, star, ring, knight, rowcol, a FILE with "
                              "the rule drawn as a grid; sigma or sigma+ on a --graph"))
    rules.add_argument("--states", type=integer, default=2, metavar="K",  # range: Rules.make, as generate
                       help=_("light states 2..255 (a click adds 1 mod K; default 2)"))
    rules.add_argument("--graph", metavar="FILE", help=_("play on the graph in FILE instead of a grid"))
    from countlo.cli.rules_args import add_buttons_argument

    add_buttons_argument(rules)
    question = p.add_argument_group(_("the question (default: one solution)"))
    question.add_argument("--quiet", action="store_true",
                          help=_("list a basis of the quiet patterns (presses that change nothing)"))
    what = question.add_mutually_exclusive_group()
    what.add_argument("--all", action="store_true", help=_("list every solution"))
    what.add_argument("--min", action="store_true", help=_("a solution with the fewest presses"))
    what.add_argument("--most", action="store_true",
                      help=_("the most presses any solvable start of this size needs, and one such "
                             "start (needs only --size)"))
    what.add_argument("--classes", action="store_true",
                      help=_("solutions grouped up to the rotations/reflections fixing the start"))
    question.add_argument("--limit", type=_positive, metavar="N", help=_("with --all: list at most N"))
    question.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                          help=_("with --min (default {min:g}) or --most (default {most:g}): stop after "
                                 "this many CPU seconds (time the machine spends on other work does "
                                 "not count) with the best found and a proven bound").format(
                                     min=MIN_TIME, most=MOST_TIME))
    output = p.add_argument_group(_("the output"))
    output.add_argument("--full", action="store_true",
                        help=_("print grids and press lists even above {n}x{n}").format(n=GRID_LIMIT))
    output.add_argument("--out", metavar="FILE", help=_("write the press pattern as a 1/0 grid (with --most: the "
                                                        "start that needs the most presses)"))
    output.add_argument("--json", action="store_true", help=_("machine-readable output"))
    output.add_argument("--image", metavar="FILE.png|FILE.svg",
                        help=_("also draw the start, the presses (or the quiet pattern proving it "
                               "unsolvable) and a legend; with --quiet, the quiet patterns"))

def _positive(text: str) -> int:
    from countlo.cli.options import integer

    n = integer(text)
    if n < 1:
        raise argparse.ArgumentTypeError(_("expected a positive whole number, not {n}").format(n=n))
    return n


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(_("expected a positive number of seconds, not {text!r}").format(
            text=text))
    return value


def run(args: argparse.Namespace) -> int:
    from countlo.errors import CountloError

    sources = _sources(args)
    if len(sources) > 1:
        raise CountloError(_("give one start, not {sources}").format(sources=_(" and ").join(sources)))
    if args.limit is not None and not args.all:
        raise CountloError(_("--limit only applies with --all"))
    if args.time_limit is not None and not (args.min or args.most):
        raise CountloError(_("--time-limit only applies with --min or --most"))
    if args.to is not None and args.target is not None:
        raise CountloError(_("give one target, not --to and --target"))
    start_stdin = args.file == "-" or (args.file is None and args.lit is None and not args.all_on
                                        and not args.most)  # no start given: stdin is the start
    feeds = [start_stdin, args.to == "-", args.graph == "-", args.buttons == "-"]
    if feeds.count(True) > 1:  # the second would read nothing
        raise CountloError(_("standard input ('-') can feed only one of FILE, --to, --graph and --buttons"))
    if args.image is not None:
        from countlo.formats.image import check_path

        check_path(args.image)
    if args.out is not None:  # --image is checked above: a bad name for either leaves the other alone
        from countlo.formats.output import check

        check(args.out, "--out")
    from countlo.cli.rules_args import board_of

    board, kind = board_of(args)
    classic = kind == "grid" and _classic_rules(args)
    if args.most:
        if sources or args.to is not None or args.target == "lit":
            raise CountloError(_("--most is about every start of one board: give only --size RxC, "
                                 "--graph FILE or --buttons FILE"))
        if kind == "grid" and args.size is None:
            from countlo.errors import BadSizeError

            raise BadSizeError(_("--most needs --size RxC or --graph FILE"))
        _check_limits(board, args)
        return _most(board, args)
    text = None
    if args.file is not None or (args.lit is None and not args.all_on):
        _no_start(args)
        from countlo.formats.text import read_input

        text = read_input(args.file)  # once: stdin cannot be read twice
    if classic and not (text is not None and _holes(text)):
        from countlo.board import Shape

        assert isinstance(board, Shape)
        return _classic(board, args, text)
    return _rules(board, args, text)


def _holes(text: str) -> bool:
    """The start grid marks a cell that is not there (`x` in a row): the board is a grid with
    holes, solved as a press map (countlo.pressmap.holed)."""
    import re

    return re.search(r"^[\s01#*O.\-]*[xX][\s01#*O.\-xX]*$", text, re.M) is not None


def _sources(args: argparse.Namespace) -> list[str]:
    return [name for name, given in (("FILE", args.file is not None), ("--lit", args.lit is not None),
                                     ("--all-on", args.all_on)) if given]


def _no_start(args: argparse.Namespace) -> None:

    from countlo.errors import CountloError

    if args.file is None and sys.stdin.isatty():
        raise CountloError(_("no start given: pass FILE, '-' for stdin, --lit or --all-on"))


def _classic(shape: Shape, args: argparse.Namespace, text: str | None) -> int:
    """The classic rules: the board as bitset rows, solved by the polynomial chase at any size."""
    from countlo.board import Shape
    from countlo.errors import BadSizeError, BoardFormatError
    from countlo.formats import textgrid
    from countlo.formats.text import read_input
    from countlo.visible.engines.polynomial_chase import solve_rows

    size = shape if args.size is not None else None
    if size is not None:
        _check_limits(size, args)  # before any board is built
    if args.lit is not None or args.all_on:
        if size is None:
            raise BadSizeError(_("{option} needs --size RxC").format(
                option="--lit" if args.lit is not None else "--all-on"))
        rows = (textgrid.parse_lit(args.lit, shape) if args.lit is not None
                else [shape.row_mask] * shape.rows)
    else:
        assert text is not None
        where = "stdin" if args.file in (None, "-") else args.file
        found, rows = textgrid.parse_grid(text, where)
        if size is not None and size != Shape(found.rows, found.cols):
            raise BoardFormatError(_("{where} holds a {shape} board but --size says {size}").format(
                where=where, shape=found, size=size))
        shape = Shape(found.rows, found.cols, shape.rules)
        _check_limits(shape, args)
    start = rows
    target: list[int] | None = None
    if args.to is not None:
        tshape, target = textgrid.parse_grid(read_input(args.to), args.to)
        if (tshape.rows, tshape.cols) != (shape.rows, shape.cols):
            raise BoardFormatError(_("--to {file} holds a {target} board, the start is {shape}").format(
                file=args.to, target=tshape, shape=shape))
    elif args.target == "lit":
        target = [shape.row_mask] * shape.rows
    goal = rows if target is None else [a ^ b for a, b in zip(rows, target)]
    if args.image is not None:
        from countlo.formats.image import check_fits

        # refuse a picture that cannot be written before solving, not after
        panels = QUIET_PANELS if args.quiet else 2 + (target is not None)
        check_fits(shape, panels, args.image)
    from countlo.cli.solve_report import Report

    report = Report(shape, start, target, args)
    sol = solve_rows(shape, goal)
    orders = [2] * sol.nullity
    if not sol.solvable:
        assert sol.witness is not None
        report.unsolvable(orders, sol.witness)
        if args.image is not None:  # unsolvable: the proof is there
            from countlo.formats import figures

            _draw(figures.unsolvable(shape, start, sol.witness, target), args.image, args.json)
        return 1
    assert sol.presses is not None
    presses: Pattern = sol.presses
    exact, extra = _questions(report, shape, shape.from_rows(goal), None, f"2^{sol.nullity}",
                              1 << sol.nullity)
    if "presses" in extra:
        presses = extra.pop("presses")
    _answer(report, orders, presses, exact, extra)
    if args.image is not None:
        from countlo.formats import figures

        if args.quiet:
            from countlo.visible.engines.polynomial_chase import quiet_rows

            picture = figures.quiet(shape, quiet_rows(shape, QUIET_PANELS))
        else:
            picture = figures.solved(shape, start, list(presses), target, exact)
        _draw(picture, args.image, args.json)
    return 0


def _rules(board: Board, args: argparse.Namespace, text: str | None) -> int:
    """Any other rules or a graph: the board as values per cell (countlo.visible.solutions)."""
    from countlo.cli.rules_args import lit_values, start_values, target_of
    from countlo.cli.solve_report import Report
    from countlo.errors import BadSizeError
    from countlo.graph import Graph
    from countlo.pressmap import PressMap
    from countlo.visible import solutions

    sized = isinstance(board, Graph | PressMap) or args.size is not None
    if sized:
        _check_limits(board, args)
    if args.lit is not None or args.all_on:
        if not sized:
            raise BadSizeError(_("{option} needs --size RxC").format(
                option="--lit" if args.lit is not None else "--all-on"))
        start = lit_values(args.lit, board) if args.lit is not None else [1] * board.cells
    else:
        assert text is not None
        where = "stdin" if args.file in (None, "-") else args.file
        board, start = start_values(board, text, where, args.size is not None)
    _check_limits(board, args)
    target = target_of(board, args)
    drawn: Shape | Network | None = None
    spread: Callable[[Sequence[int]], list[int]] = list
    words: str | None = None
    if args.image is not None:
        from countlo.formats.figures import drawing
        from countlo.formats.image import check_fits

        drawn, spread, words = drawing(board)
        panels = QUIET_PANELS if args.quiet else 2 + (target is not None)
        check_fits(drawn, panels, args.image)  # refuse a picture that cannot be written before solving
    report = Report(board, start, target, args)
    sol = solutions.solve(board, start, target)
    if sol.presses is None:
        assert sol.witness is not None
        report.unsolvable(sol.orders, sol.witness)
        if args.image is not None:
            from countlo.formats import figures

            assert drawn is not None
            _draw(figures.unsolvable_states(drawn, spread(start), spread(sol.witness),
                                            None if target is None else spread(target), words),
                  args.image, args.json)
        return 1
    size = str(sol.solutions) if sol.solutions < 10 ** 12 else _("more than 10^12")
    exact, extra = _questions(report, board, start, target, size, sol.solutions)
    presses = extra.pop("presses", sol.presses)
    _answer(report, sol.orders, presses, exact, extra)
    if args.image is not None:
        from countlo.formats import figures

        assert drawn is not None
        if args.quiet:
            gens = solutions.quiet(board, QUIET_PANELS)
            picture = figures.quiet_states(drawn, [spread(q) for q, _o in gens], len(sol.orders), words)
        else:
            picture = figures.solved_states(drawn, spread(start), spread(list(presses)),
                                            None if target is None else spread(target), exact, words)
        _draw(picture, args.image, args.json)
    return 0


def _questions(report: Report, board: Board, start: Pattern | int, target: Pattern | None,
               size: str, solutions: int) -> tuple[bool | None, dict[str, Any]]:
    """(exact, extra) of --min, --all or --classes; extra["presses"] replaces the solution shown.
    Patterns come back in the report's form (bitset rows under the classic rules)."""
    from countlo.board import Shape, bits, values
    from countlo.errors import CountloError

    args = report.args
    extra: dict[str, Any] = {}

    def form(v: Pattern) -> Pattern:
        return board.to_rows(bits(v)) if report.rows and isinstance(board, Shape) else v

    if args.min:
        import time

        from countlo.cli.status import clear_status, status_line
        from countlo.visible.fewest import fewest

        limit = MIN_TIME if args.time_limit is None else args.time_limit
        began = time.process_time()  # CPU seconds, as the search counts its --time-limit
        found = fewest(board, start, target, time_limit=limit, progress=status_line(size))
        clear_status()
        assert found is not None
        extra["presses"] = form(found.presses)
        extra["lower_bound"] = found.lower_bound
        if found.stopped and not found.exact:
            extra["stopped"] = _("best found in {s} CPU seconds").format(s=f"{time.process_time() - began:.0f}")
        return found.exact, extra
    if args.all:
        if args.limit is None and solutions > ALL_LIMIT:
            many = f"{size} = {solutions}" if report.rows and solutions < 1 << 62 else size
            raise CountloError(_("the start has {n} solutions; pass --limit N to list N of them").format(
                n=many))
        if isinstance(start, int):
            from countlo.visible import bitsets

            assert isinstance(board, Shape)
            extra["all"] = [board.to_rows(x) for x in bitsets.all_solutions(board, start, args.limit)]
        else:
            from countlo.visible import solutions as answers

            extra["all"] = list(answers.all_solutions(board, start, target, args.limit))
    elif args.classes:
        from countlo.visible.classes import classes

        vector = values(start, board.cells) if isinstance(start, int) else start
        c = classes(board, vector, target)
        extra["classes"] = [(form(rep), n) for rep, n in c.classes]
        extra["group"], extra["order"] = c.symmetries, c.order
    return None, extra


def _answer(report: Report, orders: Sequence[int], presses: Pattern, exact: bool | None,
            extra: dict[str, Any]) -> None:
    if report.args.out:
        report.write(presses)  # per button on a press map
    report.solved(orders, presses, exact, extra)


def _draw(picture: Picture, path: str, quiet: bool) -> None:
    from countlo.formats import image, netimage
    from countlo.formats.network import Network

    (netimage.save if isinstance(picture.shape, Network) else image.save)(picture, path)
    if not quiet:  # JSON output stays one object
        print(_("picture: {path}").format(path=path))


def _classic_rules(args: argparse.Namespace) -> bool:
    return (args.topology.strip().lower() == "plane" and args.states == 2
            and (args.rule is None or args.rule.strip().lower() == "plus"))


def _most(board: Board, args: argparse.Namespace) -> int:
    """`--most`: the most presses any solvable start of this board needs (the covering radius
    of the quiet patterns, docs/MATH.md §17 and §23), and a start needing it."""
    from countlo.board import Shape, bits
    from countlo.cli.solve_report import Report, say
    from countlo.graph import Graph
    from countlo.pressmap import PressMap
    from countlo.ui.rulewords import method_words
    from countlo.visible import solutions
    from countlo.visible.hardest import hardest

    limit = MOST_TIME if args.time_limit is None else args.time_limit
    if args.image is not None:  # refuse a picture that cannot be written before the search
        from countlo.formats.figures import drawing
        from countlo.formats.image import check_fits

        check_fits(drawing(board)[0], 2, args.image)
    h = hardest(board, time_limit=limit)
    k = solutions.states(board)
    start: Pattern | None = None
    presses: Pattern | None = h.presses
    if h.presses is not None:
        start = [(-v) % k for v in solutions.apply(board, [0] * board.cells, h.presses)]  # per light
    if isinstance(board, Shape) and board.rules.classic and start is not None and presses is not None:
        start, presses = board.to_rows(bits(start)), board.to_rows(bits(presses))
    report = Report(board, start or [], None, args)
    if args.out and start is not None:
        report.write(start, lights=True)
    if args.json:
        report.emit(most=h.lower if h.exact else None, exact=h.exact, lower_bound=h.lower,
                    upper_bound=h.upper, method=h.method,
                    start=None if start is None or report.big else report.light_pairs(start),
                    presses=None if presses is None or report.big else report.pairs(presses),
                    count=None if presses is None else h.lower)
        return 0
    mult = _(" counted with multiplicity") if k > 2 else ""
    method = method_words(h.method)
    if h.exact:
        say(ngettext("{title}: the hardest solvable starts need {n} press{mult} (exact; {method}).",
                       "{title}: the hardest solvable starts need {n} presses{mult} (exact; {method}).",
                       h.lower).format(title=report.title(), n=h.lower, mult=mult, method=method))
    elif start is None:
        say(_("{title}: the hardest solvable starts need between {low} and {high} presses{mult} "
                "({method}); no start is shown: none had its fewest presses proven in time.").format(
                    title=report.title(), low=h.lower, high=h.upper, mult=mult, method=method))
    else:
        say(_("{title}: the hardest solvable starts need between {low} and {high} presses{mult} "
                "({method}); this start needs {low}:").format(
                    title=report.title(), low=h.lower, high=h.upper, mult=mult, method=method))
    if start is None or presses is None:
        if args.image is not None:
            say(_("no picture: there is no start to draw"))
        return 0
    if report.big:
        say(_("(board larger than {n}x{n}: pass --full to print it, or --out FILE to save the "
                "start)").format(n=GRID_LIMIT))
    else:
        report.grids([(_("start"), start, "#"), (_("fewest presses"), presses, "X")])
        if isinstance(board, Graph | PressMap):
            say(_("start: {cells}").format(cells=report.light_listing(start)))
        say(_("presses: {cells}").format(cells=report.listing(presses)))
    if args.image is not None:
        _draw_most(board, start, presses, h.exact, args)
    return 0


def _draw_most(board: Board, start: Pattern, presses: Pattern, exact: bool, args: argparse.Namespace) -> None:
    """--most --image: the start that needs the most presses and its fewest presses."""
    from countlo.board import Shape
    from countlo.formats import figures

    if isinstance(board, Shape) and board.rules.classic:  # bitset rows, as _classic draws them
        picture = figures.solved(board, start, list(presses), None, exact)
    else:
        drawn, spread, words = figures.drawing(board)
        picture = figures.solved_states(drawn, spread(start), spread(presses), None, exact, words)
    _draw(picture, args.image, args.json)


def _check_limits(board: Board, args: argparse.Namespace) -> None:
    """Refuse, in one line and before any work, a board too large for the question asked."""
    from countlo.board import Shape
    from countlo.errors import BadSizeError

    def side(cells: int) -> str:
        n = int(cells ** 0.5)
        if n * n == cells:
            return _("{cells} cells ({n}x{n})").format(cells=cells, n=n)
        return _("{cells} cells").format(cells=cells)

    if isinstance(board, Shape) and board.rules.classic:  # loads no more than the polynomial chase
        classes_limit = 0
        if args.classes:
            from countlo.visible.classes import CLASSIC_CELLS

            classes_limit = CLASSIC_CELLS
        if args.full and board.cells > FULL_LIMIT:
            raise BadSizeError(_("--full prints boards of at most {most}; {shape} has {cells}: leave out "
                                 "--full, or save the presses with --out FILE").format(
                                     most=side(FULL_LIMIT), shape=board, cells=board.cells))
        for flag, on, limit in (("--min", args.min, BITSET_LIMIT), ("--all", args.all, BITSET_LIMIT),
                                ("--classes", args.classes, classes_limit), ("--most", args.most, MOST_LIMIT)):
            if on and board.cells > limit:
                raise BadSizeError(_("{option} works on boards of at most {most}; {shape} has {cells}").format(
                    option=flag, most=side(limit), shape=board, cells=board.cells))
        return
    from countlo.visible import solutions

    # solve alone goes further on the torus with the plus rule (countlo.visible.engines.circulant_torus)
    # than the options that list quiet patterns or solutions
    solutions.check_size(board)
    if board.cells > solutions.MAX_CELLS:
        for flag, on in (("--min", args.min), ("--all", args.all), ("--classes", args.classes),
                         ("--quiet", args.quiet), ("--full", args.full), ("--most", args.most)):
            if on:
                raise BadSizeError(_("{option} works on boards of at most {most} cells under other rules; "
                                     "{board} has {cells}").format(option=flag, most=solutions.MAX_CELLS,
                                                                   board=board, cells=board.cells))
