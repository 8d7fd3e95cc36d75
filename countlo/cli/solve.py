"""`countlo solve`: classic Lights Out on a visible board of any size."""

from __future__ import annotations

import argparse
import sys
import time

from countlo.cli.bigboard import GRID_LIMIT, big_board_note
from countlo.i18n import N_, _, ngettext

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.board import Shape

ALL_LIMIT = 4096  # --all lists at most this many solutions unless --limit is given
QUIET_PANELS = 16  # --quiet --image draws at most this many basis patterns
MIN_TIME = 60.0  # --min stops after this many seconds unless --time-limit says otherwise
FULL_LIMIT = 1 << 22  # --full prints boards of at most this many cells (2048x2048)
BITSET_LIMIT = 1 << 24  # --min and --all work on one bitset of the board: at most 4096x4096
MOST_TIME = 10.0  # --most searches this long for bounds beyond the exact cases
MOST_LIMIT = 1 << 20  # --most holds the quiet patterns as ints: up to n patterns of n^2 bits (1024x1024)
# how countlo.visible.algebra.covering_radius found its bounds, as the text output words them (JSON keeps its words)
METHODS = (N_("nullity 0: the only solution of the all-pressed start"), N_("nullity 1: closed form"),
           N_("nullity 2: class counts"),
           N_("sphere covering (lower), average solution and two-pattern subcode (upper)"),
           N_("local search (lower), average solution and two-pattern subcode (upper)"))


# the symmetries' names as the text output shows them (JSON keeps countlo.board's own names)
SYMMETRIES = {"identity": N_("identity"), "rotate 90": N_("rotate 90"), "rotate 180": N_("rotate 180"),
              "rotate 270": N_("rotate 270"), "mirror left-right": N_("mirror left-right"),
              "mirror top-bottom": N_("mirror top-bottom"), "transpose": N_("transpose"),
              "anti-transpose": N_("anti-transpose")}


EPILOG = N_("""\
grid files: one line per row; lit 1 # * O, dark 0 . -; spaces between cells
optional. A line made only of those characters is a row (so '# . #' is a row);
any other line starting with '#' is a comment; blank lines are skipped.
--lit numbers cells 1..R*C in reading order: cell k is row (k-1)//C+1, column
(k-1)%C+1.
Boards above 64x64 print a summary; --full prints everything, --out saves the
press grid, --json lists presses as 1-based [row, column] pairs.
Exit 0 solved, 1 unsolvable, 2 bad input.
--min is proven unless stopped (--time-limit, default 60 s, or Ctrl-C): then it
prints the best found and a proven lower bound ("exact": false and
"lower_bound" in JSON).
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
                                 "this long with the best found and a proven bound").format(
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
    from countlo.board import Shape
    from countlo.errors import BadSizeError, BoardFormatError, CountloError
    from countlo.formats import textgrid
    from countlo.formats.text import read_input
    from countlo.visible.engines.polynomial_chase import solve_rows

    sources = [name for name, given in (("FILE", args.file is not None),
                                        ("--lit", args.lit is not None),
                                        ("--all-on", args.all_on)) if given]
    if len(sources) > 1:
        raise CountloError(_("give one start, not {sources}").format(sources=_(" and ").join(sources)))
    if args.limit is not None and not args.all:
        raise CountloError(_("--limit only applies with --all"))
    if args.time_limit is not None and not (args.min or args.most):
        raise CountloError(_("--time-limit only applies with --min or --most"))
    if args.to is not None and args.target is not None:
        raise CountloError(_("give one target, not --to and --target"))
    start_stdin = args.file == "-" or (args.file is None and args.lit is None and not args.all_on
                                        and not args.most)  # no start given: the classic path reads stdin
    if [start_stdin, args.to == "-", args.graph == "-"].count(True) > 1:  # the second would read nothing
        raise CountloError(_("standard input ('-') can feed only one of FILE, --to and --graph"))
    if args.image is not None:
        from countlo.formats.image import check_path

        check_path(args.image)
    if args.out is not None:  # --image is checked above: a bad name for either leaves the other alone
        from countlo.formats.output import check

        check(args.out, "--out")
    if args.graph is not None or not _classic_rules(args):
        from countlo.cli import solve_rules

        if args.image is not None:
            solve_rules.board_of(args)  # a bad rule option (--states 300) is the more basic error
            raise CountloError(_("--image draws boards under the classic rules only"))
        return solve_rules.run(args)
    size = Shape.parse(args.size) if args.size is not None else None
    if size is not None:
        _check_limits(size, args)  # before any board is built
    if args.most:
        if sources or args.to is not None or args.target == "lit":
            raise CountloError(_("--most is about every start of one size: give only --size RxC"))
        if size is None:
            raise BadSizeError(_("{option} needs --size RxC").format(option="--most"))
        return _most(size, args)

    if args.lit is not None or args.all_on:
        if size is None:
            raise BadSizeError(_("{option} needs --size RxC").format(
                option="--lit" if args.lit is not None else "--all-on"))
        shape = size
        rows = (textgrid.parse_lit(args.lit, shape) if args.lit is not None
                else [shape.row_mask] * shape.rows)
        where = "--lit" if args.lit is not None else "--all-on"
    else:
        if args.file is None and sys.stdin.isatty():
            raise CountloError(_("no start given: pass FILE, '-' for stdin, --lit or --all-on"))
        where = "stdin" if args.file in (None, "-") else args.file
        shape, rows = textgrid.parse_grid(read_input(args.file), where)
        if size is not None and size != shape:
            raise BoardFormatError(_("{where} holds a {shape} board but --size says {size}").format(
                where=where, shape=shape, size=size))
        _check_limits(shape, args)
    start: list[int] = rows
    target: list[int] | None = None
    if args.to is not None:
        tshape, target = textgrid.parse_grid(read_input(args.to), args.to)
        if tshape != shape:
            raise BoardFormatError(_("--to {file} holds a {target} board, the start is {shape}").format(
                file=args.to, target=tshape, shape=shape))
        rows = [a ^ b for a, b in zip(rows, target)]
    elif args.target == "lit":
        rows = [a ^ shape.row_mask for a in rows]
        target = [shape.row_mask] * shape.rows

    if args.image is not None:
        from countlo.formats.image import check_fits

        # refuse a picture that cannot be written before solving, not after
        panels = QUIET_PANELS if args.quiet else 2 + (args.to is not None or args.target == "lit")
        check_fits(shape, panels, args.image)
    sol = solve_rows(shape, rows)
    report = _Report(shape, start, rows, args)
    if not sol.solvable:
        report.unsolvable(sol)
        if args.image is not None and sol.witness is not None:  # unsolvable: the proof is there
            from countlo.formats import figures

            _draw(figures.unsolvable(shape, start, sol.witness, target), args.image, args.json)
        return 1
    presses, exact = sol.presses, None
    extra: dict = {}
    if args.min or args.all or args.classes:
        bits = shape.from_rows(rows)
        if args.min:
            from countlo.cli.status import clear_status, status_line
            from countlo.visible.fewest import fewest

            limit = MIN_TIME if args.time_limit is None else args.time_limit
            began = time.monotonic()
            found = fewest(shape, bits, time_limit=limit, progress=status_line(f"2^{sol.nullity}"))
            clear_status()
            assert found is not None
            presses, exact = shape.to_rows(found.presses), found.exact
            extra["lower_bound"] = found.lower_bound
            spent = time.monotonic() - began
            extra["stopped"] = _("best found in {s} s").format(s=f"{spent:.0f}") if found.stopped else ""
        elif args.all:
            extra["solutions"] = _all(shape, bits, sol.nullity, args.limit)
        else:
            from countlo.visible.classes import classes, fixing

            extra["classes"] = [(shape.to_rows(rep), size) for rep, size in classes(shape, bits)]
            extra["group"] = [s.name for s in fixing(shape, bits)]
    assert presses is not None
    if args.out:
        _write(args.out, presses, shape.cols)
    report.solved(presses, sol.nullity, exact, extra)
    if args.quiet:
        report.quiet()
    if args.image is not None:
        from countlo.formats import figures

        if args.quiet:
            from countlo.visible.engines.polynomial_chase import quiet_rows

            picture = figures.quiet(shape, quiet_rows(shape, QUIET_PANELS))
        else:
            assert isinstance(presses, list)  # solve_rows and to_rows give rows
            picture = figures.solved(shape, start, presses, target, exact)
        _draw(picture, args.image, args.json)
    return 0


def _draw(picture, path: str, quiet: bool) -> None:
    from countlo.formats.image import save

    save(picture, path)
    if not quiet:  # JSON output stays one object
        print(_("picture: {path}").format(path=path))


def _classic_rules(args: argparse.Namespace) -> bool:
    return (args.topology.strip().lower() == "plane" and args.states == 2
            and (args.rule is None or args.rule.strip().lower() == "plus"))


def _most(shape: Shape, args: argparse.Namespace) -> int:
    """`--most`: the covering radius of the quiet patterns, and a start needing it."""
    from countlo.formats.textgrid import cell_pairs
    from countlo.ui import rulewords
    from countlo.visible.algebra.covering_radius import hardest
    from countlo.visible.engines.polynomial_chase import quiet_patterns
    from countlo.visible.generate import lights_of

    limit = MOST_TIME if args.time_limit is None else args.time_limit
    quiet = quiet_patterns(shape)
    h = hardest(quiet, shape.cells, time_limit=limit)
    # the start the presses clear, row by row (per-cell press masks would take cells^2 / 16 bytes:
    # 62 GB at 1000x1000)
    press_rows = shape.to_rows(h.presses or 0)
    start_rows = lights_of(shape, press_rows)
    if args.out and h.presses is not None:
        _write(args.out, start_rows, shape.cols)
    if args.json:
        import json  # only --json pays for it (start-up: bench/bench_startup.py)

        print(json.dumps({"rows": shape.rows, "cols": shape.cols, "nullity": len(quiet),
                          "most": h.need if h.exact else None, "exact": h.exact,
                          "lower_bound": h.need, "upper_bound": h.upper, "method": h.method,
                          "start": None if h.presses is None else cell_pairs(start_rows),
                          "presses": None if h.presses is None else cell_pairs(press_rows),
                          "count": None if h.presses is None else h.need}))
        return 0
    report = _Report(shape, start_rows, start_rows, args)
    if h.exact:
        print(ngettext("{shape} board: the hardest solvable starts need {n} press (exact; {method}).",
                       "{shape} board: the hardest solvable starts need {n} presses (exact; {method}).",
                       h.need).format(shape=shape, n=h.need, method=rulewords.method_words(h.method)))
    elif h.presses is None:
        print(_("{shape} board: the hardest solvable starts need between {low} and {high} presses "
                "({method}); no start is shown: none had its fewest presses proven in time.").format(
                    shape=shape, low=h.need, high=h.upper, method=rulewords.method_words(h.method)))
        return 0
    else:
        print(_("{shape} board: the hardest solvable starts need between {low} and {high} presses "
                "({method}); this start needs {low}:").format(
                    shape=shape, low=h.need, high=h.upper, method=rulewords.method_words(h.method)))
    if report.big:
        print(_("(board larger than {n}x{n}: pass --full to print it, or --out FILE to save the "
                "start)").format(n=GRID_LIMIT))
    else:
        print(report._grids(_("fewest presses"), press_rows, "X"), end="")
        print(_("presses: {cells}").format(cells=report._names(press_rows)))
    return 0


def _check_limits(shape, args) -> None:
    """Refuse, in one line, what would not fit in memory, before the board is built."""
    from countlo.errors import BadSizeError
    from countlo.visible.classes import MAX_CELLS

    def side(cells: int) -> str:
        n = int(cells ** 0.5)
        if n * n == cells:
            return _("{cells} cells ({n}x{n})").format(cells=cells, n=n)
        return _("{cells} cells").format(cells=cells)

    if args.full and shape.cells > FULL_LIMIT:
        raise BadSizeError(_("--full prints boards of at most {most}; {shape} has {cells}: leave out "
                             "--full, or save the presses with --out FILE").format(
                                 most=side(FULL_LIMIT), shape=shape, cells=shape.cells))
    for flag, on, limit in (("--min", args.min, BITSET_LIMIT), ("--all", args.all, BITSET_LIMIT),
                            ("--classes", args.classes, MAX_CELLS), ("--most", args.most, MOST_LIMIT)):
        if on and shape.cells > limit:
            raise BadSizeError(_("{option} works on boards of at most {most}; {shape} has {cells}").format(
                option=flag, most=side(limit), shape=shape, cells=shape.cells))


def _write(path: str, rows, cols: int) -> None:
    """The press grid as 1/0 lines, written a row at a time (a 65535x65535 grid is 4 GB)."""
    from countlo.formats.output import replacing
    from countlo.formats.textgrid import format_rows

    with replacing(path, "--out") as f:
        for row in rows:
            f.write(format_rows([row], cols))


def _all(shape, bits: int, nullity: int, limit: int | None) -> list[list[int]]:
    from countlo.errors import CountloError
    from countlo.visible.fewest import all_solutions

    total = 1 << nullity
    if limit is None and total > ALL_LIMIT:
        raise CountloError(_("the {shape} start has 2^{nullity} = {total} solutions; pass --limit N "
                             "to list N of them").format(shape=shape, nullity=nullity, total=total))
    return [shape.to_rows(x) for x in all_solutions(shape, bits, limit)]


class _Report:
    """Prints results as text or JSON."""

    def __init__(self, shape, start, to_clear, args):
        self.shape, self.start, self.target_rows, self.args = shape, start, to_clear, args
        self.big = not args.full and (shape.rows > GRID_LIMIT or shape.cols > GRID_LIMIT)

    def _names(self, rows) -> str:
        from countlo.formats.textgrid import cell_names

        return " ".join(cell_names(self.shape, rows)) or _("(none)")

    def _grids(self, title: str, rows, on: str) -> str:
        from countlo.formats.textgrid import side_by_side

        return side_by_side(self.shape, [(_("start"), self.start, "#", "."), (title, rows, on, ".")])

    def unsolvable(self, sol) -> None:
        from countlo.formats.textgrid import cell_pairs

        if self.args.json:
            self._json(solvable=False, nullity=sol.nullity, presses=None, count=None,
                       witness=None if self.big else cell_pairs(sol.witness))
            return
        w = sol.witness
        lit = sum((a & b).bit_count() for a, b in zip(w, self.target_rows))
        print(_("{shape} board: unsolvable (nullity {nullity}).").format(shape=self.shape,
                                                                          nullity=sol.nullity))
        if self.args.to is None:
            print(_("Proof: every press toggles an even number of the cells marked Q, so the number "
                    "of lit Q cells never changes parity; it is {lit} now, odd, so it never reaches "
                    "0.").format(lit=lit))
        else:
            print(_("Proof: every press toggles an even number of the cells marked Q, so the number "
                    "of Q cells differing from the target never changes parity; it is {lit} now, "
                    "odd, so it never reaches 0.").format(lit=lit))
        if not self.big:
            print(self._grids(_("quiet pattern"), w, "Q"), end="")
            print(_("quiet pattern: {cells}").format(cells=self._names(w)))
        else:
            print(_("(board larger than {n}x{n}: pass --full to print it)").format(n=GRID_LIMIT))
        if self.args.quiet:
            self.quiet()

    def quiet(self) -> None:
        """A basis of the quiet patterns, one line each (--quiet; text output only)."""
        from countlo.visible.engines.polynomial_chase import quiet_rows

        if self.args.json:
            return
        basis = quiet_rows(self.shape, None if not self.big else 16)
        if not basis:
            print(_("quiet patterns: a basis of 0 (none)"))
        elif self.big and len(basis) == 16:
            print(_("quiet patterns: a basis of {n} (the first 16):").format(n=len(basis)))
        else:
            print(_("quiet patterns: a basis of {n}:").format(n=len(basis)))
        for i, q in enumerate(basis, 1):
            names = "" if self.big else f": {self._names(q)}"
            n = sum(r.bit_count() for r in q)
            print(f"{i:>4}. " + ngettext("{n} cell", "{n} cells", n).format(n=n) + names)

    def solved(self, presses, nullity: int, exact, extra: dict) -> None:
        from countlo.formats.textgrid import cell_pairs

        count = sum(r.bit_count() for r in presses)
        if self.args.json:
            # above 64x64 without --full: a summary (2.4e9 pairs of a 65535x65535 board would
            # take hundreds of gigabytes as Python lists)
            out = dict(solvable=True, nullity=nullity,
                       presses=None if self.big else cell_pairs(presses), count=count)
            if exact is not None:
                out["exact"] = exact
                out["lower_bound"] = extra["lower_bound"]
            if "solutions" in extra:
                out["solutions"] = [None if self.big else cell_pairs(x) for x in extra["solutions"]]
            if "classes" in extra:
                out["classes"] = [{"presses": None if self.big else cell_pairs(r), "size": s}
                                  for r, s in extra["classes"]]
                out["symmetries"] = extra["group"]
            if self.args.quiet:
                from countlo.visible.engines.polynomial_chase import quiet_rows

                out["quiet"] = [cell_pairs(q) for q in quiet_rows(self.shape, 64)]
            self._json(**out)
            return
        sols = 1 << min(nullity, 20)
        if exact is not None:
            kind = ngettext("{n} fewest press", "{n} fewest presses", count).format(n=count)
        else:
            kind = ngettext("{n} press", "{n} presses", count).format(n=count)
        if exact is False:
            why = extra.get("stopped") or _("best found")
            note = _(" ({why}; the minimum is at least {low})").format(why=why, low=extra["lower_bound"])
        else:
            note = _(" (exact minimum)") if exact else ""
        many = (_("the only solution") if nullity == 0 else
                ngettext("{n} solution", "{n} solutions", sols).format(n=sols) if nullity <= 20 else
                _("2^{nullity} solutions").format(nullity=nullity))
        print(_("{shape} board: solvable, {presses}{note}; nullity {nullity} ({many}).").format(
            shape=self.shape, presses=kind, note=note, nullity=nullity, many=many))
        if self.big:
            print(big_board_note(self.args.out))
        else:
            print(self._grids(_("presses"), presses, "X"), end="")
            print(_("presses: {cells}").format(cells=self._names(presses)))
        if "solutions" in extra:
            n = len(extra["solutions"])
            if nullity < 63 and n == 1 << nullity:
                print(ngettext("all {n} solution:", "all {n} solutions:", n).format(n=n))
            else:
                print(ngettext("the first {n} solution:", "the first {n} solutions:", n).format(n=n))
            for i, x in enumerate(extra["solutions"], 1):
                names = "" if self.big else f": {self._names(x)}"
                k = sum(r.bit_count() for r in x)
                print(f"{i:>4}. " + ngettext("{n} press", "{n} presses", k).format(n=k) + names)
        if "classes" in extra:
            classes, group = len(extra["classes"]), len(extra["group"])
            if group == 1:
                print(ngettext("{n} class, one per solution: no symmetry but the identity fixes the start.",
                               "{n} classes, one per solution: no symmetry but the identity fixes the start.",
                               classes).format(n=classes))
            else:
                print(ngettext("{n} class under the {g} symmetries fixing the start ({names}):",
                               "{n} classes under the {g} symmetries fixing the start ({names}):",
                               classes).format(n=classes, g=group,
                                               names=_(", ").join(_(SYMMETRIES.get(n, n)) for n in extra["group"])))
            for i, (rep, size) in enumerate(extra["classes"], 1):
                names = "" if self.big else f": {self._names(rep)}"
                k = sum(r.bit_count() for r in rep)
                print(f"{i:>4}. " + ngettext("class of {size}, {n} press", "class of {size}, {n} presses",
                                             k).format(size=size, n=k) + names)

    def _json(self, **fields) -> None:
        import json  # only --json pays for it (start-up: bench/bench_startup.py)

        print(json.dumps({"rows": self.shape.rows, "cols": self.shape.cols, "topology": "plane",
                          "rule": "plus", "states": 2, **fields}))
