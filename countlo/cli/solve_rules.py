"""`countlo solve` under other rules: topologies, click rules, k states, graphs and targets.

The classic game (plane, plus, two states) stays in countlo.cli.solve on the polynomial solver;
everything else comes here and goes through countlo.classic.general.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Sequence
from typing import Any

from countlo.board import Shape
from countlo.errors import BadRuleError, BadSizeError, BoardFormatError, CountloError
from countlo.graph import GRAPH_RULES, Graph
from countlo.rules import Rule, Rules

GRID_LIMIT = 64
MIN_TIME = 60.0  # as for the classic game (countlo.cli.solve)
MOST_TIME = 10.0
ALL_LIMIT = 4096
QUIET_LIMIT = 64  # --quiet lists at most this many generators
Board = Shape | Graph


def rule_of(text: str | None) -> Rule:
    """A named rule, or the rule drawn in the file `text`."""
    if text is None:
        return Rule.named("plus")
    key = text.strip().lower()
    if key in GRAPH_RULES:
        raise BadRuleError(f"rule {text!r} is for graphs: pass --graph FILE")
    try:
        return Rule.named(key)
    except BadRuleError:
        if not os.path.exists(text):
            raise
    return Rule.from_text(_read(text), text)


def board_of(args: argparse.Namespace) -> tuple[Board, str]:
    """The board (a Shape with its rules, or a Graph) and where the start comes from."""
    if args.graph is not None:
        from countlo.formats.states import parse_graph

        if args.topology.strip().lower() != "plane":
            raise BadRuleError("--topology is for grids, not --graph")
        if args.size is not None:
            raise BadRuleError("--size is for grids, not --graph")
        rule = (args.rule or "sigma+").strip().lower()
        if rule not in GRAPH_RULES:
            raise BadRuleError(f"unknown graph rule {args.rule!r}: expected sigma (neighbours "
                               "only) or sigma+ (neighbours and the node)")
        return parse_graph(_read(args.graph), args.graph).with_rule(rule, args.states), "graph"
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
        raise CountloError(f"give one start, not {' and '.join(sources)}")
    if getattr(args, "most", False):
        if sources or args.to is not None or args.target == "lit":
            raise CountloError("--most is about every start of one board: give only --size RxC "
                               "or --graph FILE")
        if not sized:
            raise BadSizeError("--most needs --size RxC or --graph FILE")
        return _most(board, args)
    if args.limit is not None and not args.all:
        raise CountloError("--limit only applies with --all")
    if args.lit is not None or args.all_on:
        if not sized:
            raise BadSizeError(f"{'--lit' if args.lit is not None else '--all-on'} needs --size RxC")
        start = _lit(args.lit, board) if args.lit is not None else [1] * board.cells
    else:
        if args.file is None:
            raise CountloError("no start given: pass FILE, '-' for stdin, --lit or --all-on")
        where = "stdin" if args.file == "-" else args.file
        board, start = _values(board, _read(args.file), where, args.size is not None)
    target: list[int] | None = None
    if args.to is not None:
        _, target = _values(board, _read(args.to), args.to, True)
    elif args.target == "lit":
        target = [1] * board.cells
    return _Answer(board, start, target, args).run()


def _values(board: Board, text: str, where: str, sized: bool) -> tuple[Board, list[int]]:
    from countlo.formats.states import parse_graph_state, parse_grid

    if isinstance(board, Graph):
        return board, parse_graph_state(text, board, where)
    rows, cols, values = parse_grid(text, board.rules.states, where)
    if sized and (rows, cols) != (board.rows, board.cols):
        raise BoardFormatError(f"{where} holds a {rows}x{cols} board, the board is {board}")
    return Shape(rows, cols, board.rules), values


def _lit(text: str, board: Board) -> list[int]:
    out = [0] * board.cells
    if isinstance(board, Graph):
        index = {n: i for i, n in enumerate(board.nodes)}
        for item in text.replace(",", " ").split():
            if item not in index:
                raise BoardFormatError(f"--lit: unknown node {item!r}")
            out[index[item]] = 1
        return out
    from countlo.formats.textgrid import parse_lit

    for r, row in enumerate(parse_lit(text, board)):
        for c in range(board.cols):
            if row >> c & 1:
                out[r * board.cols + c] = 1
    return out


def _read(path: str) -> str:
    import sys

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise BoardFormatError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


def quiet_words(orders: Sequence[int], k: int) -> str:
    """'nullity 2 (4 quiet patterns)' for prime k; the group's shape otherwise."""
    size = math.prod(orders)
    if all(o == k for o in orders):
        many = f"{k}^{len(orders)} = {size}" if len(orders) > 1 and size < 10 ** 12 else (
            str(size) if size < 10 ** 12 else f"{k}^{len(orders)}")
        return f"nullity {len(orders)} ({many} quiet pattern{'s' * (size != 1)})"
    parts = " x ".join(f"Z{o}" for o in orders)
    shown = str(size) if size < 10 ** 12 else "many"
    return f"{shown} quiet patterns (the group {parts})"


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
            return f"{b} board ({b.rules.describe()})"
        return b.describe()

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
        from countlo.classic import general

        sol = general.solve(self.board, self.start, self.target)
        if not sol.solvable:
            self.unsolvable(sol)
            return 1
        assert sol.presses is not None
        presses, exact = sol.presses, None
        extra: dict[str, Any] = {}
        a = self.args
        if a.min:
            import time

            from countlo.classic.anymin import fewest

            limit = MIN_TIME if a.time_limit is None else a.time_limit
            began = time.monotonic()
            found = fewest(self.board, self.start, self.target, time_limit=limit,
                           progress=_status_line(sol.solutions))
            _clear_status()
            assert found is not None
            presses, exact = found.presses, found.exact
            extra["lower_bound"] = found.lower_bound
            if found.stopped and not found.exact:
                extra["stopped"] = f"best found in {time.monotonic() - began:.0f} s"
        elif a.all:
            if a.limit is None and sol.solutions > ALL_LIMIT:
                raise CountloError(f"the start has {sol.solutions} solutions; pass --limit N to "
                                   "list N of them")
            extra["solutions"] = list(general.all_solutions(self.board, self.start, self.target,
                                                            a.limit))
        elif a.classes:
            from countlo.classic.variant_classes import classes

            found_classes, group = classes(self.board, self.start, self.target)
            extra["classes"], extra["group"] = found_classes, group
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
        try:
            with open(self.args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CountloError(f"cannot write {self.args.out}: {e.strerror}") from None

    def head(self) -> dict[str, Any]:
        b = self.board
        if isinstance(b, Shape):
            return {"rows": b.rows, "cols": b.cols, "topology": b.rules.topology,
                    "rule": b.rules.rule.name, "states": self.k}
        return {"nodes": list(b.nodes), "rule": b.rule, "states": self.k}

    def quiet_list(self) -> list[tuple[list[int], int]]:
        from countlo.classic import general

        return general.quiet(self.board, QUIET_LIMIT)

    def unsolvable(self, sol: Any) -> None:
        w = sol.witness
        before = sum(a * b for a, b in zip(w, self.start)) % self.k
        after = sum(a * b for a, b in zip(w, self.target or [0] * len(w))) % self.k
        if self.args.json:
            out = dict(self.head(), solvable=False, quiet_orders=list(sol.orders),
                       nullity=sol.nullity, presses=None, count=None, witness=self.pairs(w),
                       start_sum=before, target_sum=after)
            if self.args.quiet:
                out["quiet"] = [{"pattern": self.pairs(q), "order": o}
                                for q, o in self.quiet_list()]
            print(json.dumps(out))
            return
        print(f"{self.title()}: unsolvable; {quiet_words(sol.orders, self.k)}.")
        if self.k == 2:
            print("Proof: every click changes an even number of the cells marked W, so the "
                  f"number of lit W cells keeps its parity: it is {'odd' if before else 'even'} "
                  f"now and {'odd' if after else 'even'} for the target.")
        else:
            print(f"Proof: weigh each cell by the number shown under W; every click adds a "
                  f"multiple of {self.k} to the weighted sum of the states, so that sum mod "
                  f"{self.k} never changes: it is {before} now and {after} for the target.")
        self.grids([("start", self.start), ("weights W", w)])
        if not self.big:
            print(f"weights: {self.listing(w)}")
        if self.args.quiet:
            self.print_quiet()

    def solved(self, sol: Any, presses: Sequence[int], exact: bool | None,
               extra: dict[str, Any]) -> None:
        count = sum(presses)
        if self.args.json:
            out = dict(self.head(), solvable=True, quiet_orders=list(sol.orders),
                       nullity=sol.nullity, solutions=sol.solutions, presses=self.pairs(presses),
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
            if self.args.quiet:
                out["quiet"] = [{"pattern": self.pairs(q), "order": o}
                                for q, o in self.quiet_list()]
            print(json.dumps(out))
            return
        kind = "fewest presses" if exact is not None else "presses"
        note = "" if exact is None else " (exact minimum)" if exact else (
            f" ({extra.get('stopped') or 'best found'}; the minimum is at least "
            f"{extra['lower_bound']})")
        mult = " counted with multiplicity" if self.k > 2 else ""
        many = "the only solution" if sol.solutions == 1 else f"{sol.solutions} solutions" if (
            sol.solutions < 10 ** 12) else "more than 10^12 solutions"
        print(f"{self.title()}: solvable, {count} {kind}{mult}{note}; "
              f"{quiet_words(sol.orders, self.k)}, {many}.")
        if self.big:
            print(f"(board larger than {GRID_LIMIT}x{GRID_LIMIT}: pass --full to print the grid "
                  "and press list, or --out FILE to save the press grid)")
        else:
            items: list[tuple[str, Sequence[int]]] = [("start", self.start)]
            if self.target is not None:
                items.append(("target", self.target))
            self.grids(items + [("presses", presses)])
            print(f"presses: {self.listing(presses)}")
        if "solutions" in extra:
            n = len(extra["solutions"])
            print(f"{'all' if n == sol.solutions else 'the first'} {n} solutions:")
            for i, x in enumerate(extra["solutions"], 1):
                names = "" if self.big else f": {self.listing(x)}"
                print(f"{i:>4}. {sum(x)} presses{names}")
        if "classes" in extra:
            print(f"{len(extra['classes'])} classes under the {len(extra['group'])} symmetries "
                  f"of the rules fixing start and target:")
            for i, (rep, size) in enumerate(extra["classes"], 1):
                names = "" if self.big else f": {self.listing(rep)}"
                print(f"{i:>4}. class of {size}, {sum(rep)} presses{names}")
        if self.args.quiet:
            self.print_quiet()

    def print_quiet(self) -> None:
        gens = self.quiet_list()
        if not gens:
            print("quiet patterns: none (every click pattern changes something)")
            return
        print(f"quiet patterns: {len(gens)} generator{'s' * (len(gens) != 1)}"
              f"{' (the first ' + str(QUIET_LIMIT) + ')' if len(gens) == QUIET_LIMIT else ''}:")
        for i, (q, o) in enumerate(gens, 1):
            names = "" if self.big else f": {self.listing(q)}"
            order = f" (order {o})" if self.k > 2 else ""
            print(f"{i:>4}. {sum(1 for v in q if v)} cells{order}{names}")


def _status_line(solutions: int) -> Any:
    """A progress callback writing one self-overwriting line to stderr, when it is a terminal."""
    import sys

    if not sys.stderr.isatty():
        return None
    many = str(solutions) if solutions < 10 ** 12 else "more than 10^12"

    def show(st: Any) -> None:
        frac = st.done / st.total
        left = st.elapsed * (1 - frac) / frac if frac else 0.0
        sys.stderr.write(f"\r\x1b[Ksearching {many} solutions: {100 * frac:.1f}% done, best "
                         f"{st.best} presses, {st.elapsed:.0f} s, about {left:.0f} s left "
                         "(Ctrl-C stops with the best so far)")
        sys.stderr.flush()

    return show


def _clear_status() -> None:
    import sys

    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def _most(board: Board, args: argparse.Namespace) -> int:
    """`--most`: the most presses any solvable start of this board needs (the covering radius
    of the quiet patterns, docs/MATH.md §17 and §23), and a start needing it."""
    from countlo.classic import general
    from countlo.classic.anymin import hardest

    limit = MOST_TIME if args.time_limit is None else args.time_limit
    h = hardest(board, time_limit=limit)
    answer = _Answer(board, [0] * board.cells, None, args)
    k = answer.k
    start = None
    if h.presses is not None:
        start = [(-v) % k for v in general.apply(board, [0] * board.cells, h.presses)]
    if args.out and start is not None:
        from countlo.formats.states import format_grid

        if isinstance(board, Shape):
            text = format_grid(board, start)
        else:
            text = "\n".join(f"{n}={v}" if v != 1 else n
                             for n, v in zip(board.nodes, start) if v) + "\n"
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CountloError(f"cannot write {args.out}: {e.strerror}") from None
    if args.json:
        print(json.dumps(dict(answer.head(), most=h.lower if h.exact else None, exact=h.exact,
                              lower_bound=h.lower, upper_bound=h.upper, method=h.method,
                              start=None if start is None else answer.pairs(start),
                              presses=None if h.presses is None else answer.pairs(h.presses),
                              count=None if h.presses is None else h.lower)))
        return 0
    mult = " counted with multiplicity" if k > 2 else ""
    if h.exact:
        print(f"{answer.title()}: the hardest solvable starts need {h.lower} presses{mult} "
              f"(exact; {h.method}).")
    else:
        print(f"{answer.title()}: the hardest solvable starts need between {h.lower} and "
              f"{h.upper} presses{mult} ({h.method})" + (
                  "; no start is shown: none had its fewest presses proven in time."
                  if start is None else f"; this start needs {h.lower}:"))
    if start is None or h.presses is None:
        return 0
    answer.grids([("start", start), ("fewest presses", h.presses)])
    if not answer.big:
        if isinstance(board, Graph):
            print(f"start: {answer.listing(start)}")
        print(f"presses: {answer.listing(h.presses)}")
    return 0
