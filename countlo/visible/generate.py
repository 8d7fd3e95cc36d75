"""Random solvable boards: uniform over all of them, or over those whose fewest-press count is
exactly N, or in a difficulty band (docs/MATH.md §21).

Pressing is linear over GF(2): the lights of a press set x are A x. A uniformly random x makes
A x uniform over the image of A, i.e. over the solvable boards (each has 2^nullity press sets).
Random *sequences* of presses are not uniform (a cell pressed twice cancels, so small sets are
over-represented); a uniform subset is. For "fewest presses exactly N": draw x uniformly among
the N-press sets and keep b = A x with probability 1/m(b) when no solution of b is lighter than
N, where m(b) counts the N-press solutions of b. Each such b is then kept with probability
m(b)/binom(RC, N) * 1/m(b), the same for all, so the kept boards are uniform.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from countlo.board import Shape
from countlo.errors import BadSizeError, CountloError
from countlo.i18n import _, ngettext
from countlo.visible.engines.polynomial_chase import nullity, quiet_patterns

MAX_CELLS = 1 << 24  # 4096 x 4096: a uniform press set is one random int of that many bits
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


@dataclass(frozen=True)
class Generated:
    """One board: its lights and a fewest-press solution as rows, and the fewest-press count
    (None when not computed: plain uniform boards with nullity above MAX_NULLITY)."""

    lights: list[int]
    presses: list[int] | None
    fewest: int | None


def check_shape(shape: Shape) -> None:
    if shape.cells > MAX_CELLS:
        raise BadSizeError(_("generate makes boards of at most {most} cells (4096x4096); {shape} has {cells}").format(
            most=f"{MAX_CELLS:,}", shape=shape, cells=f"{shape.cells:,}"))


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


def coset(x: int, basis: Sequence[int]) -> tuple[int, int, int]:
    """(lightest weight, how many reach it, one lightest) over x + span(basis), Gray-code walk."""
    best_w, count, best = x.bit_count(), 1, x
    for i in range(1, 1 << len(basis)):
        x ^= basis[(i & -i).bit_length() - 1]
        w = x.bit_count()
        if w < best_w:
            best_w, count, best = w, 1, x
        elif w == best_w:
            count += 1
    return best_w, count, best


class Generator:
    """Seeded boards of one shape."""

    def __init__(self, shape: Shape, rng: random.Random):
        check_shape(shape)
        self.shape, self.rng = shape, rng
        self.nullity = nullity(shape)
        self.basis = quiet_patterns(shape) if self.nullity <= MAX_NULLITY else None

    def _need_walk(self, option: str) -> None:
        if self.basis is None:
            raise CountloError(_("{option} needs the exact fewest presses of each board, found by walking all "
                                 "2^nullity solutions; {shape} has nullity {nullity} (at most {most} here)").format(
                option=option, shape=self.shape, nullity=self.nullity, most=MAX_NULLITY))

    def _board(self, x: int, fewest: int | None, best: int | None) -> Generated:
        s = self.shape
        lights = lights_of(s, s.to_rows(x))
        return Generated(lights, None if best is None else s.to_rows(best), fewest)

    def uniform(self) -> Generated:
        """A board drawn uniformly from the solvable ones (with its fewest presses when the
        nullity allows the exact walk)."""
        x = self.rng.getrandbits(self.shape.cells)
        if self.nullity == 0:
            return self._board(x, x.bit_count(), x)
        if self.basis is None:
            return self._board(x, None, None)
        w, _count, best = coset(x, self.basis)
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
            w, m, _lightest = coset(x, self.basis)
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
