"""`countlo solve` under other rules: topologies, click rules, k states, graphs and targets.

The classic game (plane, plus, two states) stays in countlo.cli.solve on the polynomial solver;
everything else comes here and goes through countlo.visible.solutions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from countlo.board import Shape
from countlo.cli.bigboard import GRID_LIMIT, big_board_note
from countlo.errors import BadRuleError, BadSizeError, BoardFormatError, CountloError
from countlo.formats.text import read_input
from countlo.graph import GRAPH_RULES, Board, Graph
from countlo.i18n import _, ngettext
from countlo.rules import Rule, Rules
from countlo.ui.rulewords import graph_text, method_words, rules_text

MIN_TIME = 60.0  # as for the classic game (countlo.cli.solve)
MOST_TIME = 10.0
ALL_LIMIT = 4096
QUIET_LIMIT = 64  # --quiet lists at most this many generators


def rule_of(text: str | None) -> Rule:
    """A named rule, or the rule drawn in the file `text`."""
    if text is None:
        return Rule.named("plus")
    key = text.strip().lower()
    if key in GRAPH_RULES:
        raise BadRuleError(_("rule {text!r} is for graphs: pass --graph FILE").format(text=text))
    try:
        return Rule.named(key)
    except BadRuleError:
        if not os.path.exists(text):
            raise
    return Rule.from_text(read_input(text), text)


def board_of(args: argparse.Namespace) -> tuple[Board, str]:
    """The board (a Shape with its rules, or a Graph) and where the start comes from."""
    if args.graph is not None:
        from countlo.formats.states import parse_graph

        if args.topology.strip().lower() != "plane":
            raise BadRuleError(_("{option} is for grids, not --graph").format(option="--topology"))
        if args.size is not None:
            raise BadRuleError(_("{option} is for grids, not --graph").format(option="--size"))
        rule = (args.rule or "sigma+").strip().lower()
        if rule not in GRAPH_RULES:
            raise BadRuleError(_("unknown graph rule {rule!r}: expected sigma (neighbours only) or sigma+ "
                                 "(neighbours and the node)").format(rule=args.rule))
        return parse_graph(read_input(args.graph), args.graph).with_rule(rule, args.states), "graph"
    rules = Rules.make(args.topology, rule_of(args.rule), args.states)
    size = Shape.parse(args.size) if args.size is not None else None
    return Shape(size.rows, size.cols, rules) if size else Shape(1, 1, rules), "grid"


def run(args: argparse.Namespace) -> int:
    board, kind = board_of(args)
    sized = kind == "graph" or args.size is not None
    sources = [name for name, given in (("FILE", args.file is not None),
                                        ("--lit", args.lit is not None),
                                        ("--all-on", args.all_on)) if given]
    if len(sources) > 1:
        raise CountloError(_("give one start, not {sources}").format(sources=_(" and ").join(sources)))
    if getattr(args, "most", False):
        if sources or args.to is not None or args.target == "lit":
            raise CountloError(_("--most is about every start of one board: give only --size RxC or "
                                 "--graph FILE"))
        if not sized:
            raise BadSizeError(_("--most needs --size RxC or --graph FILE"))
        return _most(board, args)
    if args.limit is not None and not args.all:
        raise CountloError(_("--limit only applies with --all"))
    if sized:
        _check_size(board, args)
    if args.lit is not None or args.all_on:
        if not sized:
            raise BadSizeError(_("{option} needs --size RxC").format(
                option="--lit" if args.lit is not None else "--all-on"))
        start = _lit(args.lit, board) if args.lit is not None else [1] * board.cells
    else:
        if args.file is None and sys.stdin.isatty():  # piped, it is the start (as on the classic path)
            raise CountloError(_("no start given: pass FILE, '-' for stdin, --lit or --all-on"))
        where = "stdin" if args.file in (None, "-") else args.file
        board, start = start_values(board, read_input(args.file), where, args.size is not None)
    _check_size(board, args)
    target: list[int] | None = None
    if args.to is not None:
        _board, target = start_values(board, read_input(args.to), args.to, True)
    elif args.target == "lit":
        target = [1] * board.cells
    return _Answer(board, start, target, args).run()


def _check_size(board: Board, args: argparse.Namespace) -> None:
    """Refuse, in one line and before any work, a board too large: `solve` alone goes further
    on the torus with the plus rule (countlo.visible.engines.circulant_torus) than the options that list
    quiet patterns or solutions."""
    from countlo.visible import solutions

    solutions.check_size(board)
    if board.cells > solutions.MAX_CELLS:
        for flag, on in (("--min", args.min), ("--all", args.all), ("--classes", args.classes),
                         ("--quiet", args.quiet), ("--full", args.full)):
            if on:
                raise BadSizeError(_("{option} works on boards of at most {most} cells under other rules; "
                                     "{board} has {cells}").format(option=flag, most=solutions.MAX_CELLS,
                                                                   board=board, cells=board.cells))


def start_values(board: Board, text: str, where: str, sized: bool) -> tuple[Board, list[int]]:
    from countlo.formats.states import parse_graph_state, parse_grid

    if isinstance(board, Graph):
        return board, parse_graph_state(text, board, where)
    rows, cols, values = parse_grid(text, board.rules.states, where)
    if sized and (rows, cols) != (board.rows, board.cols):
        raise BoardFormatError(_("{where} holds a {rows}x{cols} board, the board is {board}").format(
            where=where, rows=rows, cols=cols, board=board))
    return Shape(rows, cols, board.rules), values


def _lit(text: str, board: Board) -> list[int]:
    from countlo.formats.textgrid import lit_items, parse_lit

    out = [0] * board.cells
    if isinstance(board, Graph):
        index = {n: i for i, n in enumerate(board.nodes)}
        for item in lit_items(text):
            if item not in index:
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


class _Answer:
    def __init__(self, board: Board, start: list[int], target: list[int] | None,
                 args: argparse.Namespace):
        self.board, self.start, self.target, self.args = board, start, target, args
        self.k = board.rules.states if isinstance(board, Shape) else board.states
        self.grid = isinstance(board, Shape)
        self.big = self.grid and not args.full and (
            board.rows > GRID_LIMIT or board.cols > GRID_LIMIT)  # type: ignore[union-attr]

    # --- words ----------------------------------------------------------------------------
    def title(self) -> str:
        b = self.board
        if isinstance(b, Shape):
            return _("{shape} board ({rules})").format(shape=b, rules=rules_text(b.rules))
        return graph_text(b)

    def names(self) -> list[str]:
        return [self.board.name(i) for i in range(self.board.cells)]

    def listing(self, values: Sequence[int]) -> str:
        from countlo.formats.states import describe_values

        return describe_values(self.names(), values)

    def pairs(self, values: Sequence[int]) -> list[list[Any]]:
        if isinstance(self.board, Shape):
            c = self.board.cols
            return [[i // c + 1, i % c + 1, v] for i, v in enumerate(values) if v]
        return [[self.board.nodes[i], v] for i, v in enumerate(values) if v]

    def grids(self, items: list[tuple[str, Sequence[int]]]) -> None:
        from countlo.formats.states import panels

        if isinstance(self.board, Shape) and not self.big:
            print(panels(self.board, items), end="")

    # --- run ----------------------------------------------------------------------------------
    def run(self) -> int:
        from countlo.visible import solutions

        sol = solutions.solve(self.board, self.start, self.target)
        if not sol.solvable:
            self.unsolvable(sol)
            return 1
        assert sol.presses is not None
        presses, exact = sol.presses, None
        extra: dict[str, Any] = {}
        a = self.args
        if a.min:
            import time

            from countlo.cli.status import clear_status, status_line
            from countlo.visible.fewest_general import fewest

            limit = MIN_TIME if a.time_limit is None else a.time_limit
            began = time.monotonic()
            found = fewest(self.board, self.start, self.target, time_limit=limit,
                           progress=status_line(str(sol.solutions) if sol.solutions < 10 ** 12
                                                            else _("more than 10^12")))
            clear_status()
            assert found is not None
            presses, exact = found.presses, found.exact
            extra["lower_bound"] = found.lower_bound
            if found.stopped and not found.exact:
                extra["stopped"] = _("best found in {s} s").format(s=f"{time.monotonic() - began:.0f}")
        elif a.all:
            if a.limit is None and sol.solutions > ALL_LIMIT:
                raise CountloError(_("the start has {n} solutions; pass --limit N to list N of them").format(
                    n=sol.solutions))
            extra["solutions"] = list(solutions.all_solutions(self.board, self.start, self.target,
                                                            a.limit))
        elif a.classes:
            from countlo.visible.classes_general import classes

            found_classes, group, order = classes(self.board, self.start, self.target)
            extra["classes"], extra["group"], extra["order"] = found_classes, group, order
        if a.out:
            self.write(presses)
        self.solved(sol, presses, exact, extra)
        return 0

    def write(self, presses: Sequence[int]) -> None:
        from countlo.formats.states import format_grid

        if isinstance(self.board, Shape):
            text = format_grid(self.board, presses)
        else:
            text = "\n".join(f"{n}={v}" if v != 1 else n
                             for n, v in zip(self.board.nodes, presses) if v) + "\n"
        from countlo.formats.output import write_text

        write_text(self.args.out, "--out", text)

    def head(self) -> dict[str, Any]:
        b = self.board
        if isinstance(b, Shape):
            return {"rows": b.rows, "cols": b.cols, "topology": b.rules.topology,
                    "rule": b.rules.rule.name, "states": self.k}
        return {"nodes": list(b.nodes), "rule": b.rule, "states": self.k}

    def quiet_list(self) -> list[tuple[list[int], int]]:
        from countlo.visible import solutions

        return solutions.quiet(self.board, QUIET_LIMIT)

    def unsolvable(self, sol: Any) -> None:
        w = sol.witness
        before = sum(a * b for a, b in zip(w, self.start)) % self.k
        after = sum(a * b for a, b in zip(w, self.target or [0] * len(w))) % self.k
        if self.args.json:
            out = dict(self.head(), solvable=False, quiet_orders=list(sol.orders),
                       nullity=sol.nullity, presses=None, count=None,
                       witness=None if self.big else self.pairs(w),
                       start_sum=before, target_sum=after)
            if self.args.quiet:
                out["quiet"] = [{"pattern": self.pairs(q), "order": o}
                                for q, o in self.quiet_list()]
            print(json.dumps(out))
            return
        print(_("{title}: unsolvable; {quiet}.").format(title=self.title(), quiet=quiet_words(sol.orders, self.k)))
        if self.k == 2:
            print(_("Proof: every click changes an even number of the cells marked W, so the number of lit "
                    "W cells keeps its parity: it is {now} now and {target} for the target.").format(
                        now=_("odd") if before else _("even"), target=_("odd") if after else _("even")))
        else:
            print(_("Proof: weigh each cell by the number shown under W; every click adds a multiple of "
                    "{k} to the weighted sum of the states, so that sum mod {k} never changes: it is "
                    "{now} now and {target} for the target.").format(k=self.k, now=before, target=after))
        self.grids([(_("start"), self.start), (_("weights W"), w)])
        if not self.big:
            print(_("weights: {cells}").format(cells=self.listing(w)))
        if self.args.quiet:
            self.print_quiet()

    def solved(self, sol: Any, presses: Sequence[int], exact: bool | None,
               extra: dict[str, Any]) -> None:
        count = sum(presses)
        if self.args.json:
            out = dict(self.head(), solvable=True, quiet_orders=list(sol.orders),
                       nullity=sol.nullity, solutions=sol.solutions,
                       presses=None if self.big else self.pairs(presses),
                       count=count)
            if exact is not None:
                out["exact"] = exact
                out["lower_bound"] = extra["lower_bound"]
            if "solutions" in extra:
                out["all"] = [self.pairs(x) for x in extra["solutions"]]
            if "classes" in extra:
                out["classes"] = [{"presses": self.pairs(r), "size": s}
                                  for r, s in extra["classes"]]
                out["symmetries"] = extra["group"]
                out["group_order"] = extra["order"]
            if self.args.quiet:
                out["quiet"] = [{"pattern": self.pairs(q), "order": o}
                                for q, o in self.quiet_list()]
            print(json.dumps(out))
            return
        if exact is not None:
            kind = ngettext("{n} fewest press", "{n} fewest presses", count).format(n=count)
        else:
            kind = ngettext("{n} press", "{n} presses", count).format(n=count)
        note = "" if exact is None else _(" (exact minimum)") if exact else _(
            " ({why}; the minimum is at least {low})").format(why=extra.get("stopped") or _("best found"),
                                                             low=extra["lower_bound"])
        mult = _(" counted with multiplicity") if self.k > 2 else ""
        many = _("the only solution") if sol.solutions == 1 else ngettext(
            "{n} solution", "{n} solutions", sol.solutions).format(n=sol.solutions) if (
            sol.solutions < 10 ** 12) else _("more than 10^12 solutions")
        print(_("{title}: solvable, {presses}{mult}{note}; {quiet}, {many}.").format(
            title=self.title(), presses=kind, mult=mult, note=note, quiet=quiet_words(sol.orders, self.k),
            many=many))
        if self.big:
            print(big_board_note(self.args.out))
        else:
            items: list[tuple[str, Sequence[int]]] = [(_("start"), self.start)]
            if self.target is not None:
                items.append((_("target"), self.target))
            self.grids(items + [(_("presses"), presses)])
            print(_("presses: {cells}").format(cells=self.listing(presses)))
        if "solutions" in extra:
            n = len(extra["solutions"])
            if n == sol.solutions:
                print(ngettext("all {n} solution:", "all {n} solutions:", n).format(n=n))
            else:
                print(ngettext("the first {n} solution:", "the first {n} solutions:", n).format(n=n))
            for i, x in enumerate(extra["solutions"], 1):
                names = "" if self.big else f": {self.listing(x)}"
                print(f"{i:>4}. " + ngettext("{n} press", "{n} presses", sum(x)).format(n=sum(x)) + names)
        if "classes" in extra:
            classes, group = len(extra["classes"]), len(extra["group"])
            if not self.grid:  # classes_general groups a graph by the identity only
                print(ngettext("{n} class, one per solution: graph automorphisms are not searched, so only "
                               "the identity groups them.",
                               "{n} classes, one per solution: graph automorphisms are not searched, so "
                               "only the identity groups them.", classes).format(n=classes))
            elif extra["order"] is None:
                from countlo.visible.classes_general import GROUP_LIMIT

                print(ngettext("{n} class under the group (of more than {most} symmetries) generated by the "
                               "{g} symmetries of the rules fixing start and target:",
                               "{n} classes under the group (of more than {most} symmetries) generated by the "
                               "{g} symmetries of the rules fixing start and target:",
                               classes).format(n=classes, g=group, most=GROUP_LIMIT))
            elif extra["order"] > group:
                print(ngettext("{n} class under the group of {o} symmetries generated by the {g} symmetries "
                               "of the rules fixing start and target:",
                               "{n} classes under the group of {o} symmetries generated by the {g} symmetries "
                               "of the rules fixing start and target:",
                               classes).format(n=classes, o=extra["order"], g=group))
            elif group == 1:
                print(ngettext("{n} class, one per solution: no symmetry of the rules but the identity "
                               "fixes start and target.",
                               "{n} classes, one per solution: no symmetry of the rules but the identity "
                               "fixes start and target.", classes).format(n=classes))
            else:
                print(ngettext("{n} class under the {g} symmetries of the rules fixing start and target:",
                               "{n} classes under the {g} symmetries of the rules fixing start and target:",
                               classes).format(n=classes, g=group))
            for i, (rep, size) in enumerate(extra["classes"], 1):
                names = "" if self.big else f": {self.listing(rep)}"
                print(f"{i:>4}. " + ngettext("class of {size}, {n} press", "class of {size}, {n} presses",
                                             sum(rep)).format(size=size, n=sum(rep)) + names)
        if self.args.quiet:
            self.print_quiet()

    def print_quiet(self) -> None:
        if self.big and isinstance(self.board, Shape):
            from countlo.visible.engines import circulant_torus

            if circulant_torus.applies(self.board):  # only sizes are printed: one pattern's rows at a time
                rows, cols = self.board.rows, self.board.cols
                sizes = [sum(r.bit_count() for r in q) for q in circulant_torus.quiet_rows(rows, cols, QUIET_LIMIT)]
                self.print_quiet_sizes(sizes)
                return
        gens = self.quiet_list()
        if not gens:
            print(_("quiet patterns: none (every click pattern changes something)"))
            return
        if len(gens) == QUIET_LIMIT:
            print(_("quiet patterns: {n} generators (the first {n}):").format(n=QUIET_LIMIT))
        else:
            print(ngettext("quiet patterns: {n} generator:", "quiet patterns: {n} generators:",
                           len(gens)).format(n=len(gens)))
        for i, (q, o) in enumerate(gens, 1):
            names = "" if self.big else f": {self.listing(q)}"
            order = _(" (order {o})").format(o=o) if self.k > 2 else ""
            n = sum(1 for v in q if v)
            print(f"{i:>4}. " + ngettext("{n} cell", "{n} cells", n).format(n=n) + order + names)

    def print_quiet_sizes(self, sizes: list[int]) -> None:
        """The --quiet list of a big two-state board, where only each pattern's size is shown."""
        if not sizes:
            print(_("quiet patterns: none (every click pattern changes something)"))
            return
        if len(sizes) == QUIET_LIMIT:
            print(_("quiet patterns: {n} generators (the first {n}):").format(n=QUIET_LIMIT))
        else:
            print(ngettext("quiet patterns: {n} generator:", "quiet patterns: {n} generators:",
                           len(sizes)).format(n=len(sizes)))
        for i, n in enumerate(sizes, 1):
            print(f"{i:>4}. " + ngettext("{n} cell", "{n} cells", n).format(n=n))


def _most(board: Board, args: argparse.Namespace) -> int:
    """`--most`: the most presses any solvable start of this board needs (the covering radius
    of the quiet patterns, docs/MATH.md §17 and §23), and a start needing it."""
    from countlo.visible import solutions
    from countlo.visible.fewest_general import hardest

    limit = MOST_TIME if args.time_limit is None else args.time_limit
    h = hardest(board, time_limit=limit)
    answer = _Answer(board, [0] * board.cells, None, args)
    k = answer.k
    start = None
    if h.presses is not None:
        start = [(-v) % k for v in solutions.apply(board, [0] * board.cells, h.presses)]
    if args.out and start is not None:
        from countlo.formats.states import format_grid

        if isinstance(board, Shape):
            text = format_grid(board, start)
        else:
            text = "\n".join(f"{n}={v}" if v != 1 else n
                             for n, v in zip(board.nodes, start) if v) + "\n"
        from countlo.formats.output import write_text

        write_text(args.out, "--out", text)
    if args.json:
        print(json.dumps(dict(answer.head(), most=h.lower if h.exact else None, exact=h.exact,
                              lower_bound=h.lower, upper_bound=h.upper, method=h.method,
                              start=None if start is None else answer.pairs(start),
                              presses=None if h.presses is None else answer.pairs(h.presses),
                              count=None if h.presses is None else h.lower)))
        return 0
    mult = _(" counted with multiplicity") if k > 2 else ""
    if h.exact:
        print(ngettext("{title}: the hardest solvable starts need {n} press{mult} (exact; {method}).",
                       "{title}: the hardest solvable starts need {n} presses{mult} (exact; {method}).",
                       h.lower).format(title=answer.title(), n=h.lower, mult=mult, method=method_words(h.method)))
    elif start is None:
        print(_("{title}: the hardest solvable starts need between {low} and {high} presses{mult} "
                "({method}); no start is shown: none had its fewest presses proven in time.").format(
                    title=answer.title(), low=h.lower, high=h.upper, mult=mult, method=method_words(h.method)))
    else:
        print(_("{title}: the hardest solvable starts need between {low} and {high} presses{mult} "
                "({method}); this start needs {low}:").format(
                    title=answer.title(), low=h.lower, high=h.upper, mult=mult, method=method_words(h.method)))
    if start is None or h.presses is None:
        return 0
    answer.grids([(_("start"), start), (_("fewest presses"), h.presses)])
    if not answer.big:
        if isinstance(board, Graph):
            print(_("start: {cells}").format(cells=answer.listing(start)))
        print(_("presses: {cells}").format(cells=answer.listing(h.presses)))
    return 0
