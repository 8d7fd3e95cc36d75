"""Random solvable boards under any rules: topologies, click rules, k states, graphs, targets
(docs/MATH.md §21 for the classic game, §23 for this one).

A click on cell j adds column j of the click map A to the lights (mod k), so a start s reaches
the target t after presses x (x_j = 0..k-1 times) iff s + A x = t. A press vector x drawn
uniformly from Z_k^n gives A x uniform over the image of A (a group homomorphism pushes the
uniform distribution onto the uniform one on its image), so s = t - A x is uniform over the
starts that can reach t: the solvable boards. Their presses are x + Q, Q the quiet patterns, and
the fewest-press count (with multiplicity: a cell pressed twice counts 2) is the lightest of them.

For "fewest presses exactly N": x is drawn uniformly among the vectors of total N (entries
0..k-1; a table of how many ways each remaining total can be made) and s = t - A x is kept with
probability 1/m(s) when no solution of s is lighter than N, m(s) the number of its N-press
solutions; every such s is then kept with the same probability (as in §21).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from countlo.errors import BadSizeError, CountloError
from countlo.graph import Board
from countlo.i18n import _, ngettext
from countlo.visible import solutions
from countlo.visible.generate import TRIES, NoSuchBoardError, band_of, draw_in_band, presses_words
from countlo.visible.generate import coset as coset_bits

MAX_CELLS = 1 << 16  # a press vector and a start of this many cells per board, in Python lists
MAX_QUIET = {2: 1 << 16}  # solutions walked per board for the exact fewest (k = 2: bitsets)
MAX_QUIET_K = 1 << 12  # k > 2: the walk builds a vector per solution
MAX_TABLE = 1 << 22  # entries of the table that draws a press vector of a given total


@dataclass(frozen=True)
class Drawn:
    """One board: its values in reading order, one fewest-press solution and its press count
    (both None when the board has too many solutions to walk)."""

    lights: list[int]
    presses: list[int] | None
    fewest: int | None


def band(cells: int, k: int, difficulty: str) -> tuple[int, int]:
    """(lo, hi) fewest-press counts of a difficulty: the classic bands (§21) scaled by the most
    presses a board can need counted with multiplicity, M = (k - 1) cells."""
    return band_of((k - 1) * cells, difficulty, None)


class RulesGenerator:
    """Seeded solvable boards of one board (a Shape with its rules, or a Graph) for one target."""

    def __init__(self, board: Board, rng: random.Random, target: Sequence[int] | None = None):
        if board.cells > MAX_CELLS:
            raise BadSizeError(_("generate under other rules makes boards of at most {most} cells; {board} has "
                                 "{cells}").format(most=f"{MAX_CELLS:,}", board=board, cells=f"{board.cells:,}"))
        self.board, self.rng = board, rng
        self.k = solutions.states(board)
        self.n = board.cells
        self.target = list(target) if target is not None else [0] * self.n
        solutions.check_vector(board, self.target, "the target")
        self.orders = solutions.orders(board)
        self.solutions = math.prod(self.orders)
        limit = MAX_QUIET.get(self.k, MAX_QUIET_K)
        self.gens = solutions.quiet(board) if self.solutions <= limit else None
        self._ways: dict[int, list[list[int]]] = {}

    # --- one board from a press vector ---------------------------------------------------
    def start_of(self, x: Sequence[int]) -> list[int]:
        """t - A x: the start that x presses turn into the target."""
        ax = solutions.apply(self.board, [0] * self.n, x)
        return [(t - a) % self.k for t, a in zip(self.target, ax)]

    def _coset(self, x: Sequence[int]) -> Iterator[list[int]]:
        """Every press vector x + q, q a quiet pattern: generator i is added once per step, and
        after its order o_i steps (o_i g_i = 0 mod k) the vector is back where it started, so
        each member costs one vector addition."""
        assert self.gens is not None
        k, gens = self.k, self.gens

        def walk(i: int, y: list[int]) -> Iterator[list[int]]:
            if i == len(gens):
                yield y
                return
            g, order = gens[i]
            for step in range(order):
                yield from walk(i + 1, y)
                if step + 1 < order:
                    y = [(a + t) % k for a, t in zip(y, g)]

        yield from walk(0, list(x))

    def lightest(self, x: Sequence[int]) -> tuple[int, int, list[int]]:
        """(fewest presses, how many solutions have that many, one of them) over x + Q."""
        if self.solutions == 1:
            return sum(x), 1, list(x)
        if self.k == 2:
            assert self.gens is not None
            w, m, bits = coset_bits(_pack(x), [_pack(g) for g, _order in self.gens])
            return w, m, [bits >> j & 1 for j in range(self.n)]
        best_w, count, best = sum(x) + 1, 0, list(x)
        for y in self._coset(x):
            w = sum(y)
            if w < best_w:
                best_w, count, best = w, 1, y
            elif w == best_w:
                count += 1
        return best_w, count, best

    def _need_walk(self, option: str) -> None:
        if self.gens is None:
            raise CountloError(_("{option} needs the exact fewest presses of each board, found by walking all of "
                                 "its {solutions} solutions; at most {most} here").format(
                option=option, solutions=self.solutions, most=MAX_QUIET.get(self.k, MAX_QUIET_K)))

    # --- the draws ----------------------------------------------------------------------------
    def uniform(self) -> Drawn:
        """A board drawn uniformly from the solvable ones (with its fewest presses when its
        solutions can be walked)."""
        x = [self.rng.randrange(self.k) for _cell in range(self.n)]
        start = self.start_of(x)
        if self.gens is None:
            return Drawn(start, None, None)
        w, _count, best = self.lightest(x)
        return Drawn(start, best, w)

    def check(self, presses: int | None = None, difficulty: str | None = None) -> None:
        """Refuse up front what `exactly(presses)` / `in_band(difficulty)` cannot do."""
        most = (self.k - 1) * self.n
        if presses is not None:
            if not 1 <= presses <= most:
                message = _("--presses {n}: this board needs 1 to {most} presses (counted with multiplicity)") \
                    if self.k > 2 else _("--presses {n}: this board needs 1 to {most} presses")
                raise CountloError(message.format(n=presses, most=most))
            self._need_walk("--presses")
            if (self.n + 1) * (presses + 1) > MAX_TABLE:
                raise CountloError(_("--presses {n} on {cells} cells: at most {most} (cells + 1) x (presses + 1) "
                                     "here").format(n=presses, cells=self.n, most=f"{MAX_TABLE:,}"))
        if difficulty is not None:
            band(self.n, self.k, difficulty)
            self._need_walk("--difficulty")

    def _table(self, total: int) -> list[list[int]]:
        """ways[i][s]: the vectors over cells i.. with entries 0..k-1 summing to s (s <= total)."""
        if total not in self._ways:
            ways = [[0] * (total + 1) for _row in range(self.n + 1)]
            ways[self.n][0] = 1
            for i in range(self.n - 1, -1, -1):
                below, row = ways[i + 1], ways[i]
                for s in range(total + 1):
                    row[s] = sum(below[s - v] for v in range(min(self.k - 1, s) + 1))
            self._ways[total] = ways
        return self._ways[total]

    def _vector_of_total(self, total: int) -> list[int]:
        """A press vector drawn uniformly among those whose entries sum to `total`."""
        ways = self._table(total)
        x, left = [], total
        for i in range(self.n):
            pick = self.rng.randrange(ways[i][left])
            for v in range(min(self.k - 1, left) + 1):
                pick -= ways[i + 1][left - v]
                if pick < 0:
                    break
            x.append(v)
            left -= v
        return x

    def exactly(self, total: int) -> Drawn:
        """A board drawn uniformly from those whose fewest-press count is exactly `total`."""
        self.check(presses=total)
        for _try in range(TRIES):
            x = self._vector_of_total(total)
            w, m, _lightest = self.lightest(x)
            if w == total and self.rng.randrange(m) == 0:  # keep with probability 1/m
                return Drawn(self.start_of(x), x, total)
        most = self.hardest()
        if most is not None and most < total:
            raise NoSuchBoardError(_("no board needs exactly {presses} here: the hardest solvable boards "
                                     "need {most}").format(presses=presses_words(total), most=presses_words(most)))
        raise NoSuchBoardError(ngettext(
            "no board needing exactly {n} press found in {tries} tries; with {solutions} solutions a board "
            "there may be none",
            "no board needing exactly {n} presses found in {tries} tries; with {solutions} solutions a board "
            "there may be none", total).format(n=total, tries=f"{TRIES:,}", solutions=self.solutions))

    def hardest(self) -> int | None:
        """The most presses any solvable board needs when proven within a second, else None."""
        from countlo.visible.fewest_general import hardest  # noqa: PLC0415 (numpy, only on a refusal)

        try:
            h = hardest(self.board, time_limit=1.0)
        except BadSizeError:
            return None
        return h.upper if h.exact else None

    def in_band(self, difficulty: str) -> Drawn:
        """A board of this difficulty (see generate.draw_in_band)."""
        self.check(difficulty=difficulty)
        lo, hi = band(self.n, self.k, difficulty)
        return draw_in_band(difficulty, lo, hi, self.rng, self.exactly, self.uniform, None)


def _pack(v: Sequence[int]) -> int:
    return sum(1 << j for j, a in enumerate(v) if a)
