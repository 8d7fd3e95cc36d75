"""Random solvable boards on any board under any rules: uniform over all of them, or over those
whose fewest-press count is exactly N, or in a difficulty band (docs/MATH.md §21, §23).

A click on cell j adds column j of the click map A to the lights (mod k), so a start s reaches
the target t after presses x (x_j = 0..k-1 times) iff s + A x = t. A press vector x drawn
uniformly from Z_k^n gives A x uniform over the image of A (a group homomorphism pushes the
uniform distribution onto the uniform one on its image), so s = t - A x is uniform over the
starts that can reach t: the solvable boards. Random *sequences* of presses are not uniform (a
cell pressed twice cancels, so small sets are over-represented); a uniform vector is. Their
presses are x + Q, Q the quiet patterns, and the fewest-press count (with multiplicity: a cell
pressed twice counts 2) is the lightest of them.

For "fewest presses exactly N": draw x uniformly among the vectors of total N and keep s = t - A x
with probability 1/m(s) when no solution of s is lighter than N, m(s) the number of its N-press
solutions. Each such s is then kept with the same probability, so the kept boards are uniform.

`generator(board, rng, target)` gives the draws; the classic rules with a dark target keep every
board a bitset (boards up to 4096 x 4096), any other board works on vectors.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

from countlo.board import Shape, Vector, bits, values
from countlo.errors import BadSizeError, CountloError
from countlo.graph import Board, button_count
from countlo.i18n import _, ngettext
from countlo.visible import solutions
from countlo.visible.algebra.gf2 import gray_coset
from countlo.visible.engines.polynomial_chase import nullity, quiet_patterns

CLASSIC_CELLS = 1 << 24  # 4096 x 4096: a uniform press set is one random int of that many bits
MAX_CELLS = 1 << 16  # other boards: a press vector and a start of this many cells, as lists
MAX_QUIET = {2: 1 << 16}  # solutions walked per board for the exact fewest (k = 2: bitsets)
MAX_QUIET_K = 1 << 12  # k > 2: the walk builds a vector per solution
MAX_TABLE = 1 << 22  # entries of the table that draws a press vector of a given total
MAX_NULLITY = 16  # --presses/--difficulty walk all 2^nullity solutions of each candidate
TRIES = 20_000  # candidates drawn for one board before giving up on an N that may not exist

# Difficulty bands as fractions of the cell count (docs/MATH.md §21).
EASY, MEDIUM = 0.15, 0.30
DIFFICULTIES = ("easy", "medium", "hard")


def presses_words(n: int) -> str:
    """'1 press', '2 presses', in the language chosen."""
    return ngettext("{n} press", "{n} presses", n).format(n=n)


class NoSuchBoardError(CountloError):
    """No board fits the request (exit 1: a fact about the boards, not a typo)."""

    exit_code = 1


class Generated:
    """One board: its state per cell in reading order, one fewest-press solution and its press
    count (both None when the board has too many solutions to walk). A classic board keeps its
    lights and presses as bitsets (`bits`, `press_bits`) and makes the lists only when asked:
    a 4096 x 4096 board is 16 million cells."""

    __slots__ = ("_lights", "_presses", "cells", "fewest")

    def __init__(self, lights: Vector | int, presses: Vector | int | None, fewest: int | None,
                 cells: int = 0) -> None:
        self._lights, self._presses, self.fewest = lights, presses, fewest
        self.cells = cells if isinstance(lights, int) else len(lights)

    @property
    def lights(self) -> Vector:
        return values(self._lights, self.cells) if isinstance(self._lights, int) else self._lights

    @property
    def presses(self) -> Vector | None:
        if isinstance(self._presses, int):
            return values(self._presses, self.cells)
        return self._presses

    @property
    def bits(self) -> int:
        """The lights as a bitset (two states)."""
        return self._lights if isinstance(self._lights, int) else bits(self._lights)


class Generator(Protocol):
    """Seeded solvable boards of one board for one target."""

    @property
    def target(self) -> Vector: ...

    def uniform(self) -> Generated: ...

    def exactly(self, n: int) -> Generated: ...

    def in_band(self, difficulty: str) -> Generated: ...

    def check(self, presses: int | None = None, difficulty: str | None = None) -> None: ...


def generator(board: Board, rng: random.Random, target: Sequence[int] | None = None) -> Generator:
    """The draws for `board` (a Shape with its rules, or a Graph) and `target` (all dark when
    None): on bitsets for the classic rules with a dark target, on vectors otherwise."""
    dark = target is None or not any(target)
    if isinstance(board, Shape) and board.rules.classic and dark:
        return BitsetGenerator(board, rng)
    return VectorGenerator(board, rng, target)


def check_shape(shape: Shape) -> None:
    if shape.cells > CLASSIC_CELLS:
        raise BadSizeError(_("generate makes boards of at most {most} cells (4096x4096); {shape} has {cells}").format(
            most=f"{CLASSIC_CELLS:,}", shape=shape, cells=f"{shape.cells:,}"))


def lights_of(shape: Shape, presses: Sequence[int]) -> list[int]:
    """The lights A x of the press rows x, from an all-dark board: each row toggles by its own
    presses (T x_i) and those directly above and below (x_{i-1}, x_{i+1})."""
    mask = shape.row_mask
    out = []
    for i, x in enumerate(presses):
        row = (x ^ (x << 1) ^ (x >> 1)) & mask
        if i:
            row ^= presses[i - 1]
        if i + 1 < len(presses):
            row ^= presses[i + 1]
        out.append(row)
    return out


def band(shape: Shape, difficulty: str) -> tuple[int, int]:
    """(lo, hi): the fewest-press counts of a difficulty on this shape. easy: 1 to
    max(1, round(0.15 RC)); medium: from there to max(easy + 1, round(0.30 RC)); hard: above."""
    return band_of(shape.cells, difficulty, shape)


def band_of(most: int, difficulty: str, shape: Shape | None) -> tuple[int, int]:
    """(lo, hi) of a difficulty when the fewest-press counts go up to `most` (docs/MATH.md §21):
    easy 1 to max(1, round(0.15 most)), medium to max(easy + 1, round(0.30 most)), hard above.
    `shape` names the board in the refusal (None: 'this board')."""
    easy = max(1, round(EASY * most))
    medium = max(easy + 1, round(MEDIUM * most))
    lo, hi = {"easy": (1, easy), "medium": (easy + 1, medium), "hard": (medium + 1, most)}[
        difficulty]
    if lo > most:
        message = _("this board has no {difficulty} boards: the fewest presses of its boards go up to at most "
                    "{most}") if shape is None else \
            _("a {shape} board has no {difficulty} boards: the fewest presses of its boards go up to at most {most}")
        raise NoSuchBoardError(message.format(shape=shape, difficulty=difficulty, most=most))
    return lo, min(hi, most)


class _Drawn(Protocol):
    @property
    def fewest(self) -> int | None: ...


D = TypeVar("D", bound=_Drawn)


def draw_in_band(difficulty: str, lo: int, hi: int, rng: random.Random, exactly: Callable[[int], D],
                 uniform: Callable[[], D], shape: Shape | None) -> D:
    """easy, medium: the fewest-press count drawn uniformly in [lo, hi], then a board uniformly
    among those with that count. hard: uniform over the solvable boards whose fewest-press count
    is in the band (most random boards are hard). `shape` names the board in the refusal."""
    if difficulty != "hard":
        return exactly(rng.randint(lo, hi))
    for _try in range(TRIES):
        g = uniform()
        assert g.fewest is not None
        if lo <= g.fewest <= hi:
            return g
    message = _("no hard board (fewest presses {lo} or more) found in {tries} tries") if shape is None else \
        _("no hard {shape} board (fewest presses {lo} or more) found in {tries} tries")
    raise NoSuchBoardError(message.format(shape=shape, lo=lo, tries=f"{TRIES:,}"))


class BitsetGenerator:
    """Seeded boards of one shape under the classic rules, drawn and walked as bitsets."""

    def __init__(self, shape: Shape, rng: random.Random):
        check_shape(shape)
        self.shape, self.rng = shape, rng
        self.target = [0] * shape.cells
        self.nullity = nullity(shape)
        self.basis = quiet_patterns(shape) if self.nullity <= MAX_NULLITY else None

    def _need_walk(self, option: str) -> None:
        if self.basis is None:
            raise CountloError(_("{option} needs the exact fewest presses of each board, found by walking all "
                                 "2^nullity solutions; {shape} has nullity {nullity} (at most {most} here)").format(
                option=option, shape=self.shape, nullity=self.nullity, most=MAX_NULLITY))

    def _board(self, x: int, fewest: int | None, best: int | None) -> Generated:
        s = self.shape
        lights = s.from_rows(lights_of(s, s.to_rows(x)))
        return Generated(lights, best, fewest, s.cells)

    def uniform(self) -> Generated:
        """A board drawn uniformly from the solvable ones (with its fewest presses when the
        nullity allows the exact walk)."""
        x = self.rng.getrandbits(self.shape.cells)
        if self.nullity == 0:
            return self._board(x, x.bit_count(), x)
        if self.basis is None:
            return self._board(x, None, None)
        w, _count, best = gray_coset(x, self.basis)
        return self._board(x, w, best)

    def check(self, presses: int | None = None, difficulty: str | None = None) -> None:
        """Refuse up front what `exactly(presses)` / `in_band(difficulty)` cannot do."""
        if presses is not None:
            if not 1 <= presses <= self.shape.cells:
                raise CountloError(_("--presses {n}: a {shape} board needs 1 to {cells} presses").format(
                    n=presses, shape=self.shape, cells=self.shape.cells))
            if self.nullity:
                self._need_walk("--presses")
        if difficulty is not None:
            band(self.shape, difficulty)
            if self.nullity:
                self._need_walk("--difficulty")

    def exactly(self, n: int) -> Generated:
        """A board drawn uniformly from those whose fewest-press count is exactly n."""
        cells = self.shape.cells
        self.check(presses=n)
        for _try in range(TRIES):
            x = sum(1 << k for k in self.rng.sample(range(cells), n))
            if self.nullity == 0:
                return self._board(x, n, x)  # one solution: its size is the fewest
            assert self.basis is not None
            w, m, _lightest = gray_coset(x, self.basis)
            if w == n and self.rng.randrange(m) == 0:  # keep with probability 1/m
                return self._board(x, n, x)
        most = self.hardest()
        if most is not None and most < n:
            raise NoSuchBoardError(_("no {shape} board needs exactly {presses}: the hardest solvable boards "
                                     "need {most}").format(shape=self.shape, presses=presses_words(n),
                                                           most=presses_words(most)))
        raise NoSuchBoardError(ngettext(
            "no {shape} board needing exactly {n} press found in {tries} tries; with nullity {nullity} there "
            "may be none (quiet patterns make every board clearable with fewer)",
            "no {shape} board needing exactly {n} presses found in {tries} tries; with nullity {nullity} there "
            "may be none (quiet patterns make every board clearable with fewer)", n).format(
                shape=self.shape, n=n, tries=f"{TRIES:,}", nullity=self.nullity))

    def hardest(self) -> int | None:
        """The most presses any solvable board needs when proven within a second, else None."""
        from countlo.visible.algebra.covering_radius import hardest  # noqa: PLC0415 (numpy, only on a refusal)

        assert self.basis is not None
        try:
            h = hardest(self.basis, self.shape.cells, time_limit=1.0)
        except BadSizeError:
            return None
        return h.upper if h.exact else None

    def in_band(self, difficulty: str) -> Generated:
        """A board of this difficulty (see draw_in_band)."""
        self.check(difficulty=difficulty)
        lo, hi = band(self.shape, difficulty)
        return draw_in_band(difficulty, lo, hi, self.rng, self.exactly, self.uniform, self.shape)


def rules_band(cells: int, k: int, difficulty: str) -> tuple[int, int]:
    """(lo, hi) fewest-press counts of a difficulty: the classic bands (§21) scaled by the most
    presses a board can need counted with multiplicity, M = (k - 1) cells."""
    return band_of((k - 1) * cells, difficulty, None)


class VectorGenerator:
    """Seeded solvable boards of one board (a Shape with its rules, or a Graph) for one target,
    drawn and walked as vectors."""

    def __init__(self, board: Board, rng: random.Random, target: Sequence[int] | None = None):
        if board.cells > MAX_CELLS:
            raise BadSizeError(_("generate under other rules makes boards of at most {most} cells; {board} has "
                                 "{cells}").format(most=f"{MAX_CELLS:,}", board=board, cells=f"{board.cells:,}"))
        self.board, self.rng = board, rng
        self.k = solutions.states(board)
        self.n = button_count(board)  # the press variables: a press map's buttons, else the cells
        self.target = list(target) if target is not None else [0] * board.cells
        solutions.check_vector(board, self.target, "the target")
        self.orders = solutions.orders(board)
        self.solutions = math.prod(self.orders)
        limit = MAX_QUIET.get(self.k, MAX_QUIET_K)
        self.gens = solutions.quiet(board) if self.solutions <= limit else None
        self._ways: dict[int, list[list[int]]] = {}

    # --- one board from a press vector ---------------------------------------------------
    def start_of(self, x: Sequence[int]) -> list[int]:
        """t - A x: the start that x presses turn into the target."""
        ax = solutions.apply(self.board, [0] * self.board.cells, x)
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
            w, m, bits = gray_coset(_pack(x), [_pack(g) for g, _order in self.gens])
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
    def uniform(self) -> Generated:
        """A board drawn uniformly from the solvable ones (with its fewest presses when its
        solutions can be walked)."""
        x = [self.rng.randrange(self.k) for _cell in range(self.n)]
        start = self.start_of(x)
        if self.gens is None:
            return Generated(start, None, None)
        w, _count, best = self.lightest(x)
        return Generated(start, best, w)

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
            rules_band(self.n, self.k, difficulty)
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

    def exactly(self, total: int) -> Generated:
        """A board drawn uniformly from those whose fewest-press count is exactly `total`."""
        self.check(presses=total)
        for _try in range(TRIES):
            x = self._vector_of_total(total)
            w, m, _lightest = self.lightest(x)
            if w == total and self.rng.randrange(m) == 0:  # keep with probability 1/m
                return Generated(self.start_of(x), x, total)
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
        from countlo.visible.hardest import hardest  # noqa: PLC0415 (numpy, only on a refusal)

        try:
            h = hardest(self.board, time_limit=1.0)
        except BadSizeError:
            return None
        return h.upper if h.exact else None

    def in_band(self, difficulty: str) -> Generated:
        """A board of this difficulty (see generate.draw_in_band)."""
        self.check(difficulty=difficulty)
        lo, hi = rules_band(self.n, self.k, difficulty)
        return draw_in_band(difficulty, lo, hi, self.rng, self.exactly, self.uniform, None)


def _pack(v: Sequence[int]) -> int:
    return sum(1 << j for j, a in enumerate(v) if a)
