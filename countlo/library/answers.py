"""The visible game's questions for Python: solve, fewest, every solution, the quiet patterns,
the classes up to symmetry, the hardest start, and a generated puzzle, on any board under any
rules, with the rules as keywords named as the command line names them (docs/library.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from countlo.board import Shape
from countlo.graph import Board
from countlo.library.patterns import Pattern, board_of, on
from countlo.pressmap import PressMap
from countlo.rules import Rule


@dataclass(frozen=True)
class Solution:
    """The presses taking `start` to `target` (None: all dark), or when there are none the proof:
    weights whose weighted sum of the states no click changes (mod the states) and that differ
    between start and target. `exact` and `lower_bound` come with `fewest` (None otherwise).

    Examples:
        >>> import countlo
        >>> s = countlo.solve("#.#\\n.#.\\n#.#")
        >>> s.solvable, s.count
        (True, 9)
        >>> print(countlo.solve("##.\\n#..\\n..."))
        3x3 board: solvable, 1 press: A1
    """

    start: Pattern
    target: Pattern | None
    presses: Pattern | None
    proof: Pattern | None
    nullity: int
    solutions: int  # how many press patterns reach the target (0 when unsolvable)
    exact: bool | None = None
    lower_bound: int | None = None

    @property
    def solvable(self) -> bool:
        return self.presses is not None

    @property
    def count(self) -> int | None:
        """Presses counted with multiplicity (None when unsolvable)."""
        return None if self.presses is None else self.presses.count

    def __str__(self) -> str:
        where = _title(self.start.board)
        if self.presses is None:
            assert self.proof is not None
            return f"{where}: unsolvable; proof weights on {' '.join(self.proof.cells)}"
        fewest = "" if self.exact is None else " (fewest, proven)" if self.exact else (
            f" (best found; at least {self.lower_bound})")
        from countlo.formats.states import describe_values

        b = self.presses.board
        cells = describe_values([b.name(i) for i in range(b.cells)], self.presses.values)
        word = "press" if self.presses.count == 1 else "presses"
        return f"{where}: solvable, {self.presses.count} {word}{fewest}: {cells}"

    def _repr_svg_(self) -> str | None:
        """A notebook draws the start and presses (or proof) as `solve --image` does, on any
        board (None, the text instead, for a graph or press map of more nodes than a picture
        shows)."""
        b = self.start.board
        from countlo.errors import CountloError
        from countlo.formats import figures, image, netimage
        from countlo.formats.network import Network

        if not isinstance(b, Shape) or not b.rules.classic:
            try:
                drawn, spread, words = figures.drawing(b)
            except CountloError:
                return None
            target = None if self.target is None else spread(self.target.values)
            if self.presses is None:
                assert self.proof is not None
                picture = figures.unsolvable_states(drawn, spread(self.start.values), spread(self.proof.values),
                                                    target, words)
            else:
                picture = figures.solved_states(drawn, spread(self.start.values), spread(self.presses.values),
                                                target, self.exact, words)
            if isinstance(drawn, Network):
                return netimage.svg(picture, netimage.layout(picture))
            return image.svg(picture, image.layout(picture))
        start = b.to_rows(self.start.bits)
        rows = None if self.target is None else b.to_rows(self.target.bits)
        if self.presses is None:
            assert self.proof is not None
            picture = figures.unsolvable(b, start, b.to_rows(self.proof.bits), rows)
        else:
            picture = figures.solved(b, start, b.to_rows(self.presses.bits), rows, self.exact)
        return image.svg(picture, image.layout(picture))


def _title(b: Board) -> str:
    """'5x5 board', '4x4 board (torus, plus rule, 3 states)', 'graph of 3 nodes (sigma+)'."""
    if isinstance(b, PressMap):
        return b.describe()
    if not isinstance(b, Shape):
        return f"graph of {b.cells} nodes ({b.rule}{f', {b.states} states' if b.states > 2 else ''})"
    if b.rules.classic:
        return f"{b} board"
    states = f", {b.rules.states} states" if b.rules.states > 2 else ""
    return f"{b} board ({b.rules.topology}, {b.rules.rule.spec()} rule{states})"


@dataclass(frozen=True)
class Most:
    """The most presses any solvable start of a board needs: between `lower` and `upper` (equal
    when exact), and a start needing `lower` with its fewest presses (None if none was proven).

    Examples:
        >>> import countlo
        >>> m = countlo.hardest("4x4")
        >>> m.exact, m.lower, m.hardest.presses.count
        (True, 7, 7)
    """

    lower: int
    upper: int
    method: str
    hardest: Solution | None

    @property
    def exact(self) -> bool:
        return self.lower >= self.upper


@dataclass(frozen=True)
class SolutionClass:
    """One class of solutions up to the symmetries fixing start and target: a representative
    and how many solutions it stands for.

    Examples:
        >>> import countlo
        >>> first = countlo.classes([[1] * 4] * 4)[0]
        >>> first.size, first.presses.cells
        (2, ['C1', 'A2', 'D3', 'B4'])
    """

    presses: Pattern
    size: int


def _rules(kw: dict[str, Any]) -> dict[str, Any]:
    allowed = {"topology", "rule", "states", "graph"}
    unknown = set(kw) - allowed - {"target"}
    if unknown:
        raise TypeError(f"unknown rule keyword {sorted(unknown)[0]!r}: expected topology, rule, states, "
                        "graph or target")
    return {k: v for k, v in kw.items() if k in allowed}


def _problem(start: Any, kw: dict[str, Any]) -> tuple[Board, Pattern, Pattern | None]:
    """The board, start and target of `start` under the rule keywords."""
    rules = _rules(kw)
    if isinstance(start, Pattern):
        b: Board = start.board
        first = start
    else:
        first = on(board_of(None, **rules), start, "start", sized="graph" in rules and rules["graph"] is not None)
        b = first.board
    target = kw.get("target")
    if target is None or target == "dark":
        return b, first, None
    if target == "lit":
        return b, first, Pattern(b, [1] * b.cells)
    return b, first, on(b, target, "target")


def solve(start: Any, **rules: Any) -> Solution:
    """One way to take `start` to the target (all dark unless `target=` says "lit" or gives a
    pattern), or the proof that none exists.

    Examples:
        >>> import countlo
        >>> countlo.solve([[1, 1], [1, 0]]).presses.cells
        ['A1']
        >>> s = countlo.solve([[1, 0, 0]] * 3, topology="torus")
        >>> s.solvable, s.proof.cells
        (False, ['B1', 'A2', 'C2', 'B3'])
    """
    from countlo.visible import solutions

    b, first, target = _problem(start, rules)
    sol = solutions.solve(b, list(first.values), None if target is None else list(target.values))
    presses = None if sol.presses is None else Pattern(b, sol.presses)
    proof = None if sol.witness is None or presses is not None else Pattern(b, sol.witness)
    return Solution(first, target, presses, proof, sol.nullity, sol.solutions if presses else 0)


def fewest(start: Any, *, time_limit: float | None = None, **rules: Any) -> Solution:
    """The fewest presses taking `start` to the target (counted with multiplicity), proven unless
    `time_limit` seconds pass first: then the best found and a proven `lower_bound`.

    Examples:
        >>> import countlo
        >>> f = countlo.fewest([[1] * 5] * 5)
        >>> f.count, f.exact, f.lower_bound
        (15, True, 15)
        >>> import numpy as np
        >>> countlo.fewest(np.ones((4, 4), dtype=int), topology="torus", states=3).count
        7
    """
    from countlo.visible import fewest as search

    b, first, target = _problem(start, rules)
    found = search.fewest(b, list(first.values), None if target is None else list(target.values),
                          time_limit=time_limit)
    if found is None:
        return solve(first, **({"target": target} if target is not None else {}))
    plain = solve(first, **({"target": target} if target is not None else {}))
    return Solution(first, target, Pattern(b, found.presses), None, plain.nullity, plain.solutions,
                    found.exact, found.lower_bound)


def solutions(start: Any, *, limit: int | None = None, **rules: Any) -> list[Pattern]:
    """Every press pattern taking `start` to the target (at most `limit`).

    Examples:
        >>> import countlo
        >>> found = countlo.solutions([[1, 1, 0, 1, 1]] + [[0] * 5] * 4)
        >>> len(found), sorted(p.count for p in found)
        (4, [10, 10, 10, 18])
    """
    from countlo.visible import solutions as answers

    b, first, target = _problem(start, rules)
    found = answers.all_solutions(b, list(first.values), None if target is None else list(target.values), limit)
    return [Pattern(b, x) for x in found]


def quiet(size_or_board: str | Board, **rules: Any) -> list[Pattern]:
    """Generators of the press patterns that change nothing (their span is every such pattern).

    Examples:
        >>> import countlo
        >>> [q.count for q in countlo.quiet("5x5")]
        [16, 12]
    """
    from countlo.visible import solutions as answers

    b = size_or_board if not isinstance(size_or_board, str) else board_of(size_or_board, **_rules(rules))
    return [Pattern(b, q) for q, _order in answers.quiet(b)]


def hardest(size_or_board: str | Board, *, time_limit: float = 10.0, **rules: Any) -> Most:
    """The most presses any solvable start of the board needs, and a start needing them.

    Examples:
        >>> import countlo
        >>> m = countlo.hardest("3x3", topology="torus")
        >>> m.exact, m.lower, m.hardest.start.count
        (True, 3, 3)
    """
    from countlo.visible import hardest as search
    from countlo.visible import solutions as answers

    b = size_or_board if not isinstance(size_or_board, str) else board_of(size_or_board, **_rules(rules))
    h = search.hardest(b, time_limit=time_limit)
    found = None
    if h.presses is not None:
        k = answers.states(b)
        start = Pattern(b, [(-v) % k for v in answers.apply(b, [0] * b.cells, h.presses)])
        plain = solve(start)
        found = Solution(start, None, Pattern(b, h.presses), None, plain.nullity, plain.solutions, True, h.lower)
    return Most(h.lower, h.upper, h.method, found)


def classes(start: Any, **rules: Any) -> list[SolutionClass]:
    """The solutions grouped up to the symmetries of the rules that fix start and target.

    Examples:
        >>> import countlo
        >>> [(c.size, c.presses.count) for c in countlo.classes([[1] * 4] * 4)]
        [(2, 4), (4, 6), (4, 8), (4, 10), (2, 12)]
    """
    from countlo.visible.classes import classes as group

    b, first, target = _problem(start, rules)
    found = group(b, list(first.values), None if target is None else list(target.values))
    return [SolutionClass(Pattern(b, rep), size) for rep, size in found.classes]


def generate(size: str = "5x5", *, seed: int = 0, presses: int | None = None, difficulty: str | None = None,
             topology: str = "plane", rule: str | Rule = "plus", states: int = 2) -> Solution:
    """A random solvable start (uniform over all of them, or with exactly `presses` fewest
    presses, or of a `difficulty`), as the Solution of its fewest presses.

    Examples:
        >>> import countlo
        >>> g = countlo.generate("5x5", seed=7, presses=6)
        >>> g.count, g.exact
        (6, True)
    """
    import random

    from countlo.visible.generate import generator

    b = board_of(size, topology=topology, rule=rule, states=states)
    gen = generator(b, random.Random(seed))
    gen.check(presses, difficulty)
    drawn = gen.exactly(presses) if presses is not None else gen.in_band(difficulty) if difficulty \
        else gen.uniform()
    start = Pattern(b, drawn.lights)
    if drawn.presses is None:  # too many solutions to walk: any solution, not proven fewest
        return solve(start)
    plain = solve(start)
    return Solution(start, None, Pattern(b, drawn.presses), None, plain.nullity, plain.solutions, True,
                    drawn.fewest)
