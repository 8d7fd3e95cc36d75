"""`countlo solve`: classic Lights Out on a visible board of any size."""

from __future__ import annotations

import argparse
import json
import sys

from countlo.cli import speech
from countlo.i18n import N_, _, ngettext

GRID_LIMIT = 64  # larger boards print a summary unless --full
ALL_LIMIT = 4096  # --all lists at most this many solutions unless --limit is given


EPILOG = N_("""\
grid files: one line per row; lit 1 # * O, dark 0 . -; spaces between cells
optional. A line made only of those characters is a row (so '# . #' is a row);
any other line starting with '#' is a comment; blank lines are skipped.
--lit numbers cells 1..R*C in reading order: cell k is row (k-1)//C+1, column
(k-1)%C+1. Boards above 64x64 print a summary; --full prints everything, --out
saves the press grid, --json lists presses as 1-based [row, column] pairs.
Exit 0 solved, 1 unsolvable, 2 bad input.
""")


# The symmetries' names as the text output shows them (JSON keeps countlo.classic.classes' names).
SYMMETRIES = {
    "identity": N_("identity"), "rotate 90": N_("rotate 90"), "rotate 180": N_("rotate 180"),
    "rotate 270": N_("rotate 270"), "mirror left-right": N_("mirror left-right"),
    "mirror top-bottom": N_("mirror top-bottom"), "transpose": N_("transpose"),
    "anti-transpose": N_("anti-transpose"),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = _(EPILOG)
    p.formatter_class = speech.RawDescriptionHelpFormatter
    p.add_argument("file", nargs="?", metavar="FILE|-",
                   help=_("the start as a text grid (1 # * O lit, 0 . - dark); '-' for stdin"))
    p.add_argument("--size", metavar="RxC",
                   help=_("board size, e.g. 6x6 (needed by --lit, --all-on)"))
    p.add_argument("--all-on", action="store_true", help=_("start with every light on"))
    p.add_argument("--lit", metavar="LIST",
                   help=_("lit cells as 1-based numbers in reading order, e.g. 1,7,13"))
    p.add_argument("--to", metavar="FILE", help=_("target pattern (default all dark): presses "
                                                   "turning the start into it"))
    what = p.add_mutually_exclusive_group()
    what.add_argument("--all", action="store_true", help=_("list every solution"))
    what.add_argument("--min", action="store_true", help=_("a solution with the fewest presses"))
    what.add_argument("--classes", action="store_true",
                      help=_("solutions grouped up to the rotations/reflections fixing the start"))
    p.add_argument("--limit", type=_positive, metavar="N", help=_("with --all: list at most N"))
    p.add_argument("--full", action="store_true",
                   help=_("print grids and press lists even above {n}x{n}").format(n=GRID_LIMIT))
    p.add_argument("--out", metavar="FILE", help=_("write the press pattern as a 1/0 grid"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(_("expected a positive whole number, not {text!r}").format(
            text=text))
    return int(text)


def run(args: argparse.Namespace) -> int:
    from countlo.board import Shape
    from countlo.classic.solver import solve_rows
    from countlo.errors import BadSizeError, BoardFormatError, CountloError
    from countlo.formats import textgrid

    sources = [name for name, given in (("FILE", args.file is not None),
                                        ("--lit", args.lit is not None),
                                        ("--all-on", args.all_on)) if given]
    if len(sources) > 1:
        raise CountloError(_("give one start, not {sources}").format(
            sources=_(" and ").join(sources)))
    if args.limit is not None and not args.all:
        raise CountloError(_("--limit only applies with --all"))
    size = Shape.parse(args.size) if args.size is not None else None

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
        shape, rows = textgrid.parse_grid(_read(args.file), where)
        if size is not None and size != shape:
            raise BoardFormatError(_("{where} holds a {shape} board but --size says {size}").format(
                where=where, shape=shape, size=size))
    start = rows
    if args.to is not None:
        tshape, target = textgrid.parse_grid(_read(args.to), args.to)
        if tshape != shape:
            raise BoardFormatError(_("--to {file} holds a {target} board, the start is {shape}").format(
                file=args.to, target=tshape, shape=shape))
        rows = [a ^ b for a, b in zip(rows, target)]

    sol = solve_rows(shape, rows)
    report = _Report(shape, start, rows, args)
    if not sol.solvable:
        report.unsolvable(sol)
        return 1
    presses, exact = sol.presses, None
    extra: dict = {}
    if args.min or args.all or args.classes:
        bits = shape.from_rows(rows)
        if args.min:
            from countlo.classic.minpress import fewest_presses

            best, exact = fewest_presses(shape, bits)
            presses = shape.to_rows(best)
        elif args.all:
            extra["solutions"] = _all(shape, bits, sol.nullity, args.limit)
        else:
            from countlo.classic.classes import classes, fixing

            extra["classes"] = [(shape.to_rows(rep), size) for rep, size in classes(shape, bits)]
            extra["group"] = [s.name for s in fixing(shape, bits)]
    if args.out:
        _write(args.out, textgrid.format_rows(presses, shape.cols))
    report.solved(presses, sol.nullity, exact, extra)
    return 0


def _read(path: str | None) -> str:
    from countlo.errors import BoardFormatError

    if path in (None, "-"):
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise BoardFormatError(_("cannot read {path}: {reason}").format(
            path=path, reason=getattr(e, "strerror", None) or e)) from None


def _write(path: str, text: str) -> None:
    from countlo.errors import CountloError

    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CountloError(_("cannot write {path}: {reason}").format(path=path,
                                                                       reason=e.strerror)) from None


def _all(shape, bits: int, nullity: int, limit: int | None) -> list[list[int]]:
    from countlo.classic.minpress import all_solutions
    from countlo.errors import CountloError

    total = 1 << nullity
    if limit is None and total > ALL_LIMIT:
        raise CountloError(_("the {shape} start has 2^{nullity} = {total} solutions; pass --limit "
                             "N to list N of them").format(shape=shape, nullity=nullity,
                                                           total=total))
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

        return side_by_side(self.shape, [(_("start"), self.start, "#", "."),
                                         (title, rows, on, ".")])

    def unsolvable(self, sol) -> None:
        from countlo.formats.textgrid import cell_pairs

        if self.args.json:
            self._json(solvable=False, nullity=sol.nullity, presses=None, count=None,
                       witness=cell_pairs(sol.witness))
            return
        w = sol.witness
        lit = sum((a & b).bit_count() for a, b in zip(w, self.target_rows))
        print(_("{shape} board: unsolvable (nullity {nullity}).").format(shape=self.shape,
                                                                         nullity=sol.nullity))
        if self.args.to is None:
            print(_("Proof: every press toggles an even number of the cells marked Q, so the number "
                    "of lit Q cells never changes parity; it is {n} now, odd, so it never reaches "
                    "0.").format(n=lit))
        else:
            print(_("Proof: every press toggles an even number of the cells marked Q, so the number "
                    "of Q cells differing from the target never changes parity; it is {n} now, "
                    "odd, so it never reaches 0.").format(n=lit))
        if not self.big:
            print(self._grids(_("quiet pattern"), w, "Q"), end="")
            print(_("quiet pattern: {cells}").format(cells=self._names(w)))
        else:
            print(_("(board larger than {n}x{n}: pass --full to print it)").format(n=GRID_LIMIT))

    def solved(self, presses, nullity: int, exact, extra: dict) -> None:
        from countlo.formats.textgrid import cell_pairs

        count = sum(r.bit_count() for r in presses)
        if self.args.json:
            out = dict(solvable=True, nullity=nullity, presses=cell_pairs(presses), count=count)
            if exact is not None:
                out["exact"] = exact
            if "solutions" in extra:
                out["solutions"] = [cell_pairs(x) for x in extra["solutions"]]
            if "classes" in extra:
                out["classes"] = [{"presses": cell_pairs(r), "size": s} for r, s in extra["classes"]]
                out["symmetries"] = extra["group"]
            self._json(**out)
            return
        sols = 1 << min(nullity, 20)
        kind = (ngettext("{n} fewest press", "{n} fewest presses", count) if exact is not None
                else ngettext("{n} press", "{n} presses", count)).format(n=count)
        note = {True: _(" (exact minimum)"),
                False: _(" (best found; not proven minimal)")}.get(exact, "")
        many = (_("the only solution") if nullity == 0 else
                _("{n} solutions").format(n=sols) if nullity <= 20 else
                _("2^{nullity} solutions").format(nullity=nullity))
        print(_("{shape} board: solvable, {kind}{note}; nullity {nullity} ({many}).").format(
            shape=self.shape, kind=kind, note=note, nullity=nullity, many=many))
        if self.big:
            print(_("(board larger than {n}x{n}: pass --full to print the grid and press list, or "
                    "--out FILE to save the press grid)").format(n=GRID_LIMIT))
        else:
            print(self._grids(_("presses"), presses, "X"), end="")
            print(_("presses: {cells}").format(cells=self._names(presses)))
        if "solutions" in extra:
            n = len(extra["solutions"])
            print((_("all {n} solutions:") if nullity < 63 and n == 1 << nullity else
                   _("the first {n} solutions:")).format(n=n))
            for i, x in enumerate(extra["solutions"], 1):
                names = "" if self.big else f": {self._names(x)}"
                k = sum(r.bit_count() for r in x)
                print(f"{i:>4}. " + ngettext("{n} press", "{n} presses", k).format(n=k) + names)
        if "classes" in extra:
            names = ", ".join(_(SYMMETRIES.get(g, g)) for g in extra["group"])
            print(_("{n} classes under the {m} symmetries fixing the start ({names}):").format(
                n=len(extra["classes"]), m=len(extra["group"]), names=names))
            for i, (rep, size) in enumerate(extra["classes"], 1):
                names = "" if self.big else f": {self._names(rep)}"
                k = sum(r.bit_count() for r in rep)
                print(f"{i:>4}. " + _("class of {size}, {presses}").format(
                    size=size, presses=ngettext("{n} press", "{n} presses", k).format(n=k)) + names)

    def _json(self, **fields) -> None:
        print(json.dumps({"rows": self.shape.rows, "cols": self.shape.cols, **fields}))
