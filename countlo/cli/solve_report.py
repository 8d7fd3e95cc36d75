"""What `countlo solve` prints, as text or as one JSON object, for every board.

One printer for every board and rule. Patterns (presses, quiet patterns, weights) come as
values per cell, except on a board under the classic rules, where they come as bitset rows:
only rows fit at 65535 x 65535. The JSON object has one shape everywhere (docs/solve.md):
a press is [row, column] on a grid or [node] on a graph, followed by the times pressed when the
lights have more than two states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from countlo.board import Shape
from countlo.cli.bigboard import GRID_LIMIT, big_board_note
from countlo.formats.jsonshape import board_head, press_map, press_pairs
from countlo.i18n import N_, _, ngettext

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from typing import Any

    from countlo.graph import Board

QUIET_LIMIT = 64  # --quiet lists at most this many generators
# the symmetries' names as the text output shows them (JSON keeps their own names)
SYMMETRIES = {"identity": N_("identity"), "rotate 90": N_("rotate 90"), "rotate 180": N_("rotate 180"),
              "rotate 270": N_("rotate 270"), "mirror left-right": N_("mirror left-right"),
              "mirror top-bottom": N_("mirror top-bottom"), "transpose": N_("transpose"),
              "anti-transpose": N_("anti-transpose")}
Pattern = Sequence[int]  # values per cell, or bitset rows under the classic rules


def quiet_words(orders: Sequence[int], k: int) -> str:
    """'nullity 2 (4 quiet patterns)' for prime k; the group's shape otherwise."""
    size = math.prod(orders)
    if all(o == k for o in orders):
        many = f"{k}^{len(orders)} = {size}" if len(orders) > 1 and size < 10 ** 12 else (
            str(size) if size < 10 ** 12 else f"{k}^{len(orders)}")
        return ngettext("nullity {n} ({many} quiet pattern)", "nullity {n} ({many} quiet patterns)",
                        size).format(n=len(orders), many=many)
    parts = " x ".join(f"Z{o}" for o in orders)
    if size < 10 ** 12:
        return ngettext("{n} quiet pattern (the group {parts})", "{n} quiet patterns (the group {parts})",
                        size).format(n=size, parts=parts)
    return _("many quiet patterns (the group {parts})").format(parts=parts)


def say(text: str) -> None:
    """A line of words, wrapped at word boundaries to the terminal's width (a pipe or a file
    keeps it whole for the program reading it); grids are printed as they are."""
    import sys

    if sys.stdout.isatty():
        from countlo.ui.layout import wrapped  # only a terminal pays for it

        text = wrapped(text, sys.stdout)
    print(text)


class Report:
    """The answer of one `solve` run on `board` from `start` to `target` (None: all dark)."""

    def __init__(self, board: Board, start: Pattern, target: Pattern | None, args: Any) -> None:
        self.board, self.start, self.target, self.args = board, start, target, args
        self.k = board.rules.states if isinstance(board, Shape) else board.states
        self.rows = isinstance(board, Shape) and board.rules.classic  # patterns are bitset rows
        self.big = isinstance(board, Shape) and not args.full and (
            board.rows > GRID_LIMIT or board.cols > GRID_LIMIT)
        pm = press_map(board)
        self.pressmap = pm is not None  # presses are per button, the rest per light
        self.on_grid = pm is not None and pm.on_grid

    # --- patterns ----------------------------------------------------------------------------
    def count(self, p: Pattern) -> int:
        """Presses (with multiplicity) or cells of a pattern."""
        return sum(r.bit_count() for r in p) if self.rows else sum(p)

    def cells(self, p: Pattern) -> int:
        """How many cells a pattern touches."""
        return sum(r.bit_count() for r in p) if self.rows else sum(1 for v in p if v)

    def pairs(self, p: Pattern) -> list[list[Any]]:
        """The JSON form: [row, column] or [node], then the times when k > 2."""
        if self.rows:
            from countlo.formats.textgrid import cell_pairs

            return cell_pairs(p)
        return press_pairs(self.board, p)

    def light_pairs(self, p: Pattern) -> list[list[Any]]:
        """pairs() of a pattern of lights (a start, a proof's weights): the same but on a press map."""
        if self.rows:
            return self.pairs(p)
        return press_pairs(self.board, p, lights=True)

    def listing(self, p: Pattern) -> str:
        """The cells (a press map's buttons) of a pattern by name, for a person."""
        if self.rows:
            from countlo.formats.textgrid import cell_names

            assert isinstance(self.board, Shape)
            return " ".join(cell_names(self.board, p)) or _("(none)")
        from countlo.formats.states import describe_values
        from countlo.graph import button_name

        return describe_values([button_name(self.board, j) for j in range(len(p))], p,
                               "*" if self.pressmap and not self.on_grid else "x")

    def light_listing(self, p: Pattern) -> str:
        """The lights of a pattern by name (the cells, but on a press map)."""
        if self.rows:
            return self.listing(p)
        from countlo.formats.states import describe_values

        return describe_values([self.board.name(i) for i in range(self.board.cells)], p,
                               "*" if self.pressmap and not self.on_grid else "x")

    def grids(self, items: list[tuple[str, Pattern, str]]) -> None:
        """Grids side by side under their titles (the mark shows a set cell on a classic board)."""
        pm = press_map(self.board)
        if pm is not None and pm.on_grid and pm.shape is not None:
            from countlo.formats.states import panels

            print(panels(pm.shape, [(title, pm.expand(p)) for title, p, _on in items]), end="")
            return
        if self.big or not isinstance(self.board, Shape):
            return
        if self.rows:
            from countlo.formats.textgrid import side_by_side

            print(side_by_side(self.board, [(title, p, on, ".") for title, p, on in items]), end="")
            return
        from countlo.formats.states import panels

        print(panels(self.board, [(title, p) for title, p, _on in items]), end="")

    def write(self, p: Pattern, lights: bool = False) -> None:
        """--out: the pattern as a grid file (a row at a time: 65535 x 65535 is 4 GB) or a node list
        (a press map's buttons, or its lights when `lights`)."""
        from countlo.formats.output import replacing, write_text

        if self.rows:
            from countlo.formats.textgrid import format_rows

            assert isinstance(self.board, Shape)
            with replacing(self.args.out, "--out") as f:
                for row in p:
                    f.write(format_rows([row], self.board.cols))
            return
        b, pm = self.board, press_map(self.board)
        if pm is not None and pm.shape is not None and (lights or pm.on_grid):
            from countlo.formats.states import format_grid

            text = format_grid(pm.shape, pm.expand(p))
        elif pm is not None:
            text = "\n".join(f"{n}={v}" if v != 1 else n
                             for n, v in zip(pm.lights if lights else pm.buttons, p) if v) + "\n"
        elif isinstance(b, Shape):
            from countlo.formats.states import format_grid

            text = format_grid(b, p)
        else:
            text = "\n".join(f"{n}={v}" if v != 1 else n
                             for n, v in zip(b.nodes, p) if v) + "\n"
        write_text(self.args.out, "--out", text)

    # --- words -------------------------------------------------------------------------------
    def title(self) -> str:
        b, pm = self.board, press_map(self.board)
        if pm is not None:
            from countlo.ui.rulewords import press_map_text

            return press_map_text(pm)
        if not isinstance(b, Shape):
            from countlo.graph import Graph
            from countlo.ui.rulewords import graph_text

            assert isinstance(b, Graph)
            return graph_text(b)
        if self.rows:
            return _("{shape} board").format(shape=b)
        from countlo.ui.rulewords import rules_text

        return _("{shape} board ({rules})").format(shape=b, rules=rules_text(b.rules))

    def head(self) -> dict[str, Any]:
        return board_head(self.board)  # the keys every command's --json opens with (docs/json.md)

    def emit(self, **fields: Any) -> None:
        import json  # only --json pays for it (start-up: bench/bench_startup.py)

        print(json.dumps(dict(self.head(), **fields)))

    # --- answers -----------------------------------------------------------------------------
    def unsolvable(self, orders: Sequence[int], witness: Pattern) -> None:
        """The proof: weights W whose weighted sum of the states no click changes (mod k)."""
        before, after = self._sums(witness)
        if self.args.json:
            out: dict[str, Any] = dict(solvable=False, quiet_orders=list(orders), nullity=len(orders),
                                       solutions=0, presses=None, count=None,
                                       witness=None if self.big else self.light_pairs(witness),
                                       start_sum=before, target_sum=after)
            if self.args.quiet:
                out["quiet"] = self.quiet_json()
            self.emit(**out)
            return
        if self.rows:
            say(_("{shape} board: unsolvable (nullity {nullity}).").format(shape=self.board,
                                                                              nullity=len(orders)))
            if self.target is None:
                say(_("Proof: every press toggles an even number of the cells marked Q, so the number "
                        "of lit Q cells never changes parity; it is {lit} now, odd, so it never reaches "
                        "0.").format(lit=self._lit(witness)))
            else:
                say(_("Proof: every press toggles an even number of the cells marked Q, so the number "
                        "of Q cells differing from the target never changes parity; it is {lit} now, "
                        "odd, so it never reaches 0.").format(lit=self._lit(witness)))
            if not self.big:
                self.grids([(_("start"), self.start, "#"), (_("quiet pattern"), witness, "Q")])
                say(_("quiet pattern: {cells}").format(cells=self.listing(witness)))
            else:
                say(_("(board larger than {n}x{n}: pass --full to print it)").format(n=GRID_LIMIT))
        else:
            say(_("{title}: unsolvable; {quiet}.").format(title=self.title(),
                                                              quiet=quiet_words(orders, self.k)))
            if self.pressmap and self.k == 2:
                say(_("Proof: every button changes an even number of the lights [{lights}], so how many of "
                        "them are lit keeps its parity: {now} now, {target} for the target.").format(
                            lights=self.light_listing(witness), now=_("odd") if before else _("even"),
                            target=_("odd") if after else _("even")))
            elif self.pressmap:
                say(_("Proof: weigh each light as listed under 'weights'; every button adds a multiple of {k} "
                        "to the weighted sum of the states, so that sum mod {k} never changes: it is {now} now "
                        "and {target} for the target.").format(k=self.k, now=before, target=after))
            elif not isinstance(self.board, Shape) and self.k == 2:  # a graph: no grid to mark
                say(_("Proof: every click changes an even number of the nodes [{nodes}], so how many of them "
                        "are lit keeps its parity: {now} now, {target} for the target.").format(
                            nodes=self.light_listing(witness), now=_("odd") if before else _("even"),
                            target=_("odd") if after else _("even")))
            elif not isinstance(self.board, Shape):
                say(_("Proof: weigh each node as listed under 'weights'; every click adds a multiple of {k} "
                        "to the weighted sum of the states, so that sum mod {k} never changes: it is {now} now "
                        "and {target} for the target.").format(k=self.k, now=before, target=after))
            elif self.k == 2:
                say(_("Proof: every click changes an even number of the cells marked W, so the number of "
                        "lit W cells keeps its parity: it is {now} now and {target} for the target.").format(
                            now=_("odd") if before else _("even"), target=_("odd") if after else _("even")))
            else:
                say(_("Proof: weigh each cell by the number shown under W; every click adds a multiple of "
                        "{k} to the weighted sum of the states, so that sum mod {k} never changes: it is "
                        "{now} now and {target} for the target.").format(k=self.k, now=before, target=after))
            self.grids([(_("start"), self.start, "#"), (_("weights W"), witness, "W")])
            if not self.big and not (not isinstance(self.board, Shape) and self.k == 2):  # named above
                say(_("weights: {cells}").format(cells=self.light_listing(witness)))
        if self.args.quiet:
            self.print_quiet()

    def _sums(self, w: Pattern) -> tuple[int, int]:
        """The weighted sums of the start and the target under the weights w (mod k)."""
        if self.rows:
            start = sum((a & b).bit_count() for a, b in zip(w, self.start)) % 2
            target = 0 if self.target is None else sum(
                (a & b).bit_count() for a, b in zip(w, self.target)) % 2
            return start, target
        start = sum(a * b for a, b in zip(w, self.start)) % self.k
        target = 0 if self.target is None else sum(a * b for a, b in zip(w, self.target)) % self.k
        return start, target

    def _lit(self, w: Pattern) -> int:
        """How many Q cells differ from the target now (the classic proof's number)."""
        target = self.target if self.target is not None else [0] * len(self.start)
        return sum((a & (b ^ t)).bit_count() for a, b, t in zip(w, self.start, target))

    def solved(self, orders: Sequence[int], presses: Pattern, exact: bool | None,
               extra: dict[str, Any]) -> None:
        count = self.count(presses)
        nullity, solutions = len(orders), math.prod(orders)
        if self.args.json:
            out: dict[str, Any] = dict(solvable=True, quiet_orders=list(orders), nullity=nullity,
                                       solutions=solutions if solutions < 1 << 63 else None,
                                       presses=None if self.big else self.pairs(presses), count=count)
            if exact is not None:
                out["exact"] = exact
                out["lower_bound"] = extra["lower_bound"]
            if "all" in extra:
                out["all"] = [None if self.big else self.pairs(x) for x in extra["all"]]
            if "classes" in extra:
                out["classes"] = [{"presses": None if self.big else self.pairs(r), "size": s}
                                  for r, s in extra["classes"]]
                out["symmetries"] = extra["group"]
                out["group_order"] = extra["order"]
            if self.args.quiet:
                out["quiet"] = self.quiet_json()
            self.emit(**out)
            return
        kind = (ngettext("{n} fewest press", "{n} fewest presses", count) if exact is not None else
                ngettext("{n} press", "{n} presses", count)).format(n=count)
        note = "" if exact is None else _(" (exact minimum)") if exact else _(
            " ({why}; the minimum is at least {low})").format(why=extra.get("stopped") or _("best found"),
                                                             low=extra["lower_bound"])
        if self.rows:
            many = (_("the only solution") if nullity == 0 else
                    ngettext("{n} solution", "{n} solutions", solutions).format(n=solutions) if nullity <= 20
                    else _("2^{nullity} solutions").format(nullity=nullity))
            say(_("{shape} board: solvable, {presses}{note}; nullity {nullity} ({many}).").format(
                shape=self.board, presses=kind, note=note, nullity=nullity, many=many))
        else:
            mult = _(" counted with multiplicity") if self.k > 2 else ""
            many = _("the only solution") if solutions == 1 else ngettext(
                "{n} solution", "{n} solutions", solutions).format(n=solutions) if (
                solutions < 10 ** 12) else _("more than 10^12 solutions")
            say(_("{title}: solvable, {presses}{mult}{note}; {quiet}, {many}.").format(
                title=self.title(), presses=kind, mult=mult, note=note, quiet=quiet_words(orders, self.k),
                many=many))
        if self.big:
            say(big_board_note(self.args.out))
        else:
            items = [(_("start"), self.start, "#")]
            if self.target is not None and not self.rows:
                items.append((_("target"), self.target, "#"))
            self.grids(items + [(_("presses"), presses, "X")])
            say(_("presses: {cells}").format(cells=self.listing(presses)))
        if "all" in extra:
            self._all(extra["all"], solutions)
        if "classes" in extra:
            self._classes(extra["classes"], extra["group"], extra["order"])
        if self.args.quiet:
            self.print_quiet()

    def _all(self, found: list[Pattern], solutions: int) -> None:
        n = len(found)
        if n == solutions:
            say(ngettext("all {n} solution:", "all {n} solutions:", n).format(n=n))
        else:
            say(ngettext("the first {n} solution:", "the first {n} solutions:", n).format(n=n))
        for i, x in enumerate(found, 1):
            names = "" if self.big else f": {self.listing(x)}"
            k = self.count(x)
            say(f"{i:>4}. " + ngettext("{n} press", "{n} presses", k).format(n=k) + names)

    def _classes(self, found: list[tuple[Pattern, int]], group: list[str], order: int | None) -> None:
        from countlo.visible.classes import GROUP_LIMIT

        n, g = len(found), len(group)
        if self.rows and g == 1:
            say(ngettext("{n} class, one per solution: no symmetry but the identity fixes the start.",
                           "{n} classes, one per solution: no symmetry but the identity fixes the start.",
                           n).format(n=n))
        elif self.rows:
            names = _(", ").join(_(SYMMETRIES.get(s, s)) for s in group)
            say(ngettext("{n} class under the {g} symmetries fixing the start ({names}):",
                           "{n} classes under the {g} symmetries fixing the start ({names}):",
                           n).format(n=n, g=g, names=names))
        elif self.pressmap:  # a press map too
            say(ngettext("{n} class, one per solution: symmetries of a press map are not searched, so only "
                           "the identity groups them.",
                           "{n} classes, one per solution: symmetries of a press map are not searched, so "
                           "only the identity groups them.", n).format(n=n))
        elif not isinstance(self.board, Shape):  # a graph is grouped by the identity only
            say(ngettext("{n} class, one per solution: graph automorphisms are not searched, so only "
                           "the identity groups them.",
                           "{n} classes, one per solution: graph automorphisms are not searched, so "
                           "only the identity groups them.", n).format(n=n))
        elif order is None:
            say(ngettext("{n} class under the group (of more than {most} symmetries) generated by the "
                           "{g} symmetries of the rules fixing start and target:",
                           "{n} classes under the group (of more than {most} symmetries) generated by the "
                           "{g} symmetries of the rules fixing start and target:",
                           n).format(n=n, g=g, most=GROUP_LIMIT))
        elif order > g:
            say(ngettext("{n} class under the group of {o} symmetries generated by the {g} symmetries "
                           "of the rules fixing start and target:",
                           "{n} classes under the group of {o} symmetries generated by the {g} symmetries "
                           "of the rules fixing start and target:", n).format(n=n, o=order, g=g))
        elif g == 1:
            say(ngettext("{n} class, one per solution: no symmetry of the rules but the identity "
                           "fixes start and target.",
                           "{n} classes, one per solution: no symmetry of the rules but the identity "
                           "fixes start and target.", n).format(n=n))
        else:
            say(ngettext("{n} class under the {g} symmetries of the rules fixing start and target:",
                           "{n} classes under the {g} symmetries of the rules fixing start and target:",
                           n).format(n=n, g=g))
        for i, (rep, size) in enumerate(found, 1):
            names = "" if self.big else f": {self.listing(rep)}"
            k = self.count(rep)
            say(f"{i:>4}. " + ngettext("class of {size}, {n} press", "class of {size}, {n} presses",
                                         k).format(size=size, n=k) + names)

    # --- quiet patterns ----------------------------------------------------------------------
    def quiet_list(self, limit: int | None = QUIET_LIMIT) -> list[tuple[Pattern, int]]:
        """(pattern, order) of the first `limit` generators of the quiet patterns (all: None)."""
        if self.rows:
            from countlo.visible.engines.polynomial_chase import quiet_rows

            assert isinstance(self.board, Shape)
            return [(q, 2) for q in quiet_rows(self.board, limit)]
        from countlo.visible import solutions

        return list(solutions.quiet(self.board, QUIET_LIMIT if limit is None else limit))

    def quiet_json(self) -> list[dict[str, Any]]:
        return [{"pattern": self.pairs(q), "order": o} for q, o in self.quiet_list()]

    def print_quiet(self) -> None:
        """A basis (or generators) of the quiet patterns, one line each; a big board shows sizes."""
        if self.big and isinstance(self.board, Shape) and not self.rows:
            from countlo.visible.engines import circulant_torus

            if circulant_torus.applies(self.board):  # only sizes are printed: one pattern's rows at a time
                rows, cols = self.board.rows, self.board.cols
                sizes = [sum(r.bit_count() for r in q)
                         for q in circulant_torus.quiet_rows(rows, cols, QUIET_LIMIT)]
                self._quiet_lines([(s, 2) for s in sizes], None)
                return
        gens = self.quiet_list((16 if self.big else None) if self.rows else QUIET_LIMIT)
        self._quiet_lines([(self.cells(q), o) for q, o in gens], [q for q, _o in gens])

    def _quiet_lines(self, sizes: list[tuple[int, int]], patterns: list[Pattern] | None) -> None:
        n = len(sizes)
        if self.rows:
            if not n:
                say(_("quiet patterns: a basis of 0 (none)"))
            elif self.big and n == 16:
                say(_("quiet patterns: a basis of {n} (the first 16):").format(n=n))
            else:
                say(_("quiet patterns: a basis of {n}:").format(n=n))
        elif not n:
            say(_("quiet patterns: none (every click pattern changes something)"))
            return
        elif n == QUIET_LIMIT:
            say(_("quiet patterns: {n} generators (the first {n}):").format(n=QUIET_LIMIT))
        else:
            say(ngettext("quiet patterns: {n} generator:", "quiet patterns: {n} generators:", n).format(n=n))
        for i, (size, order) in enumerate(sizes, 1):
            names = "" if self.big or patterns is None else f": {self.listing(patterns[i - 1])}"
            times = _(" (order {o})").format(o=order) if self.k > 2 else ""
            what = (ngettext("{n} button", "{n} buttons", size) if self.pressmap and not self.on_grid
                    else ngettext("{n} cell", "{n} cells", size))
            say(f"{i:>4}. " + what.format(n=size) + times + names)
